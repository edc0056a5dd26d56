#include "matrix/publish.hpp"

#include <algorithm>
#include <cmath>

#include "matrix/counter_table_of.hpp"

namespace tscaudit {

std::optional<PublishedState> published_state_of(const MatrixResult& m, const CheckResult& result,
                                                 PublishedFrom from, const std::string& reason,
                                                 const MachineNow* now) {
  PublishedState s;
  switch (result.outcome) {
    case CheckOutcome::synchronized: s.verdict = PublishedVerdict::synchronized; break;
    case CheckOutcome::not_synchronized: s.verdict = PublishedVerdict::not_synchronized; break;
    case CheckOutcome::inconclusive: s.verdict = PublishedVerdict::inconclusive; break;
    case CheckOutcome::incomplete: return std::nullopt;
  }
  s.from = from;
  s.reason = reason;
  s.table = counter_table_of(m);
  const double hz = s.table.counter_hz;
  const double ns_per_tick = hz > 0 ? 1e9 / hz : 0;
  s.bound_ns = std::max(result.bound_ticks, 0.0) * ns_per_tick;
  double tolerance_ticks = result.settings.tolerance_ticks;
  if (!(tolerance_ticks > 0)) tolerance_ticks = result.settings.max_bound_ticks;
  if (!(tolerance_ticks > 0)) {
    double reach = static_cast<double>(s.table.quantum_ticks);
    for (const CpuCounterBand& b : s.table.bands) {
      if (b.cpu >= 0) reach = std::max({reach, std::abs(b.offset_lo_ticks), std::abs(b.offset_hi_ticks)});
    }
    tolerance_ticks = 2 * reach;
  }
  s.tolerance_ns = tolerance_ticks * ns_per_tick;
  s.valid_seconds = hz > 0 ? valid_seconds_of(s.table, tolerance_ticks) : 0;
  if (now != nullptr) {
    s.boot_id = now->boot_id;
    s.clocksource = now->clocksource;
    s.online_cpus = now->online_cpus;
    if (now->have_clocks && now->have_counter && hz > 0 && s.table.reference_cpu >= 0) {
      const auto since = static_cast<double>(static_cast<std::int64_t>(now->counter - s.table.as_of_counter));
      const auto back_ns = static_cast<std::int64_t>(std::llround(since * ns_per_tick));
      s.boottime_ns = now->boottime_ns - back_ns;
      s.realtime_ns = now->realtime_ns - back_ns;
      s.monotonic_ns = now->monotonic_ns - back_ns;
      s.monotonic_raw_ns = now->monotonic_raw_ns - back_ns;
    }
  }
  return s;
}

}  // namespace tscaudit
