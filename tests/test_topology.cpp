// The topology summary on hwloc synthetic topologies: exact counts.
#include <catch2/catch.hpp>

#include <hwloc.h>

#include "topology.hpp"

using namespace tscsync;

namespace {

TopologySummary synthetic(const char* description) {
  hwloc_topology_t t = nullptr;
  REQUIRE(hwloc_topology_init(&t) == 0);
  REQUIRE(hwloc_topology_set_synthetic(t, description) == 0);
  REQUIRE(hwloc_topology_load(t) == 0);
  const TopologySummary s = summarize_topology(t);
  hwloc_topology_destroy(t);
  return s;
}

}  // namespace

TEST_CASE("two packages of four SMT cores, no L3 level") {
  const TopologySummary s = synthetic("package:2 core:4 pu:2");
  CHECK(s.packages == 2);
  CHECK(s.dies == 0);
  CHECK(s.numa_nodes == 1);  // hwloc adds one NUMA node when none is given
  CHECK(s.l3_domains == 0);
  CHECK(s.cores == 8);
  CHECK(s.pus == 16);
  CHECK(s.l3_cpus.empty());
}

TEST_CASE("NUMA nodes, dies and L3 domains, with the CPUs of each L3") {
  const TopologySummary s = synthetic("package:2 [numa] die:2 l3:1 core:2 pu:2");
  CHECK(s.packages == 2);
  CHECK(s.numa_nodes == 2);
  CHECK(s.dies == 4);
  CHECK(s.l3_domains == 4);
  CHECK(s.cores == 8);
  CHECK(s.pus == 16);
  CHECK(s.l3_cpus == std::vector<std::vector<int>>{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}, {12, 13, 14, 15}});
}

TEST_CASE("load_topology: synthetic, refused, and this machine") {
  const TopologyResult one = load_topology("pu:1");
  REQUIRE(one.ok);
  CHECK(one.summary.pus == 1);
  CHECK(one.summary.cores == 0);
  CHECK(one.summary.packages == 0);
  const TopologyResult bad = load_topology("garbage:3");
  CHECK_FALSE(bad.ok);
  CHECK(bad.problem == "hwloc rejects the synthetic topology 'garbage:3'");
  // This machine: invariants only.
  const TopologyResult here = load_topology();
  REQUIRE(here.ok);
  CHECK(here.summary.pus >= 1);
  CHECK(here.summary.cores <= here.summary.pus);
}
