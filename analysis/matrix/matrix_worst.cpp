#include "matrix/matrix_worst.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "matrix/pair_distance.hpp"

namespace tscaudit {
namespace {

/// The `count` entries of `items` with the largest key, largest first, ties in the order
/// of `items` (a stable partial sort: keys are compared, then positions).
template <class T>
std::vector<T> largest(const std::vector<T>& items, const std::vector<double>& keys, std::size_t count) {
  std::vector<std::size_t> order(items.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const std::size_t keep = std::min(count, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(keep), order.end(),
                    [&](std::size_t x, std::size_t y) { return keys[x] > keys[y] || (!(keys[x] < keys[y]) && x < y); });
  std::vector<T> out;
  for (std::size_t i = 0; i < keep; ++i) out.push_back(items[order[i]]);
  return out;
}

}  // namespace

MatrixWorst worst_of(const MatrixResult& m, std::size_t count) {
  MatrixWorst w;
  const std::size_t n = m.size();
  const std::vector<double>& x = m.cpu.offset_ticks;
  if (x.size() == n) {
    w.median_cpu_offset_ticks = value_range(x).median;
    std::vector<std::size_t> cpus;
    std::vector<double> keys;
    for (std::size_t i = 0; i < n; ++i) {
      if (!std::isfinite(x[i])) continue;
      cpus.push_back(i);
      keys.push_back(std::fabs(x[i] - w.median_cpu_offset_ticks));
    }
    w.cpus = largest(cpus, keys, count);
  }
  std::vector<CellIndex> by_offset, by_violations;
  std::vector<double> offset_keys, violation_keys;
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      const PairCell& c = m.at(a, b);
      if (a == b || !c.measured) continue;
      if (std::isfinite(c.offset_ticks)) {
        by_offset.push_back({a, b});
        offset_keys.push_back(std::fabs(c.offset_ticks));
      }
      if (c.causality_violations > 0) {
        by_violations.push_back({a, b});
        violation_keys.push_back(static_cast<double>(c.causality_violations));
      }
    }
  }
  w.offset_pairs = largest(by_offset, offset_keys, count);
  w.violation_pairs = largest(by_violations, violation_keys, count);
  return w;
}

}  // namespace tscaudit
