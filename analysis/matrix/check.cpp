#include "matrix/check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

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

/// CheckResult::cpus_off from the measured pairs' offset outcomes (n×n: 0 not measured,
/// 1 failed on its offset, 2 passed it).
std::vector<int> cpus_off(const MatrixResult& m, const std::vector<std::uint8_t>& outcome) {
  const std::size_t n = m.size();
  std::vector<std::size_t> partners(n, 0);  // distinct partners measured in either role
  std::vector<std::size_t> passed(n, 0);    // ordered pairs that involve the CPU and pass
  std::size_t passed_in_all = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      const std::uint8_t o = outcome[i * n + j];
      if (o == 2) ++passed[i], ++passed[j], ++passed_in_all;
      if (i < j && (o != 0 || outcome[j * n + i] != 0)) ++partners[i], ++partners[j];
    }
  }
  std::vector<int> off;
  for (std::size_t i = 0; i < n; ++i) {
    // passed_in_all > passed[i]: some pair without CPU i passes.
    if (partners[i] >= 2 && passed[i] == 0 && passed_in_all > passed[i]) off.push_back(m.cpus[i]);
  }
  return off;
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
  std::vector<std::uint8_t> offset_failed(n * n, 0);  // measured pairs: 1 failed on its offset, 2 did not
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      const PairCell& c = m.at(i, j);
      if (!m.is_planned(i, j)) r.sparse = true;
      if (!c.measured && !m.is_planned(i, j)) continue;  // left out by a sparse plan
      ++r.pairs_checked;
      if (!c.measured) {
        r.failures.push_back(failure(m.cpus[i], m.cpus[j], CheckFailureKind::not_measured));
        continue;
      }
      const std::size_t before = r.failures.size();
      const double gap = check_pair(m, c, m.cpus[i], m.cpus[j], s, r);
      offset_failed[i * n + j] = gap > 0 ? 1 : 2;
      if (gap > worst_offset_gap && gap > 0) {
        worst_offset_gap = gap;
        for (std::size_t k = before; k < r.failures.size(); ++k) {
          if (r.failures[k].kind == CheckFailureKind::offset) worst_offset_index = k;
        }
      }
    }
  }
  if (!m.cpu.bands_consistent) r.failures.push_back(failure(-1, -1, CheckFailureKind::inconsistent_bands));
  r.cpus_off = cpus_off(m, offset_failed);
  r.synchronized = r.failures.empty();
  if (r.synchronized) return r;
  // The reason names the largest offset failure if any (one of a CPU off from the rest when
  // there is one, so that the sentence naming that CPU shows one of its pairs), else the
  // most important kind.
  std::size_t shown = 0;
  if (worst_offset_gap > 0) {
    shown = worst_offset_index;
    if (!r.cpus_off.empty()) {
      const auto off = [&](int cpu) {
        return std::find(r.cpus_off.begin(), r.cpus_off.end(), cpu) != r.cpus_off.end();
      };
      double worst_off_gap = -1;
      for (std::size_t k = 0; k < r.failures.size(); ++k) {
        const CheckFailure& f = r.failures[k];
        if (f.kind == CheckFailureKind::offset && (off(f.a) || off(f.b)) && f.gap_ticks > worst_off_gap) {
          worst_off_gap = f.gap_ticks;
          shown = k;
        }
      }
    }
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
