// The topology summary on hwloc synthetic topologies and XML files: exact counts and places.
#include <catch2/catch.hpp>

#include <hwloc.h>

#include "core/errors.hpp"
#include "platform/topology.hpp"

using namespace tscaudit;

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

TEST_CASE("two packages of four SMT cores, no L3 level", "[topology]") {
  const TopologySummary s = synthetic("package:2 core:4 pu:2");
  CHECK(s.packages == 2);
  CHECK(s.dies == 0);
  CHECK(s.numa_nodes == 1);  // hwloc adds one NUMA node when none is given
  CHECK(s.l3_domains == 0);
  CHECK(s.cores == 8);
  CHECK(s.pus == 16);
  CHECK(s.l3_cpus.empty());
}

TEST_CASE("NUMA nodes, dies and L3 domains, with the CPUs of each L3", "[topology]") {
  const TopologySummary s = synthetic("package:2 [numa] die:2 l3:1 core:2 pu:2");
  CHECK(s.packages == 2);
  CHECK(s.numa_nodes == 2);
  CHECK(s.dies == 4);
  CHECK(s.l3_domains == 4);
  CHECK(s.cores == 8);
  CHECK(s.pus == 16);
  CHECK(s.l3_cpus == std::vector<std::vector<int>>{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}, {12, 13, 14, 15}});
}

TEST_CASE("load_topology: synthetic, refused, and this machine", "[topology]") {
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

TEST_CASE("places: every PU's package, die, NUMA node, L3 and core, in topology order", "[topology]") {
  const TopologySummary s = synthetic("package:2 [numa] die:2 l3:1 core:2 pu:2");
  REQUIRE(s.places.size() == 16);
  // PU k: package k/8, die k/4, NUMA node = package, L3 = die, core k/2.
  for (int k = 0; k < 16; ++k) {
    CAPTURE(k);
    CHECK(s.places[static_cast<std::size_t>(k)] == CpuPlace{k, k / 8, k / 4, k / 8, k / 4, k / 2});
  }
  const TopologySummary bare = synthetic("pu:3");
  CHECK(bare.places == std::vector<CpuPlace>{{0, -1, -1, 0, -1, -1}, {1, -1, -1, 0, -1, -1}, {2, -1, -1, 0, -1, -1}});
}

TEST_CASE("places follow hwloc's OS indexes where they interleave packages", "[topology]") {
  // Intel-style: SMT siblings 4 apart, consecutive CPUs alternate packages.
  const TopologySummary s = synthetic("package:2 core:2 pu:2(indexes=0,4,2,6,1,5,3,7)");
  REQUIRE(s.places.size() == 8);
  CHECK(s.places[0] == CpuPlace{0, 0, -1, 0, -1, 0});
  CHECK(s.places[1] == CpuPlace{4, 0, -1, 0, -1, 0});
  CHECK(s.places[2] == CpuPlace{2, 0, -1, 0, -1, 1});
  CHECK(s.places[3] == CpuPlace{6, 0, -1, 0, -1, 1});
  CHECK(s.places[4] == CpuPlace{1, 1, -1, 0, -1, 2});
  CHECK(s.places[7] == CpuPlace{7, 1, -1, 0, -1, 3});
}

TEST_CASE("parse_topology_source: synthetic descriptions and XML paths", "[topology]") {
  const TopologySource syn = parse_topology_source("synthetic:package:2 core:64 pu:2");
  CHECK(syn.kind == TopologySource::Kind::synthetic);
  CHECK(syn.text == "package:2 core:64 pu:2");
  const TopologySource xml = parse_topology_source("/tmp/machine.xml");
  CHECK(xml.kind == TopologySource::Kind::xml);
  CHECK(xml.text == "/tmp/machine.xml");
  CHECK_THROWS_AS(parse_topology_source(""), UsageError);
  CHECK_THROWS_WITH(parse_topology_source(""),
                    "--topology is empty (give synthetic:DESCRIPTION or the path of an hwloc XML file)");
  CHECK_THROWS_WITH(parse_topology_source("synthetic:"),
                    "--topology 'synthetic:' has no description (e.g. synthetic:package:2 core:64 pu:2)");
}

TEST_CASE("load_topology from a TopologySource: synthetic and this machine", "[topology]") {
  const TopologyResult syn = load_topology(parse_topology_source("synthetic:package:2 core:64 pu:2"));
  REQUIRE(syn.ok);
  CHECK(syn.summary.pus == 256);
  CHECK(syn.summary.places.size() == 256);
  CHECK(syn.summary.places[255] == CpuPlace{255, 1, -1, 0, -1, 127});
  const TopologyResult bad = load_topology(TopologySource{TopologySource::Kind::synthetic, "core:x"});
  CHECK_FALSE(bad.ok);
  CHECK(bad.problem == "hwloc rejects the synthetic topology 'core:x'");
  const TopologyResult here = load_topology(TopologySource{});
  REQUIRE(here.ok);
  CHECK(here.summary.places.size() == static_cast<std::size_t>(here.summary.pus));
}

TEST_CASE("load_topology from an XML file with interleaved OS numbering", "[topology]") {
  const std::string path = TSCAUDIT_TEST_DATA "/topology/interleaved_2x2x2x2.xml";
  const TopologyResult r = load_topology(parse_topology_source(path));
  REQUIRE(r.ok);
  CHECK(r.problem.empty());
  CHECK(r.summary.packages == 2);
  CHECK(r.summary.numa_nodes == 2);
  CHECK(r.summary.l3_domains == 4);
  CHECK(r.summary.cores == 8);
  CHECK(r.summary.pus == 16);
  CHECK(r.summary.l3_cpus ==
        std::vector<std::vector<int>>{{0, 2, 8, 10}, {4, 6, 12, 14}, {1, 3, 9, 11}, {5, 7, 13, 15}});
  // Core k of package p holds CPUs 2k+p and 2k+p+8 (README in tests/data/topology).
  std::vector<CpuPlace> expected;
  for (int p = 0; p < 2; ++p) {
    for (int k = 0; k < 4; ++k) {
      for (int t = 0; t < 2; ++t) expected.push_back(CpuPlace{2 * k + p + 8 * t, p, -1, p, 2 * p + k / 2, 4 * p + k});
    }
  }
  CHECK(r.summary.places == expected);
}

TEST_CASE("load_topology: XML files that are missing, directories or not hwloc XML", "[topology]") {
  const std::string dir = TSCAUDIT_TEST_DATA "/topology";
  const TopologyResult missing = load_topology(parse_topology_source(dir + "/nope.xml"));
  CHECK_FALSE(missing.ok);
  CHECK(missing.problem == "cannot read topology file " + dir + "/nope.xml: No such file or directory");
  const TopologyResult directory = load_topology(parse_topology_source(dir));
  CHECK_FALSE(directory.ok);
  CHECK(directory.problem == "cannot read topology file " + dir + ": it is a directory");
  const TopologyResult garbage = load_topology(parse_topology_source(dir + "/garbage.xml"));
  CHECK_FALSE(garbage.ok);
  CHECK(garbage.problem ==
        "topology file " + dir + "/garbage.xml is not an hwloc XML topology (hwloc: Invalid argument)");
  // Well-formed XML of another kind: hwloc accepts the file and refuses it in load.
  const TopologyResult other = load_topology(parse_topology_source(dir + "/not_topology.xml"));
  CHECK_FALSE(other.ok);
  CHECK(other.problem ==
        "topology file " + dir + "/not_topology.xml is not an hwloc XML topology (hwloc: Invalid argument)");
}
