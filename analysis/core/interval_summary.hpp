// One interval of a monitor run (`tscaudit monitor`): what the aggregator keeps of the
// rounds whose t1 fell in it, written as one line of the interval log. Everything the
// analysis of a long run needs comes from these lines; the rounds themselves are gone.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace tscaudit {

/// The order statistics kept per interval and direction: the k-th smallest forward
/// latency and the k-th smallest reverse latency, with the time of each, for these k. k = 1
/// gives the hard envelope; larger k are the robust envelopes (docs/method.md §4.1, §9.1: a few
/// too-small values, early reads or glitches, cut into k = 1 but not into the k-th).
inline constexpr std::array<std::uint64_t, 3> kIntervalKs = {1, 4, 16};
inline constexpr std::size_t kIntervalKCount = kIntervalKs.size();

/// A latency order statistic and when it happened. Absent (present == false) when the
/// interval holds fewer than k rounds.
struct TimedTicks {
  bool present = false;
  std::int64_t value_ticks = 0;  // a one-way latency, ticks (can be negative)
  std::uint64_t at_tick = 0;     // fwd: its round's t1; rev: its round's t4 (a's counter)
  friend bool operator==(const TimedTicks&, const TimedTicks&) = default;
};

struct IntervalSummary {
  std::uint64_t index = 0;       // 0, 1, 2, ... in time order
  std::uint64_t start_tick = 0;  // the interval is t1 in [start_tick, end_tick) on a's counter
  std::uint64_t end_tick = 0;
  std::uint64_t rounds = 0;  // rounds recorded in it
  std::uint64_t lost = 0;    // rounds measured but not recorded: the queue was full
  std::uint64_t late = 0;    // of `rounds`: rounds whose t1 fell in an earlier interval
                             // that was already written (a stall delayed them)
  // Order statistics of the recorded rounds, one per kIntervalKs entry.
  std::array<TimedTicks, kIntervalKCount> fwd_k{};  // k-th smallest t2 - t1
  std::array<TimedTicks, kIntervalKCount> rev_k{};  // k-th smallest t4 - t3
  // Distributions (ticks; 0 when rounds == 0). Percentiles as SignedHistogram gives them.
  std::int64_t fwd_p50 = 0, fwd_max = 0;
  std::int64_t rev_p50 = 0, rev_max = 0;
  std::int64_t rtt_min = 0, rtt_p50 = 0, rtt_p99 = 0, rtt_p999 = 0, rtt_max = 0;
  // Counts of recorded rounds.
  std::uint64_t fwd_negative = 0;       // t2 - t1 < 0
  std::uint64_t rev_negative = 0;       // t4 - t3 < 0
  std::uint64_t self_inconsistent = 0;  // rtt < -2q: impossible for any offset
  // Interference during the interval, filled in by the monitor (0 from the accumulator).
  std::uint64_t switches_a = 0;    // context switches of a's thread (voluntary + involuntary)
  std::uint64_t switches_b = 0;    // the same for b's thread
  std::uint64_t stall_ms = 0;      // longest time nothing ran: the aggregator's longest
                                   // gap between wake-ups beyond its period (SIGSTOP, host)
  std::uint64_t peak_rss_kib = 0;  // the process's peak resident set so far (VmHWM)

  friend bool operator==(const IntervalSummary&, const IntervalSummary&) = default;
};

}  // namespace tscaudit
