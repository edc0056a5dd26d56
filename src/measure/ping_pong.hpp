// The ping-pong between one ordered pair of CPUs, written once for every command that
// measures: `measure`, `matrix`, `variants` and `report` (runner.hpp: rounds kept in
// buffers) and `monitor` (monitor_runner.hpp: rounds streamed to an aggregator).
//
// One round (RFC 5905 numbering):
//   a: t1 = Send::read(); send(seq, t1) ─────────►  b: wait; t2 = Recv::read()
//                                                    b: t3 = Send::read(); reply(seq, t3 ...)
//   a: wait; t4 = Recv::read()  ◄──────────────────
//
// What each side does with a round, at a chunk edge and at the end is a policy type (the
// `Side` parameter below), inlined into the loop: the hot loop allocates nothing and makes
// no system call except at chunk edges (every kChunkRounds rounds), where a policy may take
// a snapshot or check its CPU: a between two rounds, b inside its turnaround (between t2
// and t3, which rtt subtracts), so no one-way latency pays for it.
//
// A side policy has:
//   static constexpr bool kCheckCpuInWait;          // a long wait also checks sched_getcpu()
//   using Reply = ...;                              // initiator: what b's reply carries
//   SideOutcome& outcome();                         // where setup and errors go
//   bool prepare();                                 // allocation after pinning; false: failed
//   bool more(std::uint64_t i);                     // another round?
//   bool at_chunk_edge(std::uint64_t i);            // false: stop (outcome().error says why;
//                                                   // none: the initiator chose to end there)
//   void record(i, t1, const Reply&, t4);           // initiator
//   Reply reply(seq, t2, t3); void record(i, t2, t3, const Message& request);  // responder
//   void finish(std::uint64_t rounds_done);
//
// Faults end the run with an error, never a hang:
//   - a partner that stops answering: a waits at most `timeout` (b twice that, so that a,
//     which knows the round, is the one that reports);
//   - a partner whose setup failed: it sets abort, and the other side stops at its next
//     check;
//   - the whole process stopped (SIGSTOP, a host that does not run the VM): not a fault. A
//     wait that sees a gap of more than kSelfStallMs between two of its own clock checks
//     knows it did not run itself and starts its timeout again.
#pragma once

#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "measure/slot.hpp"
#include "platform/affinity.hpp"
#include "platform/counter.hpp"

namespace tscaudit {

/// Rounds per interference chunk. A power of two (the edge test is a mask).
inline constexpr std::uint64_t kChunkRounds = 4096;
static_assert((kChunkRounds & (kChunkRounds - 1)) == 0);

/// How long a thread that is ready waits for its partner (and the run's owner) to be ready,
/// beyond the timeout.
inline constexpr std::chrono::seconds kStartAllowance{60};

/// Back-to-back reads each thread makes on its CPU before the run, for the quantum.
inline constexpr std::size_t kQuantumReads = 1u << 16;

/// A wait gap this long between two clock checks of the same wait means the waiting thread
/// itself did not run (checks come every 0.1 to 1 ms while it runs).
inline constexpr std::chrono::milliseconds kSelfStallMs{50};

/// The two CPUs and the longest wait for a reply.
struct PairConfig {
  int cpu_a = 0;                            // initiator
  int cpu_b = 1;                            // responder
  std::chrono::milliseconds timeout{2000};  // a's longest wait for a reply (b waits twice this)
  std::size_t quantum_reads = kQuantumReads;  // back-to-back reads for the quantum, before the run
};

/// What both threads and the run's owner share, touched only outside the hot path.
struct alignas(kFalseSharingBytes) PairControl {
  std::atomic<int> ready{0};       // threads past their setup
  std::atomic<bool> go{true};      // the start gate: an owner that starts closed opens it
  std::atomic<bool> stop{false};   // the owner ends an open-ended run
  std::atomic<bool> abort{false};  // a side failed: the other stops at its next check
  /// The initiator rests between two measuring windows (monitor --duty): a partner that
  /// waits blocks on it (a futex, no spinning) until the initiator clears it and notifies.
  std::atomic<bool> paused{false};
};

/// What one thread reports besides its rounds. Written by that thread only until join().
struct SideOutcome {
  std::vector<std::uint64_t> quantum_reads;  // back-to-back counter::OrderedRead reads before the run
  std::uint64_t rounds_done = 0;             // rounds this side completed
  std::uint64_t self_stalls = 0;             // waits in which the thread saw it had not run for kSelfStallMs
  long tid = 0;                              // kernel thread id, set before `ready` counts it
  std::string error;                         // why this side stopped early; empty if it did not
  bool stopped_by_partner = false;           // it stopped only because the other side failed
  bool pinned = false;                       // the thread was pinned to its CPU (setup got that far)
};

/// The first side's own error (the other one only saw the abort); empty when neither failed.
std::string first_error(const SideOutcome& a, const SideOutcome& b);

namespace ping_pong {

enum class WaitOutcome { received, stopped, aborted, timed_out, moved };

/// Waits for a message other than `last_seq` on `channel`. Every Wait::kCheckMask + 1
/// relax() calls it checks abort, stop, the clock and (kCheckCpu) its CPU; `timeout` counts
/// from the first check, and starts again after a check that finds the thread itself did
/// not run, so the real limit is between timeout and timeout plus one check period of run
/// time.
template <class Wait, bool kCheckCpu, class Channel, class Msg>
[[gnu::always_inline]] inline WaitOutcome wait_for(Channel& channel, std::uint64_t last_seq, Msg& out,
                                                   PairControl& control, std::chrono::nanoseconds timeout, int cpu,
                                                   SideOutcome& side) {
  std::uint32_t spins = 0;
  std::chrono::steady_clock::time_point since{};
  std::chrono::steady_clock::time_point last_check{};
  while (!channel.try_receive(last_seq, out)) {
    Wait::relax();
    if ((++spins & Wait::kCheckMask) == 0) [[unlikely]] {
      if (control.abort.load(std::memory_order_relaxed)) return WaitOutcome::aborted;
      if (control.stop.load(std::memory_order_relaxed)) return WaitOutcome::stopped;
      if (control.paused.load(std::memory_order_relaxed)) {
        // The partner rests on purpose: sleep until it resumes, and count no time of the
        // rest against it.
        control.paused.wait(true);
        since = {};
        last_check = {};
        continue;
      }
      if constexpr (kCheckCpu) {
        if (sched_getcpu() != cpu) return WaitOutcome::moved;
      }
      const auto now = std::chrono::steady_clock::now();  // vDSO: no system call
      if (last_check != std::chrono::steady_clock::time_point{} && now - last_check > kSelfStallMs) {
        since = now;  // this thread did not run: its partner is not to blame for that time
        ++side.self_stalls;
      } else if (since == std::chrono::steady_clock::time_point{}) {
        since = now;
      } else if (now - since > timeout) {
        return WaitOutcome::timed_out;
      }
      last_check = now;
    }
  }
  return WaitOutcome::received;
}

// The error messages of the cold paths: built out of line (ping_pong.cpp), once, not in
// every instantiation of the loops.

/// Why a thread is no longer where it was pinned.
std::string moved_error(int cpu, const char* role);

/// Sets side.error (and stopped_by_partner) for a wait that ended without its message.
void set_wait_error(SideOutcome& side, WaitOutcome outcome, int waiter, int partner, const char* role,
                    std::uint64_t round, std::chrono::nanoseconds timeout);

/// A message that is not the one expected.
std::string seq_error(int cpu, std::uint64_t expected, std::uint64_t got);

/// Who waits, for whom, in which role, and how long.
struct Waiter {
  int cpu;
  int partner;
  const char* role;
  std::chrono::milliseconds timeout;
};

/// Waits for message `seq` on `channel` and stamps its arrival with Recv, the read right
/// after the wait as the hot loop needs it (inlined: the same code as written in place).
/// \returns false, with side.error set (unless the owner stopped the run), when the wait
/// ended without the message or the message is not `seq`.
template <class Recv, class Wait, bool kCheckCpu, class Channel, class Msg>
[[gnu::always_inline]] inline bool receive(Channel& channel, Msg& message, std::uint64_t& last_seq, std::uint64_t seq,
                                           std::uint64_t& stamp, PairControl& control, const Waiter& w,
                                           SideOutcome& side) {
  const WaitOutcome outcome = wait_for<Wait, kCheckCpu>(channel, last_seq, message, control, w.timeout, w.cpu, side);
  if (outcome != WaitOutcome::received) [[unlikely]] {
    set_wait_error(side, outcome, w.cpu, w.partner, w.role, seq - 1, w.timeout);
    return false;
  }
  stamp = Recv::read();
  last_seq = message.seq;
  if (message.seq != seq) [[unlikely]] {
    side.error = seq_error(w.cpu, seq, message.seq);
    return false;
  }
  return true;
}

/// Setup shared by both threads: pin, let the side allocate (after pinning, so its pages
/// are local to this CPU), read the quantum, say ready, then wait for the partner and the
/// start gate. \returns false when the run is off (side.error says why, unless the owner
/// stopped the run before it began).
template <class Side>
bool setup(int cpu, const PairConfig& config, PairControl& control, Side& side) {
  SideOutcome& out = side.outcome();
  try {
    pin_this_thread(cpu);
    out.pinned = true;
    out.quantum_reads.assign(config.quantum_reads, 0);
    if (!side.prepare()) {
      control.abort.store(true);
      return false;
    }
  } catch (const std::exception& e) {
    out.error = e.what();  // pin_this_thread names the CPU
    control.abort.store(true);
    return false;
  }
  out.tid = static_cast<long>(::syscall(SYS_gettid));
  for (auto& r : out.quantum_reads) r = counter::OrderedRead::read();
  control.ready.fetch_add(1);
  // The partner may still be pre-faulting hundreds of MB: the start allows far more than a
  // reply does. A partner that failed its setup sets abort and ends this wait at once.
  const auto start_limit = kStartAllowance + config.timeout;
  const auto start = std::chrono::steady_clock::now();
  while (control.ready.load() < 2 || !control.go.load()) {
    if (control.abort.load()) {
      out.stopped_by_partner = true;
      out.error = "CPU " + std::to_string(cpu) + " stopped before the first round because its partner failed";
      return false;
    }
    if (control.stop.load()) return false;
    if (std::chrono::steady_clock::now() - start > start_limit) {
      out.error = "CPU " + std::to_string(cpu) + ": the run did not start within " +
                  std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(start_limit).count()) +
                  " ms (the partner thread never got ready)";
      control.abort.store(true);
      return false;
    }
    std::this_thread::yield();
  }
  return true;
}

/// a's loop: stamp and send, wait for the reply, stamp; the side keeps the round.
template <class Send, class Recv, class Wait, class TransportT, class Side>
void initiate(const PairConfig& config, TransportT& transport, PairControl& control, Side& side) {
  if (!setup(config.cpu_a, config, control, side)) return;
  SideOutcome& out = side.outcome();
  const Waiter waits_a{config.cpu_a, config.cpu_b, "initiator", config.timeout};
  std::uint64_t last_seq = 0;
  std::uint64_t i = 0;
  typename Side::Reply reply{};
  for (; side.more(i); ++i) {
    if ((i & (kChunkRounds - 1)) == 0) [[unlikely]] {
      if (!side.at_chunk_edge(i)) break;
    }
    const std::uint64_t seq = i + 1;
    const std::uint64_t t1 = Send::read();
    transport.a_to_b.send(Message{seq, t1});
    std::uint64_t t4 = 0;
    if (!receive<Recv, Wait, Side::kCheckCpuInWait>(transport.b_to_a, reply, last_seq, seq, t4, control, waits_a, out))
        [[unlikely]] {
      break;
    }
    side.record(i, t1, reply, t4);
  }
  out.rounds_done = i;
  side.finish(i);
  // A failure aborts the partner; an end the initiator chose (its side's rounds done, or a
  // chunk edge that ended the run without an error: a deadline) stops it, waiting for a
  // round that will not come.
  if (!out.error.empty()) {
    control.abort.store(true);
  } else {
    control.stop.store(true);
  }
}

/// b's loop: wait for a's message, stamp, stamp again and reply; the side keeps its half.
template <class Send, class Recv, class Wait, class TransportT, class Side>
void respond(const PairConfig& config, TransportT& transport, PairControl& control, Side& side) {
  if (!setup(config.cpu_b, config, control, side)) return;
  SideOutcome& out = side.outcome();
  // b waits twice as long as a: when b is the one that stopped, a, which knows the round,
  // reports it; b reports only an initiator that stopped.
  const Waiter waits_b{config.cpu_b, config.cpu_a, "responder", 2 * config.timeout};
  std::uint64_t last_seq = 0;
  std::uint64_t i = 0;
  Message request{};
  for (; side.more(i); ++i) {
    const std::uint64_t seq = i + 1;
    std::uint64_t t2 = 0;
    if (!receive<Recv, Wait, Side::kCheckCpuInWait>(transport.a_to_b, request, last_seq, seq, t2, control, waits_b,
                                                    out)) [[unlikely]] {
      break;
    }
    // Inside the turnaround (t3 - t2), which rtt subtracts: no latency pays for it.
    if ((i & (kChunkRounds - 1)) == 0) [[unlikely]] {
      if (!side.at_chunk_edge(i)) break;
    }
    const std::uint64_t t3 = Send::read();
    transport.b_to_a.send(side.reply(seq, t2, t3));
    side.record(i, t2, t3, request);
  }
  out.rounds_done = i;
  side.finish(i);
  if (!out.error.empty()) control.abort.store(true);
}

}  // namespace ping_pong
}  // namespace tscaudit
