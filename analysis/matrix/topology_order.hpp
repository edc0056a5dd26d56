// Selected CPUs in topology order, with where each package, die, NUMA node and L3 domain
// begins: neighbours in the order are neighbours in the machine, so matrices drawn in this
// order show the machine's blocks. Pure: works on CpuPlace lists, no hwloc.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/cpu_place.hpp"

namespace tscaudit {

struct OrderedCpus {
  std::vector<CpuPlace> cpus;  // the selected CPUs in topology order
  // Index into `cpus` where each run of one package (die, NUMA node, L3 domain) begins; the
  // first is 0. Empty where the machine has no such level (every CPU's index is -1).
  std::vector<std::size_t> package_starts;
  std::vector<std::size_t> die_starts;
  std::vector<std::size_t> numa_starts;
  std::vector<std::size_t> l3_starts;

  /// OS CPU numbers, in this order.
  std::vector<int> cpu_numbers() const;

  /// A short label for cpus[i], for plot ticks and text: the levels the machine has, as
  /// "p0 d1 l3:2 c5" (package, die, L3, core; hwloc logical indexes). NUMA is left out
  /// (it usually repeats the package or die). "" where the machine has none of them.
  /// \pre i < cpus.size()
  std::string group_label(std::size_t i) const;
};

/// Orders `selected` (OS CPU numbers, any order) as they appear in `places`.
/// \pre places is in topology order (TopologySummary::places is) and names each CPU once.
/// \throws UsageError naming every CPU not in `places` ("CPU 300 is not in the topology (it
///         has CPUs 0-255)"), or every CPU selected more than once.
OrderedCpus order_by_topology(const std::vector<CpuPlace>& places, const std::vector<int>& selected);

/// Another logical CPU of `cpu`'s core (its SMT sibling) among `usable`, the lowest
/// numbered; nullopt when the core has no other usable CPU or the core is unknown.
std::optional<int> smt_sibling(const std::vector<CpuPlace>& places, int cpu, const std::vector<int>& usable);

}  // namespace tscaudit
