// The monitor's aggregator state for one interval: rounds in, an IntervalSummary out, in
// memory that does not grow with the rounds (a few histograms and 16-entry heaps, allocated
// once and cleared between intervals).
#pragma once

#include <cstdint>

#include "core/interval_summary.hpp"
#include "core/run.hpp"

namespace tscaudit {

class IntervalAccumulator {
 public:
  /// Allocates everything it will ever use (about 2.5 MiB: three SignedHistograms).
  /// \throws std::invalid_argument unless 1 <= quantum_ticks <= 2^61.
  explicit IntervalAccumulator(std::int64_t quantum_ticks);
  ~IntervalAccumulator();
  IntervalAccumulator(IntervalAccumulator&&) noexcept;
  IntervalAccumulator& operator=(IntervalAccumulator&&) noexcept;

  /// Starts interval `index` covering t1 in [start_tick, end_tick) and forgets the last
  /// one. Allocates nothing; clears only the histogram buckets the last interval used.
  /// \throws std::invalid_argument unless start_tick < end_tick (the log reader would
  /// refuse the line).
  void begin(std::uint64_t index, std::uint64_t start_tick, std::uint64_t end_tick);

  /// Adds one recorded round. `late`: its t1 lies before start_tick (it belonged to an
  /// interval already written); it is counted in this one and in `late`. O(log 16), no
  /// allocation. Of equal latencies the order statistics keep the earliest (lowest t1
  /// for fwd, t4 for rev), whatever order the rounds arrive in.
  void add(const Round& round, bool late = false);

  /// Counts `n` rounds measured but not recorded (the queue was full).
  void add_lost(std::uint64_t n);

  /// The interval so far (the interference fields stay 0: the monitor fills them in).
  /// Allocates nothing. Before the first begin() it describes interval 0 as [0, 1).
  [[nodiscard]] IntervalSummary summary() const;

 private:
  struct State;
  State* state_;  // owned; behind a pointer so that the histograms stay off the stack.
                  // A moved-from accumulator may only be destroyed or assigned to.
};

}  // namespace tscaudit
