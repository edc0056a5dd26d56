// pair_distance and summarize_by_distance, exact: the classes of a known machine and the
// ranges over hand-made cells.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "matrix/pair_distance.hpp"

using namespace tscaudit;

namespace {

CpuPlace place(int cpu, int package, int l3, int core) {
  return CpuPlace{.cpu = cpu, .package = package, .die = -1, .numa = package, .l3 = l3, .core = core};
}

/// Six CPUs: package 0 has L3 0 with cores 0 (CPUs 0, 1) and 1 (CPU 2), and L3 1 with core
/// 2 (CPU 3); package 1 has L3 2 with cores 3 (CPU 4) and 4 (CPU 5).
std::vector<CpuPlace> six_places() {
  return {place(0, 0, 0, 0), place(1, 0, 0, 0), place(2, 0, 0, 1),
          place(3, 0, 1, 2), place(4, 1, 2, 3), place(5, 1, 2, 4)};
}

/// Every ordered pair measured: rtt_min = 100 + 10·(a + b) ticks, offset = b − a ticks.
MatrixResult six_cpus() {
  MatrixResult m;
  m.cpus = {0, 1, 2, 3, 4, 5};
  m.places = six_places();
  m.cells.resize(36);
  for (std::size_t a = 0; a < 6; ++a) {
    for (std::size_t b = 0; b < 6; ++b) {
      if (a == b) continue;
      PairCell& c = m.cells[a * 6 + b];
      c.measured = true;
      c.rtt_min_ticks = 100 + 10 * static_cast<double>(a + b);
      c.offset_ticks = static_cast<double>(b) - static_cast<double>(a);
    }
  }
  return m;
}

/// min, median, max: compared exactly, as vectors.
std::vector<double> triple(const ValueRange& r) { return {r.min, r.median, r.max}; }

}  // namespace

TEST_CASE("pair distance: the closest level two CPUs share") {
  const std::vector<CpuPlace> p = six_places();
  CHECK(pair_distance(p[0], p[1]) == PairDistance::smt);
  CHECK(pair_distance(p[1], p[0]) == PairDistance::smt);
  CHECK(pair_distance(p[0], p[2]) == PairDistance::l3);
  CHECK(pair_distance(p[0], p[3]) == PairDistance::package);
  CHECK(pair_distance(p[3], p[4]) == PairDistance::cross_package);
  CHECK(pair_distance(p[4], p[5]) == PairDistance::l3);
  SECTION("a machine without L3 objects: cores, then packages") {
    CHECK(pair_distance(place(0, 0, -1, 0), place(1, 0, -1, 1)) == PairDistance::package);
    CHECK(pair_distance(place(0, 0, -1, 0), place(1, 0, -1, 0)) == PairDistance::smt);
  }
  SECTION("unknown levels never match") {
    const CpuPlace none0{.cpu = 0}, none1{.cpu = 1};
    CHECK(pair_distance(none0, none1) == PairDistance::unknown);
    CHECK(pair_distance(none0, p[4]) == PairDistance::unknown);
    CHECK(pair_distance(place(0, -1, 3, -1), place(1, -1, 3, -1)) == PairDistance::l3);
  }
  CHECK(pair_distance_name(PairDistance::smt) == "SMT siblings");
  CHECK(pair_distance_name(PairDistance::l3) == "same L3");
  CHECK(pair_distance_name(PairDistance::package) == "same package");
  CHECK(pair_distance_name(PairDistance::cross_package) == "cross-package");
  CHECK(pair_distance_name(PairDistance::unknown) == "topology unknown");
}

TEST_CASE("pair distance: value ranges leave NaN out and take the upper median") {
  const ValueRange r = value_range({5, kNoValue, -3, 2, 9});
  CHECK(triple(r) == std::vector<double>{-3, 5, 9});  // of -3 2 5 9, the upper median
  const ValueRange one = value_range({4});
  CHECK(triple(one) == std::vector<double>{4, 4, 4});
  const ValueRange none = value_range({kNoValue});
  CHECK((std::isnan(none.min) && std::isnan(none.median) && std::isnan(none.max)));
}

TEST_CASE("pair distance: a matrix summarised by class, closest first") {
  MatrixResult m = six_cpus();
  SECTION("every class of the six CPUs") {
    const std::vector<DistanceClass> s = summarize_by_distance(m);
    REQUIRE(s.size() == 4);
    // SMT: 0<->1. rtt 110 both ways, offset ±1.
    CHECK(s[0].distance == PairDistance::smt);
    CHECK(s[0].pairs == 2);
    CHECK(triple(s[0].one_way_ticks) == std::vector<double>{55, 55, 55});
    CHECK(triple(s[0].offset_ticks) == std::vector<double>{-1, 1, 1});
    // Same L3: 0<->2, 1<->2, 4<->5. a + b = 2, 3, 9: rtt 120, 130, 190.
    CHECK(s[1].distance == PairDistance::l3);
    CHECK(s[1].pairs == 6);
    CHECK(triple(s[1].one_way_ticks) == std::vector<double>{60, 65, 95});
    // offsets ±2, ±1, ±1: -2 -1 -1 1 1 2, upper median 1
    CHECK(triple(s[1].offset_ticks) == std::vector<double>{-2, 1, 2});
    // Same package, other L3: 0<->3, 1<->3, 2<->3. a + b = 3, 4, 5.
    CHECK(s[2].distance == PairDistance::package);
    CHECK(s[2].pairs == 6);
    CHECK(triple(s[2].one_way_ticks) == std::vector<double>{65, 70, 75});
    CHECK(triple(s[2].offset_ticks) == std::vector<double>{-3, 1, 3});
    // Cross-package: CPUs 0-3 with 4-5: 8 unordered pairs, a + b from 4 to 8.
    CHECK(s[3].distance == PairDistance::cross_package);
    CHECK(s[3].pairs == 16);
    CHECK(triple(s[3].one_way_ticks) == std::vector<double>{70, 80, 90});
    CHECK(triple(s[3].offset_ticks) == std::vector<double>{-5, 1, 5});
  }
  SECTION("unmeasured pairs are not counted; a class with none is left out") {
    m.cells[0 * 6 + 1].measured = false;
    m.cells[1 * 6 + 0].measured = false;
    m.cells[0 * 6 + 2].offset_ticks = kNoValue;  // counted, but no offset
    const std::vector<DistanceClass> s = summarize_by_distance(m);
    REQUIRE(s.size() == 3);
    CHECK(s[0].distance == PairDistance::l3);
    CHECK(s[0].pairs == 6);
    // -2 -1 -1 1 1: 0->2's +2 left out
    CHECK(triple(s[0].offset_ticks) == std::vector<double>{-2, -1, 1});
  }
  SECTION("no places: one class of every pair") {
    m.places.clear();
    const std::vector<DistanceClass> s = summarize_by_distance(m);
    REQUIRE(s.size() == 1);
    CHECK(s[0].distance == PairDistance::unknown);
    CHECK(s[0].pairs == 30);
    CHECK(triple(s[0].one_way_ticks) == std::vector<double>{55, 75, 95});
  }
}
