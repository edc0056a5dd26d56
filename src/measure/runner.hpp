// The exchange between one ordered pair of CPUs: a initiates, b responds.
//
// One round (RFC 5905 numbering):
//   a: t1 = Send::read(); send(seq, t1) ─────────►  b: wait; t2 = Recv::read()
//                                                    b: t3 = Send::read(); send(seq, t3)
//   a: wait; t4 = Recv::read()  ◄──────────────────
//
// Each thread writes only its own preallocated, pre-faulted buffers (a: t1, t4;
// b: t2, t3); they are merged by round index after join(). The hot loop allocates
// nothing, does no I/O and no system call, except at chunk edges (every kChunkRounds
// rounds), where each thread takes a ThreadSnapshot: a between two rounds, b inside its
// turnaround (between t2 and t3, which rtt subtracts), so no one-way latency pays for it.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "measure/slot.hpp"
#include "measure/transport.hpp"
#include "platform/affinity.hpp"
#include "platform/tsc.hpp"

namespace tscsync {

/// Rounds per interference chunk. A power of two (the edge test is a mask).
inline constexpr std::uint64_t kChunkRounds = 4096;
static_assert((kChunkRounds & (kChunkRounds - 1)) == 0);

/// How long a thread that is ready waits for its partner to be ready, beyond the timeout.
inline constexpr std::chrono::seconds kStartAllowance{60};

/// Back-to-back reads each thread makes on its CPU before the run, for the quantum.
inline constexpr std::size_t kQuantumReads = 1u << 16;

struct ExchangeConfig {
  int cpu_a = 0;                            // initiator
  int cpu_b = 1;                            // responder
  std::uint64_t rounds = 0;                 // measured rounds (after warm-up)
  std::uint64_t warmup = 0;                 // rounds before them, run the same way and discarded
  std::chrono::milliseconds timeout{2000};  // a's longest wait for a reply (b waits twice this)

  [[nodiscard]] std::uint64_t total_rounds() const { return warmup + rounds; }
  [[nodiscard]] std::size_t chunk_edges() const {
    return static_cast<std::size_t>((total_rounds() + kChunkRounds - 1) / kChunkRounds + 1);
  }
};

/// What one thread recorded. Owned and written by that thread only until join().
struct SideRecord {
  std::vector<std::uint64_t> first;          // a: t1, b: t2; one per round, warm-up included
  std::vector<std::uint64_t> second;         // a: t4, b: t3
  std::vector<ThreadSnapshot> edges;         // at the start of each chunk, and one after the last round
  std::vector<std::uint64_t> quantum_reads;  // back-to-back lfence;rdtsc reads before the run
  std::uint64_t rounds_done = 0;             // rounds this side completed
  std::uint64_t payload_sum = 0;             // wrapping sum of the TSC values received
  std::string error;                         // why this side stopped early; empty if it did not
  bool stopped_by_partner = false;           // it stopped only because the other side failed
};

/// Both sides after join(). `error` is the first side's error, empty for a complete run.
struct ExchangeResult {
  SideRecord a;
  SideRecord b;
  std::string error;
  [[nodiscard]] bool complete() const { return error.empty(); }
};

namespace detail {

/// Shared control words, on their own block: touched only outside the hot path.
struct alignas(kFalseSharingBytes) Control {
  std::atomic<int> ready{0};       // threads that finished setup
  std::atomic<bool> abort{false};  // a side failed: the other stops at its next check
};

enum class WaitOutcome { received, aborted, timed_out };

/// Waits for a message other than `last_seq` on `channel`. Checks the abort flag and the
/// clock once every Wait::kCheckMask + 1 relax() calls; `timeout` counts from the first
/// check, so the real limit is between timeout and timeout plus one check period.
template <class Wait, class Channel>
[[gnu::always_inline]] inline WaitOutcome wait_for(Channel& channel, std::uint64_t last_seq, Message& out,
                                                   Control& control, std::chrono::nanoseconds timeout) noexcept {
  std::uint32_t spins = 0;
  std::chrono::steady_clock::time_point since{};
  while (!channel.try_receive(last_seq, out)) {
    Wait::relax();
    if ((++spins & Wait::kCheckMask) == 0) [[unlikely]] {
      if (control.abort.load(std::memory_order_relaxed)) return WaitOutcome::aborted;
      const auto now = std::chrono::steady_clock::now();  // vDSO: no system call
      if (since == std::chrono::steady_clock::time_point{}) {
        since = now;
      } else if (now - since > timeout) {
        return WaitOutcome::timed_out;
      }
    }
  }
  return WaitOutcome::received;
}

/// Setup shared by both threads: pin, allocate and pre-fault, read the quantum, then wait
/// for the partner. \returns false (with side.error set or abort seen) if the run is off.
inline bool setup_side(int cpu, const ExchangeConfig& config, SideRecord& side, Control& control) {
  try {
    pin_this_thread(cpu);
    // Allocated here, after pinning, so the pages are local to this CPU; value
    // initialization writes every page, so no page fault is left for the hot loop.
    side.first.assign(config.total_rounds(), 0);
    side.second.assign(config.total_rounds(), 0);
    side.edges.assign(config.chunk_edges(), ThreadSnapshot{});
    side.quantum_reads.assign(kQuantumReads, 0);
  } catch (const std::exception& e) {
    side.error = e.what();
    control.abort.store(true);
    return false;
  }
  for (auto& r : side.quantum_reads) r = tsc::LfenceRdtsc::read();
  control.ready.fetch_add(1);
  // The partner may still be pre-faulting hundreds of MB: the start allows far more than
  // a reply does. A partner that failed its setup sets abort and ends this wait at once.
  const auto start_limit = kStartAllowance + config.timeout;
  const auto start = std::chrono::steady_clock::now();
  while (control.ready.load() < 2) {
    if (control.abort.load()) {
      side.stopped_by_partner = true;
      side.error = "CPU " + std::to_string(cpu) + " stopped before the first round because its partner failed";
      return false;
    }
    if (std::chrono::steady_clock::now() - start > start_limit) {
      side.error = "CPU " + std::to_string(cpu) + ": the partner thread did not start within " +
                   std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(start_limit).count()) + " ms";
      control.abort.store(true);
      return false;
    }
    std::this_thread::yield();
  }
  return true;
}

inline void wait_error(SideRecord& side, WaitOutcome outcome, int waiter, int partner, std::uint64_t round,
                       std::chrono::milliseconds timeout) {
  if (outcome == WaitOutcome::aborted) {
    side.stopped_by_partner = true;
    side.error =
        "CPU " + std::to_string(waiter) + " stopped at round " + std::to_string(round) + " because its partner failed";
    return;
  }
  side.error = "CPU " + std::to_string(partner) + " stopped answering: CPU " + std::to_string(waiter) +
               " waited more than " + std::to_string(timeout.count()) + " ms at round " + std::to_string(round);
}

inline std::string seq_error(int cpu, std::uint64_t expected, std::uint64_t got) {
  return "sequence broken on CPU " + std::to_string(cpu) + ": expected message " + std::to_string(expected) +
         ", received " + std::to_string(got);
}

template <class Send, class Recv, class Wait, class TransportT>
void initiate(const ExchangeConfig& config, TransportT& transport, Control& control, SideRecord& side) {
  if (!setup_side(config.cpu_a, config, side, control)) return;
  const std::uint64_t total = config.total_rounds();
  std::uint64_t* const t1s = side.first.data();
  std::uint64_t* const t4s = side.second.data();
  std::uint64_t payload_sum = 0;
  std::uint64_t last_seq = 0;
  std::uint64_t i = 0;
  Message reply{};
  for (; i < total; ++i) {
    if ((i & (kChunkRounds - 1)) == 0) [[unlikely]]
      side.edges[i / kChunkRounds] = take_snapshot();
    const std::uint64_t seq = i + 1;
    const std::uint64_t t1 = Send::read();
    transport.a_to_b.send(Message{seq, t1});
    const WaitOutcome outcome = wait_for<Wait>(transport.b_to_a, last_seq, reply, control, config.timeout);
    if (outcome != WaitOutcome::received) [[unlikely]] {
      wait_error(side, outcome, config.cpu_a, config.cpu_b, i, config.timeout);
      break;
    }
    const std::uint64_t t4 = Recv::read();
    last_seq = reply.seq;
    if (reply.seq != seq) [[unlikely]] {
      side.error = seq_error(config.cpu_a, seq, reply.seq);
      break;
    }
    t1s[i] = t1;
    t4s[i] = t4;
    payload_sum += reply.tsc;
  }
  side.edges.back() = take_snapshot();
  side.rounds_done = i;
  side.payload_sum = payload_sum;
  if (!side.error.empty()) control.abort.store(true);
}

template <class Send, class Recv, class Wait, class TransportT>
void respond(const ExchangeConfig& config, TransportT& transport, Control& control, SideRecord& side) {
  if (!setup_side(config.cpu_b, config, side, control)) return;
  const std::uint64_t total = config.total_rounds();
  std::uint64_t* const t2s = side.first.data();
  std::uint64_t* const t3s = side.second.data();
  std::uint64_t payload_sum = 0;
  std::uint64_t last_seq = 0;
  std::uint64_t i = 0;
  Message request{};
  for (; i < total; ++i) {
    const std::uint64_t seq = i + 1;
    // b waits twice as long as a: when b is the one that stopped, a reports it (a knows
    // the round); b reports only an initiator that stopped.
    const WaitOutcome outcome = wait_for<Wait>(transport.a_to_b, last_seq, request, control, 2 * config.timeout);
    if (outcome != WaitOutcome::received) [[unlikely]] {
      wait_error(side, outcome, config.cpu_b, config.cpu_a, i, 2 * config.timeout);
      break;
    }
    const std::uint64_t t2 = Recv::read();
    last_seq = request.seq;
    if (request.seq != seq) [[unlikely]] {
      side.error = seq_error(config.cpu_b, seq, request.seq);
      break;
    }
    // Inside the turnaround (t3 - t2), which rtt subtracts: no latency pays for it.
    if ((i & (kChunkRounds - 1)) == 0) [[unlikely]]
      side.edges[i / kChunkRounds] = take_snapshot();
    const std::uint64_t t3 = Send::read();
    transport.b_to_a.send(Message{seq, t3});
    t2s[i] = t2;
    t3s[i] = t3;
    payload_sum += request.tsc;
  }
  side.edges.back() = take_snapshot();
  side.rounds_done = i;
  side.payload_sum = payload_sum;
  if (!side.error.empty()) control.abort.store(true);
}

}  // namespace detail

/// Runs one exchange on two new threads pinned to config.cpu_a and config.cpu_b, and
/// joins them. Never hangs: a side that stops answering ends the run after
/// config.timeout, with ExchangeResult::error saying which CPU and which round.
/// \pre the CPUs were validated (cpu_problem) and the variants are supported here.
template <class Send, class Recv, class TransportT, class Wait>
ExchangeResult run_exchange(const ExchangeConfig& config) {
  // Heap-allocated: the transports are over-aligned, and keeping them off the main
  // thread's stack keeps them away from anything else it writes.
  auto transport = std::make_unique<TransportT>();
  auto control = std::make_unique<detail::Control>();
  ExchangeResult result;
  std::thread responder([&] { detail::respond<Send, Recv, Wait>(config, *transport, *control, result.b); });
  std::thread initiator([&] { detail::initiate<Send, Recv, Wait>(config, *transport, *control, result.a); });
  initiator.join();
  responder.join();
  // The side that failed first explains the failure; the other only saw the abort.
  result.error = !result.a.error.empty() && !result.a.stopped_by_partner ? result.a.error
                 : !result.b.error.empty()                               ? result.b.error
                                                                         : result.a.error;
  return result;
}

/// Two exchanges back to back on the same two pinned threads: `first.rounds` rounds with
/// (Send, Recv1), then `second.rounds` with (Send, Recv2). Each phase has its own fresh
/// transport (its sequence numbers start again at 1) and its own start barrier, so the
/// second begins only when both threads are ready for it; the threads, their CPUs and
/// their caches stay. This is the run whose time series shows what changing the receive
/// read does, with nothing else changed. A phase-1 failure skips phase 2 (its error then
/// says the partner failed). \pre as run_exchange; first and second name the same CPUs.
template <class Send, class Recv1, class Recv2, class TransportT, class Wait>
std::array<ExchangeResult, 2> run_switching_exchange(const ExchangeConfig& first, const ExchangeConfig& second) {
  std::array<std::unique_ptr<TransportT>, 2> transports{std::make_unique<TransportT>(), std::make_unique<TransportT>()};
  std::array<std::unique_ptr<detail::Control>, 2> controls{std::make_unique<detail::Control>(),
                                                           std::make_unique<detail::Control>()};
  std::array<ExchangeResult, 2> results;
  std::thread responder([&] {
    detail::respond<Send, Recv1, Wait>(first, *transports[0], *controls[0], results[0].b);
    if (!results[0].b.error.empty()) {
      controls[1]->abort.store(true);  // the partner may be waiting at phase 2's barrier
      results[1].b.error = "skipped: the first phase failed";
      return;
    }
    detail::respond<Send, Recv2, Wait>(second, *transports[1], *controls[1], results[1].b);
  });
  std::thread initiator([&] {
    detail::initiate<Send, Recv1, Wait>(first, *transports[0], *controls[0], results[0].a);
    if (!results[0].a.error.empty()) {
      controls[1]->abort.store(true);
      results[1].a.error = "skipped: the first phase failed";
      return;
    }
    detail::initiate<Send, Recv2, Wait>(second, *transports[1], *controls[1], results[1].a);
  });
  initiator.join();
  responder.join();
  for (ExchangeResult& result : results) {
    result.error = !result.a.error.empty() && !result.a.stopped_by_partner ? result.a.error
                   : !result.b.error.empty()                               ? result.b.error
                                                                           : result.a.error;
  }
  return results;
}

}  // namespace tscsync
