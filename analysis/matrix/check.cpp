#include "matrix/check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace tscaudit {
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
  if (!c.steps.empty()) {
    // Counters that jumped are not synchronized, whatever the band after the last jump
    // says; that band is judged below as well (where the counters stand now).
    CheckFailure& f = fail(CheckFailureKind::offset_stepped);
    f.steps = c.steps.size();
    const auto largest = std::max_element(c.steps.begin(), c.steps.end(), [](const StepVerdict& x, const StepVerdict& y) {
      return std::fabs(x.size_ticks) < std::fabs(y.size_ticks);
    });
    f.step_ticks = largest->size_ticks;
    f.step_round = largest->round;
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
    r.bound_ticks = std::max({r.bound_ticks, std::fabs(c.offset_lo_ticks), std::fabs(c.offset_hi_ticks)});
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
      if (gap > worst_offset_gap && gap > 0) {
        worst_offset_gap = gap;
        for (std::size_t k = before; k < r.failures.size(); ++k) {
          if (r.failures[k].kind == CheckFailureKind::offset) worst_offset_index = k;
        }
      }
    }
  }
  if (!m.cpu.bands_consistent) r.failures.push_back(failure(-1, -1, CheckFailureKind::inconsistent_bands));
  r.diagnosis = diagnose(m, DiagnosisSettings{s.tolerance_ticks, s.drift_tolerance_ppb});
  r.cpus_off = r.diagnosis.cpus_off;
  if (!r.failures.empty()) {
    r.outcome = CheckOutcome::not_synchronized;
  } else if (s.max_bound_ticks > 0 && r.bound_ticks > s.max_bound_ticks) {
    r.outcome = CheckOutcome::inconclusive;
  } else {
    r.outcome = CheckOutcome::synchronized;
  }
  r.synchronized = r.outcome == CheckOutcome::synchronized;
  if (r.failures.empty()) return r;
  // The reason names the largest step of an offset if any, else the largest offset failure
  // if any (one of a CPU off from the rest when there is one, so that the sentence naming
  // that CPU shows one of its pairs), else the most important kind.
  std::size_t shown = 0;
  const auto off = [&](int cpu) { return std::find(r.cpus_off.begin(), r.cpus_off.end(), cpu) != r.cpus_off.end(); };
  std::optional<std::size_t> largest_step;
  for (std::size_t k = 0; k < r.failures.size(); ++k) {
    const CheckFailure& f = r.failures[k];
    if (f.kind != CheckFailureKind::offset_stepped) continue;
    const auto rank = [&](const CheckFailure& g) {
      return std::pair{r.cpus_off.empty() || off(g.a) || off(g.b), std::fabs(g.step_ticks)};
    };
    if (!largest_step || rank(f) > rank(r.failures[*largest_step])) largest_step = k;
  }
  if (largest_step) {
    shown = *largest_step;
  } else if (worst_offset_gap > 0) {
    shown = worst_offset_index;
    if (!r.cpus_off.empty()) {
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

void mark_cut_short(CheckResult& result, std::string why) {
  result.outcome = CheckOutcome::incomplete;
  result.synchronized = false;
  result.cut_short = std::move(why);
}

}  // namespace tscaudit
