#include "estimate/clock_fit.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace tscaudit {

RateFit fit_tsc_rate(std::span<const ClockReading> readings) {
  RateFit fit;
  fit.readings = readings.size();
  if (readings.size() < 3) {
    fit.reason = "needs at least 3 readings, got " + std::to_string(readings.size());
    return fit;
  }
  for (std::size_t i = 0; i < readings.size(); ++i) {
    if (readings[i].tsc_after < readings[i].tsc_before) {
      fit.reason = "reading " + std::to_string(i) + " has its TSC bracket inverted (after < before)";
      return fit;
    }
  }
  const ClockReading& first = readings.front();
  const ClockReading& last = readings.back();
  if (last.clock_ns <= first.clock_ns) {
    fit.reason = "the clock did not advance from the first reading to the last";
    return fit;
  }

  // Centred on the first reading, in integers first: exact for any counter value.
  const std::size_t n = readings.size();
  std::vector<double> x(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    const ClockReading& r = readings[i];
    x[i] = static_cast<double>(r.clock_ns - first.clock_ns);
    y[i] = static_cast<double>(static_cast<std::int64_t>(r.tsc_before - first.tsc_before)) +
           static_cast<double>(r.tsc_after - r.tsc_before) / 2;
  }
  double x_mean = 0, y_mean = 0;
  for (std::size_t i = 0; i < n; ++i) {
    x_mean += x[i];
    y_mean += y[i];
  }
  x_mean /= static_cast<double>(n);
  y_mean /= static_cast<double>(n);
  double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sxx += (x[i] - x_mean) * (x[i] - x_mean);
    sxy += (x[i] - x_mean) * (y[i] - y_mean);
  }
  if (!(sxx > 0)) {
    fit.reason = "every reading has the same clock value";
    return fit;
  }
  const double slope = sxy / sxx;
  const double intercept = y_mean - slope * x_mean;
  double rss = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double r = y[i] - (intercept + slope * x[i]);
    rss += r * r;
    fit.residual_max_ticks = std::max(fit.residual_max_ticks, std::abs(r));
  }
  if (!(slope > 0)) {
    fit.reason = "the TSC did not advance with the clock (slope " + std::to_string(slope) + " ticks/ns)";
    return fit;
  }

  fit.valid = true;
  fit.window_ns = static_cast<double>(last.clock_ns - first.clock_ns);
  fit.ticks_per_ns = slope;
  fit.stderr_ticks_per_ns = std::sqrt(rss / static_cast<double>(n - 2) / sxx);
  fit.stderr_ppm = fit.stderr_ticks_per_ns / slope * 1e6;
  const auto lo_ticks = static_cast<double>(static_cast<std::int64_t>(last.tsc_before - first.tsc_after));
  const auto hi_ticks = static_cast<double>(static_cast<std::int64_t>(last.tsc_after - first.tsc_before));
  fit.bracket_lo_ticks_per_ns = lo_ticks / fit.window_ns;
  fit.bracket_hi_ticks_per_ns = hi_ticks / fit.window_ns;
  fit.bracket_ppm = (hi_ticks - lo_ticks) / (hi_ticks + lo_ticks) * 1e6;
  return fit;
}

}  // namespace tscaudit
