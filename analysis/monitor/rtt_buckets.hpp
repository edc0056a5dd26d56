// The round trips of a monitor run counted into a few fixed buckets of seconds, from the
// start of the run: the opt-in histogram of `monitor --openmetrics`
// (docs/fleets.md, "Metrics for Prometheus"). Pure; constant memory.
#pragma once

#include <array>
#include <cstdint>

namespace tscaudit {

/// The buckets' upper bounds, seconds (Prometheus `le`), then +Inf: from 50 ns (SMT
/// siblings) through 10 µs (across packages, a busy VM) to 10 ms (a descheduled vCPU).
inline constexpr std::array<double, 11> kRttBucketBoundsS = {50e-9, 100e-9, 200e-9, 500e-9, 1e-6, 2e-6,
                                                             5e-6,  10e-6,  100e-6, 1e-3,   10e-3};

class RttBuckets {
 public:
  /// \pre tsc_hz > 0.
  explicit RttBuckets(double tsc_hz);

  /// Counts one round trip (ticks; < 0 in a round impossible for any offset) into the
  /// first bucket whose bound it does not exceed, or into +Inf. Compared in seconds, as
  /// the exposition gives them: a round trip of exactly 50 ns lies in the 50 ns bucket.
  void record(std::int64_t rtt_ticks) {
    std::size_t i = 0;
    const double s = static_cast<double>(rtt_ticks) / tsc_hz_;
    while (i < kRttBucketBoundsS.size() && s > kRttBucketBoundsS[i]) ++i;
    ++counts_[i];
    sum_ticks_ += rtt_ticks;
    ++count_;
  }

  /// Rounds at or below kRttBucketBoundsS[i]; i == kRttBucketBoundsS.size() is +Inf (all).
  [[nodiscard]] std::uint64_t cumulative(std::size_t i) const;
  [[nodiscard]] std::uint64_t count() const { return count_; }
  [[nodiscard]] double sum_seconds() const { return static_cast<double>(sum_ticks_) / tsc_hz_; }

 private:
  double tsc_hz_;
  std::array<std::uint64_t, kRttBucketBoundsS.size() + 1> counts_{};
  std::int64_t sum_ticks_ = 0;  // 2^63 ticks: decades of round trips at any rate
  std::uint64_t count_ = 0;
};

}  // namespace tscaudit
