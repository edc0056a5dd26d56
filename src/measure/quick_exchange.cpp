#include "measure/quick_exchange.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <thread>

#include "estimate/band_settling.hpp"
#include "estimate/quantum.hpp"
#include "measure/slot.hpp"
#include "measure/wait.hpp"
#include "platform/affinity.hpp"

namespace tscaudit {
namespace {

/// The stamp of a's last request: "answer this one, then stop". No counter reaches it
/// (2^64 - 1 ticks are centuries at any frequency).
constexpr std::uint64_t kQuickStopStamp = std::numeric_limits<std::uint64_t>::max();

struct QuickTransport {
  alignas(kFalseSharingBytes) Slot a_to_b;       // written by a, read by b
  alignas(kFalseSharingBytes) ReplySlot b_to_a;  // written by b, read by a
};

/// a: keeps whole rounds, judges the band after each block, and tells b when it is done.
class QuickInitiator {
 public:
  static constexpr bool kCheckCpuInWait = false;
  using Reply = tscaudit::Reply;

  QuickInitiator(const QuickPairConfig& config, QuickTransport& transport, QuickPairResult& result,
                 SideOutcome& outcome)
      : config_(config),
        transport_(transport),
        result_(result),
        outcome_(outcome),
        settling_(config.min_blocks),
        total_(config.warmup + config.max_rounds) {}

  SideOutcome& outcome() { return outcome_; }
  bool prepare() {
    rounds_.assign(total_, Round{});  // written once: no page fault is left for the loop
    return true;
  }
  [[gnu::always_inline]] bool more(std::uint64_t i) {
    if (i >= total_) return false;
    if (i <= config_.warmup || ((i - config_.warmup) % kQuickBlockRounds) != 0) return true;
    return !block_done();
  }
  static bool at_chunk_edge(std::uint64_t /*i*/) { return true; }
  [[gnu::always_inline]] void record(std::uint64_t i, std::uint64_t t1, const Reply& reply, std::uint64_t t4) {
    rounds_[i] = Round(i, t1, reply.t2, reply.t3, t4);
    if (i < config_.warmup) return;
    // The one-way bounds as differences modulo 2^64 (counters of one machine are close).
    min_u_ = std::min(min_u_, static_cast<std::int64_t>(reply.t2 - t1));
    max_l_ = std::max(max_l_, static_cast<std::int64_t>(reply.t3 - t4));
  }
  void finish(std::uint64_t rounds_done) {
    transport_.a_to_b.send(Message{rounds_done + 1, kQuickStopStamp});
    const std::uint64_t first = std::min(rounds_done, config_.warmup);
    result_.rounds.reserve(rounds_done - first);
    for (std::uint64_t i = first; i < rounds_done; ++i) {
      const Round& r = rounds_[i];
      result_.rounds.emplace_back(i - first, r.t1, r.t2, r.t3, r.t4);
    }
    result_.settled = settling_.settled();
    std::vector<Round>().swap(rounds_);
  }

 private:
  /// After a block: true when the band settled or the deadline passed.
  bool block_done() {
    const double width = static_cast<double>(min_u_) - static_cast<double>(max_l_);
    if (settling_.add_block(width)) return true;
    return std::chrono::steady_clock::now() >= config_.deadline;
  }

  const QuickPairConfig& config_;
  QuickTransport& transport_;
  QuickPairResult& result_;
  SideOutcome& outcome_;
  BandSettling settling_;
  std::uint64_t total_;
  std::vector<Round> rounds_;
  std::int64_t min_u_ = std::numeric_limits<std::int64_t>::max();
  std::int64_t max_l_ = std::numeric_limits<std::int64_t>::min();
};

/// b: answers with both stamps until it has answered a's stop request.
class QuickResponder {
 public:
  static constexpr bool kCheckCpuInWait = false;

  explicit QuickResponder(SideOutcome& outcome) : outcome_(outcome) {}
  SideOutcome& outcome() { return outcome_; }
  static bool prepare() { return true; }
  [[gnu::always_inline]] bool more(std::uint64_t /*i*/) const { return !stop_; }
  static bool at_chunk_edge(std::uint64_t /*i*/) { return true; }
  [[gnu::always_inline]] static Reply reply(std::uint64_t seq, std::uint64_t t2, std::uint64_t t3) {
    return Reply{seq, t3, t2};
  }
  [[gnu::always_inline]] void record(std::uint64_t /*i*/, std::uint64_t /*t2*/, std::uint64_t /*t3*/,
                                     const Message& request) {
    stop_ = request.tsc == kQuickStopStamp;
  }
  static void finish(std::uint64_t /*rounds_done*/) {}

 private:
  SideOutcome& outcome_;
  bool stop_ = false;
};

/// Everything one pair's two threads share, on the heap: the transport and control are
/// over-aligned, away from anything else.
struct PairState {
  QuickTransport transport;
  PairControl control;
  SideOutcome a;
  SideOutcome b;
};

template <class Send, class Recv>
void initiate(const QuickPairConfig& config, PairState& s, QuickPairResult& result) {
  QuickInitiator side(config, s.transport, result, s.a);
  ping_pong::initiate<Send, Recv, SpinWait>(config, s.transport, s.control, side);
}

template <class Send, class Recv>
void respond(const QuickPairConfig& config, PairState& s) {
  QuickResponder side(s.b);
  ping_pong::respond<Send, Recv, SpinWait>(config, s.transport, s.control, side);
}

}  // namespace

std::vector<QuickPairResult> run_quick_slot(const std::vector<QuickPairConfig>& pairs, Variant send, Variant recv) {
  std::vector<QuickPairResult> results(pairs.size());
  std::vector<std::unique_ptr<PairState>> states;
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    states.push_back(std::make_unique<PairState>());
    results[p].a = pairs[p].cpu_a;
    results[p].b = pairs[p].cpu_b;
  }
  visit_variant(send, [&]<class Send>(Send /*unused*/) {
    visit_variant(recv, [&]<class Recv>(Recv /*unused*/) {
      std::vector<std::jthread> threads;
      threads.reserve(2 * pairs.size());
      try {
        for (std::size_t p = 0; p < pairs.size(); ++p) {
          // A caller's real-time policy is not inherited: the threads spin (affinity.hpp).
          threads.emplace_back([&, p] {
            use_normal_scheduling();
            respond<Send, Recv>(pairs[p], *states[p]);
          });
          threads.emplace_back([&, p] {
            use_normal_scheduling();
            initiate<Send, Recv>(pairs[p], *states[p], results[p]);
          });
        }
      } catch (...) {
        // A thread that could not be started: the pairs already running are told to stop
        // before the jthreads join them.
        for (auto& s : states) s->control.abort.store(true);
        throw;
      }
    });
  });
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    const PairState& s = *states[p];
    QuickPairResult& r = results[p];
    r.error = first_error(s.a, s.b);
    r.pinning_refused = !r.error.empty() && (!s.a.pinned || !s.b.pinned);
    r.quantum_ticks =
        std::max(estimate_quantum(s.a.quantum_reads).quantum_ticks, estimate_quantum(s.b.quantum_reads).quantum_ticks);
  }
  return results;
}

}  // namespace tscaudit
