#include "matrix/pair_distance.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace tscaudit {

PairDistance pair_distance(const CpuPlace& a, const CpuPlace& b) {
  // hwloc logical indexes number each level across the whole machine, so equal indexes
  // name the same object: no need to compare the levels above.
  if (a.core >= 0 && a.core == b.core) return PairDistance::smt;
  if (a.l3 >= 0 && a.l3 == b.l3) return PairDistance::l3;
  if (a.package >= 0 && a.package == b.package) return PairDistance::package;
  if (a.package >= 0 && b.package >= 0) return PairDistance::cross_package;
  return PairDistance::unknown;
}

std::string_view pair_distance_name(PairDistance d) {
  switch (d) {
    case PairDistance::smt: return "SMT siblings";
    case PairDistance::l3: return "same L3";
    case PairDistance::package: return "same package";
    case PairDistance::cross_package: return "cross-package";
    case PairDistance::unknown: break;
  }
  return "topology unknown";
}

ValueRange value_range(std::vector<double> values) {
  std::erase_if(values, [](double v) { return !std::isfinite(v); });
  ValueRange r;
  if (values.empty()) return r;
  std::sort(values.begin(), values.end());
  r.min = values.front();
  r.median = values[values.size() / 2];
  r.max = values.back();
  return r;
}

std::vector<DistanceClass> summarize_by_distance(const MatrixResult& m) {
  constexpr std::size_t kClasses = 5;  // the enumerators of PairDistance, closest first
  std::array<std::size_t, kClasses> pairs{};
  std::array<std::vector<double>, kClasses> one_way, offset;
  const std::size_t n = m.size();
  const bool placed = m.places.size() == n;
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      const PairCell& c = m.at(a, b);
      if (a == b || !c.measured) continue;
      const auto k = static_cast<std::size_t>(placed ? pair_distance(m.places[a], m.places[b]) : PairDistance::unknown);
      ++pairs[k];
      one_way[k].push_back(c.rtt_min_ticks / 2);
      offset[k].push_back(c.offset_ticks);
    }
  }
  std::vector<DistanceClass> classes;
  for (std::size_t k = 0; k < kClasses; ++k) {
    if (pairs[k] == 0) continue;
    classes.push_back({static_cast<PairDistance>(k), pairs[k], value_range(std::move(one_way[k])),
                       value_range(std::move(offset[k]))});
  }
  return classes;
}

}  // namespace tscaudit
