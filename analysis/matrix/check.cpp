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
/// 1 failed on its offset, 2 passed it); docs/method.md §10.3.
///
/// The failing pairs form a graph over the CPUs (an edge where either role fails). A greedy
/// vertex cover explains them by few CPUs: take the CPU with the most failing partners not
/// yet covered (ties: the lower CPU number), name it when it has at least 2, remove its
/// pairs, repeat until none qualifies. The CPUs so named are kept only when they are fewer
/// than half of the CPUs the failing pairs involve: a CPU off shows as a star (it and the
/// many partners it fails with), while a package off as a whole fails every pair across
/// and either package's CPUs cover them as well as the other's, so none is named; nor is a
/// CPU that an unnamed one could replace with the very same failing pairs (a triangle).
/// O(n² + pairs + named × n).
/// The named CPUs x with an unnamed CPU y of the same closed neighbourhood in the graph of
/// failing pairs ({x} ∪ failing[x] == {y} ∪ failing[y]); such a y is one of x's partners.
/// \pre each failing[i] is increasing.
std::vector<std::size_t> failing_twins_named(const std::vector<std::vector<std::size_t>>& failing,
                                             const std::vector<bool>& named) {
  const auto closed = [&](std::size_t i) {
    std::vector<std::size_t> s = failing[i];
    s.insert(std::lower_bound(s.begin(), s.end(), i), i);
    return s;
  };
  std::vector<std::size_t> twins;
  for (std::size_t x = 0; x < failing.size(); ++x) {
    if (!named[x]) continue;
    const std::vector<std::size_t> nx = closed(x);
    const bool twin = std::any_of(failing[x].begin(), failing[x].end(), [&](std::size_t y) {
      return !named[y] && failing[y].size() == failing[x].size() && closed(y) == nx;
    });
    if (twin) twins.push_back(x);
  }
  return twins;
}

std::vector<int> cpus_off(const MatrixResult& m, const std::vector<std::uint8_t>& outcome) {
  const std::size_t n = m.size();
  std::vector<std::vector<std::size_t>> failing(n);  // failing partners, both roles merged
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      if (outcome[i * n + j] == 1 || outcome[j * n + i] == 1) {
        failing[i].push_back(j);
        failing[j].push_back(i);
      }
    }
  }
  std::size_t involved = 0;
  std::vector<std::size_t> uncovered(n);  // failing partners not yet covered by a named CPU
  for (std::size_t i = 0; i < n; ++i) {
    uncovered[i] = failing[i].size();
    if (uncovered[i] > 0) ++involved;
  }
  std::vector<bool> named(n, false);
  std::vector<int> off;
  for (;;) {
    std::size_t best = n;
    for (std::size_t i = 0; i < n; ++i) {
      if (named[i] || uncovered[i] < 2) continue;
      if (best == n || uncovered[i] > uncovered[best] ||
          (uncovered[i] == uncovered[best] && m.cpus[i] < m.cpus[best])) {
        best = i;
      }
    }
    if (best == n) break;
    named[best] = true;
    off.push_back(m.cpus[best]);
    for (const std::size_t j : failing[best]) {
      if (!named[j]) --uncovered[j];
    }
    uncovered[best] = 0;
  }
  // Fewer than half of the CPUs involved, else the failures are not a few CPUs' doing.
  if (2 * off.size() >= involved) return {};
  // A named CPU with an unnamed twin (the same failing pairs, the two of them aside: a
  // triangle of failing pairs) was picked by its number alone; the data do not single it out.
  for (const std::size_t x : failing_twins_named(failing, named)) named[x] = false;
  std::vector<int> in_matrix_order;
  for (std::size_t i = 0; i < n; ++i) {
    if (named[i]) in_matrix_order.push_back(m.cpus[i]);
  }
  return in_matrix_order;
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

}  // namespace tscaudit
