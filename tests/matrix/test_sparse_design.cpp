// The sparse design and the plan choice: the design's graph (connected, both roles, every
// pair inside each local group, partners in several other groups and in every other
// package), its schedule, the rule that chooses it, and what matters most: one CPU off from
// the rest is caught and named alone when only the sparse design's pairs are measured.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <map>
#include <set>

#include "matrix/check.hpp"
#include "matrix/matrix.hpp"
#include "matrix/plan_choice.hpp"
#include "matrix/sparse_design.hpp"
#include "matrix/topology_order.hpp"
#include "render/matrix_output.hpp"
#include "render/verdict_text.hpp"

using namespace tscaudit;

namespace {

/// A machine numbered in topology order: `packages` × `l3s` L3 domains (0: the machine has
/// no L3 level) × `cores` cores × `pus` threads.
OrderedCpus machine(int packages, int l3s, int cores, int pus) {
  std::vector<CpuPlace> places;
  std::vector<int> all;
  const int l3_count = std::max(l3s, 1);
  for (int p = 0; p < packages; ++p) {
    for (int l = 0; l < l3_count; ++l) {
      for (int c = 0; c < cores; ++c) {
        for (int t = 0; t < pus; ++t) {
          CpuPlace place;
          place.cpu = static_cast<int>(places.size());
          place.package = p;
          place.l3 = l3s > 0 ? p * l3s + l : -1;
          place.core = (p * l3_count + l) * cores + c;
          places.push_back(place);
          all.push_back(place.cpu);
        }
      }
    }
  }
  return order_by_topology(places, all);
}

/// Index of the group (of `starts`) that index i lies in.
std::size_t group_of(const std::vector<std::size_t>& starts, std::size_t i) {
  return static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), i) - starts.begin()) - 1;
}

std::vector<std::set<std::size_t>> neighbours(std::size_t n, const std::vector<IndexPair>& pairs) {
  std::vector<std::set<std::size_t>> out(n);
  for (const IndexPair& p : pairs) {
    out[p.first].insert(p.second);
    out[p.second].insert(p.first);
  }
  return out;
}

/// The structural contract of a sparse design.
void check_design(const OrderedCpus& order) {
  const std::size_t n = order.cpus.size();
  const SparseDesign d = sparse_design(order);
  CAPTURE(n, d.group_starts.size(), d.pairs.size());
  // Sorted, distinct, first < second, in range.
  REQUIRE(std::is_sorted(d.pairs.begin(), d.pairs.end()));
  REQUIRE(std::adjacent_find(d.pairs.begin(), d.pairs.end()) == d.pairs.end());
  for (const IndexPair& p : d.pairs) REQUIRE((p.first < p.second && p.second < n));
  const std::set<IndexPair> set(d.pairs.begin(), d.pairs.end());
  const auto adjacent = neighbours(n, d.pairs);

  // Connected: every per-CPU offset is tied to every other by a chain of pairs.
  std::vector<bool> seen(n, false);
  std::vector<std::size_t> stack{0};
  seen[0] = true;
  std::size_t reached = 1;
  while (!stack.empty()) {
    const std::size_t i = stack.back();
    stack.pop_back();
    for (std::size_t j : adjacent[i]) {
      if (!seen[j]) seen[j] = true, ++reached, stack.push_back(j);
    }
  }
  CHECK(reached == n);

  // Every pair inside each local group; no group larger than kSparseGroupCpus.
  const std::vector<std::size_t>& g = d.group_starts;
  for (std::size_t k = 0; k < g.size(); ++k) {
    const std::size_t end = k + 1 < g.size() ? g[k + 1] : n;
    REQUIRE(end - g[k] <= kSparseGroupCpus);
    for (std::size_t i = g[k]; i < end; ++i) {
      for (std::size_t j = i + 1; j < end; ++j) REQUIRE(set.count({i, j}) == 1);
    }
  }

  // Partners in other groups: in >= 2 of them where there are >= 3 groups; several in the
  // other one where there are 2. And >= 2 partners in every other package.
  const std::vector<std::size_t>& pk = d.package_starts;
  for (std::size_t i = 0; i < n; ++i) {
    CAPTURE(i);
    std::map<std::size_t, std::size_t> per_group, per_package;
    for (std::size_t j : adjacent[i]) {
      if (group_of(g, j) != group_of(g, i)) ++per_group[group_of(g, j)];
      if (group_of(pk, j) != group_of(pk, i)) ++per_package[group_of(pk, j)];
    }
    if (g.size() >= 3) CHECK(per_group.size() >= 2);
    if (g.size() == 2) CHECK(per_group.begin()->second >= 2);
    CHECK(per_package.size() == pk.size() - 1);
    for (const auto& [package, count] : per_package) CHECK(count >= std::min<std::size_t>(2, n - pk[package]));
  }

  // Spread: every two local groups are linked by at least two pairs; where every group is
  // reached from every CPU (up to kSparseCrossGroups others), every CPU of a group has
  // at least two partners in each other group.
  if (g.size() >= 2) {
    std::map<std::pair<std::size_t, std::size_t>, std::size_t> links;
    for (const IndexPair& p : d.pairs) {
      const std::size_t a = group_of(g, p.first), b = group_of(g, p.second);
      if (a != b) ++links[{std::min(a, b), std::max(a, b)}];
    }
    for (std::size_t a = 0; a < g.size(); ++a) {
      for (std::size_t b = a + 1; b < g.size(); ++b) {
        CAPTURE(a, b);
        CHECK(links[{a, b}] >= 2);
      }
    }
    if (g.size() - 1 <= kSparseCrossGroups) {
      for (std::size_t i = 0; i < n; ++i) {
        std::map<std::size_t, std::size_t> per_group;
        for (std::size_t j : adjacent[i]) ++per_group[group_of(g, j)];
        for (std::size_t k = 0; k < g.size(); ++k) {
          if (k == group_of(g, i)) continue;
          const std::size_t size = (k + 1 < g.size() ? g[k + 1] : n) - g[k];
          CHECK(per_group[k] >= std::min<std::size_t>(2, size));
        }
      }
    }
  }
  // The same CPUs in the same order give the same design.
  CHECK(sparse_design(order).pairs == d.pairs);
}

/// Cells for the ordered pairs of `pairs` (both roles) on a machine whose per-CPU offsets
/// are `truth`: each band holds the truth, a few ticks wide, the estimate a tick or two off.
std::vector<PairCell> cells_for(const std::vector<double>& truth, const std::vector<IndexPair>& pairs) {
  const std::size_t n = truth.size();
  std::vector<PairCell> cells(n * n);
  for (const IndexPair& p : pairs) {
    for (const auto& [a, b] : {std::pair{p.first, p.second}, std::pair{p.second, p.first}}) {
      const double theta = truth[b] - truth[a];
      PairCell& c = cells[a * n + b];
      c.measured = true;
      c.rounds = 2000;
      c.band_feasible = true;
      c.offset_ticks = theta + static_cast<double>(static_cast<int>((a * 7 + b * 3) % 5) - 2);
      c.offset_lo_ticks = theta - 2 - static_cast<double>((a + 2 * b) % 5);
      c.offset_hi_ticks = theta + 2 + static_cast<double>((3 * a + b) % 5);
      c.rtt_min_ticks = 300;
      c.rtt_p50_ticks = 320;
    }
  }
  return cells;
}

/// The matrix of a sparse run whose cells are `cells_for(truth, design)`.
MatrixResult sparse_matrix(const OrderedCpus& order, const SparseDesign& d, const std::vector<double>& truth) {
  MatrixResult m;
  m.cpus = order.cpu_numbers();
  m.places = order.cpus;
  const std::size_t n = m.cpus.size();
  m.cells = cells_for(truth, d.pairs);
  m.planned.assign(n * n, 0);
  for (const IndexPair& p : d.pairs) m.planned[p.first * n + p.second] = m.planned[p.second * n + p.first] = 1;
  m.recv = recorded_variant(ReadVariant::lfence_rdtsc);
  m.cpu = solve_cpu_offsets(m.cpus, m.cells, 1);
  return m;
}

/// CPU index `bad` +`shift` ticks from the rest: check fails, every failure an offset
/// failure of a pair with that CPU, every pair with it fails, and it alone is named.
void check_one_cpu_off(const OrderedCpus& order, const SparseDesign& d, std::size_t bad, double shift) {
  const std::size_t n = order.cpus.size();
  std::vector<double> truth(n, 0);
  truth[bad] = shift;
  const MatrixResult m = sparse_matrix(order, d, truth);
  const int cpu = m.cpus[bad];
  CAPTURE(cpu, shift);
  REQUIRE(m.cpu.bands_consistent);
  const CheckResult r = decide_check(CheckEvidence(m), CheckSettings{});
  REQUIRE_FALSE(r.synchronized);
  REQUIRE(r.pairs_checked == 2 * d.pairs.size());
  std::size_t with_bad = 0;
  for (const IndexPair& p : d.pairs) with_bad += (p.first == bad || p.second == bad) ? 2 : 0;
  REQUIRE(r.failures.size() == with_bad);
  for (const CheckFailure& f : r.failures) {
    REQUIRE(f.kind == CheckFailureKind::offset);
    REQUIRE((f.a == cpu || f.b == cpu));
  }
  REQUIRE(r.cpus_off == std::vector<int>{cpu});
  // The reason names it, shows one of its pairs and counts the design's pairs.
  REQUIRE(r.sparse);
  const std::string reason = check_reason_text(r);
  CAPTURE(reason);
  REQUIRE(reason.rfind("not synchronized: CPU " + std::to_string(cpu) + (shift > 0 ? " is ahead of" : " is behind") +
                           " the rest (CPUs ",
                       0) == 0);
  const CheckFailure& shown = r.failures.at(r.shown.value());
  REQUIRE((shown.a == cpu || shown.b == cpu));
  REQUIRE(reason.find("(" + std::to_string(with_bad) + " of the " + std::to_string(2 * d.pairs.size()) +
                      " ordered pairs of a sparse design fail; those that pass are within ") != std::string::npos);
  // The one finding: that CPU against every other, its band holding the shift.
  REQUIRE(r.diagnosis.findings.size() == 1);
  const Finding& f = r.diagnosis.findings[0];
  REQUIRE(f.cpus == std::vector<int>{cpu});
  REQUIRE(f.against.size() == n - 1);
  REQUIRE((f.lo <= shift && shift <= f.hi));
  REQUIRE(check_json(r)["cpus_off"] == nlohmann::ordered_json::array({cpu}));
  // The per-CPU offsets put it where it is, within their hard bounds.
  const double x = m.cpu.offset_ticks[bad] - m.cpu.offset_ticks[0];
  CHECK(x == Approx(bad == 0 ? 0.0 : shift).margin(3));
  if (bad != 0) CHECK((m.cpu.lo_ticks[bad] <= shift && shift <= m.cpu.hi_ticks[bad]));
}

}  // namespace

TEST_CASE("local_group_starts: L3 domains, packages, cut at core boundaries", "[sparse]") {
  // L3 domains of 8 CPUs: one group each.
  CHECK(local_group_starts(machine(2, 2, 4, 2)) == std::vector<std::size_t>{0, 8, 16, 24});
  // L3 domains of 32 CPUs: two groups of 16 each.
  CHECK(local_group_starts(machine(1, 2, 16, 2)) == std::vector<std::size_t>{0, 16, 32, 48});
  // No L3: packages of 32, cut in two.
  CHECK(local_group_starts(machine(2, 0, 16, 2)) == std::vector<std::size_t>{0, 16, 32, 48});
  // 3 × 7 cores × 2 threads = 42 CPUs: three near-equal parts, never splitting a core.
  const std::vector<std::size_t> odd = local_group_starts(machine(1, 0, 21, 2), 16);
  CHECK(odd == std::vector<std::size_t>{0, 14, 28});
  // No topology at all: one group, cut by position.
  OrderedCpus bare;
  for (int c = 0; c < 20; ++c) bare.cpus.push_back(CpuPlace{c, -1, -1, -1, -1, -1});
  CHECK(local_group_starts(bare, 16) == std::vector<std::size_t>{0, 10});
}

TEST_CASE("sparse_design: the graph's contract on small and large machines", "[sparse]") {
  check_design(machine(2, 0, 16, 2));   // 64 CPUs, two packages, no L3
  check_design(machine(2, 4, 8, 2));    // 128 CPUs, 8 L3 domains of 16
  check_design(machine(2, 0, 64, 2));   // 256 CPUs
  check_design(machine(1, 0, 3, 1));    // 3 CPUs, one group
  check_design(machine(3, 0, 5, 1));    // 15 CPUs, three packages of 5
  check_design(machine(2, 12, 16, 2));  // 768 CPUs: L3 domains of 32, cut in two
  check_design(machine(2, 16, 16, 2));  // 1024 CPUs
}

TEST_CASE("sparse_design: the pairs of known machines (a change of the design shows here)", "[sparse]") {
  // Counted by this implementation; they must change only when the design does.
  CHECK(sparse_design(machine(2, 0, 16, 2)).pairs.size() == 1173);
  CHECK(sparse_design(machine(2, 0, 64, 2)).pairs.size() == 4400);
  CHECK(sparse_design(machine(2, 0, 256, 2)).pairs.size() == 18444);
}

TEST_CASE("make_plan: a sparse plan visits each listed pair in both roles, disjoint pairs per slot", "[sparse]") {
  const OrderedCpus order = machine(2, 0, 16, 2);
  const SparseDesign d = sparse_design(order);
  for (const bool parallel : {true, false}) {
    CAPTURE(parallel);
    PlanSpec spec;
    spec.cpus = order.cpu_numbers();
    spec.visits = 3;
    spec.rounds_per_visit = 100;
    spec.parallel = parallel;
    spec.design = PlanDesign::sparse;
    spec.pairs = d.pairs;
    const MatrixPlan plan = make_plan(spec, PlanCosts{2e6, 0.008});
    CHECK(plan.unordered_pairs == d.pairs.size());
    CHECK(plan.ordered_pairs == 2 * d.pairs.size());
    CHECK(plan.pair_visits == 6 * d.pairs.size());
    CHECK(plan.total_rounds == 600 * d.pairs.size());
    CHECK(plan_slot_count(spec) == plan.slots.size());
    std::map<std::pair<int, int>, std::uint64_t> visits;
    std::uint64_t sweep = 0;
    std::size_t largest = 0;
    for (const PlanSlot& slot : plan.slots) {
      if (!parallel) REQUIRE(slot.pairs.size() == 1);
      largest = std::max(largest, slot.pairs.size());
      std::set<int> busy;
      for (const PairVisit& v : slot.pairs) {
        REQUIRE(busy.insert(v.a).second);
        REQUIRE(busy.insert(v.b).second);
        REQUIRE(v.visit >= sweep);  // sweeps in order: visit k of every pair in sweep k
        sweep = v.visit;
        REQUIRE(visits[{v.a, v.b}]++ == v.visit);
      }
    }
    CHECK(largest == plan.pairs_at_once);
    REQUIRE(visits.size() == 2 * d.pairs.size());
    for (const auto& [pair, count] : visits) REQUIRE(count == 3);
    // measures(): exactly the listed pairs, both roles.
    std::size_t measured = 0;
    for (std::size_t i = 0; i < spec.cpus.size(); ++i) {
      for (std::size_t j = 0; j < spec.cpus.size(); ++j) {
        if (plan.measures(i, j)) {
          ++measured;
          REQUIRE(visits.count({spec.cpus[i], spec.cpus[j]}) == 1);
        }
      }
    }
    CHECK(measured == 2 * d.pairs.size());
  }
  // Parallel sweeps are coloured from different places: pairs meet other neighbours.
  PlanSpec spec;
  spec.cpus = order.cpu_numbers();
  spec.visits = 2;
  spec.rounds_per_visit = 100;
  spec.parallel = true;
  spec.design = PlanDesign::sparse;
  spec.pairs = d.pairs;
  const MatrixPlan plan = make_plan(spec, PlanCosts{});
  CHECK(plan.slots.front().pairs != plan.slots.at(plan.slots.size() / 2).pairs);
}

TEST_CASE("make_plan: bad sparse pair lists", "[sparse]") {
  PlanSpec spec;
  spec.cpus = {0, 1, 2};
  spec.rounds_per_visit = 10;
  spec.design = PlanDesign::sparse;
  CHECK_THROWS_WITH(make_plan(spec, PlanCosts{}), "PlanSpec: a sparse plan lists no pairs");
  spec.pairs = {{0, 3}};
  CHECK_THROWS_WITH(make_plan(spec, PlanCosts{}), "PlanSpec: pair (0, 3) is out of range or not ordered");
  spec.pairs = {{1, 0}};
  CHECK_THROWS_WITH(make_plan(spec, PlanCosts{}), "PlanSpec: pair (1, 0) is out of range or not ordered");
  spec.pairs = {{0, 1}, {1, 2}, {0, 1}};
  CHECK_THROWS_WITH(make_plan(spec, PlanCosts{}), "PlanSpec: pair (0, 1) is listed twice");
}

TEST_CASE("choose_plan: all pairs while every pair gets its floor within both budgets, else sparse", "[sparse]") {
  const PlanCosts costs{2e6, 0.008};
  PlanRequest request;
  request.warmup_per_visit = 2000;
  SECTION("2 CPUs: all pairs, the default rounds") {
    const MatrixPlan p = choose_plan(machine(1, 0, 1, 2), request, costs);
    CHECK(p.spec.design == PlanDesign::all_pairs);
    CHECK(p.spec.rounds_per_visit == 250'000);
    CHECK(p.spec.budget_seconds == Approx(90).margin(0));
    CHECK(p.spec.design_reason ==
          "every one of the 2 ordered pairs gets at least 2000 rounds within the 90 s budget and 40 M rounds in all");
  }
  SECTION("64 CPUs in parallel: all pairs; 141 too; 142 sparse (the data budget)") {
    const MatrixPlan p64 = choose_plan(machine(2, 0, 16, 2), request, costs);
    CHECK(p64.spec.design == PlanDesign::all_pairs);
    CHECK(p64.spec.rounds_per_visit == 2480);
    CHECK(choose_plan(machine(1, 0, 141, 1), request, costs).spec.design == PlanDesign::all_pairs);
    const MatrixPlan p142 = choose_plan(machine(1, 0, 142, 1), request, costs);
    CHECK(p142.spec.design == PlanDesign::sparse);
    CHECK(p142.spec.design_reason.rfind("all 20022 ordered pairs at 2000 rounds each would take 40 M rounds, more "
                                        "than the 40 M a plan aims at; these ",
                                        0) == 0);
  }
  SECTION("64 CPUs one pair at a time: all pairs would take too long, so sparse within the budget") {
    request.parallel = false;
    const MatrixPlan p = choose_plan(machine(2, 0, 16, 2), request, costs);
    CHECK(p.spec.design == PlanDesign::sparse);
    CHECK(p.spec.design_reason.find("would take 2 min 29 s, more than the 90 s budget") != std::string::npos);
    CHECK(p.estimated_seconds <= 90);
    CHECK(p.spec.rounds_per_visit >= floor_rounds_per_visit(4));
  }
  SECTION("--all-pairs forces the full matrix, at its floor where the data budget says so") {
    request.all_pairs = true;
    const MatrixPlan p = choose_plan(machine(2, 0, 64, 2), request, costs);
    CHECK(p.spec.design == PlanDesign::all_pairs);
    CHECK(p.spec.rounds_per_visit == 500);
    CHECK(p.spec.design_reason == "the full matrix was asked for (--all-pairs)");
  }
  SECTION("given rounds are kept, the design still chosen by the rule") {
    request.rounds_per_visit = 777;
    const MatrixPlan p = choose_plan(machine(2, 0, 64, 2), request, costs);
    CHECK(p.spec.design == PlanDesign::sparse);
    CHECK(p.spec.rounds_per_visit == 777);
  }
  SECTION("a small budget lowers the rounds, never below the floor") {
    request.budget_seconds = 0.5;
    const MatrixPlan p = choose_plan(machine(1, 0, 4, 1), request, costs);
    CHECK(p.spec.design == PlanDesign::all_pairs);
    CHECK(p.estimated_seconds <= 0.5);
    CHECK(p.spec.rounds_per_visit < default_rounds_per_visit(4, 4));
    request.budget_seconds = 1e-3;
    CHECK(choose_plan(machine(1, 0, 4, 1), request, costs).spec.rounds_per_visit == 500);
  }
  SECTION("bad requests") {
    request.budget_seconds = 0;
    CHECK_THROWS_WITH(choose_plan(machine(1, 0, 4, 1), request, costs),
                      "the time budget must be a positive number of seconds, got 0");
    request.budget_seconds = 90;
    CHECK_THROWS_WITH(choose_plan(machine(1, 0, 1, 1), request, costs), "a matrix needs at least 2 CPUs, got 1");
  }
}

TEST_CASE("choose_plan: 64 to 1024 CPUs fit 90 s in parallel, in less than 1 GB streamed", "[sparse]") {
  const PlanCosts costs{2e6, 0.008};  // the cost model of src/app/matrix_command.hpp
  PlanRequest request;
  request.warmup_per_visit = 2000;
  for (const auto& [order, design] :
       {std::pair{machine(2, 0, 16, 2), PlanDesign::all_pairs}, std::pair{machine(2, 0, 64, 2), PlanDesign::sparse},
        std::pair{machine(2, 12, 16, 2), PlanDesign::sparse}, std::pair{machine(2, 16, 16, 2), PlanDesign::sparse}}) {
    const MatrixPlan p = choose_plan(order, request, costs);
    CAPTURE(order.cpus.size(), p.estimated_seconds, p.memory_bytes_streaming);
    CHECK(p.spec.design == design);
    CHECK(p.estimated_seconds <= 90);
    CHECK(p.memory_bytes_streaming <= 1'000'000'000);
    CHECK(p.spec.rounds_per_visit * p.spec.visits >= kMinRoundsPerPair);
  }
}

TEST_CASE("sparse check: a synchronized machine passes on the sparse pairs alone", "[sparse]") {
  const OrderedCpus order = machine(2, 0, 16, 2);
  const SparseDesign d = sparse_design(order);
  const MatrixResult m = sparse_matrix(order, d, std::vector<double>(64, 0));
  const CheckResult r = decide_check(CheckEvidence(m), CheckSettings{});
  CHECK(r.synchronized);
  CHECK(r.pairs_checked == 2 * d.pairs.size());
  CHECK(r.cpus_off.empty());
  CHECK(r.sparse);
  CHECK(check_reason_text(r).find("synchronized to within \u00b1") == 0);
  CHECK(check_reason_text(r).find(": the 2346 ordered pairs of a sparse design over 64 CPUs (of 4032) have offset "
                                  "bands that contain 0") != std::string::npos);
  CHECK(r.diagnosis.findings.empty());
  // A planned pair without rounds is no failure: the others still link every CPU, so the
  // verdict stands on them, and says what is missing.
  MatrixResult missing = m;
  const IndexPair p = d.pairs.front();
  missing.cells[p.first * 64 + p.second] = PairCell{};
  const CheckResult r2 = decide_check(CheckEvidence(missing), CheckSettings{});
  CHECK(r2.failures.empty());
  CHECK(r2.outcome == CheckOutcome::synchronized);
  CHECK(r2.missing == std::vector<std::string>{std::to_string(p.first) + "->" + std::to_string(p.second)});
  CHECK(check_reason_text(r2).find("; 1 ordered pair of 2346 has no rounds") != std::string::npos);
}

TEST_CASE("sparse check: one CPU off by 400 ticks is caught and named alone, for every CPU of 64", "[sparse]") {
  const OrderedCpus order = machine(2, 0, 16, 2);
  const SparseDesign d = sparse_design(order);
  for (std::size_t bad = 0; bad < order.cpus.size(); ++bad) check_one_cpu_off(order, d, bad, 400);
  check_one_cpu_off(order, d, 40, -400);
}

TEST_CASE("sparse check: one CPU off by 400 ticks is caught and named alone, 256 CPUs", "[sparse]") {
  const OrderedCpus order = machine(2, 0, 64, 2);
  const SparseDesign d = sparse_design(order);
  for (const std::size_t bad : std::vector<std::size_t>{0, 1, 17, 127, 128, 200, 255})
    check_one_cpu_off(order, d, bad, 400);
}

TEST_CASE("sparse check: a whole package off fails the pairs across, and names that package's CPUs", "[sparse]") {
  const OrderedCpus order = machine(2, 0, 16, 2);
  const SparseDesign d = sparse_design(order);
  std::vector<double> truth(64, 0);
  for (std::size_t i = 32; i < 64; ++i) truth[i] = 150;
  const MatrixResult m = sparse_matrix(order, d, truth);
  const CheckResult r = decide_check(CheckEvidence(m), CheckSettings{});
  CHECK_FALSE(r.synchronized);
  // Two packages of one size: the one without the matrix's first CPU is the finding's, and
  // its CPUs are off (docs/machine.md §10.6).
  std::vector<int> package_1(32);
  std::iota(package_1.begin(), package_1.end(), 32);
  CHECK(r.cpus_off == package_1);
  for (const CheckFailure& f : r.failures) {
    REQUIRE(f.kind == CheckFailureKind::offset);
    REQUIRE((f.a < 32) != (f.b < 32));  // across the packages
  }
  for (std::size_t i = 32; i < 64; ++i) {
    CHECK((m.cpu.lo_ticks[i] <= 150 && 150 <= m.cpu.hi_ticks[i]));
  }
  // The structure: the second package against the first, from the design's pairs across.
  REQUIRE(r.diagnosis.findings.size() == 1);
  const Finding& f = r.diagnosis.findings[0];
  CHECK(f.cpus.size() == 32);
  CHECK(f.against.size() == 32);
  CHECK(f.name == "package 1");  // named from the topology, whichever pairs the design measured
  CHECK(f.against_name == "package 0");
  CHECK((f.lo <= 150 && 150 <= f.hi));
}
