#include "matrix/matrix_totals.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace tscaudit {

std::uint64_t total_causality_violations(const MatrixResult& m) {
  std::uint64_t n = 0;
  for (const PairCell& c : m.cells) n += c.causality_violations;
  return n;
}

std::uint64_t total_self_inconsistent(const MatrixResult& m) {
  std::uint64_t n = 0;
  for (const PairCell& c : m.cells) n += c.self_inconsistent;
  return n;
}

std::uint64_t total_rounds(const MatrixResult& m) {
  std::uint64_t n = 0;
  for (const PairCell& c : m.cells) n += c.rounds;
  return n;
}

double median_over_pairs(const MatrixResult& m, PairCellField field) {
  std::vector<double> v;
  for (const PairCell& c : m.cells) {
    if (c.measured) v.push_back(field(c));
  }
  if (v.empty()) return kNoValue;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double smallest_over_pairs(const MatrixResult& m, PairCellField field) {
  double v = kNoValue;
  for (const PairCell& c : m.cells) {
    if (c.measured && std::isfinite(field(c)) && (!std::isfinite(v) || field(c) < v)) v = field(c);
  }
  return v;
}

bool band_excludes_zero(const PairCell& c) {
  return c.measured && std::isfinite(c.offset_lo_ticks) && std::isfinite(c.offset_hi_ticks) &&
         (c.offset_lo_ticks > 0 || c.offset_hi_ticks < 0);
}

bool false_plain_offset(const MatrixResult& plain, const MatrixResult& ordered, std::size_t i, std::size_t j) {
  if (!band_excludes_zero(plain.at(i, j))) return false;
  const std::size_t a = ordered.index_of(plain.cpus[i]), b = ordered.index_of(plain.cpus[j]);
  if (a >= ordered.size() || b >= ordered.size()) return false;
  const PairCell& c = ordered.at(a, b);
  return c.measured && std::isfinite(c.offset_lo_ticks) && !band_excludes_zero(c);
}

}  // namespace tscaudit
