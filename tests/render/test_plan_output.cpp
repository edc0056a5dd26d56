// The plan as text: exact lines.
#include <catch2/catch.hpp>

#include "matrix/matrix.hpp"
#include "platform/topology.hpp"
#include "render/plan_output.hpp"

using namespace tscaudit;

namespace {

OrderedCpus fixture_cpus() {
  const TopologyResult r =
      load_topology(TopologySource{TopologySource::Kind::xml, TSCAUDIT_TEST_DATA "/topology/interleaved_2x2x2x2.xml"});
  REQUIRE(r.ok);
  std::vector<int> all;
  for (int c = 0; c < 16; ++c) all.push_back(c);
  return order_by_topology(r.summary.places, all);
}

}  // namespace

TEST_CASE("plan_text: 16 CPUs in topology order, parallel", "[plan]") {
  const OrderedCpus cpus = fixture_cpus();
  PlanSpec spec;
  spec.cpus = cpus.cpu_numbers();
  spec.visits = 4;
  spec.rounds_per_visit = default_rounds_per_visit(16, 4);
  spec.warmup_per_visit = 1000;
  spec.parallel = true;
  spec.design_reason = "a reason";
  spec.budget_seconds = 10;
  const MatrixPlan plan = make_plan(spec, PlanCosts{2e6, 0.05});
  CHECK(plan_text(plan, &cpus) ==
        "cpus              0-15 (16 CPUs in topology order: 2 packages, 4 L3 domains)\n"
        "design            all pairs: a reason\n"
        "pairs             120 unordered, 240 ordered (each pair in both roles)\n"
        "visits            4 per ordered pair, one per sweep, spread over the whole run\n"
        "rounds per visit  41667 measured + 1000 warm-up\n"
        "total rounds      40000320 measured\n"
        "slots             120 (30 per sweep), 8 pairs at once\n"
        "estimated time    8.6 s (fixed 0.05 s per visit, 2 M rounds/s per pair)\n"
        "budget            10 s: the estimate fits\n"
        "memory, streamed  31.1 MB (rounds written as measured: the pairs at once, one pair's rounds for its\n"
        "                  analysis, the 16x16 cells)\n"
        "parallel          8 pairs at once share caches, memory and the interconnect: latencies (rtt) can\n"
        "                  rise and spread, so the offset bounds widen; the bounds stay valid (they assume\n"
        "                  only causality), and the offset estimate moves only as far as the added delay\n"
        "                  differs between the two directions\n");
}

TEST_CASE("plan_text: 2 CPUs, sequential, no topology: no parallel line", "[plan]") {
  PlanSpec spec;
  spec.cpus = {3, 1};
  spec.visits = 1;
  spec.rounds_per_visit = 1'000'000;
  const MatrixPlan plan = make_plan(spec, PlanCosts{2e6, 0.05});
  CHECK(plan_text(plan) ==
        "cpus              1,3 (2 CPUs)\n"
        "design            all pairs\n"
        "pairs             1 unordered, 2 ordered (each pair in both roles)\n"
        "visits            1 per ordered pair, one per sweep, spread over the whole run\n"
        "rounds per visit  1000000 measured + 0 warm-up\n"
        "total rounds      2000000 measured\n"
        "slots             2 (2 per sweep), 1 pair at once\n"
        "estimated time    1.1 s (fixed 0.05 s per visit, 2 M rounds/s per pair)\n"
        "memory, streamed  112.0 MB (rounds written as measured: the pairs at once, one pair's rounds for its\n"
        "                  analysis, the 2x2 cells)\n");
}

TEST_CASE("plan_text: a sparse plan over its budget says so", "[plan]") {
  PlanSpec spec;
  spec.cpus = {0, 1, 2, 3};
  spec.visits = 1;
  spec.rounds_per_visit = 1000;
  spec.design = PlanDesign::sparse;
  spec.pairs = {{0, 1}, {1, 2}, {2, 3}};
  spec.design_reason = "why";
  spec.budget_seconds = 1;
  spec.parallel = true;
  const MatrixPlan plan = make_plan(spec, PlanCosts{1e6, 0.5});
  const std::string text = plan_text(plan);
  CHECK_THAT(text, Catch::Matchers::Contains("design            sparse: why\n"
                                             "pairs             3 unordered, 6 ordered (each pair in both roles) of "
                                             "12 ordered pairs\n"));
  CHECK_THAT(text, Catch::Matchers::Contains("slots             4 (at most 4 per sweep), 2 pairs at once\n"));
  CHECK_THAT(text, Catch::Matchers::Contains(
                       "budget            1.0 s: the estimate exceeds it; give fewer --cpus, --visits or --rounds (measured\n"
                       "                  only with --over-budget)\n"));
  CHECK(over_budget_refusal(plan, false) ==
        "the plan's estimated 2.0 s of measuring exceeds its budget of 1.0 s (4 slots, pairs in parallel): give "
        "fewer --cpus, --visits or --rounds, a larger --budget, or --over-budget to measure it anyway (--dry-run "
        "shows the plan)");
  spec.parallel = false;
  const MatrixPlan one_at_a_time = make_plan(spec, PlanCosts{1e6, 0.5});
  CHECK_THAT(plan_text(one_at_a_time),
             Catch::Matchers::Contains(
                 "budget            1.0 s: the estimate exceeds it; run pairs in parallel, or give fewer --cpus,\n"
                 "                  --visits or --rounds (measured only with --over-budget)\n"));
  // Below a second the refusal keeps two digits, so that its two figures never read the same.
  spec.budget_seconds = 0.01;
  CHECK(over_budget_refusal(make_plan(spec, PlanCosts{1e6, 0.004}), true) ==
        "the plan's estimated 0.03 s of measuring exceeds its budget of 0.01 s (6 slots, one pair at a time): run "
        "pairs in parallel, or give fewer --cpus, --visits or --rounds, or --over-budget to measure it anyway "
        "(--dry-run shows the plan)");
}
