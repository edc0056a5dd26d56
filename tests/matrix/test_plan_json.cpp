// The plan's JSON (matrix/plan_json.hpp): the figures of tscaudit-plan/1, the spec written
// and read back exactly (a sparse design's pairs included), and every spec the reader refuses,
// with its message.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/errors.hpp"
#include "matrix/matrix.hpp"
#include "matrix/plan_json.hpp"

using namespace tscaudit;

TEST_CASE("plan_json: schema, figures and the first slots only", "[plan]") {
  PlanSpec spec;
  spec.cpus = {0, 1, 2, 3};
  spec.visits = 2;
  spec.rounds_per_visit = 500;
  spec.warmup_per_visit = 10;
  spec.parallel = true;
  const nlohmann::ordered_json j = plan_json(make_plan(spec, PlanCosts{1e6, 0.5}));
  CHECK(j.at("schema") == "tscaudit-plan/1");
  CHECK(j.at("cpus") == nlohmann::ordered_json::array({0, 1, 2, 3}));
  CHECK(j.at("cpu_list") == "0-3");
  CHECK(j.at("parallel") == true);
  CHECK(j.at("unordered_pairs") == 6);
  CHECK(j.at("ordered_pairs") == 12);
  CHECK(j.at("visits_per_pair") == 2);
  CHECK(j.at("rounds_per_visit") == 500);
  CHECK(j.at("warmup_per_visit") == 10);
  CHECK(j.at("pair_visits") == 24);
  CHECK(j.at("total_rounds") == 12000);
  CHECK(j.at("slots") == 12);
  CHECK(j.at("slots_per_sweep") == 6);
  CHECK(j.at("pairs_at_once") == 2);
  CHECK(j.at("estimated_seconds").get<double>() == Approx(12 * (0.5 + 510 / 1e6)).epsilon(1e-12));
  CHECK(j.at("design") == "all_pairs");
  CHECK(j.at("design_reason") == "");
  CHECK(j.at("budget_seconds").is_null());
  CHECK(j.at("memory_bytes") == 12000 * 40 + 510 * 32 * 2);
  // Two pairs at once (raw buffers and their visit's rounds), one pair's rounds, the 4×4
  // index of the cells and the solver's arrays, the 12 measured cells.
  CHECK(j.at("memory_bytes_streaming") == 2 * (510 * 32 + 500 * 40) + 2 * 500 * 40 +
                                              16 * (kCellIndexBytes + kSolverBytesPerCell) + 12 * sizeof(PairCell));
  CHECK(j.at("costs") == nlohmann::ordered_json{{"rounds_per_second", 1e6}, {"seconds_per_visit", 0.5}});
  REQUIRE(j.at("first_slots").size() == kPlanJsonSlots);
  CHECK(j.at("first_slots").at(0) ==
        nlohmann::ordered_json::array({{{"a", 0}, {"b", 3}, {"visit", 0}}, {{"a", 1}, {"b", 2}, {"visit", 0}}}));
  CHECK(j.size() == 22);
}

TEST_CASE("plan spec: written and read back exactly", "[plan]") {
  PlanSpec spec;
  spec.cpus = {3, 1, 2, 0};  // topology order, not numeric
  spec.visits = 7;
  spec.rounds_per_visit = 12345;
  spec.warmup_per_visit = 99;
  spec.parallel = true;
  spec.design = PlanDesign::sparse;
  spec.pairs = {{0, 1}, {2, 3}, {0, 3}};
  spec.design_reason = "4 CPUs in 2 packages";
  spec.budget_seconds = 2.5;
  const nlohmann::ordered_json j = plan_spec_json(spec);
  CHECK(j.dump() ==
        R"({"cpus":[3,1,2,0],"visits":7,"rounds_per_visit":12345,"warmup_per_visit":99,"parallel":true,)"
        R"("design":"sparse","pairs":[[0,1],[2,3],[0,3]],"design_reason":"4 CPUs in 2 packages","budget_seconds":2.5})");
  const PlanSpec back = plan_spec_from_json(nlohmann::ordered_json::parse(j.dump()), {3, 1, 2, 0}, "m.json");
  CHECK(back.cpus == spec.cpus);
  CHECK(back.visits == 7);
  CHECK(back.rounds_per_visit == 12345);
  CHECK(back.warmup_per_visit == 99);
  CHECK(back.parallel);
  CHECK(back.design == PlanDesign::sparse);
  CHECK(back.pairs == spec.pairs);
  CHECK(back.design_reason == "4 CPUs in 2 packages");
  CHECK(back.budget_seconds == Approx(2.5).margin(0));
  CHECK(plan_spec_json(back) == j);

  // The manifest's plan: the plan's figures with the whole spec.
  spec.design = PlanDesign::all_pairs;
  spec.pairs.clear();
  const MatrixPlan plan = make_plan(spec, PlanCosts{1e6, 0.5});
  const nlohmann::ordered_json m = manifest_plan_json(plan);
  CHECK(m.at("schema") == "tscaudit-plan/1");
  CHECK(m.at("spec") == plan_spec_json(plan.spec));
  nlohmann::ordered_json without = m;
  without.erase("spec");
  CHECK(without == plan_json(plan));
}

TEST_CASE("plan spec: what the reader refuses, and why", "[plan]") {
  PlanSpec spec;
  spec.cpus = {0, 1, 2};
  spec.visits = 2;
  spec.rounds_per_visit = 10;
  const nlohmann::ordered_json good = plan_spec_json(spec);
  const auto refused = [&](nlohmann::ordered_json j, std::vector<int> cpus = {0, 1, 2}) {
    try {
      plan_spec_from_json(j, cpus, "r/manifest.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const std::string not_ours = "r/manifest.json: plan.spec is not a plan this version wrote: ";
  CHECK(refused(good) == "accepted");
  CHECK(refused(good, {0, 2, 1}) == "r/manifest.json: the plan's CPUs are not the run's CPUs");
  nlohmann::ordered_json j = good;
  j["visits"] = -1;
  CHECK(refused(j) == not_ours + "-1 is not a whole number from 0 to 18446744073709551615");
  j = good;
  j["cpus"] = {0, 1, 2147483648.0};
  CHECK(refused(j) == not_ours + "2147483648.0 is not a whole number from 0 to 2147483647");
  j = good;
  j["pairs"] = {{0, 1}, {0, 2}, {1, 2}, {0, 1}};
  CHECK(refused(j) == not_ours + "its pairs are not a list of at most the 3 pairs of 3 CPUs");
  j = good;
  j["pairs"] = {{0, 1, 2}};
  CHECK(refused(j) == not_ours + "[0,1,2] is not a pair [i, j]");
  j = good;
  j["pairs"] = {{1, 1}};
  CHECK(refused(j) == not_ours + "[1,1] is not a pair [i, j] with i < j");
  j = good;
  j["pairs"] = {{0, 3}};
  CHECK(refused(j) == not_ours + "3 is not a whole number from 0 to 2");
  j = good;
  j["design"] = "sparse";
  CHECK(refused(j) == not_ours + "a sparse design without pairs");
  j["pairs"] = {{0, 1}, {0, 1}};
  CHECK(refused(j) == not_ours + "a sparse design that lists a pair twice");
  j = good;
  j.erase("design_reason");
  CHECK(refused(j).rfind(not_ours + "[json.exception.out_of_range.403] key 'design_reason' not found", 0) == 0);
  j = good;
  j["parallel"] = "yes";
  CHECK(refused(j).rfind(not_ours + "[json.exception.type_error.302]", 0) == 0);
}
