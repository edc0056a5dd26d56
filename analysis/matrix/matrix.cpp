#include "matrix/matrix.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "estimate/network_offsets.hpp"
#include "pair/verdict.hpp"

namespace tscaudit {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool finite(double v) { return std::isfinite(v); }

/// Least squares x (x_0 = 0) for θ_ab ≈ x_b − x_a over every measured pair.
std::vector<double> least_squares_offsets(std::size_t n, const PairCells& cells) {
  std::vector<OffsetEdge> edges;
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      const double theta = cells[a * n + b].offset_ticks;
      if (a != b && finite(theta)) edges.push_back(OffsetEdge{a, b, theta});
    }
  }
  return solve_network_offsets(n, edges);
}

/// A cell's own role: its role_* fields, or for a cell made without them (by hand, a
/// matrix from elsewhere), the band it carries.
struct RoleView {
  double offset, lo, hi;
  bool feasible;
};
RoleView role_of(const PairCell& c) {
  if (std::isfinite(c.role_offset_ticks) || c.role_band_feasible) {
    return {c.role_offset_ticks, c.role_offset_lo_ticks, c.role_offset_hi_ticks, c.role_band_feasible};
  }
  return {c.offset_ticks, c.offset_lo_ticks, c.offset_hi_ticks, c.band_feasible};
}

/// The drift of θ' = −θ on the other counter, for θ drifting by `rate` on this one: the
/// counters are linear in each other, TSC_b = (1 + ρ) TSC_a + c, so ρ' = −ρ / (1 + ρ).
double turned_rate(double rate) { return -rate / (1 + rate); }

}  // namespace

void join_roles(PairCell& ab, PairCell& ba, const FrameHulls& ab_hulls, const FrameHulls& ba_hulls) {
  const std::optional<BothRolesFit> fit = fit_both_roles(ab_hulls, ba_hulls);
  if (!fit) return;
  const HardBand& band = fit->free_fit.band;
  if (!band.feasible) {
    ab.roles_disagree = ba.roles_disagree = true;
    return;
  }
  const double rate = fit->line.drift;
  ab.offset_ticks = fit->line.offset_ticks;
  ab.band_t_ref_tick = fit->t_ref_tick;
  ab.offset_lo_ticks = band.offset_lo_ticks;
  ab.offset_hi_ticks = band.offset_hi_ticks;
  ab.drift_ppb = rate * 1e9;
  ab.drift_lo_ppb = band.drift_lo * 1e9;
  ab.drift_hi_ppb = band.drift_hi * 1e9;
  ab.drift_detectable = !fit->zero_drift;
  ab.band_feasible = true;
  ab.band_source = BandSource::both_roles;
  // The same proof from b's side: θ' = −θ, at the same instant.
  ba.offset_ticks = 0.0 - ab.offset_ticks;
  // The same instant on b's counter, θ ticks on (within the band: a few hundred ticks,
  // which the published table allows for: matrix/counter_table_of.cpp).
  const double shift = std::isfinite(fit->line.offset_ticks) ? fit->line.offset_ticks : 0.0;
  ba.band_t_ref_tick = fit->t_ref_tick + static_cast<std::uint64_t>(std::llround(shift));
  ba.offset_lo_ticks = 0.0 - ab.offset_hi_ticks;
  ba.offset_hi_ticks = 0.0 - ab.offset_lo_ticks;
  ba.drift_ppb = turned_rate(rate) * 1e9;
  ba.drift_lo_ppb = turned_rate(band.drift_hi) * 1e9;
  ba.drift_hi_ppb = turned_rate(band.drift_lo) * 1e9;
  ba.drift_detectable = ab.drift_detectable;
  ba.band_feasible = true;
  ba.band_source = BandSource::both_roles;
}

PairCell cell_from_analysis(const PairAnalysis& p) {
  PairCell c;
  c.measured = true;
  c.rounds = p.rounds;
  if (p.incomplete) c.incomplete = *p.incomplete;
  // After a step the offset is the last segment's: where the counters stand now. The
  // whole run has no line.
  const PairAnalysis& fitted = p.segments.empty() ? p : p.segments.back();
  c.offset_ticks = fitted.fit.line.offset_ticks;
  c.band_t_ref_tick = fitted.t_ref_tick;
  c.band_feasible = fitted.fit.band.feasible;
  if (c.band_feasible) {
    c.offset_lo_ticks = fitted.fit.band.offset_lo_ticks;
    c.offset_hi_ticks = fitted.fit.band.offset_hi_ticks;
  }
  c.drift_ppb = fitted.fit.line.drift * 1e9;
  if (fitted.free_fit.band.feasible) {
    c.drift_lo_ppb = fitted.free_fit.band.drift_lo * 1e9;
    c.drift_hi_ppb = fitted.free_fit.band.drift_hi * 1e9;
  }
  c.drift_detectable = !fitted.zero_drift;
  c.role_offset_ticks = c.offset_ticks;
  c.role_offset_lo_ticks = c.offset_lo_ticks;
  c.role_offset_hi_ticks = c.offset_hi_ticks;
  c.role_band_feasible = c.band_feasible;
  c.rtt_min_ticks = static_cast<double>(p.rtt_ticks.min());
  c.rtt_p50_ticks = static_cast<double>(p.rtt_ticks.value_at_percentile(50));
  c.causality_violations = p.fwd_classes.causality_violation + p.rev_classes.causality_violation;
  c.negative = p.fwd_ticks.negative_count() + p.rev_ticks.negative_count();
  c.self_inconsistent = p.self_inconsistent;
  for (const OffsetStep& step : p.steps) c.steps.push_back(step_verdict(step));
  c.verdict = p.verdict;
  return c;
}

CpuOffsets solve_cpu_offsets(const std::vector<int>& cpus, const PairCells& cells, std::int64_t quantum_ticks) {
  const std::size_t n = cpus.size();
  const double q = static_cast<double>(quantum_ticks);
  CpuOffsets r;
  r.offset_ticks.assign(n, kNoValue);
  r.lo_ticks.assign(n, kNoValue);
  r.hi_ticks.assign(n, kNoValue);
  r.residual_ticks.assign(n * n, kNoValue);
  r.antisymmetry_ticks.assign(n * n, kNoValue);
  if (n == 0) return r;
  auto cell = [&](std::size_t a, std::size_t b) -> const PairCell& { return cells[a * n + b]; };

  r.offset_ticks = least_squares_offsets(n, cells);

  // Hard bounds: d[i][j] is the tightest upper bound on x_j − x_i the bands imply.
  std::vector<double> d(n * n, kInf);
  for (std::size_t i = 0; i < n; ++i) d[i * n + i] = 0;
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      const PairCell& c = cell(a, b);
      if (a == b || !c.band_feasible || !finite(c.offset_lo_ticks) || !finite(c.offset_hi_ticks)) continue;
      d[a * n + b] = std::min(d[a * n + b], c.offset_hi_ticks);
      d[b * n + a] = std::min(d[b * n + a], -c.offset_lo_ticks);
    }
  }
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t i = 0; i < n; ++i) {
      const double dik = d[i * n + k];
      if (std::isinf(dik)) continue;
      for (std::size_t j = 0; j < n; ++j) {
        const double via = dik + d[k * n + j];
        if (via < d[i * n + j]) d[i * n + j] = via;
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    // A negative cycle: the bands cannot all hold. Allow rounding in the sums.
    if (d[i * n + i] < -1e-6) r.bands_consistent = false;
  }
  if (r.bands_consistent) {
    for (std::size_t c = 0; c < n; ++c) {
      if (std::isfinite(d[c])) r.hi_ticks[c] = d[c];
      if (std::isfinite(d[c * n])) r.lo_ticks[c] = 0.0 - d[c * n];  // 0.0 - : never "-0"
    }
  }

  // Residuals of the least-squares solution, and the antisymmetry of the two roles.
  double sum_sq = 0;
  std::size_t residuals = 0;
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      if (a == b) continue;
      const PairCell& ab = cell(a, b);
      const double predicted = r.offset_ticks[b] - r.offset_ticks[a];
      if (finite(ab.offset_ticks) && finite(predicted)) {
        const double res = ab.offset_ticks - predicted;
        r.residual_ticks[a * n + b] = res;
        sum_sq += res * res;
        ++residuals;
        if (ab.band_feasible && (predicted < ab.offset_lo_ticks - q || predicted > ab.offset_hi_ticks + q)) {
          PairDisagreement off;
          off.a = cpus[a];
          off.b = cpus[b];
          off.predicted_ticks = predicted;
          off.lo_ticks = ab.offset_lo_ticks;
          off.hi_ticks = ab.offset_hi_ticks;
          r.disagreeing.push_back(off);
        }
      }
      // The antisymmetry is the roles' own: each estimate set by its role's delays.
      const PairCell& ba = cell(b, a);
      const RoleView ra = role_of(ab), rb = role_of(ba);
      if (finite(ra.offset) && finite(rb.offset)) {
        const double anti = ra.offset + rb.offset;
        r.antisymmetry_ticks[a * n + b] = anti;
        if (a < b) {
          if (!finite(r.max_antisymmetry_ticks) || std::fabs(anti) > std::fabs(r.max_antisymmetry_ticks)) {
            r.max_antisymmetry_ticks = anti;
          }
          // The two roles measure the same θ: no one line fits both (the pair's band), or,
          // where they were not joined, θ_ab ∈ band_ab and −θ_ba ∈ −band_ba do not meet.
          const bool joined = ab.band_source == BandSource::both_roles;
          bool apart = ab.roles_disagree;
          if (!joined && !apart && ra.feasible && rb.feasible) {
            apart = std::max(ra.lo, -rb.hi) > std::min(ra.hi, -rb.lo);
          }
          if (apart) {
            PairDisagreement roles;
            roles.a = cpus[a];
            roles.b = cpus[b];
            roles.kind = PairDisagreement::Kind::roles_disagree;
            roles.lo_ticks = ra.lo;
            roles.hi_ticks = ra.hi;
            roles.other_lo_ticks = -rb.hi;
            roles.other_hi_ticks = -rb.lo;
            r.disagreeing.push_back(roles);
          }
        }
      }
    }
  }
  if (residuals > 0) r.rms_residual_ticks = std::sqrt(sum_sq / static_cast<double>(residuals));

  // Loop closure over triangles of role-averaged offsets.
  std::vector<double> psi(n * n, kNoValue);
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      if (a == b) continue;
      const double ab = role_of(cell(a, b)).offset, ba = role_of(cell(b, a)).offset;
      if (finite(ab) && finite(ba)) {
        psi[a * n + b] = (ab - ba) / 2;
      } else if (finite(ab)) {
        psi[a * n + b] = ab;
      } else if (finite(ba)) {
        psi[a * n + b] = -ba;
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      const double ij = psi[i * n + j];
      if (!finite(ij)) continue;
      for (std::size_t k = j + 1; k < n; ++k) {
        const double closure = ij + psi[j * n + k] + psi[k * n + i];
        if (finite(closure) &&
            (!finite(r.max_loop_closure_ticks) || std::fabs(closure) > std::fabs(r.max_loop_closure_ticks))) {
          r.max_loop_closure_ticks = closure;
          r.worst_loop = {cpus[i], cpus[j], cpus[k]};
        }
      }
    }
  }
  return r;
}

MatrixBuilder::MatrixBuilder(std::vector<int> cpus) {
  m_.cpus = std::move(cpus);
  const std::size_t n = m_.cpus.size();
  m_.cells.assign(n * n, PairCell{});
  for (std::size_t i = 0; i < n; ++i) index_.emplace(std::to_string(m_.cpus[i]), i);
}

void MatrixBuilder::add(const PairAnalysis& p) {
  auto index_of = [&](const std::string& text) -> std::size_t {
    const auto it = index_.find(text);
    if (it == index_.end()) throw InputError(p.source + ": CPU '" + text + "' is not among the matrix CPUs");
    return it->second;
  };
  const std::size_t a = index_of(p.a), b = index_of(p.b);
  const std::size_t n = m_.cpus.size();
  PairCell& c = m_.cells[a * n + b];
  if (c.measured) throw InputError(p.source + ": a second analysis of the pair " + p.a + "->" + p.b);
  c = cell_from_analysis(p);
  // One pair, one band: the first role's hulls wait for the second's (docs/method.md §3.7).
  const bool joinable = a != b && p.steps.empty() && p.free_fit.band.feasible && !too_few_rounds(p.rounds);
  if (joinable) {
    const auto other = waiting_.find(b * n + a);
    if (other != waiting_.end()) {
      join_roles(c, m_.cells[b * n + a], p.hulls, other->second);
      waiting_.erase(other);
    } else if (!m_.cells[b * n + a].measured) {
      waiting_.emplace(a * n + b, p.hulls);
    }
  }
  if (first_) {
    m_.send = p.send;
    m_.recv = p.recv;
    m_.tsc_hz = p.tsc_hz;
    first_ = false;
  }
  m_.quantum_ticks = std::max(m_.quantum_ticks, p.quantum_ticks);
}

MatrixResult MatrixBuilder::finish() {
  waiting_.clear();
  m_.cpu = solve_cpu_offsets(m_.cpus, m_.cells, m_.quantum_ticks);
  return std::move(m_);
}

MatrixResult build_matrix(const std::vector<int>& cpus, const std::vector<const PairAnalysis*>& pairs) {
  MatrixBuilder builder(cpus);
  for (const PairAnalysis* p : pairs) builder.add(*p);
  return builder.finish();
}

}  // namespace tscaudit
