#include "matrix/counter_table_of.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace tscaudit {
namespace {

bool finite(double v) { return std::isfinite(v); }

/// A drift band of a pair, as a rate, with one part in a thousand more either way: the
/// pair's rate is against a's counter, the table's against the reference's, and the two
/// counters' rates differ by at most the fit's prior (1e-3, estimate/fit.hpp).
void rate_box(const PairCell& c, double& lo, double& hi) {
  lo = c.drift_lo_ppb * 1e-9;
  hi = c.drift_hi_ppb * 1e-9;
  lo -= std::abs(lo) * 1e-3;
  hi += std::abs(hi) * 1e-3;
}

}  // namespace

CounterTable counter_table_of(const MatrixResult& m) {
  CounterTable t;
  t.counter_hz = m.tsc_hz;
  t.quantum_ticks = std::max<std::int64_t>(m.quantum_ticks, 1);
  const std::size_t n = m.size();
  if (n == 0) return t;
  t.reference_cpu = m.cpus[0];
  t.bands.assign(static_cast<std::size_t>(*std::max_element(m.cpus.begin(), m.cpus.end())) + 1, CpuCounterBand{});
  CpuCounterBand& ref = t.bands[static_cast<std::size_t>(t.reference_cpu)];
  ref.cpu = t.reference_cpu;

  // The pairs that can be moved: a band and a drift band.
  const auto usable = [&](std::size_t a, std::size_t b) {
    const PairCell& c = m.at(a, b);
    return a != b && c.measured && c.band_feasible && finite(c.offset_lo_ticks) && finite(c.offset_hi_ticks) &&
           finite(c.drift_lo_ppb) && finite(c.drift_hi_ppb);
  };
  // The moment: the median of the instants, on the reference counter by the estimates (any
  // moment will do: the bands below hold at whichever is chosen).
  const auto estimate = [&](std::size_t a) {
    if (finite(m.cpu.offset_ticks[a])) return m.cpu.offset_ticks[a];
    return finite(m.cpu.lo_ticks[a]) && finite(m.cpu.hi_ticks[a]) ? (m.cpu.lo_ticks[a] + m.cpu.hi_ticks[a]) / 2 : 0.0;
  };
  std::vector<std::uint64_t> instants;
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      if (!usable(a, b)) continue;
      instants.push_back(m.at(a, b).band_t_ref_tick - static_cast<std::uint64_t>(std::llround(estimate(a))));
    }
  }
  if (instants.empty()) return t;
  const std::uint64_t first = instants.front();
  std::vector<std::int64_t> rel;
  rel.reserve(instants.size());
  for (std::uint64_t i : instants) rel.push_back(static_cast<std::int64_t>(i - first));
  std::nth_element(rel.begin(), rel.begin() + static_cast<std::ptrdiff_t>(rel.size() / 2), rel.end());
  t.as_of_counter = first + static_cast<std::uint64_t>(rel[rel.size() / 2]);

  // Each pair's band moved to the moment. The pair's line is θ_ab against a's counter, and
  // at the moment a's counter reads as_of + x_a, x_a = θ_a there: the band moves by the
  // drift band times Δ = as_of + x_a − band_t_ref_tick, plus the band's width and a tick for
  // an instant carried over to b's counter by the estimate (matrix.cpp, join_roles). x_a is
  // what is being solved for, so it is bounded by |x_a| <= B for every CPU, and B proven:
  // the bands solved with B put every CPU within ±F(B). A pair's moved band moves by at most
  // R (its largest drift) per unit of B, and a shortest path leaves each CPU at most once,
  // by a pair that CPU is in, so F grows by at most s = Σ over CPUs of the largest R of
  // their pairs per unit of B. When s < 1 and F(B) <= B, the true largest |x| is within B
  // (were it B* > B, then B* <= F(B) + s(B* − B) < B*). (The per-CPU bounds of the matrix
  // do not serve: they join the pairs' bands at their own instants, which a drifting CPU's
  // contradict.)
  std::vector<double> rate_of_cpu(n, 0);  // the largest R of the CPU's pairs
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      if (!usable(a, b)) continue;
      double r_lo = 0, r_hi = 0;
      rate_box(m.at(a, b), r_lo, r_hi);
      const double r = std::max(std::abs(r_lo), std::abs(r_hi));
      rate_of_cpu[a] = std::max(rate_of_cpu[a], r);
      rate_of_cpu[b] = std::max(rate_of_cpu[b], r);
    }
  }
  double slope = 0;
  for (double r : rate_of_cpu) slope += r;
  if (!(slope < 1)) return t;
  std::vector<std::uint8_t> bounded(n, 1);  // CPUs whose x the last solution bounds
  const auto moved = [&](double bound) {
    PairCells offsets;
    offsets.assign(n * n, PairCell{});
    for (std::size_t a = 0; a < n; ++a) {
      for (std::size_t b = 0; b < n; ++b) {
        if (!usable(a, b) || bounded[a] == 0) continue;
        const PairCell& c = m.at(a, b);
        const double ahead = static_cast<double>(static_cast<std::int64_t>(t.as_of_counter - c.band_t_ref_tick));
        const double slack = (c.offset_hi_ticks - c.offset_lo_ticks) + 1;
        const double d_lo = ahead - bound - slack;
        const double d_hi = ahead + bound + slack;
        double r_lo = 0;
        double r_hi = 0;
        rate_box(c, r_lo, r_hi);
        const double c1 = r_lo * d_lo, c2 = r_lo * d_hi, c3 = r_hi * d_lo, c4 = r_hi * d_hi;
        PairCell& o = offsets[a * n + b];
        o.measured = o.band_feasible = true;
        o.offset_lo_ticks = c.offset_lo_ticks + std::min({c1, c2, c3, c4}) - 1e-6;
        o.offset_hi_ticks = c.offset_hi_ticks + std::max({c1, c2, c3, c4}) + 1e-6;
        o.offset_ticks = (o.offset_lo_ticks + o.offset_hi_ticks) / 2;
      }
    }
    return solve_cpu_offsets(m.cpus, offsets, 1);
  };
  double bound = 0;
  std::optional<CpuOffsets> proven;
  for (int pass = 0; pass < 16 && !proven; ++pass) {
    const CpuOffsets o = moved(bound);
    double reach = 0;  // F(bound)
    bool same = true;
    for (std::size_t i = 0; i < n; ++i) {
      const bool now = finite(o.lo_ticks[i]) && finite(o.hi_ticks[i]);
      if (now) reach = std::max({reach, std::abs(o.lo_ticks[i]), std::abs(o.hi_ticks[i])});
      same = same && now == (bounded[i] != 0);
      bounded[i] = now ? 1 : 0;
    }
    if (o.bands_consistent && same && reach <= bound) {
      proven = o;
    } else if (o.bands_consistent) {
      bound = std::max(2 * bound, reach * (1 + 1e-6) + 1);
    } else {
      bound = 2 * bound + 1000;  // bands too narrow for offsets this far apart yet
    }
  }
  if (!proven) return t;
  const CpuOffsets& o = *proven;

  PairCells drifts;
  drifts.assign(n * n, PairCell{});
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      if (!usable(a, b)) continue;
      double r_lo = 0;
      double r_hi = 0;
      rate_box(m.at(a, b), r_lo, r_hi);
      PairCell& d = drifts[a * n + b];
      d.measured = d.band_feasible = true;
      d.offset_lo_ticks = r_lo * 1e9;
      d.offset_hi_ticks = r_hi * 1e9;
      d.offset_ticks = (d.offset_lo_ticks + d.offset_hi_ticks) / 2;
    }
  }
  const CpuOffsets d = solve_cpu_offsets(m.cpus, drifts, 1);
  if (!d.bands_consistent) return t;
  for (std::size_t i = 1; i < n; ++i) {
    if (!finite(o.lo_ticks[i]) || !finite(o.hi_ticks[i]) || !finite(d.lo_ticks[i]) || !finite(d.hi_ticks[i])) continue;
    CpuCounterBand& band = t.bands[static_cast<std::size_t>(m.cpus[i])];
    band.cpu = m.cpus[i];
    band.offset_lo_ticks = o.lo_ticks[i];
    band.offset_hi_ticks = o.hi_ticks[i];
    band.drift_lo_ppb = d.lo_ticks[i];
    band.drift_hi_ppb = d.hi_ticks[i];
  }
  return t;
}

}  // namespace tscaudit
