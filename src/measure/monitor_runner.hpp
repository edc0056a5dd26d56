// The measuring threads of `tscsync monitor`: the ping-pong of runner.hpp, run until told to
// stop, handing every round to the aggregator through a Boost.Lockfree spsc_queue.
//
// One round (RFC 5905 numbering), as in runner.hpp, except that b's reply carries t2 as
// well as t3 (both in the reply's one cache line), so that a holds the whole round and is
// the queue's only producer:
//   a: t1 = Send::read(); send(seq, t1) ──────────►  b: wait; t2 = Recv::read()
//                                                    b: t3 = Send::read(); reply(seq, t3, t2)
//   a: wait; t4 = Recv::read(); queue.push(t1..t4)  ◄─
//
// The hot loop allocates nothing and makes no system call. A full queue never blocks a:
// the round is counted as lost (an atomic the aggregator reads) and reported in that
// interval. Faults end the run with an error, never a hang:
//   - a partner that stops answering: a waits at most `timeout` (b twice that);
//   - a thread taken off its CPU (an affinity change, a cgroup cpuset shrinking): each
//     thread checks sched_getcpu() every kChunkRounds rounds and in every long wait;
//   - the whole process stopped (SIGSTOP, a host that does not run the VM): not a fault.
//     A wait that sees a gap of more than kSelfStallMs between two of its own clock
//     checks knows it did not run itself and starts its timeout again.
#pragma once

#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <boost/lockfree/spsc_queue.hpp>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "core/run.hpp"
#include "measure/runner.hpp"
#include "measure/slot.hpp"
#include "measure/wait.hpp"
#include "platform/affinity.hpp"
#include "platform/tsc.hpp"

namespace tscsync {

/// The aggregator's queue: one producer (a), one consumer. Capacity fixed at construction.
using RoundQueue = boost::lockfree::spsc_queue<Round>;

/// A wait gap this long between two clock checks of the same wait means the waiting thread
/// itself did not run (checks come every 0.1 to 1 ms while it runs).
inline constexpr std::chrono::milliseconds kSelfStallMs{50};

/// b's reply: the sequence number and both of b's stamps.
struct Reply {
  std::uint64_t seq;
  std::uint64_t t3;
  std::uint64_t t2;
};

/// The reply direction: Slot's protocol (payload relaxed, then seq release; the reader
/// acquires seq) with one more payload word, still in one cache line.
struct alignas(kFalseSharingBytes) ReplySlot {
  std::atomic<std::uint64_t> seq{0};
  std::atomic<std::uint64_t> t3{0};
  std::atomic<std::uint64_t> t2{0};

  void send(const Reply& r) noexcept {
    t3.store(r.t3, std::memory_order_relaxed);
    t2.store(r.t2, std::memory_order_relaxed);
    seq.store(r.seq, std::memory_order_release);
  }
  [[nodiscard]] bool try_receive(std::uint64_t last_seq, Reply& out) noexcept {
    const std::uint64_t s = seq.load(std::memory_order_acquire);
    if (s == last_seq) return false;
    out = Reply{s, t3.load(std::memory_order_relaxed), t2.load(std::memory_order_relaxed)};
    return true;
  }
};
static_assert(sizeof(ReplySlot) == kFalseSharingBytes);
static_assert(offsetof(ReplySlot, t2) + sizeof(std::uint64_t) <= kCacheLineBytes, "one line moves per reply");

struct MonitorTransport {
  alignas(kFalseSharingBytes) Slot a_to_b;       // written by a, read by b
  alignas(kFalseSharingBytes) ReplySlot b_to_a;  // written by b, read by a
};

/// What the threads and the aggregator share. Each group on its own block.
struct MonitorControl {
  alignas(kFalseSharingBytes) std::atomic<int> ready{0};             // threads past their setup
  std::atomic<bool> go{false};                                       // the aggregator lets them start
  std::atomic<bool> stop{false};                                     // the aggregator ends the run
  std::atomic<bool> abort{false};                                    // a thread failed
  std::atomic<long> tid_a{0};                                        // kernel thread ids, for the
  std::atomic<long> tid_b{0};                                        // aggregator's checks
  alignas(kFalseSharingBytes) std::atomic<std::uint64_t> lost{0};    // written by a only
  alignas(kFalseSharingBytes) std::atomic<std::uint64_t> rounds{0};  // a's rounds done, every chunk
};

struct MonitorSide {
  std::vector<std::uint64_t> quantum_reads;  // back-to-back lfence;rdtsc reads before the run
  std::string error;                         // why this thread stopped early; empty if it did not
  bool stopped_by_partner = false;
  std::uint64_t rounds_done = 0;
  std::uint64_t self_stalls = 0;  // waits in which the thread saw it had not run for kSelfStallMs
};

struct MonitorConfig {
  int cpu_a = 0;
  int cpu_b = 1;
  std::chrono::milliseconds timeout{2000};  // a's longest wait for a reply (b waits twice this)
};

namespace monitor_detail {

enum class Outcome { received, stopped, aborted, timed_out, moved };

/// Waits for a message other than `last_seq`. Every Wait::kCheckMask + 1 relax() calls it
/// checks stop, abort, the clock and its CPU.
template <class Wait, class Channel, class Msg>
[[gnu::always_inline]] inline Outcome wait_for(Channel& channel, std::uint64_t last_seq, Msg& out,
                                               MonitorControl& control, std::chrono::nanoseconds timeout, int cpu,
                                               MonitorSide& side) noexcept {
  std::uint32_t spins = 0;
  std::chrono::steady_clock::time_point since{};
  std::chrono::steady_clock::time_point last_check{};
  while (!channel.try_receive(last_seq, out)) {
    Wait::relax();
    if ((++spins & Wait::kCheckMask) == 0) [[unlikely]] {
      if (control.abort.load(std::memory_order_relaxed)) return Outcome::aborted;
      if (control.stop.load(std::memory_order_relaxed)) return Outcome::stopped;
      if (sched_getcpu() != cpu) return Outcome::moved;
      const auto now = std::chrono::steady_clock::now();  // vDSO: no system call
      if (last_check != std::chrono::steady_clock::time_point{} && now - last_check > kSelfStallMs) {
        since = now;  // this thread did not run: its partner is not to blame for that time
        ++side.self_stalls;
      } else if (since == std::chrono::steady_clock::time_point{}) {
        since = now;
      } else if (now - since > timeout) {
        return Outcome::timed_out;
      }
      last_check = now;
    }
  }
  return Outcome::received;
}

inline std::string moved_error(int cpu, const char* role) {
  return "the " + std::string(role) + " thread was taken off CPU " + std::to_string(cpu) + " (it now runs on CPU " +
         std::to_string(sched_getcpu()) +
         "): its affinity was changed by another process or a cgroup cpuset; the pair is no longer the one asked for";
}

inline void set_wait_error(MonitorSide& side, Outcome outcome, int waiter, int partner, const char* role,
                           std::uint64_t round, std::chrono::nanoseconds timeout) {
  switch (outcome) {
    case Outcome::aborted:
      side.stopped_by_partner = true;
      side.error = "CPU " + std::to_string(waiter) + " stopped at round " + std::to_string(round) +
                   " because its partner failed";
      return;
    case Outcome::moved: side.error = moved_error(waiter, role); return;
    case Outcome::timed_out:
      side.error = "CPU " + std::to_string(partner) + " stopped answering: CPU " + std::to_string(waiter) +
                   " waited more than " +
                   std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(timeout).count()) +
                   " ms at round " + std::to_string(round) + " while its own thread kept running";
      return;
    case Outcome::received:
    case Outcome::stopped: return;
  }
}

/// Pin, read the quantum, say ready, wait for go. \returns false when the run is off.
inline bool setup(int cpu, const char* role, std::atomic<long>& tid, MonitorControl& control, MonitorSide& side) {
  try {
    pin_this_thread(cpu);
    side.quantum_reads.assign(kQuantumReads, 0);
  } catch (const std::exception& e) {
    side.error = std::string("the ") + role + " thread: " + e.what();
    control.abort.store(true);
    return false;
  }
  tid.store(static_cast<long>(::syscall(SYS_gettid)));
  for (auto& r : side.quantum_reads) r = tsc::LfenceRdtsc::read();
  control.ready.fetch_add(1);
  // The aggregator sets go (or stop, or a failed partner sets abort) once both are ready
  // and the log's header is out; it never waits long, but it may itself be preempted.
  const auto start = std::chrono::steady_clock::now();
  while (!control.go.load()) {
    if (control.abort.load() || control.stop.load()) {
      side.stopped_by_partner = control.abort.load();
      return false;
    }
    if (std::chrono::steady_clock::now() - start > kStartAllowance) {
      side.error = "CPU " + std::to_string(cpu) + ": the run did not start within " +
                   std::to_string(kStartAllowance.count()) + " s";
      control.abort.store(true);
      return false;
    }
    std::this_thread::yield();
  }
  return true;
}

template <class Send, class Recv>
void initiate(const MonitorConfig& config, MonitorTransport& transport, RoundQueue& queue, MonitorControl& control,
              MonitorSide& side) {
  if (!setup(config.cpu_a, "initiator", control.tid_a, control, side)) return;
  std::uint64_t lost = 0;
  std::uint64_t last_seq = 0;
  std::uint64_t i = 0;
  Reply reply{};
  for (;; ++i) {
    if ((i & (kChunkRounds - 1)) == 0) [[unlikely]] {
      control.rounds.store(i, std::memory_order_relaxed);
      if (sched_getcpu() != config.cpu_a) {
        side.error = moved_error(config.cpu_a, "initiator");
        break;
      }
    }
    if (control.stop.load(std::memory_order_relaxed)) [[unlikely]]
      break;
    const std::uint64_t seq = i + 1;
    const std::uint64_t t1 = Send::read();
    transport.a_to_b.send(Message{seq, t1});
    const Outcome outcome =
        wait_for<SpinWait>(transport.b_to_a, last_seq, reply, control, config.timeout, config.cpu_a, side);
    if (outcome != Outcome::received) [[unlikely]] {
      set_wait_error(side, outcome, config.cpu_a, config.cpu_b, "initiator", i, config.timeout);
      break;
    }
    const std::uint64_t t4 = Recv::read();
    last_seq = reply.seq;
    if (reply.seq != seq) [[unlikely]] {
      side.error = detail::seq_error(config.cpu_a, seq, reply.seq);
      break;
    }
    if (!queue.push(Round(i, t1, reply.t2, reply.t3, t4))) [[unlikely]] {
      control.lost.store(++lost, std::memory_order_relaxed);
    }
  }
  side.rounds_done = i;
  control.rounds.store(i, std::memory_order_relaxed);
  if (!side.error.empty()) control.abort.store(true);
}

template <class Send, class Recv>
void respond(const MonitorConfig& config, MonitorTransport& transport, MonitorControl& control, MonitorSide& side) {
  if (!setup(config.cpu_b, "responder", control.tid_b, control, side)) return;
  std::uint64_t last_seq = 0;
  std::uint64_t i = 0;
  Message request{};
  for (;; ++i) {
    const std::uint64_t seq = i + 1;
    const Outcome outcome =
        wait_for<SpinWait>(transport.a_to_b, last_seq, request, control, 2 * config.timeout, config.cpu_b, side);
    if (outcome != Outcome::received) [[unlikely]] {
      set_wait_error(side, outcome, config.cpu_b, config.cpu_a, "responder", i, 2 * config.timeout);
      break;
    }
    const std::uint64_t t2 = Recv::read();
    last_seq = request.seq;
    if (request.seq != seq) [[unlikely]] {
      side.error = detail::seq_error(config.cpu_b, seq, request.seq);
      break;
    }
    // Inside the turnaround (t3 - t2), which rtt subtracts: no latency pays for it.
    if ((i & (kChunkRounds - 1)) == 0 && sched_getcpu() != config.cpu_b) [[unlikely]] {
      side.error = moved_error(config.cpu_b, "responder");
      break;
    }
    const std::uint64_t t3 = Send::read();
    transport.b_to_a.send(Reply{seq, t3, t2});
  }
  side.rounds_done = i;
  if (!side.error.empty()) control.abort.store(true);
}

}  // namespace monitor_detail

/// The two measuring threads of a monitor run, started by start() and joined by join().
/// The caller (the aggregator) pops the queue, sets control.go once the threads are ready,
/// and control.stop to end the run. \pre cpu_a != cpu_b (a spinning wait needs two CPUs).
class MonitorThreads {
 public:
  /// Allocates the queue and writes every slot of it once, so that no page of it is
  /// faulted in during the run (and the resident set is already at its size).
  MonitorThreads(const MonitorConfig& config, std::size_t queue_rounds)
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

  template <class Send, class Recv>
  void start() {
    responder_ = std::thread([this] { monitor_detail::respond<Send, Recv>(config_, *transport_, control_, b_); });
    initiator_ =
        std::thread([this] { monitor_detail::initiate<Send, Recv>(config_, *transport_, queue_, control_, a_); });
  }

  /// Stops (if not yet) and joins both threads. Idempotent.
  void join() {
    control_.stop.store(true);
    if (initiator_.joinable()) initiator_.join();
    if (responder_.joinable()) responder_.join();
  }

  /// The first thread's own error (the other one only saw the abort); empty when none.
  [[nodiscard]] std::string error() const {
    if (!a_.error.empty() && !a_.stopped_by_partner) return a_.error;
    if (!b_.error.empty() && !b_.stopped_by_partner) return b_.error;
    return !a_.error.empty() ? a_.error : b_.error;
  }

  MonitorControl& control() { return control_; }
  RoundQueue& queue() { return queue_; }
  /// Valid after both threads are ready (control().ready == 2) and stay valid.
  [[nodiscard]] const MonitorSide& a() const { return a_; }
  [[nodiscard]] const MonitorSide& b() const { return b_; }

 private:
  MonitorConfig config_;
  RoundQueue queue_;
  std::unique_ptr<MonitorTransport> transport_;
  MonitorControl control_;
  MonitorSide a_;
  MonitorSide b_;
  std::thread initiator_;
  std::thread responder_;
};

}  // namespace tscsync
