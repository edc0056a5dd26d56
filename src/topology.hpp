// The machine's shape from hwloc: packages, dies, NUMA nodes, L3 domains, cores and
// logical CPUs (PUs). All hwloc use lives here.
#pragma once

#include <string>
#include <vector>

struct hwloc_topology;  // hwloc_topology_t is a pointer to it

namespace tscsync {

struct TopologySummary {
  int packages = 0;
  int dies = 0;         // 0 where hwloc sees no die level
  int numa_nodes = 0;
  int l3_domains = 0;   // L3 caches: CPUs sharing one are the cheapest cross-core pairs
  int cores = 0;
  int pus = 0;          // logical CPUs
  std::vector<std::vector<int>> l3_cpus;  // OS numbers of the PUs under each L3, in order
};

/// Counts the objects of a loaded topology. Pure over the topology.
TopologySummary summarize_topology(hwloc_topology* topology);

struct TopologyResult {
  bool ok = false;
  TopologySummary summary;
  std::string problem;  // why not ok
};

/// Loads this machine's topology, or a synthetic one ("package:2 core:4 pu:2", for tests),
/// and summarizes it. Never throws.
TopologyResult load_topology(const std::string& synthetic = "");

}  // namespace tscsync
