// Summary statistics of benchmark repetitions, shared by the benchmarks.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace tscsync::bench {

/// Linear-interpolated quantile q in [0, 1] of v. \pre v is not empty.
inline double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(pos);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

inline double median(const std::vector<double>& v) { return quantile(v, 0.5); }

}  // namespace tscsync::bench
