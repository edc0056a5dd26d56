#include "order/order.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

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
  const double lo = lo0 + move_lo - slack;
  const double hi = hi0 + move_hi + slack;
  // A band so wide that its widening overflows (finite bands near the largest double) gives
  // ∞ − ∞ or 0·∞ above: it bounds nothing, which is the whole line, never NaN.
  out.lo_ticks = std::isnan(lo) ? -std::numeric_limits<double>::infinity() : lo;
  out.hi_ticks = std::isnan(hi) ? std::numeric_limits<double>::infinity() : hi;
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
  // A stamp r stands for a true counter value T with r − 1 <= T < r + q: r <= T < r + q
  // (docs/method.md §2), and a read inside a step returns the previous read + 1, one tick
  // ahead of T. A counter runs forward against the reference's (its drift band is below half
  // the rate), so the stamp's moment on the reference counter lies between the moments its
  // counter read r − 1 and r + q: no earlier than r − 1 − hi(r − 1), before r + q − lo(r + q),
  // each band taken where the counter read that value (with a drift band, the band at r
  // alone can miss the moment of a later T by ρ·q).
  const std::int64_t q = std::max<std::int64_t>(table.quantum_ticks, 1);
  const auto early = [](std::uint64_t r) { return r - 1; };
  const auto late = [q](std::uint64_t r) { return r + static_cast<std::uint64_t>(q); };
  TickBand a_early{};
  TickBand a_late{};
  TickBand b_early{};
  TickBand b_late{};
  if (!offset_at(table, cpu_a, early(counter_a), a_early) || !offset_at(table, cpu_a, late(counter_a), a_late) ||
      !offset_at(table, cpu_b, early(counter_b), b_early) || !offset_at(table, cpu_b, late(counter_b), b_late)) {
    return 0;
  }
  known = true;
  // a came first when a's latest moment is no later than b's earliest:
  // r_a + q − lo_a(r_a + q) <= r_b − 1 − hi_b(r_b − 1), that is
  // r_b − r_a >= hi_b(r_b − 1) − lo_a(r_a + q) + q + 1. The distance r_b − r_a is exact as an
  // integer.
  const double reading = static_cast<double>(q) + 1;
  const double gap = static_cast<double>(distance(counter_b, counter_a));
  if (gap >= b_early.hi_ticks - a_late.lo_ticks + reading) return -1;
  if (-gap >= a_early.hi_ticks - b_late.lo_ticks + reading) return 1;
  return 0;
}

}  // namespace tscaudit
