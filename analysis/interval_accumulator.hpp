// The monitor's aggregator state for one interval: rounds in, an IntervalSummary out, in
// memory that does not grow with the rounds (a few histograms and 16-entry heaps, allocated
// once and cleared between intervals).
#pragma once

#include <cstdint>

#include "interval_summary.hpp"
#include "run.hpp"

namespace tscsync {

class IntervalAccumulator {
 public:
  /// Allocates everything it will ever use. \pre quantum_ticks >= 1.
  explicit IntervalAccumulator(std::int64_t quantum_ticks);
  ~IntervalAccumulator();
  IntervalAccumulator(IntervalAccumulator&&) noexcept;
  IntervalAccumulator& operator=(IntervalAccumulator&&) noexcept;

  /// Starts interval `index` covering t1 in [start_tick, end_tick) and forgets the last
  /// one. Allocates nothing. \pre start_tick < end_tick.
  void begin(std::uint64_t index, std::uint64_t start_tick, std::uint64_t end_tick);

  /// Adds one recorded round. `late`: its t1 lies before start_tick (it belonged to an
  /// interval already written); it is counted in this one and in `late`. O(log 16), no
  /// allocation.
  void add(const Round& round, bool late = false);

  /// Counts `n` rounds measured but not recorded (the queue was full).
  void add_lost(std::uint64_t n);

  /// The interval so far (the interference fields stay 0: the monitor fills them in).
  [[nodiscard]] IntervalSummary summary() const;

 private:
  struct State;
  State* state_;  // owned; behind a pointer so that the histograms stay off the stack
};

}  // namespace tscsync
