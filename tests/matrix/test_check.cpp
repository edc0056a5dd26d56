// `tscaudit check`'s decision on synthetic matrices: every ordered pair a simulated run with
// known truth, analyzed by the tool's own analysis (synchronized, one CPU offset, one CPU
// drifting, one bad pair), and exact cases on hand-made cells.
#include <catch2/catch.hpp>

#include "matrix/check.hpp"
#include "matrix/matrix.hpp"
#include "matrix_fixture.hpp"
#include "render/matrix_output.hpp"
#include "render/verdict_text.hpp"

using namespace tscaudit;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

const std::vector<int> kCpus = {0, 1, 2, 3};

MatrixResult matrix_of(const std::vector<double>& offsets, const std::vector<double>& drifts,
                       const std::function<void(std::size_t, std::size_t, SimulationSpec&)>& adjust = {}) {
  const SimulatedMatrix sim = simulate_matrix(kCpus, offsets, drifts, adjust);
  MatrixResult m = build_matrix(kCpus, sim.pointers());
  m.recv = recorded_variant(ReadVariant::lfence_rdtsc);  // waits for earlier loads
  return m;
}

/// CPUs 0 and 1, both roles measured with offset 0: the band [-50, 60] when `feasible`,
/// else none.
MatrixResult two_cpus(ReadVariant recv, bool feasible) {
  MatrixResult m;
  m.cpus = {0, 1};
  m.recv = recorded_variant(recv);
  m.cells.assign(4, PairCell{});
  for (std::size_t i : {1u, 2u}) {
    PairCell& c = m.cells[i];
    c.measured = true;
    c.offset_ticks = 0;
    c.band_feasible = feasible;
    if (feasible) {
      c.offset_lo_ticks = -50;
      c.offset_hi_ticks = 60;
    }
  }
  m.cpu = solve_cpu_offsets(m.cpus, m.cells, 1);
  return m;
}

/// The ordered pairs among the failures, as "a->b".
std::vector<std::string> failing_pairs(const CheckResult& r, CheckFailureKind kind) {
  std::vector<std::string> out;
  for (const CheckFailure& f : r.failures) {
    if (f.kind == kind) out.push_back(std::to_string(f.a) + "->" + std::to_string(f.b));
  }
  return out;
}

/// `n` CPUs, every ordered pair measured: the unordered pairs in `failing` fail on their
/// offset in both roles (band [100, 120]), every other pair passes (band [-10, 10]).
MatrixResult band_graph(int n, const std::vector<std::pair<int, int>>& failing) {
  MatrixResult m;
  for (int i = 0; i < n; ++i) m.cpus.push_back(i);
  m.recv = recorded_variant(ReadVariant::lfence_rdtsc);
  const auto un = static_cast<std::size_t>(n);
  m.cells.assign(un * un, PairCell{});
  for (std::size_t i = 0; i < un; ++i) {
    for (std::size_t j = 0; j < un; ++j) {
      if (i == j) continue;
      PairCell& c = m.cells[i * un + j];
      c.measured = true;
      c.band_feasible = true;
      c.offset_lo_ticks = -10;
      c.offset_hi_ticks = 10;
    }
  }
  for (const auto& [a, b] : failing) {
    for (const auto& [i, j] : {std::pair{a, b}, std::pair{b, a}}) {
      PairCell& c = m.cells[static_cast<std::size_t>(i) * un + static_cast<std::size_t>(j)];
      c.offset_ticks = 110;
      c.offset_lo_ticks = 100;
      c.offset_hi_ticks = 120;
    }
  }
  m.cpu = solve_cpu_offsets(m.cpus, m.cells, 1);
  return m;
}

}  // namespace

TEST_CASE("check: a synchronized machine passes, with the reason in one line") {
  const MatrixResult m = matrix_of({0, 0, 0, 0}, {0, 0, 0, 0});
  const CheckResult r = decide_check(m, CheckSettings{}, {"virtual_machine: ..."});
  INFO(check_text(r, true));
  CHECK(r.synchronized);
  CHECK(r.failures.empty());
  CHECK(r.pairs_checked == 12);
  CHECK_THAT(check_reason_text(r),
             StartsWith("synchronized: all 12 ordered pairs of 4 CPUs have offset bands that contain 0"));
  CHECK(check_reason_text(r).find('\n') == std::string::npos);
  CHECK(r.warnings == std::vector<std::string>{"virtual_machine: ..."});
  const auto j = check_json(r, CheckSettings{});
  CHECK(j["schema"] == "tscaudit-check/1");
  CHECK(j["synchronized"] == true);
  CHECK(j["cpus_off"] == nlohmann::ordered_json::array());
}

TEST_CASE("check: one CPU offset fails exactly the pairs that involve it") {
  const MatrixResult m = matrix_of({0, 0, 300, 0}, {0, 0, 0, 0});
  const CheckResult r = decide_check(m, CheckSettings{}, {});
  INFO(check_text(r, true));
  CHECK_FALSE(r.synchronized);
  CHECK(failing_pairs(r, CheckFailureKind::offset) ==
        std::vector<std::string>{"0->2", "1->2", "2->0", "2->1", "2->3", "3->2"});
  CHECK(r.failures.size() == 6);
  // It alone fails every pair it is in: it is named, in the reason and in the JSON.
  CHECK(r.cpus_off == std::vector<int>{2});
  CHECK_FALSE(r.sparse);
  CHECK_THAT(check_reason_text(r), StartsWith("not synchronized: CPU 2 is off from the rest: pair "));
  CHECK_THAT(check_reason_text(r), Contains("(6 of 12 ordered pairs fail)"));
  CHECK(check_json(r, CheckSettings{})["cpus_off"] == nlohmann::ordered_json::array({2}));
  CHECK_THAT(check_reason_text(r), Contains("ahead of") || Contains("behind"));
  // A tolerance wider than the offset passes it.
  CheckSettings loose;
  loose.tolerance_ticks = 400;
  CHECK(decide_check(m, loose, {}).synchronized);
  // One narrower than the offset minus the band does not.
  loose.tolerance_ticks = 100;
  CHECK_FALSE(decide_check(m, loose, {}).synchronized);
}

TEST_CASE("check: one CPU drifting fails on drift") {
  // 200 ppm over a simulated run of about 9.7 M ticks moves the offset by about 1900
  // ticks; the drift band of such a short run is tens of ppm wide.
  const MatrixResult m = matrix_of({0, 0, 0, 0}, {0, 0, 0, 200'000});
  const CheckResult r = decide_check(m, CheckSettings{}, {});
  INFO(check_text(r, true));
  CHECK_FALSE(r.synchronized);
  CHECK(failing_pairs(r, CheckFailureKind::drift) ==
        std::vector<std::string>{"0->3", "1->3", "2->3", "3->0", "3->1", "3->2"});
  // A drift tolerance above it passes the drift test.
  CheckSettings loose;
  loose.drift_tolerance_ppb = 300'000;
  CHECK(failing_pairs(decide_check(m, loose, {}), CheckFailureKind::drift).empty());
}

TEST_CASE("check: one bad pair is failed and named, the bands contradict") {
  // The pair 1->2 alone sees an offset of 400 ticks (e.g. a moved vCPU during its visits).
  const MatrixResult m = matrix_of({0, 0, 0, 0}, {0, 0, 0, 0}, [](std::size_t a, std::size_t b, SimulationSpec& s) {
    if (a == 1 && b == 2) s.offset_ticks = 400;
  });
  const CheckResult r = decide_check(m, CheckSettings{}, {});
  INFO(check_text(r, true));
  CHECK_FALSE(r.synchronized);
  CHECK(failing_pairs(r, CheckFailureKind::offset) == std::vector<std::string>{"1->2"});
  CHECK(failing_pairs(r, CheckFailureKind::inconsistent_bands) == std::vector<std::string>{"-1->-1"});
  CHECK_THAT(check_reason_text(r), Contains("pair 1->2: CPU 2 is ahead of CPU 1"));
  CHECK_THAT(check_reason_text(r), Contains("(1 of 12 ordered pairs fail)"));
  CHECK(r.cpus_off.empty());  // CPUs 1 and 2 pass their other pairs
  CHECK_THAT(check_reason_text(r), StartsWith("not synchronized: pair 1->2: "));
  bool named = false;
  for (const PairDisagreement& d : m.cpu.disagreeing) named = named || (d.a == 1 && d.b == 2);
  CHECK(named);
}

TEST_CASE("check: cpus_off explains the failing pairs by as few CPUs as it can") {
  const auto off = [](int n, const std::vector<std::pair<int, int>>& failing) {
    return decide_check(band_graph(n, failing), CheckSettings{}, {}).cpus_off;
  };
  // A star: CPU 3 fails with 0, 1 and 5 and passes with 2, 4, 6 and 7 (its wide pairs).
  CHECK(off(8, {{0, 3}, {1, 3}, {3, 5}}) == std::vector<int>{3});
  // Two stars, and an isolated failing pair beside them that names neither of its CPUs.
  CHECK(off(12, {{0, 2}, {1, 2}, {2, 3}, {7, 4}, {7, 5}, {7, 6}, {10, 11}}) == std::vector<int>{2, 7});
  // One failing pair alone names none; a CPU failing with one partner only is not named.
  CHECK(off(8, {{1, 2}}).empty());
  // A CPU with two failing partners is named (the least the rule asks).
  CHECK(off(8, {{4, 1}, {4, 6}}) == std::vector<int>{4});
  // Two halves failing every pair across (a package off as a whole): either half covers
  // the failures, as many CPUs as the other; none is named.
  std::vector<std::pair<int, int>> across;
  for (int a = 0; a < 4; ++a) {
    for (int b = 4; b < 8; ++b) across.emplace_back(a, b);
  }
  CHECK(off(8, across).empty());
  // The cover is greedy: the CPU on the most failing pairs first, ties to the lower number;
  // 5's pairs with 0 and 1 are covered by then, so it is left with one and not named.
  CHECK(off(10, {{0, 5}, {0, 6}, {0, 7}, {1, 5}, {1, 8}, {1, 9}}) == std::vector<int>{0, 1});
  // A triangle of failing pairs: any of its CPUs covers the others' pairs alike, and the
  // greedy pick would be its lowest number alone; none is named. The twins rule keeps a star
  // whose centre's twin is named too: 3 and 5 off by different amounts fail every pair.
  CHECK(off(8, {{1, 2}, {2, 3}, {1, 3}}).empty());
  std::vector<std::pair<int, int>> two_off;
  for (int b = 0; b < 8; ++b) {
    if (b != 3) two_off.emplace_back(3, b);
    if (b != 5 && b != 3) two_off.emplace_back(5, b);
  }
  CHECK(off(8, two_off) == std::vector<int>{3, 5});
  // The reason names them.
  const CheckResult r = decide_check(band_graph(8, {{0, 3}, {1, 3}, {3, 5}}), CheckSettings{}, {});
  CHECK_THAT(check_reason_text(r), StartsWith("not synchronized: CPU 3 is off from the rest: pair "));
}

TEST_CASE("check: self-inconsistent rounds fail under an ordering receive only, missing pairs fail") {
  MatrixResult m = two_cpus(ReadVariant::lfence_rdtsc, true);
  m.cells[1].self_inconsistent = 3;
  CheckResult r = decide_check(m, CheckSettings{}, {});
  CHECK_FALSE(r.synchronized);
  CHECK(failing_pairs(r, CheckFailureKind::self_inconsistent) == std::vector<std::string>{"0->1"});
  CHECK(check_reason_text(r) ==
        "not synchronized: pair 0->1: 3 rounds impossible for any offset under receive variant "
        "lfence_rdtsc, which should order the read (1 of 2 ordered pairs fail)");
  m.recv = recorded_variant(ReadVariant::rdtsc);
  r = decide_check(m, CheckSettings{}, {});
  CHECK(r.synchronized);
  CHECK(r.widest_band_ticks == Approx(110).margin(0));
  m.cells[2] = PairCell{};
  r = decide_check(m, CheckSettings{}, {});
  CHECK(failing_pairs(r, CheckFailureKind::not_measured) == std::vector<std::string>{"1->0"});
  CHECK(check_reason_text(r) == "not synchronized: pair 1->0: not measured (1 of 2 ordered pairs fail)");
}

TEST_CASE("check: an infeasible band fails as unbounded, not as synchronized") {
  const MatrixResult m = two_cpus(ReadVariant::rdtsc, false);
  const CheckResult r = decide_check(m, CheckSettings{}, {});
  CHECK_FALSE(r.synchronized);
  CHECK(failing_pairs(r, CheckFailureKind::no_band) == std::vector<std::string>{"0->1", "1->0"});
}
