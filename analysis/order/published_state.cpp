#include "order/published_state.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/cpu_list.hpp"
#include "core/format.hpp"

namespace tscaudit {
namespace {

bool all_zero(const std::array<std::uint8_t, 16>& id) {
  return std::all_of(id.begin(), id.end(), [](std::uint8_t b) { return b == 0; });
}

/// later − earlier, in ns: exact while it fits in 64 bits (two readings of one clock in one
/// boot always do), else as near as a double holds. A state file may hold any clock values,
/// and their difference must not overflow.
double ns_between(std::int64_t later, std::int64_t earlier) {
  std::int64_t d = 0;
  if (!__builtin_sub_overflow(later, earlier, &d)) return static_cast<double>(d);
  return static_cast<double>(later) - static_cast<double>(earlier);
}

std::string seconds_text(double s) {
  if (!std::isfinite(s)) return "no limit";
  return format_sig(s, 4) + " s";
}

/// Whole ns, of any finite size (a state file may hold any tolerance).
std::string ns_text(double ns) {
  char buf[400];
  std::snprintf(buf, sizeof buf, "%.0f", ns);
  return buf;
}

}  // namespace

StateStanding state_standing(const PublishedState& state, const MachineNow& now) {
  StateStanding out;
  out.age_seconds = std::numeric_limits<double>::quiet_NaN();
  if (now.have_clocks && state.boottime_ns != 0) {
    out.age_seconds = ns_between(now.boottime_ns, state.boottime_ns) * 1e-9;
  }
  if (all_zero(state.boot_id)) {
    out.status = StateStatus::other_boot;
    out.reason = "the state records no boot (made from a run directory): it cannot be known to describe this boot";
    return out;
  }
  if (!all_zero(now.boot_id) && now.boot_id != state.boot_id) {
    out.status = StateStatus::other_boot;
    out.reason = "published during another boot: the counters were set again since";
    return out;
  }
  if (!now.online_cpus.empty() && !state.online_cpus.empty() && now.online_cpus != state.online_cpus) {
    out.status = StateStatus::disrupted;
    out.reason = "the online CPUs changed since publishing (then " + format_cpu_list(state.online_cpus) + ", now " +
                 format_cpu_list(now.online_cpus) + ")";
    return out;
  }
  if (!now.clocksource.empty() && !state.clocksource.empty() && now.clocksource != state.clocksource) {
    out.status = StateStatus::disrupted;
    out.reason = "the kernel's clocksource changed since publishing (then " + state.clocksource + ", now " +
                 now.clocksource + ")";
    return out;
  }
  if (now.have_clocks && state.boottime_ns != 0 && state.monotonic_ns != 0) {
    const double suspended =
        ns_between(now.boottime_ns, now.monotonic_ns) - ns_between(state.boottime_ns, state.monotonic_ns);
    if (suspended > static_cast<double>(kSuspendNs)) {
      out.status = StateStatus::disrupted;
      out.reason = "the machine was suspended since publishing (" + seconds_text(suspended * 1e-9) +
                   "): a counter may have been reset or moved";
      return out;
    }
  }
  if (now.have_clocks && now.have_counter && state.monotonic_raw_ns != 0 && state.table.counter_hz > 0) {
    const double elapsed_s = ns_between(now.monotonic_raw_ns, state.monotonic_raw_ns) * 1e-9;
    if (elapsed_s >= 1) {
      const double ticks = static_cast<double>(static_cast<std::int64_t>(now.counter - state.table.as_of_counter));
      const double ppm = (ticks / elapsed_s / state.table.counter_hz - 1) * 1e6;
      if (!(std::abs(ppm) <= kRateChangePpm)) {
        out.status = StateStatus::disrupted;
        out.reason = "the counter's rate changed since publishing: " + format_fixed(ppm, 0) +
                     " ppm from the published " + format_sig(state.table.counter_hz / 1e6, 7) + " MHz";
        return out;
      }
    }
  }
  if (std::isfinite(out.age_seconds) && out.age_seconds > state.valid_seconds) {
    out.status = StateStatus::aged;
    out.reason = "older (" + seconds_text(out.age_seconds) + ") than the " + seconds_text(state.valid_seconds) +
                 " for which the drift bands keep every CPU within ±" + ns_text(state.tolerance_ns) + " ns";
    return out;
  }
  out.status = StateStatus::current;
  return out;
}

bool carry_forward(PublishedState& fresh, const PublishedState& previous) {
  if (all_zero(fresh.boot_id) || fresh.boot_id != previous.boot_id) return false;
  CounterTable& t = fresh.table;
  const CounterTable& p = previous.table;
  if (t.reference_cpu != p.reference_cpu || t.reference_cpu < 0) return false;
  if (fresh.clocksource.empty() || fresh.clocksource != previous.clocksource) return false;
  if (fresh.online_cpus.empty() || fresh.online_cpus != previous.online_cpus) return false;
  if (fresh.boottime_ns == 0 || previous.boottime_ns == 0 || fresh.monotonic_ns == 0 || previous.monotonic_ns == 0) {
    return false;
  }
  const std::int64_t suspended =
      (fresh.boottime_ns - fresh.monotonic_ns) - (previous.boottime_ns - previous.monotonic_ns);
  if (std::abs(suspended) > kSuspendNs) return false;
  const auto span = static_cast<std::int64_t>(t.as_of_counter - p.as_of_counter);
  if (span <= 0) return false;
  const double dt = static_cast<double>(span);
  std::vector<CpuCounterBand> carried = t.bands;
  for (CpuCounterBand& b : carried) {
    const CpuCounterBand* old = b.cpu >= 0 ? p.band_of(b.cpu) : nullptr;
    if (old == nullptr || b.cpu == t.reference_cpu) continue;
    // θ_new − θ_old = ρ·dt: ρ within [(lo_new − hi_old)/dt, (hi_new − lo_old)/dt], and
    // within both tables' own drift bands. A little outward for the division's rounding.
    const double span_lo = (b.offset_lo_ticks - old->offset_hi_ticks) / dt * 1e9;
    const double span_hi = (b.offset_hi_ticks - old->offset_lo_ticks) / dt * 1e9;
    const double rho_lo = std::max({b.drift_lo_ppb, old->drift_lo_ppb, span_lo - 1e-9 * (1 + std::abs(span_lo))});
    const double rho_hi = std::min({b.drift_hi_ppb, old->drift_hi_ppb, span_hi + 1e-9 * (1 + std::abs(span_hi))});
    if (!(rho_lo <= rho_hi)) return false;
    const double lo = std::max(b.offset_lo_ticks, old->offset_lo_ticks + rho_lo * 1e-9 * dt - 1e-6);
    const double hi = std::min(b.offset_hi_ticks, old->offset_hi_ticks + rho_hi * 1e-9 * dt + 1e-6);
    if (!(lo <= hi)) return false;
    b.drift_lo_ppb = rho_lo;
    b.drift_hi_ppb = rho_hi;
    b.offset_lo_ticks = lo;
    b.offset_hi_ticks = hi;
  }
  t.bands = std::move(carried);
  if (t.counter_hz > 0) fresh.valid_seconds = valid_seconds_of(t, fresh.tolerance_ns * t.counter_hz * 1e-9);
  return true;
}

double valid_seconds_of(const CounterTable& table, double tolerance_ticks) {
  double valid_ticks = std::numeric_limits<double>::infinity();
  for (const CpuCounterBand& b : table.bands) {
    if (b.cpu < 0) continue;
    if (b.offset_lo_ticks < -tolerance_ticks || b.offset_hi_ticks > tolerance_ticks) return 0;
    // Δ ticks after the moment the band is [lo + ρ_lo·Δ, hi + ρ_hi·Δ] (Δ >= 0).
    const double rho_lo = b.drift_lo_ppb * 1e-9;
    const double rho_hi = b.drift_hi_ppb * 1e-9;
    if (rho_lo < 0) valid_ticks = std::min(valid_ticks, (b.offset_lo_ticks + tolerance_ticks) / -rho_lo);
    if (rho_hi > 0) valid_ticks = std::min(valid_ticks, (tolerance_ticks - b.offset_hi_ticks) / rho_hi);
  }
  return valid_ticks / table.counter_hz;
}

}  // namespace tscaudit
