#include "matrix/counter_table_of.hpp"

#include <algorithm>
#include <cmath>
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

  // The pairs that can be moved: a band and a drift band, and an initiator whose own offset
  // from the reference is bounded (its instant is on its own counter).
  const auto usable = [&](std::size_t a, std::size_t b) {
    const PairCell& c = m.at(a, b);
    return a != b && c.measured && c.band_feasible && finite(c.offset_lo_ticks) && finite(c.offset_hi_ticks) &&
           finite(c.drift_lo_ppb) && finite(c.drift_hi_ppb) && finite(m.cpu.lo_ticks[a]) && finite(m.cpu.hi_ticks[a]);
  };
  // The moment: the median of the instants, on the reference counter by the estimates.
  std::vector<std::uint64_t> instants;
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      if (!usable(a, b)) continue;
      const double x = finite(m.cpu.offset_ticks[a]) ? m.cpu.offset_ticks[a] : (m.cpu.lo_ticks[a] + m.cpu.hi_ticks[a]) / 2;
      instants.push_back(m.at(a, b).band_t_ref_tick - static_cast<std::uint64_t>(std::llround(x)));
    }
  }
  if (instants.empty()) return t;
  const std::uint64_t first = instants.front();
  std::vector<std::int64_t> rel;
  rel.reserve(instants.size());
  for (std::uint64_t i : instants) rel.push_back(static_cast<std::int64_t>(i - first));
  std::nth_element(rel.begin(), rel.begin() + static_cast<std::ptrdiff_t>(rel.size() / 2), rel.end());
  t.as_of_counter = first + static_cast<std::uint64_t>(rel[rel.size() / 2]);

  PairCells offsets;
  PairCells drifts;
  offsets.assign(n * n, PairCell{});
  drifts.assign(n * n, PairCell{});
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      if (!usable(a, b)) continue;
      const PairCell& c = m.at(a, b);
      // Δ = as_of − the band's instant on the reference counter, which is band_t_ref_tick
      // (a's counter) − x_a, x_a within a's bounds; plus the band's width and a tick for
      // an instant carried over to b's counter by the estimate (matrix.cpp, join_roles).
      const double back = static_cast<double>(static_cast<std::int64_t>(c.band_t_ref_tick - t.as_of_counter));
      const double slack = (c.offset_hi_ticks - c.offset_lo_ticks) + 1;
      const double d_lo = -back + m.cpu.lo_ticks[a] - slack;
      const double d_hi = -back + m.cpu.hi_ticks[a] + slack;
      double r_lo = 0;
      double r_hi = 0;
      rate_box(c, r_lo, r_hi);
      const double c1 = r_lo * d_lo, c2 = r_lo * d_hi, c3 = r_hi * d_lo, c4 = r_hi * d_hi;
      PairCell& o = offsets[a * n + b];
      o.measured = o.band_feasible = true;
      o.offset_lo_ticks = c.offset_lo_ticks + std::min({c1, c2, c3, c4}) - 1e-6;
      o.offset_hi_ticks = c.offset_hi_ticks + std::max({c1, c2, c3, c4}) + 1e-6;
      o.offset_ticks = (o.offset_lo_ticks + o.offset_hi_ticks) / 2;
      PairCell& d = drifts[a * n + b];
      d.measured = d.band_feasible = true;
      d.offset_lo_ticks = r_lo * 1e9;
      d.offset_hi_ticks = r_hi * 1e9;
      d.offset_ticks = (d.offset_lo_ticks + d.offset_hi_ticks) / 2;
    }
  }
  const CpuOffsets o = solve_cpu_offsets(m.cpus, offsets, 1);
  const CpuOffsets d = solve_cpu_offsets(m.cpus, drifts, 1);
  if (!o.bands_consistent || !d.bands_consistent) return t;
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
