#include "estimate/level_shifts.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include "estimate/margin_rule.hpp"

namespace tscaudit {
namespace {

struct Splitter {
  std::span<const double> values, margins;
  double q;
  double scatter;  // robust sigma of the values
  std::size_t min_run, max_shifts;
  std::vector<double> sum, sum2;  // prefix sums of the values, index i = first i values
  std::vector<LevelShift> found;

  /// The median of x[a, b) (the mean of the middle two for an even count).
  [[nodiscard]] static double median(std::span<const double> x, std::size_t a, std::size_t b) {
    std::vector<double> v(x.begin() + static_cast<std::ptrdiff_t>(a), x.begin() + static_cast<std::ptrdiff_t>(b));
    const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    if (v.size() % 2 == 1) return *mid;
    return (*mid + *std::max_element(v.begin(), mid)) / 2;
  }
  /// Residual sum of squares of [a, b) about its mean.
  [[nodiscard]] double rss(std::size_t a, std::size_t b) const {
    const double n = static_cast<double>(b - a);
    const double s = sum[b] - sum[a];
    return std::max(0.0, (sum2[b] - sum2[a]) - s * s / n);
  }

  void split(std::size_t a, std::size_t b) {
    if (found.size() >= max_shifts || b - a < 2 * min_run || b - a < 3) return;
    std::size_t best = 0;
    double best_rss = std::numeric_limits<double>::infinity();
    for (std::size_t s = a + min_run; s + min_run <= b; ++s) {
      const double r = rss(a, s) + rss(s, b);
      if (r < best_rss) {
        best_rss = r;
        best = s;
      }
    }
    if (best == 0) return;
    LevelShift shift;
    shift.first_after = best;
    // The split is placed by least squares, judged by medians: an interval that holds
    // both levels (the change fell inside it) sits between them and would pull a mean.
    shift.size = median(values, best, b) - median(values, a, best);
    shift.residual_sd = std::sqrt(best_rss / static_cast<double>(b - a - 2));
    if (std::fabs(shift.size) <=
        std::max({kShiftQuanta * q, kShiftSigmas * scatter, kShiftResiduals * shift.residual_sd})) {
      return;
    }
    shift.margin_change = median(margins, best, b) - median(margins, a, best);
    shift.offset_like = margin_kept(shift.margin_change, shift.size, q);
    found.push_back(shift);
    split(a, best);
    split(best, b);
  }
};

}  // namespace

std::vector<LevelShift> find_level_shifts(std::span<const double> values, std::span<const double> margins,
                                          double quantum_ticks, std::size_t min_run, std::size_t max_shifts) {
  assert(values.size() == margins.size() && quantum_ticks >= 1 && min_run >= 1);
  const std::size_t n = values.size();
  std::vector<double> diffs;
  for (std::size_t i = 1; i < n; ++i) diffs.push_back(std::fabs(values[i] - values[i - 1]));
  double scatter = 0;
  if (!diffs.empty()) {
    std::nth_element(diffs.begin(), diffs.begin() + static_cast<std::ptrdiff_t>(diffs.size() / 2), diffs.end());
    scatter = 1.4826 * diffs[diffs.size() / 2] / std::sqrt(2.0);
  }
  Splitter s{values, margins, quantum_ticks, scatter, min_run, max_shifts, {}, {}, {}};
  s.sum.assign(n + 1, 0);
  s.sum2.assign(n + 1, 0);
  // Centred on the first value, so that offsets of millions of ticks keep their digits.
  const double base = n > 0 ? values[0] : 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double v = values[i] - base;
    s.sum[i + 1] = s.sum[i] + v;
    s.sum2[i + 1] = s.sum2[i] + v * v;
  }
  s.split(0, n);
  std::sort(s.found.begin(), s.found.end(),
            [](const LevelShift& x, const LevelShift& y) { return x.first_after < y.first_after; });
  // Sizes between the final neighbours: a split made while another shift was still in
  // its segment measured against a mixed level (of 0, 30, -20, the first split at 20
  // sees 15 before it).
  for (std::size_t i = 0; i < s.found.size(); ++i) {
    LevelShift& f = s.found[i];
    const std::size_t a = i == 0 ? 0 : s.found[i - 1].first_after;
    const std::size_t b = i + 1 == s.found.size() ? n : s.found[i + 1].first_after;
    f.size = Splitter::median(values, f.first_after, b) - Splitter::median(values, a, f.first_after);
    f.residual_sd = std::sqrt((s.rss(a, f.first_after) + s.rss(f.first_after, b)) / static_cast<double>(b - a - 2));
    f.margin_change = Splitter::median(margins, f.first_after, b) - Splitter::median(margins, a, f.first_after);
    f.offset_like = margin_kept(f.margin_change, f.size, quantum_ticks);
  }
  return s.found;
}

}  // namespace tscaudit
