// The machine's shape from hwloc: packages, dies, NUMA nodes, L3 domains, cores and
// logical CPUs (PUs). All hwloc use lives here.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/cpu_place.hpp"

struct hwloc_topology;  // hwloc_topology_t is a pointer to it

namespace tscaudit {

struct TopologySummary {
  int packages = 0;
  int dies = 0;  // 0 where hwloc sees no die level
  int numa_nodes = 0;
  int l3_domains = 0;  // L3 caches: CPUs sharing one are the cheapest cross-core pairs
  int cores = 0;
  int pus = 0;                            // logical CPUs
  std::vector<std::vector<int>> l3_cpus;  // OS numbers of the PUs under each L3, in order
  std::vector<CpuPlace> places;           // every PU, in hwloc logical (topology) order
};

/// Counts the objects of a loaded topology. Pure over the topology.
TopologySummary summarize_topology(hwloc_topology* topology);

struct TopologyResult {
  bool ok = false;
  TopologySummary summary;
  std::string problem;  // why not ok
  std::string xml;      // hwloc's XML export of the topology, when asked for (export_xml)
};

/// Where the topology comes from: this machine, an hwloc synthetic description
/// ("package:2 core:64 pu:2"), or an XML file (hwloc's lstopo XML export, e.g.
/// `lstopo-no-graphics --of xml machine.xml` run on the machine to describe).
struct TopologySource {
  enum class Kind { this_machine, synthetic, xml };
  Kind kind = Kind::this_machine;
  std::string text;  // the synthetic description or the XML file's path; empty for this_machine
};

/// Parses a --topology option value: "synthetic:DESCRIPTION" gives a synthetic topology,
/// anything else is the path of an XML file (not opened here).
/// \throws UsageError for an empty value or an empty synthetic description.
TopologySource parse_topology_source(const std::string& option_value);

/// Loads the topology from `source` and summarizes it; with `export_xml`, also exports it
/// as hwloc XML (what `lstopo --of xml` writes, and what --topology FILE.xml reads back).
/// Never throws: on failure ok is false and `problem` names the description or the file
/// and what is wrong with it.
TopologyResult load_topology(const TopologySource& source, bool export_xml = false);

/// Loads the topology from hwloc XML already read: a run directory's topology.xml, which
/// its reader reads whole and bounded (RunDirReader::topology_xml), so that hwloc never opens
/// a FIFO or a device in its place. `name` (the file it came from) names it in `problem`.
/// Never throws, as load_topology.
TopologyResult load_topology_xml(std::string_view xml, const std::string& name);

/// Loads this machine's topology, or a synthetic one ("package:2 core:4 pu:2", for tests),
/// and summarizes it. Never throws.
TopologyResult load_topology(const std::string& synthetic = "");

}  // namespace tscaudit
