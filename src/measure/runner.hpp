// The exchange of `measure`, `matrix`, `variants` and `report`: the ping-pong of
// ping_pong.hpp for a fixed number of rounds, every round kept.
//
// Each thread writes only its own preallocated, pre-faulted buffers (a: t1, t4; b: t2,
// t3); they are merged by round index after join() (pair_run.hpp). At each chunk edge
// each thread takes a ThreadSnapshot (context switches, CPU), from which the run's
// interference flags are made.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "measure/ping_pong.hpp"
#include "measure/slot.hpp"
#include "measure/transport.hpp"
#include "platform/affinity.hpp"

namespace tscaudit {

/// The error of a run ended by ExchangeConfig::stop.
inline constexpr const char* kInterruptedError = "interrupted";

struct ExchangeConfig : PairConfig {
  std::uint64_t rounds = 0;  // measured rounds (after warm-up)
  std::uint64_t warmup = 0;  // rounds before them, run the same way and discarded
  /// When set, a non-zero value (a signal caught) ends the run at the next chunk edge, with
  /// the error kInterruptedError: the rounds done are kept as an interrupted run's.
  const std::atomic<int>* stop = nullptr;
  /// When set (not the epoch), the initiator ends the run at its first chunk edge at or past
  /// this time, with no error: the rounds done are a complete visit of fewer rounds (a plan
  /// that must end within its budget, docs/machine.md §10.1). Warm-up rounds count too.
  std::chrono::steady_clock::time_point deadline{};

  [[nodiscard]] std::uint64_t total_rounds() const { return warmup + rounds; }
  [[nodiscard]] std::size_t chunk_edges() const {
    return static_cast<std::size_t>((total_rounds() + kChunkRounds - 1) / kChunkRounds + 1);
  }
};

/// What one thread recorded. Owned and written by that thread only until join().
struct SideRecord : SideOutcome {
  std::vector<std::uint64_t> first;   // a: t1, b: t2; one per round, warm-up included
  std::vector<std::uint64_t> second;  // a: t4, b: t3
  std::vector<ThreadSnapshot> edges;  // at the start of each chunk, and one after the last round
  std::uint64_t payload_sum = 0;      // wrapping sum of the TSC values received
  bool deadline_reached = false;      // a: the run ended at ExchangeConfig::deadline, complete
};

/// Both sides after join(). `error` is the first side's error, empty for a complete run.
struct ExchangeResult {
  SideRecord a;
  SideRecord b;
  std::string error;
  [[nodiscard]] bool complete() const { return error.empty(); }
};

namespace detail {

/// Either side of the exchange (ping_pong.hpp's side policy): rounds into the buffers,
/// a snapshot at every chunk edge.
class RecordingSide {
 public:
  static constexpr bool kCheckCpuInWait = false;  // a migration is flagged per chunk, not fatal
  using Reply = Message;

  RecordingSide(const ExchangeConfig& config, SideRecord& record, bool initiator)
      : config_(config), record_(record), initiator_(initiator) {}

  SideOutcome& outcome() { return record_; }
  bool prepare() {
    // Value initialization writes every page, so no page fault is left for the hot loop.
    record_.first.assign(config_.total_rounds(), 0);
    record_.second.assign(config_.total_rounds(), 0);
    record_.edges.assign(config_.chunk_edges(), ThreadSnapshot{});
    first_ = record_.first.data();
    second_ = record_.second.data();
    return true;
  }
  [[gnu::always_inline]] bool more(std::uint64_t i) const { return i < config_.total_rounds(); }
  bool at_chunk_edge(std::uint64_t i) {
    record_.edges[i / kChunkRounds] = take_snapshot();
    if (config_.stop != nullptr && config_.stop->load(std::memory_order_relaxed) != 0) [[unlikely]] {
      record_.error = kInterruptedError;
      return false;
    }
    // Only the initiator ends a run by time: it knows the round, and the responder then
    // stops at the owner's stop (ping_pong::initiate), never in the middle of a round.
    if (initiator_ && config_.deadline != std::chrono::steady_clock::time_point{} &&
        std::chrono::steady_clock::now() >= config_.deadline) [[unlikely]] {
      record_.deadline_reached = true;
      return false;
    }
    return true;
  }
  /// a: t1 and t4, and t3 (the reply's payload) into the checksum.
  [[gnu::always_inline]] void record(std::uint64_t i, std::uint64_t t1, const Message& reply, std::uint64_t t4) {
    first_[i] = t1;
    second_[i] = t4;
    payload_sum_ += reply.tsc;
  }
  /// b: t2 and t3, and t1 (the request's payload) into the checksum.
  [[gnu::always_inline]] static Message reply(std::uint64_t seq, std::uint64_t /*t2*/, std::uint64_t t3) {
    return Message{seq, t3};
  }
  [[gnu::always_inline]] void record(std::uint64_t i, std::uint64_t t2, std::uint64_t t3, const Message& request) {
    first_[i] = t2;
    second_[i] = t3;
    payload_sum_ += request.tsc;
  }
  void finish(std::uint64_t /*rounds_done*/) {
    if (!record_.edges.empty()) record_.edges.back() = take_snapshot();
    record_.payload_sum = payload_sum_;
  }

 private:
  const ExchangeConfig& config_;
  SideRecord& record_;
  bool initiator_ = false;
  std::uint64_t* first_ = nullptr;  // record_.first.data(), once prepare() sized it
  std::uint64_t* second_ = nullptr;
  std::uint64_t payload_sum_ = 0;
};

/// One side's loop, in role a or b, on the calling thread, over its transport. The only
/// templates of the exchange: everything around them (threads, transport, control, result)
/// is plain code, once (runner.cpp).
template <class Send, class Recv, class Wait, class TransportT>
void initiate_on(const ExchangeConfig& config, void* transport, PairControl& control, SideRecord& record) {
  RecordingSide side(config, record, true);
  ping_pong::initiate<Send, Recv, Wait>(config, *static_cast<TransportT*>(transport), control, side);
}
template <class Send, class Recv, class Wait, class TransportT>
void respond_on(const ExchangeConfig& config, void* transport, PairControl& control, SideRecord& record) {
  RecordingSide side(config, record, false);
  ping_pong::respond<Send, Recv, Wait>(config, *static_cast<TransportT*>(transport), control, side);
}

}  // namespace detail

/// One side's loop as a plain function: `transport` points to the TransportT it was made for.
using SideLoop = void (*)(const ExchangeConfig& config, void* transport, PairControl& control, SideRecord& record);

/// The two loops of one (Send, Recv, TransportT, Wait): what exchange.cpp's tables hold, the
/// way google/benchmark keeps each template instantiation as a function pointer.
struct SideLoops {
  SideLoop initiate = nullptr;
  SideLoop respond = nullptr;
};

template <class Send, class Recv, class TransportT, class Wait>
constexpr SideLoops side_loops() {
  return {&detail::initiate_on<Send, Recv, Wait, TransportT>, &detail::respond_on<Send, Recv, Wait, TransportT>};
}

/// Runs one exchange on two new threads pinned to config.cpu_a and config.cpu_b, and
/// joins them. Never hangs: a side that stops answering ends the run after
/// config.timeout, with ExchangeResult::error saying which CPU and which round.
/// \pre the CPUs were validated (cpu_problem), `transport` is a fresh transport of the type
/// `loops` were made for, and the variants are supported here.
ExchangeResult run_exchange_with(SideLoops loops, void* transport, const ExchangeConfig& config);

/// Two exchanges back to back on the same two pinned threads: `first.rounds` rounds with
/// loops[0], then `second.rounds` with loops[1]. Each phase has its own fresh transport
/// (its sequence numbers start again at 1) and its own start barrier, so the second begins
/// only when both threads are ready for it; the threads, their CPUs and their caches stay.
/// This is the run whose time series shows what changing the receive read does, with
/// nothing else changed. A phase-1 failure skips phase 2 (its error then says the partner
/// failed). \pre as run_exchange_with, for each phase; first and second name the same CPUs.
std::array<ExchangeResult, 2> run_switching_exchange(const std::array<SideLoops, 2>& loops,
                                                     const std::array<void*, 2>& transports,
                                                     const ExchangeConfig& first, const ExchangeConfig& second);

/// run_exchange_with for one compile-time choice, on a new TransportT: for tests and
/// benchmarks that name their own types (the commands go through exchange.hpp).
template <class Send, class Recv, class TransportT, class Wait>
ExchangeResult run_exchange(const ExchangeConfig& config) {
  // Heap-allocated: the transports are over-aligned, and keeping them off the main
  // thread's stack keeps them away from anything else it writes.
  auto transport = std::make_unique<TransportT>();
  return run_exchange_with(side_loops<Send, Recv, TransportT, Wait>(), transport.get(), config);
}

}  // namespace tscaudit
