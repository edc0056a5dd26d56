// What the benchmarks share: summary statistics of repetitions, and their command line.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace tscaudit::bench {

/// Linear-interpolated quantile q in [0, 1] of v. \pre v is not empty.
inline double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(pos);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

inline double median(const std::vector<double>& v) { return quantile(v, 0.5); }

/// A benchmark's command line as "--name value" pairs, in order; a name at the end gets "".
inline std::vector<std::pair<std::string, std::string>> option_pairs(int argc, char** argv) {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (int i = 1; i < argc; i += 2) pairs.emplace_back(argv[i], i + 1 < argc ? argv[i + 1] : "");
  return pairs;
}

}  // namespace tscaudit::bench
