// Where one logical CPU sits in the machine: plain data, filled from hwloc by
// src/platform/topology.cpp and read by the pure ordering and plan code (no hwloc here).
#pragma once

namespace tscaudit {

/// Where one logical CPU sits. The ancestors are hwloc logical indexes (0-based, numbered
/// in topology order across the whole machine); -1 where the machine has no such level.
struct CpuPlace {
  int cpu = 0;  // OS index (Linux CPU number)
  int package = -1;
  int die = -1;
  int numa = -1;  // NUMA node (hwloc logical index) whose CPUs include this one; the
                  // first such node where several do (e.g. DRAM and HBM nodes)
  int l3 = -1;
  int core = -1;

  friend constexpr bool operator==(const CpuPlace&, const CpuPlace&) = default;
};

}  // namespace tscaudit
