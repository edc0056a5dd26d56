// The measuring threads of `tscaudit monitor`: the ping-pong of ping_pong.hpp, run until
// told to stop, handing every round to the aggregator through a Boost.Lockfree spsc_queue.
//
// b's reply carries t2 as well as t3 (both in the reply's one cache line), so that a holds
// the whole round and is the queue's only producer:
//   a: t1 = Send::read(); send(seq, t1) ──────────►  b: wait; t2 = Recv::read()
//                                                    b: t3 = Send::read(); reply(seq, t3, t2)
//   a: wait; t4 = Recv::read(); queue.push(t1..t4)  ◄─
//
// A full queue never blocks a: the round is counted as lost (an atomic the aggregator
// reads) and reported in that interval. A thread taken off its CPU (an affinity change, a
// cgroup cpuset shrinking) ends the run: each thread checks sched_getcpu() every
// kChunkRounds rounds and in every long wait.
#pragma once

#include <sched.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <boost/lockfree/spsc_queue.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "core/run.hpp"
#include "measure/ping_pong.hpp"
#include "measure/slot.hpp"
#include "measure/wait.hpp"

namespace tscaudit {

/// The aggregator's queue: one producer (a), one consumer. Capacity fixed at construction.
using RoundQueue = boost::lockfree::spsc_queue<Round>;

struct MonitorTransport {
  alignas(kFalseSharingBytes) Slot a_to_b;       // written by a, read by b
  alignas(kFalseSharingBytes) ReplySlot b_to_a;  // written by b, read by a
};

/// The duty cycle (monitor --duty, docs/commands.md "monitor"): a measures in the first
/// `active_ticks` of every interval of `interval_ticks`, counted from the first round's t1 as
/// the sequencer counts them, and sleeps the rest; b blocks meanwhile (PairControl::paused).
struct MonitorDuty {
  std::uint64_t interval_ticks = 0;  // 0: no rest, a measures all the time
  std::uint64_t active_ticks = 0;    // \pre 0 < active_ticks <= interval_ticks when resting
  double hz = 0;                     // a's counter frequency, to turn the rest into a sleep
};

/// What the threads and the aggregator share: the pair's control (the aggregator opens
/// the start gate and sets stop), and a's counters, each on its own block.
struct MonitorControl : PairControl {
  alignas(kFalseSharingBytes) std::atomic<std::uint64_t> lost{0};    // written by a only
  alignas(kFalseSharingBytes) std::atomic<std::uint64_t> rounds{0};  // a's rounds done, every chunk
  MonitorDuty duty;  // set before the threads start, then only read
  MonitorControl() { go.store(false); }
};

namespace monitor_detail {

/// The side policies of ping_pong.hpp for an open-ended run that checks its CPU.
class StreamingSide {
 public:
  static constexpr bool kCheckCpuInWait = true;
  using Reply = tscaudit::Reply;

  StreamingSide(int cpu, const char* role, MonitorControl& control, SideOutcome& outcome)
      : cpu_(cpu), role_(role), control_(control), outcome_(outcome) {}
  SideOutcome& outcome() { return outcome_; }
  static bool prepare() { return true; }
  [[gnu::always_inline]] bool more(std::uint64_t /*i*/) const { return !control_.stop.load(std::memory_order_relaxed); }
  bool at_chunk_edge(std::uint64_t /*i*/) {
    if (sched_getcpu() == cpu_) return true;
    outcome_.error = ping_pong::moved_error(cpu_, role_);
    return false;
  }
  void finish(std::uint64_t /*rounds_done*/) {}

 protected:
  int cpu_;
  const char* role_;
  MonitorControl& control_;
  SideOutcome& outcome_;
};

/// a: every round into the queue, or counted lost when the queue is full; with a duty
/// cycle, a rest between the window of one interval and the next.
class QueueingInitiator : public StreamingSide {
 public:
  QueueingInitiator(int cpu, MonitorControl& control, RoundQueue& queue, SideOutcome& outcome)
      : StreamingSide(cpu, "initiator", control, outcome), queue_(queue) {}
  /// Between two rounds: rests first when the last round ended the window.
  [[gnu::always_inline]] bool more(std::uint64_t i) {
    if (rest_due_) [[unlikely]] rest();
    return StreamingSide::more(i);
  }
  bool at_chunk_edge(std::uint64_t i) {
    control_.rounds.store(i, std::memory_order_relaxed);
    return StreamingSide::at_chunk_edge(i);
  }
  [[gnu::always_inline]] void record(std::uint64_t i, std::uint64_t t1, const Reply& reply, std::uint64_t t4) {
    if (!queue_.push(Round(i, t1, reply.t2, reply.t3, t4))) [[unlikely]] {
      control_.lost.store(++lost_, std::memory_order_relaxed);
    }
    if (t1 >= window_end_) [[unlikely]] window_passed(t1);
  }
  void finish(std::uint64_t rounds_done) { control_.rounds.store(rounds_done, std::memory_order_relaxed); }

 private:
  /// The first round (window_end_ 0) anchors the windows; a later one ends its window.
  void window_passed(std::uint64_t t1) {
    const MonitorDuty& duty = control_.duty;
    if (window_end_ == 0) {
      start_tick_ = t1;
      window_end_ = duty.interval_ticks == 0 ? UINT64_MAX : t1 + duty.active_ticks;
      return;
    }
    rest_due_ = true;
  }

  /// Sleeps until the next interval begins (or the run stops), b blocked meanwhile, in
  /// slices of at most kRestSliceNs so that a stop is seen soon.
  void rest() {
    static constexpr double kRestSliceNs = 20e6;
    const MonitorDuty& duty = control_.duty;
    rest_due_ = false;
    const std::uint64_t now = counter::OrderedRead::read();
    const std::uint64_t next_start =
        start_tick_ + ((now - start_tick_) / duty.interval_ticks + 1) * duty.interval_ticks;
    control_.paused.store(true);
    while (!control_.stop.load(std::memory_order_relaxed)) {
      const std::uint64_t tick = counter::OrderedRead::read();
      if (tick >= next_start) break;
      const double ns = std::min(kRestSliceNs, static_cast<double>(next_start - tick) * 1e9 / duty.hz);
      const timespec slice{0, static_cast<long>(ns)};
      ::nanosleep(&slice, nullptr);
    }
    control_.paused.store(false);
    control_.paused.notify_all();
    window_end_ = next_start + duty.active_ticks;
  }

  RoundQueue& queue_;
  std::uint64_t lost_ = 0;
  std::uint64_t start_tick_ = 0;  // the first round's t1: interval 0 starts there
  std::uint64_t window_end_ = 0;  // the first t1 past the measuring window; 0 before the first round
  bool rest_due_ = false;
};

/// b: replies with both of its stamps; keeps nothing.
class ReplyingResponder : public StreamingSide {
 public:
  ReplyingResponder(int cpu, MonitorControl& control, SideOutcome& outcome)
      : StreamingSide(cpu, "responder", control, outcome) {}
  /// b ends when its wait sees stop: the round loop itself checks nothing more.
  [[gnu::always_inline]] static bool more(std::uint64_t /*i*/) { return true; }
  [[gnu::always_inline]] static Reply reply(std::uint64_t seq, std::uint64_t t2, std::uint64_t t3) {
    return Reply{seq, t3, t2};
  }
  [[gnu::always_inline]] static void record(std::uint64_t, std::uint64_t, std::uint64_t, const Message&) {}
};

template <class Send, class Recv>
void initiate(const PairConfig& config, MonitorTransport& transport, RoundQueue& queue, MonitorControl& control,
              SideOutcome& outcome) {
  QueueingInitiator side(config.cpu_a, control, queue, outcome);
  ping_pong::initiate<Send, Recv, SpinWait>(config, transport, control, side);
}

template <class Send, class Recv>
void respond(const PairConfig& config, MonitorTransport& transport, MonitorControl& control, SideOutcome& outcome) {
  ReplyingResponder side(config.cpu_b, control, outcome);
  ping_pong::respond<Send, Recv, SpinWait>(config, transport, control, side);
}

}  // namespace monitor_detail

/// The two loops of one (Send, Recv) as plain functions (monitor_threads.cpp's table).
struct MonitorLoops {
  void (*initiate)(const PairConfig&, MonitorTransport&, RoundQueue&, MonitorControl&, SideOutcome&) = nullptr;
  void (*respond)(const PairConfig&, MonitorTransport&, MonitorControl&, SideOutcome&) = nullptr;
};

template <class Send, class Recv>
constexpr MonitorLoops monitor_loops() {
  return {&monitor_detail::initiate<Send, Recv>, &monitor_detail::respond<Send, Recv>};
}

/// The two measuring threads of a monitor run, started by start() and joined by join().
/// The caller (the aggregator) pops the queue, sets control.go once the threads are ready,
/// and control.stop to end the run. \pre cpu_a != cpu_b (a spinning wait needs two CPUs).
class MonitorThreads {
 public:
  /// Allocates the queue and writes every slot of it once, so that no page of it is
  /// faulted in during the run (and the resident set is already at its size).
  MonitorThreads(const PairConfig& config, std::size_t queue_rounds)
      : config_(config), queue_(queue_rounds), transport_(std::make_unique<MonitorTransport>()) {
    // spsc_queue keeps one slot free: its ring has queue_rounds + 1 slots.
    for (std::size_t i = 0; i <= queue_rounds; ++i) {
      if (!queue_.push(Round{})) {
        queue_.consume_all([](const Round&) {});
        static_cast<void>(queue_.push(Round{}));
      }
    }
    queue_.consume_all([](const Round&) {});
  }
  ~MonitorThreads() { join(); }
  MonitorThreads(const MonitorThreads&) = delete;
  MonitorThreads& operator=(const MonitorThreads&) = delete;

  /// Starts both threads with `loops`. \pre not started yet.
  void start(MonitorLoops loops) {
    responder_ = std::thread([this, loops] { loops.respond(config_, *transport_, control_, b_); });
    initiator_ = std::thread([this, loops] { loops.initiate(config_, *transport_, queue_, control_, a_); });
  }

  /// Stops (if not yet) and joins both threads. Idempotent.
  void join() {
    control_.stop.store(true);
    // The initiator clears `paused` itself when it sees stop; this only spares b a wait
    // should the initiator have ended while resting.
    control_.paused.store(false);
    control_.paused.notify_all();
    if (initiator_.joinable()) initiator_.join();
    if (responder_.joinable()) responder_.join();
  }

  /// The first thread's own error (the other one only saw the abort); empty when none.
  [[nodiscard]] std::string error() const { return first_error(a_, b_); }

  MonitorControl& control() { return control_; }
  RoundQueue& queue() { return queue_; }
  /// Valid after both threads are ready (control().ready == 2) and stay valid.
  [[nodiscard]] const SideOutcome& a() const { return a_; }
  [[nodiscard]] const SideOutcome& b() const { return b_; }

 private:
  PairConfig config_;
  RoundQueue queue_;
  std::unique_ptr<MonitorTransport> transport_;
  MonitorControl control_;
  SideOutcome a_;
  SideOutcome b_;
  std::thread initiator_;
  std::thread responder_;
};

}  // namespace tscaudit
