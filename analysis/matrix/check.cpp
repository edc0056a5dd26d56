#include "matrix/check.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "pair/verdict.hpp"

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

std::string pair_label(int a, int b) { return std::to_string(a) + "->" + std::to_string(b); }

/// The failures of one measured ordered pair, in the order they are found. Returns the
/// offset band's gap to the tolerance (0 when they meet or there is no band).
double check_pair(const RecordedVariant& recv, const PairCell& c, int a, int b, const CheckSettings& s,
                  CheckResult& r) {
  auto fail = [&](CheckFailureKind kind) -> CheckFailure& { return r.failures.emplace_back(failure(a, b, kind)); };
  if (c.self_inconsistent > 0 && variant_orders_earlier_loads(recv)) {
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
  if (c.roles_disagree) fail(CheckFailureKind::roles_disagree);
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

/// Whether the measured pairs link every CPU of `m` to every other (one connected graph):
/// then a verdict over them says something of every CPU, as a sparse design's does.
bool pairs_link_every_cpu(const MatrixResult& m) {
  const std::size_t n = m.size();
  std::vector<std::size_t> parent(n);
  std::iota(parent.begin(), parent.end(), std::size_t{0});
  const auto root = [&](std::size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  std::size_t groups = n;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j || !m.at(i, j).measured) continue;
      const std::size_t x = root(i), y = root(j);
      if (x != y) {
        parent[x] = y;
        --groups;
      }
    }
  }
  return groups <= 1;
}

/// The failure the reason names when no finding is proven: the largest offset step if
/// any, else the largest offset failure (one of a CPU off from the rest when there is one,
/// so that the sentence naming that CPU shows one of its pairs), else the most important kind.
std::size_t shown_failure(const CheckResult& r, double worst_offset_gap, std::size_t worst_offset_index) {
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
  if (largest_step) return *largest_step;
  if (worst_offset_gap > 0) {
    std::size_t shown = worst_offset_index;
    double worst_off_gap = -1;
    for (std::size_t k = 0; k < r.failures.size() && !r.cpus_off.empty(); ++k) {
      const CheckFailure& f = r.failures[k];
      if (f.kind == CheckFailureKind::offset && (off(f.a) || off(f.b)) && f.gap_ticks > worst_off_gap) {
        worst_off_gap = f.gap_ticks;
        shown = k;
      }
    }
    return shown;
  }
  std::size_t shown = 0;
  for (std::size_t i = 1; i < r.failures.size(); ++i) {
    if (r.failures[i].kind < r.failures[shown].kind) shown = i;
  }
  return shown;
}

void conclude(CheckResult& r, CheckOutcome outcome, InconclusiveWhy why = InconclusiveWhy::none) {
  r.outcome = outcome;
  r.inconclusive = outcome == CheckOutcome::inconclusive ? why : InconclusiveWhy::none;
  r.synchronized = outcome == CheckOutcome::synchronized;
}

}  // namespace

CheckResult decide_check(const CheckEvidence& evidence, const CheckSettings& s) {
  const MatrixResult& m = evidence.matrix;
  CheckResult r;
  r.warnings = weakening(evidence.warnings);
  r.settings = s;
  r.tsc_hz = m.tsc_hz;
  r.recv = m.recv;
  r.lost = evidence.lost;
  const std::size_t n = m.size();
  r.cpus = n;
  if (n < 2) {
    if (n == 1) r.only_cpu = m.cpus[0];
    conclude(r, CheckOutcome::inconclusive, InconclusiveWhy::one_cpu);
    return r;
  }
  double worst_offset_gap = -1;
  std::size_t worst_offset_index = 0;
  std::vector<std::string> incomplete_pairs;
  std::size_t measured = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      const PairCell& c = m.at(i, j);
      if (!m.is_planned(i, j)) r.sparse = true;
      if (!c.measured && !m.is_planned(i, j)) continue;  // left out by a sparse plan
      ++r.pairs_checked;
      const int a = m.cpus[i], b = m.cpus[j];
      if (!c.measured) {
        r.missing.push_back(pair_label(a, b));
        continue;
      }
      ++measured;
      if (!c.incomplete.empty()) incomplete_pairs.push_back(pair_label(a, b) + " (" + c.incomplete + ")");
      if (too_few_rounds(c.rounds)) {
        // No verdict rests on it (docs/method.md §3.1); rounds impossible by themselves
        // still fail it under a read that orders loads.
        ++r.too_few_pairs;
        r.fewest_rounds = r.too_few_pairs == 1 ? c.rounds : std::min(r.fewest_rounds, c.rounds);
        if (c.self_inconsistent > 0 && variant_orders_earlier_loads(m.recv)) {
          r.failures.push_back(failure(a, b, CheckFailureKind::self_inconsistent));
          r.failures.back().self_inconsistent = c.self_inconsistent;
        }
        continue;
      }
      const std::size_t before = r.failures.size();
      const double gap = check_pair(m.recv, c, a, b, s, r);
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
  r.missing_needed = !r.missing.empty() && !pairs_link_every_cpu(m);
  if (!r.failures.empty()) r.shown = shown_failure(r, worst_offset_gap, worst_offset_index);
  for (std::size_t i = 0; i < r.failures.size(); ++i) {
    const bool new_pair = i == 0 || r.failures[i].a != r.failures[i - 1].a || r.failures[i].b != r.failures[i - 1].b;
    if (new_pair && r.failures[i].a >= 0) ++r.failing_pairs;
  }

  if (measured == 0 && !evidence.unjudged.empty()) {
    r.unjudged = evidence.unjudged;
    conclude(r, CheckOutcome::inconclusive, InconclusiveWhy::unjudged);
  } else if (!evidence.cut_short.empty() || !incomplete_pairs.empty()) {
    r.cut_short = evidence.cut_short;
    if (r.cut_short.empty()) {
      r.cut_short = "the run of pair " + incomplete_pairs.front() + " is not complete";
      if (incomplete_pairs.size() > 1) r.cut_short += ", and " + std::to_string(incomplete_pairs.size() - 1) + " more";
    }
    conclude(r, CheckOutcome::incomplete);
  } else if (!r.failures.empty()) {
    conclude(r, CheckOutcome::not_synchronized);
  } else if (measured == 0 || r.missing_needed) {
    r.missing_needed = true;
    conclude(r, CheckOutcome::inconclusive, InconclusiveWhy::pairs_missing);
  } else if (r.too_few_pairs > 0) {
    conclude(r, CheckOutcome::inconclusive, InconclusiveWhy::too_few_rounds);
  } else if (s.max_bound_ticks > 0 && r.bound_ticks > s.max_bound_ticks) {
    conclude(r, CheckOutcome::inconclusive, InconclusiveWhy::max_bound);
  } else {
    conclude(r, CheckOutcome::synchronized);
  }
  return r;
}

PairStanding pair_standing(const PairCell& c, const CheckSettings& s, const RecordedVariant& recv) {
  if (too_few_rounds(c.rounds)) return PairStanding::too_few_rounds;
  CheckResult scratch;
  check_pair(recv, c, -1, -1, s, scratch);
  if (!scratch.failures.empty()) return PairStanding::fails;
  return s.max_bound_ticks > 0 && scratch.bound_ticks > s.max_bound_ticks ? PairStanding::loose : PairStanding::proven;
}

CheckResult decide_pair(const PairAnalysis& p) {
  const auto number = [](const std::string& text, int fallback) {
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc{} && end == text.data() + text.size() && value >= 0 ? value : fallback;
  };
  int a = number(p.a, 0), b = number(p.b, 1);
  if (a == b) a = 0, b = 1;  // a same-CPU run is judged as a pair of two counters
  MatrixResult m;
  m.cpus = {a, b};
  m.labels = {std::to_string(a), std::to_string(b)};
  m.send = p.send;
  m.recv = p.recv;
  m.tsc_hz = p.tsc_hz;
  m.quantum_ticks = p.quantum_ticks;
  std::vector<PairCell> cells(4);
  cells[1] = cell_from_analysis(p);
  m.cells = PairCells(cells);
  m.planned = {0, 1, 0, 0};
  m.cpu = solve_cpu_offsets(m.cpus, m.cells, m.quantum_ticks);
  CheckEvidence evidence(m);
  return decide_check(evidence, CheckSettings{});
}

int exit_code_of(CheckOutcome outcome) {
  switch (outcome) {
    case CheckOutcome::synchronized: return kExitOk;
    case CheckOutcome::not_synchronized: return kExitCheckFailed;
    case CheckOutcome::inconclusive: return kExitInconclusive;
    case CheckOutcome::incomplete: return kExitRuntime;
  }
  return kExitRuntime;
}

CheckOutcome most_serious(const std::vector<CheckOutcome>& outcomes) {
  for (const CheckOutcome o : {CheckOutcome::not_synchronized, CheckOutcome::incomplete, CheckOutcome::inconclusive}) {
    if (std::find(outcomes.begin(), outcomes.end(), o) != outcomes.end()) return o;
  }
  return CheckOutcome::synchronized;
}

}  // namespace tscaudit
