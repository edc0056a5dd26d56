// The TSC rate against a kernel clock, from paired readings: a least-squares line through
// (clock ns, TSC ticks) with the standard error of its slope, and the hard bound that the
// first and last brackets alone give. Pure: the readings are taken in src/platform/platform.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace tscaudit {

/// One paired reading: the clock was read between two TSC reads on the same CPU, so at
/// the clock's instant the counter lay in [tsc_before, tsc_after].
struct ClockReading {
  std::uint64_t tsc_before = 0;  // ticks
  std::int64_t clock_ns = 0;     // the clock's value, ns
  std::uint64_t tsc_after = 0;   // ticks, >= tsc_before
};

struct RateFit {
  bool valid = false;
  std::string reason;  // why not valid
  std::size_t readings = 0;
  double window_ns = 0;            // last clock_ns - first clock_ns
  double ticks_per_ns = 0;         // least-squares slope of the bracket midpoints on clock_ns
  double stderr_ticks_per_ns = 0;  // sqrt(s^2 / Sxx), s^2 = RSS / (n - 2)
  double stderr_ppm = 0;           // stderr relative to the slope, parts per million
  double residual_max_ticks = 0;   // largest |midpoint - line|
  // The hard bound from the first and last readings only: the rate lies in [lo, hi]
  // whatever happened between them, if the clock itself ran true.
  double bracket_lo_ticks_per_ns = 0;  // (last.tsc_before - first.tsc_after) / window
  double bracket_hi_ticks_per_ns = 0;  // (last.tsc_after - first.tsc_before) / window
  double bracket_ppm = 0;              // (hi - lo) / (hi + lo): half-width relative to the middle
};

/// Fits tsc_mid = a + b * clock_ns by ordinary least squares, tsc_mid the bracket
/// midpoint. Differences are taken from the first reading in integers before any
/// conversion, so counters near 2^63 and clocks of years lose no precision.
/// \pre readings in time order. Invalid (with a reason) when there are fewer than 3,
/// when a bracket is inverted (tsc_after < tsc_before), or when the clock does not advance
/// from the first reading to the last.
RateFit fit_tsc_rate(std::span<const ClockReading> readings);

}  // namespace tscaudit
