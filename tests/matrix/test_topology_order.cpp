// Ordering selected CPUs by topology: exact orders and group starts, on synthetic
// topologies and on an XML fixture with Linux-style interleaved numbering.
#include <catch2/catch.hpp>

#include "core/errors.hpp"
#include "matrix/topology_order.hpp"
#include "platform/topology.hpp"

using namespace tscaudit;

namespace {

std::vector<CpuPlace> places_of(const TopologySource& source) {
  const TopologyResult r = load_topology(source);
  REQUIRE(r.ok);
  return r.summary.places;
}

std::vector<CpuPlace> interleaved_fixture() {
  return places_of({TopologySource::Kind::xml, TSCAUDIT_TEST_DATA "/topology/interleaved_2x2x2x2.xml"});
}

}  // namespace

TEST_CASE("order_by_topology: interleaved numbering gives package 0, then package 1, siblings adjacent", "[topology]") {
  const OrderedCpus o =
      order_by_topology(interleaved_fixture(), {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
  CHECK(o.cpu_numbers() == std::vector<int>{0, 8, 2, 10, 4, 12, 6, 14, 1, 9, 3, 11, 5, 13, 7, 15});
  CHECK(o.package_starts == std::vector<std::size_t>{0, 8});
  CHECK(o.numa_starts == std::vector<std::size_t>{0, 8});
  CHECK(o.l3_starts == std::vector<std::size_t>{0, 4, 8, 12});
  CHECK(o.die_starts.empty());
  CHECK(o.group_label(0) == "p0 l3:0 c0");
  CHECK(o.group_label(5) == "p0 l3:1 c2");
  CHECK(o.group_label(15) == "p1 l3:3 c7");
}

TEST_CASE("order_by_topology: a subset in any order, starts relative to the subset", "[topology]") {
  // Package 1's CPUs 15 and 1, then package 0's 10 and 0, written out of order.
  const OrderedCpus o = order_by_topology(interleaved_fixture(), {15, 10, 1, 0});
  CHECK(o.cpu_numbers() == std::vector<int>{0, 10, 1, 15});
  CHECK(o.package_starts == std::vector<std::size_t>{0, 2});
  CHECK(o.l3_starts == std::vector<std::size_t>{0, 2, 3});
  // Only package 1: one run.
  const OrderedCpus one = order_by_topology(interleaved_fixture(), {9, 1});
  CHECK(one.cpu_numbers() == std::vector<int>{1, 9});
  CHECK(one.package_starts == std::vector<std::size_t>{0});
  CHECK(order_by_topology(interleaved_fixture(), {}).cpus.empty());
}

TEST_CASE("order_by_topology: synthetic 256 CPUs with dies and SMT siblings 128 apart", "[topology]") {
  // 2 packages × 2 dies × 32 cores × 2 PUs; Intel-style numbering: thread 0 of every core
  // first (0-127), then thread 1 (128-255).
  std::string indexes;
  for (int core = 0; core < 128; ++core) {
    indexes += (core == 0 ? "" : ",") + std::to_string(core) + "," + std::to_string(core + 128);
  }
  const auto places =
      places_of({TopologySource::Kind::synthetic, "package:2 die:2 core:32 pu:2(indexes=" + indexes + ")"});
  REQUIRE(places.size() == 256);
  std::vector<int> all;
  for (int c = 255; c >= 0; --c) all.push_back(c);
  const OrderedCpus o = order_by_topology(places, all);
  const std::vector<int> numbers = o.cpu_numbers();
  REQUIRE(numbers.size() == 256);
  for (std::size_t i = 0; i < 256; i += 2) {
    CAPTURE(i);
    CHECK(numbers[i] == static_cast<int>(i / 2));
    CHECK(numbers[i + 1] == static_cast<int>(i / 2 + 128));
  }
  CHECK(o.package_starts == std::vector<std::size_t>{0, 128});
  CHECK(o.die_starts == std::vector<std::size_t>{0, 64, 128, 192});
  CHECK(o.l3_starts.empty());
  CHECK(o.group_label(255) == "p1 d3 c127");
}

TEST_CASE("order_by_topology: CPUs not in the topology or selected twice", "[topology]") {
  const auto places = places_of({TopologySource::Kind::synthetic, "package:2 core:64 pu:2"});
  CHECK_THROWS_AS(order_by_topology(places, {0, 300}), UsageError);
  CHECK_THROWS_WITH(order_by_topology(places, {0, 300}), "CPU 300 is not in the topology (it has CPUs 0-255)");
  CHECK_THROWS_WITH(order_by_topology(places, {301, 0, 300, 1000}),
                    "CPUs 300-301,1000 are not in the topology (it has CPUs 0-255)");
  CHECK_THROWS_WITH(order_by_topology(places, {3, 1, 3, 1, 3}), "CPUs 1,3 are selected more than once");
  CHECK_THROWS_WITH(order_by_topology(places, {2, 2}), "CPU 2 is selected more than once");
}

TEST_CASE("smt_sibling: the other thread of the same core, among the usable CPUs", "[topology]") {
  const std::vector<CpuPlace> places = places_of({TopologySource::Kind::synthetic, "package:2 core:2 pu:2"});
  // hwloc numbers a synthetic machine's PUs in order: CPUs 0 and 1 share core 0.
  CHECK(smt_sibling(places, 0, {0, 1, 2, 3, 4, 5, 6, 7}) == std::optional<int>(1));
  CHECK(smt_sibling(places, 1, {0, 1, 2, 3}) == std::optional<int>(0));
  CHECK(smt_sibling(places, 6, {0, 1, 2, 3, 4, 5, 6, 7}) == std::optional<int>(7));
  CHECK_FALSE(smt_sibling(places, 0, {0, 2, 3}));  // the sibling is not usable
  CHECK_FALSE(smt_sibling(places, 99, {0, 1}));    // not in the topology
  const std::vector<CpuPlace> no_smt = places_of({TopologySource::Kind::synthetic, "package:1 core:4 pu:1"});
  CHECK_FALSE(smt_sibling(no_smt, 0, {0, 1, 2, 3}));
  std::vector<CpuPlace> unknown_core = no_smt;
  for (CpuPlace& p : unknown_core) p.core = -1;
  CHECK_FALSE(smt_sibling(unknown_core, 0, {0, 1, 2, 3}));
}

TEST_CASE("smt_sibling: Linux-style numbering puts siblings 8 apart in the fixture", "[topology]") {
  const std::vector<CpuPlace> places = interleaved_fixture();
  std::vector<int> all(16);
  for (int i = 0; i < 16; ++i) all[static_cast<std::size_t>(i)] = i;
  CHECK(smt_sibling(places, 2, all) == std::optional<int>(10));
  CHECK(smt_sibling(places, 15, all) == std::optional<int>(7));
}
