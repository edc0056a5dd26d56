// The all-pairs plan: every ordered pair exactly `visits` times, one visit per sweep, no CPU
// twice in a slot, exact counts, estimates and memory, and the errors for bad specs.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <stdexcept>
#include <utility>

#include "core/errors.hpp"
#include "matrix/matrix_plan.hpp"

using namespace tscaudit;

namespace {

std::vector<int> range_cpus(int n, int first = 0) {
  std::vector<int> cpus;
  for (int c = first; c < first + n; ++c) cpus.push_back(c);
  return cpus;
}

PlanSpec spec_of(std::vector<int> cpus, std::uint64_t visits, bool parallel, std::uint64_t rounds = 1000,
                 std::uint64_t warmup = 100) {
  PlanSpec s;
  s.cpus = std::move(cpus);
  s.visits = visits;
  s.rounds_per_visit = rounds;
  s.warmup_per_visit = warmup;
  s.parallel = parallel;
  return s;
}

/// The structural contract of any plan, checked pair visit by pair visit.
void check_schedule(const MatrixPlan& plan) {
  const std::vector<int>& cpus = plan.spec.cpus;
  const std::size_t n = cpus.size();
  const std::uint64_t visits = plan.spec.visits;
  const std::set<int> selected(cpus.begin(), cpus.end());
  REQUIRE(plan.slots.size() == plan.slots_per_sweep * visits);
  // For each ordered pair: the slot index of each of its visits, by visit number.
  std::map<std::pair<int, int>, std::vector<std::size_t>> seen;
  std::size_t largest = 0;
  for (std::size_t k = 0; k < plan.slots.size(); ++k) {
    const PlanSlot& slot = plan.slots[k];
    CAPTURE(k);
    REQUIRE_FALSE(slot.pairs.empty());
    if (!plan.spec.parallel) REQUIRE(slot.pairs.size() == 1);
    largest = std::max(largest, slot.pairs.size());
    std::set<int> busy;
    for (const PairVisit& v : slot.pairs) {
      REQUIRE(selected.count(v.a) == 1);
      REQUIRE(selected.count(v.b) == 1);
      REQUIRE(v.a != v.b);
      REQUIRE(busy.insert(v.a).second);  // no CPU twice within a slot
      REQUIRE(busy.insert(v.b).second);
      std::vector<std::size_t>& slots_of_pair = seen[{v.a, v.b}];
      REQUIRE(v.visit == slots_of_pair.size());  // visits numbered 0, 1, ... in run order
      slots_of_pair.push_back(k);
      // Visit k of every pair lies in sweep k: spread over the whole run.
      REQUIRE(k / plan.slots_per_sweep == v.visit);
    }
  }
  CHECK(largest == plan.pairs_at_once);
  REQUIRE(seen.size() == n * (n - 1));  // every ordered pair, both roles
  for (const auto& [pair, slot_list] : seen) {
    CAPTURE(pair.first, pair.second);
    CHECK(slot_list.size() == visits);
    CHECK(slot_list.front() < plan.slots_per_sweep);                 // first visit in the first sweep
    CHECK(slot_list.back() >= plan.slots_per_sweep * (visits - 1));  // last in the last sweep
  }
}

}  // namespace

TEST_CASE("plan: 256 CPUs (package:2 core:64 pu:2), parallel, 4 visits", "[plan]") {
  const MatrixPlan plan = make_plan(spec_of(range_cpus(256), 4, true), PlanCosts{2e6, 0.05});
  CHECK(plan.unordered_pairs == 32640);
  CHECK(plan.ordered_pairs == 65280);
  CHECK(plan.pair_visits == 261120);
  CHECK(plan.total_rounds == 261'120'000);
  CHECK(plan.pairs_at_once == 128);
  CHECK(plan.slots_per_sweep == 510);
  CHECK(plan.slots.size() == std::size_t{4} * 2 * 255);                       // V · 2 · (n − 1)
  for (const PlanSlot& slot : plan.slots) REQUIRE(slot.pairs.size() == 128);  // even n: no one sits out
  CHECK(plan.estimated_seconds == Approx(2040 * (0.05 + 1100 / 2e6)).epsilon(1e-12));
  CHECK(plan.estimated_seconds == Approx(103.122).epsilon(1e-12));
  CHECK(plan.memory_bytes == 261'120'000ULL * 40 + 1100ULL * 32 * 128);
  CHECK(plan.memory_bytes == 10'449'305'600ULL);
  check_schedule(plan);
}

TEST_CASE("plan: 256 CPUs sequential, one pair per slot in the same order", "[plan]") {
  const MatrixPlan seq = make_plan(spec_of(range_cpus(256), 4, false), PlanCosts{2e6, 0.05});
  const MatrixPlan par = make_plan(spec_of(range_cpus(256), 4, true), PlanCosts{2e6, 0.05});
  CHECK(seq.slots.size() == 261120);
  CHECK(seq.slots_per_sweep == 65280);
  CHECK(seq.pairs_at_once == 1);
  CHECK(seq.estimated_seconds == Approx(13199.616).epsilon(1e-12));
  CHECK(seq.memory_bytes == 10'444'800'000ULL + 1100ULL * 32);
  check_schedule(seq);
  // The sequential order is the parallel order, slot by slot, unpacked.
  std::vector<PairVisit> flat;
  for (const PlanSlot& slot : par.slots) flat.insert(flat.end(), slot.pairs.begin(), slot.pairs.end());
  REQUIRE(flat.size() == seq.slots.size());
  for (std::size_t k = 0; k < flat.size(); ++k) REQUIRE(seq.slots[k].pairs[0] == flat[k]);
}

TEST_CASE("plan: 2 CPUs, each role once per sweep", "[plan]") {
  const MatrixPlan plan = make_plan(spec_of({7, 3}, 3, true, 500, 0), PlanCosts{1e6, 0.1});
  CHECK(plan.unordered_pairs == 1);
  CHECK(plan.ordered_pairs == 2);
  CHECK(plan.pairs_at_once == 1);
  REQUIRE(plan.slots.size() == 6);
  const std::vector<PairVisit> expected{{7, 3, 0}, {3, 7, 0}, {3, 7, 1}, {7, 3, 1}, {7, 3, 2}, {3, 7, 2}};
  // (The turn between sweeps swaps two CPUs, so here the roles alternate which goes first.)
  for (std::size_t k = 0; k < 6; ++k) {
    CAPTURE(k);
    REQUIRE(plan.slots[k].pairs.size() == 1);
    CHECK(plan.slots[k].pairs[0] == expected[k]);
  }
  CHECK(plan.estimated_seconds == Approx(6 * (0.1 + 500 / 1e6)).epsilon(1e-12));
  CHECK(plan.memory_bytes == 3000ULL * 40 + 500ULL * 32);
  check_schedule(plan);
}

TEST_CASE("plan: odd CPU counts sit one CPU out per tournament round", "[plan]") {
  for (const int n : {3, 5, 7, 9}) {
    CAPTURE(n);
    const MatrixPlan par = make_plan(spec_of(range_cpus(n, 10), 2, true), PlanCosts{});
    CHECK(par.slots.size() == static_cast<std::size_t>(2 * 2 * n));  // V · 2 · (n' − 1), n' = n + 1
    CHECK(par.pairs_at_once == static_cast<std::size_t>(n / 2));
    for (const PlanSlot& slot : par.slots) REQUIRE(slot.pairs.size() == static_cast<std::size_t>(n / 2));
    check_schedule(par);
    const MatrixPlan seq = make_plan(spec_of(range_cpus(n, 10), 2, false), PlanCosts{});
    CHECK(seq.slots.size() == static_cast<std::size_t>(2 * n * (n - 1)));
    check_schedule(seq);
  }
}

TEST_CASE("plan: the circle method's slots, and the turn between sweeps", "[plan]") {
  const MatrixPlan plan = make_plan(spec_of({10, 11, 12, 13}, 2, true), PlanCosts{});
  REQUIRE(plan.slots.size() == 12);
  const auto pairs = [&](std::size_t k) {
    std::vector<std::pair<int, int>> out;
    for (const PairVisit& v : plan.slots[k].pairs) out.emplace_back(v.a, v.b);
    return out;
  };
  using P = std::vector<std::pair<int, int>>;
  // Sweep 0: three tournament rounds one way, then the same rounds the other way.
  CHECK(pairs(0) == P{{10, 13}, {11, 12}});
  CHECK(pairs(1) == P{{10, 11}, {12, 13}});
  CHECK(pairs(2) == P{{10, 12}, {13, 11}});
  CHECK(pairs(3) == P{{13, 10}, {12, 11}});
  CHECK(pairs(4) == P{{11, 10}, {13, 12}});
  CHECK(pairs(5) == P{{12, 10}, {11, 13}});
  // Sweep 1: every CPU one place further round the circle (13 now at the fixed place).
  CHECK(pairs(6) == P{{11, 10}, {12, 13}});
  check_schedule(plan);
}

TEST_CASE("plan: parallel pairs meet other neighbours from one sweep to the next", "[plan]") {
  // 8 CPUs: 7 groupings per half sweep; only one grouping of sweep 0 recurs in sweep 1.
  const MatrixPlan plan = make_plan(spec_of(range_cpus(8), 2, true), PlanCosts{});
  REQUIRE(plan.slots_per_sweep == 14);
  const auto grouping = [&](std::size_t k) {
    std::set<std::pair<int, int>> out;
    for (const PairVisit& v : plan.slots[k].pairs) out.emplace(std::min(v.a, v.b), std::max(v.a, v.b));
    return out;
  };
  std::set<std::set<std::pair<int, int>>> sweep0;
  for (std::size_t k = 0; k < 7; ++k) sweep0.insert(grouping(k));
  REQUIRE(sweep0.size() == 7);
  int recurring = 0;
  for (std::size_t k = 14; k < 21; ++k) recurring += static_cast<int>(sweep0.count(grouping(k)));
  CHECK(recurring == 1);
}

TEST_CASE("plan: bad specs are usage errors that say what is wrong", "[plan]") {
  const PlanCosts costs;
  CHECK_THROWS_AS(make_plan(spec_of({0}, 4, false), costs), UsageError);
  CHECK_THROWS_WITH(make_plan(spec_of({0}, 4, false), costs), "a matrix needs at least 2 CPUs, got 1");
  CHECK_THROWS_WITH(make_plan(spec_of({}, 4, false), costs), "a matrix needs at least 2 CPUs, got 0");
  CHECK_THROWS_WITH(make_plan(spec_of({0, 1, 0}, 4, false), costs),
                    "CPU 0 appears more than once in the matrix's CPU list");
  CHECK_THROWS_WITH(make_plan(spec_of({5, 1, 5, 1, 2}, 4, false), costs),
                    "CPUs 1,5 appear more than once in the matrix's CPU list");
  CHECK_THROWS_WITH(make_plan(spec_of({0, 1}, 0, false), costs), "visits per ordered pair must be at least 1, got 0");
  CHECK_THROWS_WITH(make_plan(spec_of({0, 1}, 4, false, 0), costs), "rounds per visit must be at least 1, got 0");
  CHECK_THROWS_WITH(make_plan(spec_of({0, 1}, 1, false, 1ULL << 63), costs),
                    "the plan is too large: the total round count overflows 64 bits");
  CHECK_THROWS_WITH(make_plan(spec_of({0, 1}, 1, false, 1ULL << 60), costs),
                    "the plan is too large: the memory figure overflows 64 bits");
  CHECK_THROWS_WITH(make_plan(spec_of(range_cpus(1000), 21, false), costs),
                    "the plan has 20979000 pair visits, more than 20000000 (select fewer CPUs or fewer visits)");
  CHECK_THROWS_AS(make_plan(spec_of({0, 1}, 1, false), PlanCosts{0, 0.05}), std::invalid_argument);
  CHECK_THROWS_AS(make_plan(spec_of({0, 1}, 1, false), PlanCosts{2e6, -1}), std::invalid_argument);
}

TEST_CASE("rounds_for_budget: the largest rounds that fit, at least the minimum", "[plan]") {
  const PlanCosts costs{2e6, 0.05};
  // 2040 slots: 3600 s / 2040 − 0.05 s = 1.7147 s per visit → 3429411 rounds, less 1000 warm-up.
  CHECK(rounds_for_budget(256, 4, true, 3600, costs, 1000, 100) == 3'428'411);
  CHECK(rounds_for_budget(8, 4, false, 3600, costs, 1000, 100) == 32'041'857);
  // 261120 sequential visits cost 13056 s in fixed costs alone: the minimum.
  CHECK(rounds_for_budget(256, 4, false, 3600, costs, 1000, 100) == 100);
  CHECK(rounds_for_budget(16, 4, true, 60, costs, 0, 4000) == 900'000);
  CHECK(rounds_for_budget(2, 1, false, 1.0, PlanCosts{1e6, 0.1}, 0, 1) == 400'000);
  // The plan made with it fits the budget.
  PlanSpec s = spec_of(range_cpus(256), 4, true, 3'428'411, 1000);
  CHECK(make_plan(s, costs).estimated_seconds <= 3600);
  s.rounds_per_visit += 1;
  CHECK(make_plan(s, costs).estimated_seconds > 3600);
  CHECK_THROWS_WITH(rounds_for_budget(16, 4, true, 0, costs, 0, 1),
                    "the time budget must be a positive number of seconds, got 0");
  CHECK_THROWS_WITH(rounds_for_budget(16, 4, true, -2.5, costs, 0, 1),
                    "the time budget must be a positive number of seconds, got -2.5");
  CHECK_THROWS_WITH(rounds_for_budget(1, 4, true, 60, costs, 0, 1), "a matrix needs at least 2 CPUs, got 1");
  CHECK_THROWS_WITH(rounds_for_budget(4, 0, true, 60, costs, 0, 1),
                    "visits per ordered pair must be at least 1, got 0");
}

TEST_CASE("default_rounds_per_visit: the documented formula", "[plan]") {
  CHECK(default_rounds_per_visit(2, 4) == 250'000);  // capped at 1 M per ordered pair
  CHECK(default_rounds_per_visit(6, 4) == 250'000);
  CHECK(default_rounds_per_visit(7, 4) == 238'095);  // 40 M / 42 = 952380
  CHECK(default_rounds_per_visit(16, 4) == 41'667);  // 40 M / 240 = 166666, / 4 rounded
  CHECK(default_rounds_per_visit(64, 4) == 2480);
  CHECK(default_rounds_per_visit(100, 4) == 1010);
  CHECK(default_rounds_per_visit(101, 4) == 990);  // 40 M / 10100 = 3960
  CHECK(default_rounds_per_visit(141, 4) == 507);  // 40 M / 19740 = 2026
  CHECK(default_rounds_per_visit(142, 4) == 500);  // 40 M / 20022 = 1997: the 2000 floor
  CHECK(default_rounds_per_visit(256, 4) == 500);
  CHECK(default_rounds_per_visit(2, 3) == 333'333);
  CHECK(default_rounds_per_visit(2, 1) == 1'000'000);
  CHECK(default_rounds_per_visit(256, 5000) == 1);  // never 0
  CHECK_THROWS_WITH(default_rounds_per_visit(0, 4), "a matrix needs at least 2 CPUs, got 0");
  CHECK_THROWS_WITH(default_rounds_per_visit(4, 0), "visits per ordered pair must be at least 1, got 0");
}
