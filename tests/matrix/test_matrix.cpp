// The all-pairs matrix: per-CPU offsets by least squares, hard bounds by shortest paths,
// the consistency figures, exact on hand-made cells and against simulated ground truth.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/errors.hpp"
#include "matrix/matrix.hpp"
#include "matrix_fixture.hpp"
#include "render/matrix_output.hpp"

using namespace tscaudit;
using Catch::Matchers::Contains;

namespace {

/// A measured cell with an estimate and a band.
PairCell cell(double offset, double lo, double hi) {
  PairCell c;
  c.measured = true;
  c.rounds = 1000;
  c.offset_ticks = offset;
  c.offset_lo_ticks = lo;
  c.offset_hi_ticks = hi;
  c.band_feasible = true;
  c.drift_ppb = 0;
  return c;
}

/// Both roles of every pair from the a->b cells given, exactly antisymmetric.
std::vector<PairCell> both_roles(std::size_t n, const std::vector<std::tuple<std::size_t, std::size_t, PairCell>>& ab) {
  std::vector<PairCell> cells(n * n);
  for (const auto& [a, b, c] : ab) {
    cells[a * n + b] = c;
    cells[b * n + a] = cell(-c.offset_ticks, -c.offset_hi_ticks, -c.offset_lo_ticks);
  }
  return cells;
}

}  // namespace

TEST_CASE("per-CPU offsets: least squares, shortest-path bounds and loop closure, exact") {
  // θ01 = 10, θ12 = 5, θ02 = 16: the loop does not close by -1 tick.
  const std::vector<int> cpus = {0, 1, 2};
  const auto cells = both_roles(3, {{0, 1, cell(10, 8, 12)}, {1, 2, cell(5, 3, 7)}, {0, 2, cell(16, 15, 17)}});
  const CpuOffsets x = solve_cpu_offsets(cpus, cells, 1);
  // Normal equations 2x1 - x2 = 5, -x1 + 2x2 = 21.
  CHECK(x.offset_ticks[0] == Approx(0).margin(0));
  CHECK(x.offset_ticks[1] == Approx(31.0 / 3).epsilon(1e-12));
  CHECK(x.offset_ticks[2] == Approx(47.0 / 3).epsilon(1e-12));
  CHECK(x.bands_consistent);
  // x2 in [15, 17] directly, [11, 19] through CPU 1; x1 in [8, 12] directly, [8, 14] through 2.
  CHECK(x.lo_ticks == std::vector<double>{0, 8, 15});
  CHECK(x.hi_ticks == std::vector<double>{0, 12, 17});
  CHECK(x.max_loop_closure_ticks == Approx(-1).margin(1e-12));
  CHECK(x.worst_loop == std::vector<int>{0, 1, 2});
  CHECK(x.max_antisymmetry_ticks == Approx(0).margin(0));
  // Residuals θ - (x_b - x_a): 10 - 31/3, 5 - 16/3, 16 - 47/3, each -1/3 or +1/3.
  CHECK(x.residual_ticks[0 * 3 + 1] == Approx(-1.0 / 3));
  CHECK(x.residual_ticks[1 * 3 + 2] == Approx(-1.0 / 3));
  CHECK(x.residual_ticks[0 * 3 + 2] == Approx(1.0 / 3));
  CHECK(x.rms_residual_ticks == Approx(1.0 / 3));
  CHECK(x.disagreeing.empty());
}

TEST_CASE("per-CPU offsets: contradictory bands are a negative cycle, and the odd pair is named") {
  // x2 <= x1 + 7 <= 19, but the pair 0->2 claims x2 in [21, 23].
  const std::vector<int> cpus = {4, 5, 6};
  const auto cells = both_roles(3, {{0, 1, cell(10, 8, 12)}, {1, 2, cell(5, 3, 7)}, {0, 2, cell(22, 21, 23)}});
  const CpuOffsets x = solve_cpu_offsets(cpus, cells, 1);
  CHECK_FALSE(x.bands_consistent);
  CHECK(std::isnan(x.lo_ticks[2]));
  CHECK(std::isnan(x.hi_ticks[2]));
  // LS: 2x1 - x2 = 5, -x1 + 2x2 = 27 -> x1 = 37/3, x2 = 59/3: the pair 4->6 predicts 19.67,
  // below its band [21, 23] by more than the quantum; the other pairs hold it within q.
  CHECK(x.offset_ticks[1] == Approx(37.0 / 3));
  CHECK(x.offset_ticks[2] == Approx(59.0 / 3));
  REQUIRE(x.disagreeing.size() == 2);
  CHECK(x.disagreeing[0].a == 4);
  CHECK(x.disagreeing[0].b == 6);
  CHECK(x.disagreeing[0].kind == PairDisagreement::Kind::off_solution);
  CHECK(x.disagreeing[0].predicted_ticks == Approx(59.0 / 3));
  CHECK(x.disagreeing[0].lo_ticks == Approx(21).margin(0));
  CHECK(x.disagreeing[0].hi_ticks == Approx(23).margin(0));
  CHECK(x.disagreeing[1].a == 6);
  CHECK(x.disagreeing[1].b == 4);
}

TEST_CASE("per-CPU offsets: the two roles disagree") {
  const std::vector<int> cpus = {0, 1};
  std::vector<PairCell> cells(4);
  cells[0 * 2 + 1] = cell(100, 90, 110);
  cells[1 * 2 + 0] = cell(-40, -50, -30);  // says θ01 in [30, 50]
  const CpuOffsets x = solve_cpu_offsets(cpus, cells, 1);
  CHECK(x.offset_ticks[1] == Approx(70));
  CHECK(x.max_antisymmetry_ticks == Approx(60).margin(1e-12));
  CHECK_FALSE(x.bands_consistent);
  REQUIRE(x.disagreeing.size() == 3);  // both roles miss the solution, and the roles disagree
  const PairDisagreement& roles = x.disagreeing[1];
  CHECK(roles.kind == PairDisagreement::Kind::roles_disagree);
  CHECK((roles.a == 0 && roles.b == 1));
  CHECK(roles.lo_ticks == Approx(90).margin(0));
  CHECK(roles.hi_ticks == Approx(110).margin(0));
  CHECK(roles.other_lo_ticks == Approx(30).margin(0));  // 1->0's band, sign flipped
  CHECK(roles.other_hi_ticks == Approx(50).margin(0));
}

TEST_CASE("per-CPU offsets: a CPU no measured pair reaches is NaN, not a guess") {
  const std::vector<int> cpus = {0, 1, 2};
  std::vector<PairCell> cells(9);
  cells[0 * 3 + 1] = cell(7, 6, 8);
  const CpuOffsets x = solve_cpu_offsets(cpus, cells, 1);
  CHECK(x.offset_ticks[1] == Approx(7));
  CHECK(std::isnan(x.offset_ticks[2]));
  CHECK(std::isnan(x.lo_ticks[2]));
  CHECK(std::isnan(x.max_loop_closure_ticks));
}

TEST_CASE("build_matrix on simulated pairs: the per-CPU bounds hold the truth") {
  // CPU 6 is 500 ticks ahead of the others; every ordered pair simulated with its own seed.
  const std::vector<int> cpus = {3, 4, 6, 7};
  const std::vector<double> truth = {0, 0, 500, 0};
  const SimulatedMatrix sim = simulate_matrix(cpus, truth, {0, 0, 0, 0});
  const MatrixResult m = build_matrix(cpus, sim.pointers());
  REQUIRE(m.size() == 4);
  CHECK(m.quantum_ticks == 1);
  // The simulator names its reads "simulated": a variant this tool does not know, kept as written.
  CHECK(m.send.name == "simulated");
  CHECK_FALSE(m.send.variant.has_value());
  for (std::size_t a = 0; a < 4; ++a) {
    for (std::size_t b = 0; b < 4; ++b) {
      CHECK(m.at(a, b).measured == (a != b));
    }
  }
  CHECK(m.cpu.bands_consistent);
  CHECK(m.cpu.disagreeing.empty());
  for (std::size_t i = 0; i < 4; ++i) {
    INFO("CPU " << cpus[i]);
    CHECK(m.cpu.lo_ticks[i] <= truth[i]);
    CHECK(m.cpu.hi_ticks[i] >= truth[i]);
    CHECK(std::fabs(m.cpu.offset_ticks[i] - truth[i]) < 5);
  }
  // The JSON carries every N×N array the design names.
  const auto j = matrix_json(m, nlohmann::ordered_json());
  CHECK(j["schema"] == "tscaudit-matrix/1");
  for (const char* key : {"offset_ticks", "offset_lo_ticks", "offset_hi_ticks", "drift_ppb", "rtt_min_ticks",
                          "rtt_p50_ticks", "causality_violations"}) {
    INFO(key);
    REQUIRE(j[key].size() == 4);
    CHECK(j[key][0].size() == 4);
    CHECK(j[key][1][1].is_null());
  }
  CHECK(j["cpu_offset_ticks"][2]["cpu"] == 6);
  CHECK(std::fabs(j["cpu_offset_ticks"][2]["estimate"].get<double>() - 500) < 5);
  CHECK(j["cpus"][3]["cpu"] == 7);
}

TEST_CASE("build_matrix refuses a pair twice and a CPU outside the list") {
  const std::vector<int> cpus = {0, 1};
  const SimulatedMatrix sim = simulate_matrix(cpus, {0, 0}, {0, 0});
  std::vector<const PairAnalysis*> twice = sim.pointers();
  twice.push_back(twice.front());
  CHECK_THROWS_AS(build_matrix(cpus, twice), InputError);
  CHECK_THROWS_WITH(build_matrix({0, 2}, sim.pointers()), Contains("CPU '1' is not among the matrix CPUs"));
}
