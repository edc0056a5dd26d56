// The per-CPU table of counter offsets that `check --publish` writes and programs read
// (docs/machine.md §10.8): for every CPU, hard bounds on its counter minus the reference
// CPU's at one stated moment, and on how fast that difference moves. Pure.
#pragma once

#include <cstdint>
#include <vector>

namespace tscaudit {

/// One CPU's counter against the reference CPU's: θ_c = counter_c − counter_ref.
struct CpuCounterBand {
  int cpu = -1;                // -1: the table has no band for this CPU
  double offset_lo_ticks = 0;  // θ_c at the table's moment lies in [lo, hi]
  double offset_hi_ticks = 0;
  double drift_lo_ppb = 0;  // dθ_c / d(counter_ref) lies in [lo, hi] · 1e-9
  double drift_hi_ppb = 0;
};

struct CounterTable {
  int reference_cpu = -1;
  double counter_hz = 0;           // 0: unknown (the figures in ns need it, the order does not)
  std::int64_t quantum_ticks = 1;  // a read r of a true value T: r <= T < r + q
  /// The moment every band holds for, on the reference CPU's counter.
  std::uint64_t as_of_counter = 0;
  /// Indexed by CPU number: bands[c].cpu == c where the table has a band for CPU c,
  /// else -1. The reference CPU's own band is [0, 0], drift [0, 0].
  std::vector<CpuCounterBand> bands;

  /// The band of CPU `cpu`, or nullptr when the table has none.
  [[nodiscard]] const CpuCounterBand* band_of(int cpu) const {
    if (cpu < 0 || static_cast<std::size_t>(cpu) >= bands.size()) return nullptr;
    const CpuCounterBand& b = bands[static_cast<std::size_t>(cpu)];
    return b.cpu == cpu ? &b : nullptr;
  }
  /// How many CPUs have a band.
  [[nodiscard]] std::size_t known() const {
    std::size_t n = 0;
    for (const CpuCounterBand& b : bands) n += b.cpu >= 0 ? 1 : 0;
    return n;
  }
};

}  // namespace tscaudit
