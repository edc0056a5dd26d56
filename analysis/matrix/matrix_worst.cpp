#include "matrix/matrix_worst.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

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

/// The CPUs of the findings, each finding's in matrix order, taken in turn from each finding
/// (round r takes every finding's r-th CPU not yet taken); `finding_of` receives, per CPU
/// index, the first finding holding it.
std::vector<std::size_t> finding_cpus(const MatrixResult& m, const Diagnosis& d, std::vector<int>& finding_of) {
  const std::size_t n = m.size();
  std::vector<std::vector<std::size_t>> lists;
  for (std::size_t f = 0; f < d.findings.size(); ++f) {
    std::vector<std::size_t> indexes;
    for (int cpu : d.findings[f].cpus) {
      const std::size_t i = m.index_of(cpu);
      if (i == n) continue;
      if (finding_of[i] < 0) finding_of[i] = static_cast<int>(f);
      indexes.push_back(i);
    }
    std::sort(indexes.begin(), indexes.end());
    lists.push_back(std::move(indexes));
  }
  std::vector<std::size_t> out;
  std::vector<bool> taken(n, false);
  std::vector<std::size_t> next(lists.size(), 0);
  for (bool any = true; any;) {
    any = false;
    for (std::size_t f = 0; f < lists.size(); ++f) {
      while (next[f] < lists[f].size() && taken[lists[f][next[f]]]) ++next[f];
      if (next[f] == lists[f].size()) continue;
      const std::size_t i = lists[f][next[f]++];
      taken[i] = true;
      out.push_back(i);
      any = true;
    }
  }
  return out;
}

}  // namespace

double lower_median(std::vector<double> values) {
  std::erase_if(values, [](double v) { return !std::isfinite(v); });
  if (values.empty()) return kNoValue;
  const auto mid = values.begin() + static_cast<std::ptrdiff_t>((values.size() - 1) / 2);
  std::nth_element(values.begin(), mid, values.end());
  return *mid;
}

MatrixWorst worst_of(const MatrixResult& m, std::size_t count, const Diagnosis* diagnosis) {
  MatrixWorst w;
  const std::size_t n = m.size();
  const std::vector<double>& x = m.cpu.offset_ticks;
  if (x.size() == n) {
    const bool grouped = diagnosis != nullptr && diagnosis->offset_group.size() == n;
    if (grouped) {
      std::vector<double> reference;
      for (std::size_t i = 0; i < n; ++i) {
        if (diagnosis->offset_group[i] == 0 && std::isfinite(x[i])) reference.push_back(x[i]);
      }
      w.reference_offset_ticks = lower_median(reference);
      w.reference_group_cpus = reference.size();
    }
    if (w.reference_group_cpus == 0) w.reference_offset_ticks = lower_median(x);
    std::vector<double> distance(n, kNoValue);
    for (std::size_t i = 0; i < n; ++i) distance[i] = std::fabs(x[i] - w.reference_offset_ticks);
    std::vector<int> finding_of(n, -1);
    if (diagnosis != nullptr) w.cpus = finding_cpus(m, *diagnosis, finding_of);
    if (w.cpus.size() > count) w.cpus.resize(count);
    std::vector<std::size_t> others;
    std::vector<double> keys;
    for (std::size_t i = 0; i < n; ++i) {
      if (!std::isfinite(distance[i]) || finding_of[i] >= 0) continue;
      others.push_back(i);
      keys.push_back(distance[i]);
    }
    for (std::size_t i : largest(others, keys, count - w.cpus.size())) w.cpus.push_back(i);
    for (std::size_t i : w.cpus) w.cpu_findings.push_back(finding_of[i]);
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
