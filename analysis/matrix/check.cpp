#include "matrix/check.hpp"

#include <algorithm>
#include <cmath>

namespace tscsync {
namespace {

/// How far the band [lo, hi] lies outside [−tol, tol]; 0 when they meet.
double gap_outside(double lo, double hi, double tol) {
  if (lo > tol) return lo - tol;
  if (hi < -tol) return -tol - hi;
  return 0;
}

CheckFailure failure(int a, int b, CheckFailureKind kind) {
  CheckFailure f;
  f.a = a;
  f.b = b;
  f.kind = kind;
  return f;
}

/// The failures of one measured ordered pair, in the order they are found. Returns the
/// offset band's gap to the tolerance (0 when they meet or there is no band).
double check_pair(const MatrixResult& m, const PairCell& c, int a, int b, const CheckSettings& s, CheckResult& r) {
  auto fail = [&](CheckFailureKind kind) -> CheckFailure& { return r.failures.emplace_back(failure(a, b, kind)); };
  if (!c.incomplete.empty()) fail(CheckFailureKind::incomplete).incomplete = c.incomplete;
  if (c.self_inconsistent > 0 && variant_orders_earlier_loads(m.recv)) {
    fail(CheckFailureKind::self_inconsistent).self_inconsistent = c.self_inconsistent;
  }
  if (!c.band_feasible) {
    fail(CheckFailureKind::no_band);
    return 0;
  }
  const double gap = gap_outside(c.offset_lo_ticks, c.offset_hi_ticks, s.tolerance_ticks);
  if (gap > 0) {
    CheckFailure& f = fail(CheckFailureKind::offset);
    f.offset_ticks = c.offset_ticks;
    f.offset_lo_ticks = c.offset_lo_ticks;
    f.offset_hi_ticks = c.offset_hi_ticks;
    f.gap_ticks = gap;
  } else {
    r.widest_band_ticks = std::max(r.widest_band_ticks, c.offset_hi_ticks - c.offset_lo_ticks);
  }
  if (c.drift_detectable && std::isfinite(c.drift_lo_ppb) &&
      gap_outside(c.drift_lo_ppb, c.drift_hi_ppb, s.drift_tolerance_ppb) > 0) {
    CheckFailure& f = fail(CheckFailureKind::drift);
    f.drift_ppb = c.drift_ppb;
    f.drift_lo_ppb = c.drift_lo_ppb;
    f.drift_hi_ppb = c.drift_hi_ppb;
  }
  return gap;
}

}  // namespace

CheckResult decide_check(const MatrixResult& m, const CheckSettings& s,
                         const std::vector<std::string>& platform_warnings) {
  CheckResult r;
  r.warnings = platform_warnings;
  r.settings = s;
  r.tsc_hz = m.tsc_hz;
  r.recv = m.recv;
  const std::size_t n = m.size();
  r.cpus = n;
  double worst_offset_gap = -1;
  std::size_t worst_offset_index = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      ++r.pairs_checked;
      const PairCell& c = m.at(i, j);
      if (!c.measured) {
        r.failures.push_back(failure(m.cpus[i], m.cpus[j], CheckFailureKind::not_measured));
        continue;
      }
      const std::size_t before = r.failures.size();
      const double gap = check_pair(m, c, m.cpus[i], m.cpus[j], s, r);
      if (gap > worst_offset_gap && gap > 0) {
        worst_offset_gap = gap;
        for (std::size_t k = before; k < r.failures.size(); ++k) {
          if (r.failures[k].kind == CheckFailureKind::offset) worst_offset_index = k;
        }
      }
    }
  }
  if (!m.cpu.bands_consistent) r.failures.push_back(failure(-1, -1, CheckFailureKind::inconsistent_bands));
  r.synchronized = r.failures.empty();
  if (r.synchronized) return r;
  // The reason names the largest offset failure if any, else the most important kind.
  std::size_t shown = 0;
  if (worst_offset_gap > 0) {
    shown = worst_offset_index;
  } else {
    for (std::size_t i = 1; i < r.failures.size(); ++i) {
      if (r.failures[i].kind < r.failures[shown].kind) shown = i;
    }
  }
  r.shown = shown;
  for (std::size_t i = 0; i < r.failures.size(); ++i) {
    const bool new_pair = i == 0 || r.failures[i].a != r.failures[i - 1].a || r.failures[i].b != r.failures[i - 1].b;
    if (new_pair && r.failures[i].a >= 0) ++r.failing_pairs;
  }
  return r;
}

}  // namespace tscsync
