// The quick check's design: exact pairs on small machines, the structure (every CPU one or two
// pairs from the reference, groups tied by chords) on larger ones, and the default budget.
#include <catch2/catch.hpp>

#include <set>
#include <stdexcept>

#include "matrix/matrix_plan.hpp"
#include "matrix/quick_design.hpp"
#include "matrix/topology_order.hpp"

using namespace tscaudit;

namespace {

/// `packages` packages of `per_package` CPUs, one core each, numbered in order.
OrderedCpus packages_of(int packages, int per_package) {
  std::vector<CpuPlace> places;
  std::vector<int> all;
  for (int p = 0; p < packages; ++p) {
    for (int c = 0; c < per_package; ++c) {
      CpuPlace place;
      place.cpu = static_cast<int>(places.size());
      place.package = packages > 0 ? p : -1;
      place.core = place.cpu;
      places.push_back(place);
      all.push_back(place.cpu);
    }
  }
  return order_by_topology(places, all);
}

/// Hops from CPU index 0 to every CPU over `pairs` (breadth first); n + 1 where unreachable.
std::vector<std::size_t> hops_from_reference(std::size_t n, const std::vector<IndexPair>& pairs) {
  std::vector<std::size_t> hops(n, n + 1);
  hops[0] = 0;
  for (std::size_t round = 0; round < n; ++round) {
    for (const IndexPair& p : pairs) {
      hops[p.second] = std::min(hops[p.second], hops[p.first] + 1);
      hops[p.first] = std::min(hops[p.first], hops[p.second] + 1);
    }
  }
  return hops;
}

}  // namespace

TEST_CASE("quick design: two CPUs are one pair") {
  CHECK(quick_design(packages_of(1, 2)) == std::vector<IndexPair>{{0, 1}});
}

TEST_CASE("quick design: one group of eight is a star from its first CPU and a chain through the others") {
  const std::vector<IndexPair> want{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}, {0, 6}, {0, 7},
                                    {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}};
  CHECK(quick_design(packages_of(1, 8)) == want);
}

TEST_CASE("quick design: two packages of eight are two stars and chains, their hubs and chords of equal rank") {
  const std::vector<IndexPair> pairs = quick_design(packages_of(2, 8));
  std::set<IndexPair> want;
  for (std::uint32_t i = 1; i < 8; ++i) {
    want.insert({0, i});      // package 0's star
    want.insert({8, 8 + i});  // package 1's star
    want.insert({i, 8 + i});  // the chord of rank i (both directions of the ring are one pair)
    if (i >= 2) {
      want.insert({i - 1, i});          // package 0's chain
      want.insert({8 + i - 1, 8 + i});  // package 1's chain
    }
  }
  want.insert({0, 8});  // the hubs
  CHECK(std::set<IndexPair>(pairs.begin(), pairs.end()) == want);
  CHECK(pairs.size() == want.size());  // distinct
  CHECK(std::is_sorted(pairs.begin(), pairs.end()));
}

TEST_CASE("quick design: 128 CPUs in 4 packages are within two pairs of the reference, with few pairs") {
  const OrderedCpus order = packages_of(4, 32);
  const std::vector<IndexPair> pairs = quick_design(order);
  const std::size_t n = order.cpus.size();
  for (const IndexPair& p : pairs) REQUIRE((p.first < p.second && p.second < n));
  const std::vector<std::size_t> hops = hops_from_reference(n, pairs);
  for (std::size_t i = 0; i < n; ++i) {
    CAPTURE(i);
    CHECK(hops[i] <= 2);
  }
  // 16 groups of 8: 16 stars of 7 and chains of 6, 15 hub pairs, 7 chords per group (a ring of 16).
  CHECK(pairs.size() == 16 * (7 + 6) + 15 + 16 * 7);
  // Scheduled at once where disjoint: far fewer slots than pairs.
  PlanSpec spec;
  spec.cpus = order.cpu_numbers();
  spec.visits = 1;
  spec.parallel = true;
  spec.design = PlanDesign::sparse;
  spec.pairs = pairs;
  const std::uint64_t slots = plan_slot_count(spec);
  CAPTURE(slots);
  CHECK(slots < pairs.size() / 4);
  CHECK(quick_default_budget_seconds(n, slots) <= 0.1);
}

TEST_CASE("quick design: fewer than two CPUs is refused") {
  CHECK_THROWS_AS(quick_design(packages_of(1, 1)), std::invalid_argument);
}

TEST_CASE("quick design: the default budget is 10 ms up to 8 CPUs, then 1 ms a slot") {
  CHECK(quick_default_budget_seconds(2, 2) == Approx(0.010).margin(0));
  CHECK(quick_default_budget_seconds(8, 26) == Approx(0.010).margin(0));
  CHECK(quick_default_budget_seconds(9, 6) == Approx(0.010).margin(0));
  CHECK(quick_default_budget_seconds(16, 14) == Approx(0.014).margin(0));
  CHECK(quick_default_budget_seconds(128, 50) == Approx(0.050).margin(0));
}
