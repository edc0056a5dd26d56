// The analysis half of a matrix (matrix/matrix_analysis.hpp): which runs it asks for and in
// what order, what it hands on, what it leaves unmeasured or flags, and the matrix's labels,
// groups, variants and frequency. Simulated runs with known offsets.
#include <catch2/catch.hpp>

#include <map>
#include <utility>

#include "core/errors.hpp"
#include "matrix/matrix_analysis.hpp"
#include "simulate/simulate.hpp"

using namespace tscaudit;

namespace {

/// CPUs 3 and 1 in package 0, CPU 2 in package 1, each its own L3: topology order 3, 1, 2.
OrderedCpus three_cpus() {
  const std::vector<CpuPlace> places = {{.cpu = 3, .package = 0, .l3 = 0, .core = 0},
                                        {.cpu = 1, .package = 0, .l3 = 0, .core = 1},
                                        {.cpu = 2, .package = 1, .l3 = 1, .core = 2}};
  return order_by_topology(places, {1, 2, 3});
}

MatrixPlan plan_of(const OrderedCpus& order, std::vector<IndexPair> sparse_pairs = {}) {
  PlanSpec spec;
  spec.cpus = order.cpu_numbers();
  spec.visits = 1;
  spec.rounds_per_visit = 2000;
  if (!sparse_pairs.empty()) {
    spec.design = PlanDesign::sparse;
    spec.pairs = std::move(sparse_pairs);
  }
  return make_plan(spec, PlanCosts{});
}

/// A simulated run of a->b: offset 10 * (b - a) ticks, recorded by `recv`.
Run simulated(int a, int b, const char* recv = "lfence_rdtsc") {
  SimulationSpec spec;
  spec.rounds = 2000;
  spec.seed = static_cast<std::uint64_t>(10 * a + b);
  spec.offset_ticks = 10.0 * (b - a);
  spec.tsc_hz = 2e9;
  SimulationTruth truth;
  Run run = simulate(spec, truth);
  run.header.set("a", std::to_string(a));
  run.header.set("b", std::to_string(b));
  run.header.set("send", "rdtsc");
  run.header.set("recv", recv);
  return run;
}

}  // namespace

TEST_CASE("matrix analysis: every planned pair by CPU number, the missing ones left unmeasured") {
  const OrderedCpus order = three_cpus();
  const MatrixPlan plan = plan_of(order);
  REQUIRE(plan.spec.cpus == std::vector<int>{3, 1, 2});

  std::vector<std::string> asked, handed_on;
  const PairRunSource source = [&](int a, int b) -> std::optional<Run> {
    asked.push_back(pair_name(a, b));
    if (a == 2 && b == 1) return std::nullopt;  // no run at all
    Run run = simulated(a, b);
    if (a == 1 && b == 3) run.rounds.clear();  // a run without a round
    if (a == 3 && b == 2) {
      run.trailer.set("status", "aborted");
      run.trailer.set("error", "CPU 2 stopped answering");
    }
    return run;
  };
  const MatrixAnalysis m = analyze_matrix_pairs(plan, order, {ReadVariant::rdtsc, ReadVariant::rdtscp, 0}, source,
                                                [&](int a, int b, const Run& run, const PairAnalysis& p) {
                                                  CHECK(p.a == std::to_string(a));
                                                  CHECK(p.b == std::to_string(b));
                                                  CHECK(p.rounds == run.rounds.size());
                                                  handed_on.push_back(pair_name(a, b));
                                                });

  CHECK(asked == std::vector<std::string>{"1->2", "1->3", "2->1", "2->3", "3->1", "3->2"});
  CHECK(handed_on == std::vector<std::string>{"1->2", "2->3", "3->1", "3->2"});
  CHECK(m.analyzed == 4);
  CHECK(m.unmeasured == std::vector<std::string>{"1->3", "2->1"});
  CHECK(m.incomplete == std::vector<std::string>{"3->2 (status is 'aborted': CPU 2 stopped answering)"});

  const MatrixResult& r = m.matrix;
  CHECK(r.cpus == std::vector<int>{3, 1, 2});  // the plan's order, which is the topology's
  CHECK(r.labels == std::vector<std::string>{"3", "1", "2"});
  CHECK(r.places == order.cpus);
  CHECK(r.boundaries == std::vector<std::size_t>{2});  // where L3 1 (and package 1) starts
  CHECK(r.planned.empty());                            // every ordered pair planned
  // The runs' variants and frequency, not the context's.
  CHECK(r.send.name == "rdtsc");
  CHECK(r.recv.name == "lfence_rdtsc");
  CHECK(r.tsc_hz == Approx(2e9).epsilon(0));
  // Rows and columns in the plan's order: 3, 1, 2.
  CHECK(r.at(1, 2).measured);        // 1->2
  CHECK_FALSE(r.at(1, 0).measured);  // 1->3: no round
  CHECK_FALSE(r.at(2, 1).measured);  // 2->1: no run
  CHECK(r.at(0, 2).measured);        // 3->2, cut short but analyzed
  CHECK(r.at(1, 2).offset_ticks == Approx(10).margin(3));
  CHECK(r.at(0, 1).offset_ticks == Approx(-20).margin(3));
}

TEST_CASE("matrix analysis: a frequency known here wins, and with no round the context names the variants") {
  const OrderedCpus order = three_cpus();
  const MatrixPlan plan = plan_of(order);
  const MatrixAnalysis some = analyze_matrix_pairs(plan, order, {ReadVariant::rdtsc, ReadVariant::rdtscp, 2.5e9},
                                                   [](int a, int b) { return std::optional<Run>(simulated(a, b)); });
  CHECK(some.matrix.tsc_hz == Approx(2.5e9).epsilon(0));
  CHECK(some.unmeasured.empty());
  CHECK(some.incomplete.empty());

  const MatrixAnalysis none = analyze_matrix_pairs(plan, order, {ReadVariant::rdtsc, ReadVariant::rdtscp, 0},
                                                   [](int, int) { return std::optional<Run>(); });
  CHECK(none.analyzed == 0);
  CHECK(none.unmeasured.size() == 6);
  CHECK(none.matrix.send.name == "rdtsc");
  CHECK(none.matrix.recv.name == "rdtscp");
  CHECK(none.matrix.tsc_hz == Approx(0).margin(0));
}

TEST_CASE("matrix analysis: a sparse plan asks only for its pairs and marks them planned") {
  const OrderedCpus order = three_cpus();
  const MatrixPlan plan = plan_of(order, {{0, 2}});  // CPUs 3 and 2, both roles
  std::vector<std::string> asked;
  const MatrixAnalysis m = analyze_matrix_pairs(plan, order, {ReadVariant::rdtsc, ReadVariant::rdtscp, 0},
                                                [&](int a, int b) {
                                                  asked.push_back(pair_name(a, b));
                                                  return std::optional<Run>(simulated(a, b));
                                                });
  CHECK(asked == std::vector<std::string>{"2->3", "3->2"});
  CHECK(m.unmeasured.empty());
  CHECK(m.matrix.planned == std::vector<std::uint8_t>{0, 0, 1, 0, 0, 0, 1, 0, 0});
}

TEST_CASE("matrix analysis: two runs that claim one pair are refused") {
  const OrderedCpus order = three_cpus();
  const MatrixPlan plan = plan_of(order);
  CHECK_THROWS_AS(analyze_matrix_pairs(plan, order, {ReadVariant::rdtsc, ReadVariant::rdtscp, 0},
                                       [](int, int) { return std::optional<Run>(simulated(1, 2)); }),
                  InputError);
}
