// Cuts the stream of a monitor run's rounds into intervals of a's counter and hands each
// finished interval to a sink, in order, exactly once. Pure: the monitor feeds it rounds
// from the queue and, when no round comes (a stall), an estimate of a's counter now.
//
// Interval i covers t1 in [start + i L, start + (i + 1) L), L = interval_ticks, start =
// the first round's t1. The rounds arrive in seq order from one producer, so their t1
// only grows: the first round at or past an interval's end closes it. When rounds stop
// coming, close_due() closes the intervals whose end (plus a grace) has passed on the
// estimated clock, so a stalled run still writes one line per interval, with 0 rounds.
#pragma once

#include <cstdint>
#include <functional>

#include "core/interval_summary.hpp"
#include "core/run.hpp"
#include "monitor/interval_accumulator.hpp"

namespace tscaudit {

/// More empty intervals than this between two consecutive rounds is not a stall but a
/// counter that jumped (a write to the TSC): the run cannot go on meaningfully.
inline constexpr std::uint64_t kMaxIntervalJump = 1'000'000;

class IntervalSequencer {
 public:
  /// Receives each finished interval; it may fill in the interference fields and write.
  using Sink = std::function<void(IntervalSummary&)>;

  /// \pre interval_ticks >= 1, quantum_ticks >= 1. interval_count 0: no end.
  IntervalSequencer(std::uint64_t interval_ticks, std::uint64_t interval_count, std::int64_t quantum_ticks, Sink sink);

  /// One recorded round. Closes every interval that ends at or before its t1 first. A round
  /// whose t1 falls in an interval already closed (it waited out a stall in the queue, or
  /// close_due() guessed early) is counted in the open interval as late. A round past the
  /// last planned interval is not recorded; it is counted in rounds_after_end().
  /// \throws RuntimeError when t1 jumps more than kMaxIntervalJump intervals ahead.
  void add(const Round& round);

  /// Rounds measured but not recorded (the queue was full), counted in the open interval;
  /// when none is open (before the first round, after the last interval) in
  /// rounds_lost_outside().
  void add_lost(std::uint64_t n);

  /// Closes the intervals that ended `grace_ticks` or more before `now_tick` (an estimate
  /// of a's counter now). Before the first round there is no clock: nothing happens.
  void close_due(std::uint64_t now_tick, std::uint64_t grace_ticks);

  /// Ends the run early (a signal, a fault): closes the open interval at the last recorded
  /// t1 + 1 (or start + 1 when it holds no round), so its span is what was measured.
  /// Nothing happens before the first round or after done().
  void close_partial();

  /// Every planned interval was closed (never true when interval_count is 0).
  [[nodiscard]] bool done() const { return count_ != 0 && next_index_ >= count_; }
  [[nodiscard]] bool started() const { return started_; }
  [[nodiscard]] std::uint64_t intervals_closed() const { return next_index_; }
  [[nodiscard]] std::uint64_t rounds_recorded() const { return rounds_; }
  /// Lost rounds counted in the intervals written: the sum of their `lost`.
  [[nodiscard]] std::uint64_t rounds_lost() const { return lost_; }
  [[nodiscard]] std::uint64_t rounds_lost_outside() const { return lost_outside_; }
  [[nodiscard]] std::uint64_t rounds_after_end() const { return after_end_; }
  /// The first round's t1 (the start of interval 0); 0 before the first round.
  [[nodiscard]] std::uint64_t start_tick() const { return start_tick_; }

 private:
  void open(std::uint64_t index);
  void close(std::uint64_t end_tick);

  std::uint64_t interval_ticks_;
  std::uint64_t count_;
  IntervalAccumulator acc_;
  Sink sink_;
  bool started_ = false;
  std::uint64_t start_tick_ = 0;
  std::uint64_t next_index_ = 0;  // the open interval's index = intervals closed so far
  std::uint64_t open_start_ = 0;
  std::uint64_t open_end_ = 0;
  std::uint64_t open_rounds_ = 0;
  std::uint64_t open_last_t1_ = 0;
  std::uint64_t rounds_ = 0;
  std::uint64_t lost_ = 0;
  std::uint64_t lost_outside_ = 0;
  std::uint64_t after_end_ = 0;
};

}  // namespace tscaudit
