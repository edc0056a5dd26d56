#include "order/order.hpp"

#include <algorithm>
#include <cmath>

namespace tscaudit {
namespace {

/// A signed distance of two counter values, exact as an integer (two's complement: a later
/// value minus an earlier one is positive even across a wrap of 2^64).
std::int64_t distance(std::uint64_t to, std::uint64_t from) { return static_cast<std::int64_t>(to - from); }

}  // namespace

bool offset_at(const CounterTable& table, int cpu, std::uint64_t counter, TickBand& out) {
  const CpuCounterBand* band = table.band_of(cpu);
  if (band == nullptr) return false;
  if (cpu == table.reference_cpu) {  // its own counter: exactly 0, at every moment
    out = {0, 0};
    return true;
  }
  const double lo0 = band->offset_lo_ticks;
  const double hi0 = band->offset_hi_ticks;
  const double rho_lo = band->drift_lo_ppb * 1e-9;
  const double rho_hi = band->drift_hi_ppb * 1e-9;
  if (!std::isfinite(lo0) || !std::isfinite(hi0) || !std::isfinite(rho_lo) || !std::isfinite(rho_hi) || lo0 > hi0 ||
      rho_lo > rho_hi) {
    return false;
  }
  const double rho = std::max(std::abs(rho_lo), std::abs(rho_hi));
  // θ(t) = θ0 + ρ·Δ, Δ = t − as_of on the reference counter, t = counter − θ(t). So
  // |θ| <= M + ρ(|Δ0| + |θ|), Δ0 = counter − as_of: |θ| <= W = (M + ρ|Δ0|) / (1 − ρ), and
  // Δ lies within Δ0 ± W. A drift band of half the counter's rate or more bounds nothing.
  if (rho >= 0.5) return false;
  const double d0 = static_cast<double>(distance(counter, table.as_of_counter));
  const double m = std::max(std::abs(lo0), std::abs(hi0));
  const double w = (m + rho * std::abs(d0)) / (1 - rho);
  const double d_lo = d0 - w;
  const double d_hi = d0 + w;
  // ρ·Δ over the box [ρ_lo, ρ_hi] × [Δ_lo, Δ_hi]: a bilinear form, extreme at the corners.
  const double c1 = rho_lo * d_lo;
  const double c2 = rho_lo * d_hi;
  const double c3 = rho_hi * d_lo;
  const double c4 = rho_hi * d_hi;
  const double move_lo = std::min({c1, c2, c3, c4});
  const double move_hi = std::max({c1, c2, c3, c4});
  // Outward by more than the rounding of these few operations (a relative 1e-12 of the
  // largest term, and a millionth of a tick), so that the band never excludes the truth.
  const double slack = 1e-12 * (std::abs(d0) * rho + m + w) + 1e-6;
  out.lo_ticks = lo0 + move_lo - slack;
  out.hi_ticks = hi0 + move_hi + slack;
  return true;
}

int order_of(const CounterTable& table, int cpu_a, std::uint64_t counter_a, int cpu_b, std::uint64_t counter_b,
             bool& known) {
  known = false;
  if (cpu_a == cpu_b) {
    if (table.band_of(cpu_a) == nullptr) return 0;
    known = true;
    // One counter: its reads never decrease in time, so a smaller read came first.
    return counter_a < counter_b ? -1 : counter_a > counter_b ? 1 : 0;
  }
  TickBand a{};
  TickBand b{};
  if (!offset_at(table, cpu_a, counter_a, a) || !offset_at(table, cpu_b, counter_b, b)) return 0;
  known = true;
  // On the reference counter, stamp a stands for a moment in [r_a − hi_a, r_a − lo_a + q + 1)
  // (the true value lies within q of the read, one tick more for a read inside a step),
  // and b likewise. a came first when a's latest moment is no later than b's earliest:
  // r_b − r_a >= hi_b − lo_a + q + 1. The distance r_b − r_a is exact as an integer.
  const double reading = static_cast<double>(std::max<std::int64_t>(table.quantum_ticks, 1)) + 1;
  const double gap = static_cast<double>(distance(counter_b, counter_a));
  if (gap >= b.hi_ticks - a.lo_ticks + reading) return -1;
  if (-gap >= a.hi_ticks - b.lo_ticks + reading) return 1;
  return 0;
}

}  // namespace tscaudit
