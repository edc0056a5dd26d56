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
    c.rounds = 1000;
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

}  // namespace

TEST_CASE("check: a synchronized machine passes, with the reason in one line") {
  const MatrixResult m = matrix_of({0, 0, 0, 0}, {0, 0, 0, 0});
  CheckEvidence evidence(m);
  evidence.warnings = {{"virtual_machine", "...", "advice"}, {"smt_on", "not weakening", ""}};
  const CheckResult r = decide_check(evidence, CheckSettings{});
  INFO(check_text(r, true));
  CHECK(r.synchronized);
  CHECK(r.failures.empty());
  CHECK(r.pairs_checked == 12);
  CHECK_THAT(check_reason_text(r),
             StartsWith("synchronized to within \u00b1"));
  CHECK_THAT(check_reason_text(r), Contains(": all 12 ordered pairs of 4 CPUs have offset bands that contain 0"));
  CHECK(r.outcome == CheckOutcome::synchronized);
  CHECK(r.bound_ticks > 0);
  CHECK(check_reason_text(r).find('\n') == std::string::npos);
  CHECK(warning_lines(r.warnings) == std::vector<std::string>{"virtual_machine: ..."});
  const auto j = check_json(r);
  CHECK(j["schema"] == "tscaudit-check/1");
  CHECK(j["synchronized"] == true);
  CHECK(j["cpus_off"] == nlohmann::ordered_json::array());
}

TEST_CASE("check: one CPU offset fails exactly the pairs that involve it") {
  const MatrixResult m = matrix_of({0, 0, 300, 0}, {0, 0, 0, 0});
  const CheckResult r = decide_check(CheckEvidence(m), CheckSettings{});
  INFO(check_text(r, true));
  CHECK_FALSE(r.synchronized);
  CHECK(failing_pairs(r, CheckFailureKind::offset) ==
        std::vector<std::string>{"0->2", "1->2", "2->0", "2->1", "2->3", "3->2"});
  CHECK(r.failures.size() == 6);
  // It alone fails every pair it is in: it is named, in the reason and in the JSON.
  CHECK(r.cpus_off == std::vector<int>{2});
  CHECK_FALSE(r.sparse);
  CHECK_THAT(check_reason_text(r), StartsWith("not synchronized: CPU 2 is ahead of the rest (CPUs 0-1,3) by "));
  CHECK_THAT(check_reason_text(r), Contains("(6 of 12 ordered pairs fail; those that pass are within \u00b1"));
  REQUIRE(r.diagnosis.findings.size() == 1);
  CHECK(r.diagnosis.findings[0].lo <= 300);  // the band holds the truth
  CHECK(r.diagnosis.findings[0].hi >= 300);
  CHECK(check_json(r)["cpus_off"] == nlohmann::ordered_json::array({2}));
  CHECK_THAT(check_reason_text(r), Contains("ahead of") || Contains("behind"));
  // A tolerance wider than the offset passes it.
  CheckSettings loose;
  loose.tolerance_ticks = 400;
  CHECK(decide_check(CheckEvidence(m), loose).synchronized);
  // One narrower than the offset minus the band does not.
  loose.tolerance_ticks = 100;
  CHECK_FALSE(decide_check(CheckEvidence(m), loose).synchronized);
}

TEST_CASE("check: one CPU drifting fails on drift") {
  // 200 ppm over a simulated run of about 9.7 M ticks moves the offset by about 1900
  // ticks; the drift band of such a short run is tens of ppm wide.
  const MatrixResult m = matrix_of({0, 0, 0, 0}, {0, 0, 0, 200'000});
  const CheckResult r = decide_check(CheckEvidence(m), CheckSettings{});
  INFO(check_text(r, true));
  CHECK_FALSE(r.synchronized);
  CHECK(failing_pairs(r, CheckFailureKind::drift) ==
        std::vector<std::string>{"0->3", "1->3", "2->3", "3->0", "3->1", "3->2"});
  // The diagnosis puts the drift on CPU 3, its band holding the truth.
  bool drift_found = false;
  for (const Finding& f : r.diagnosis.findings) {
    if (f.kind != FindingKind::drift) continue;
    drift_found = true;
    CHECK(f.cpus == std::vector<int>{3});
    CHECK((f.lo <= 200'000 && 200'000 <= f.hi));
  }
  CHECK(drift_found);
  CHECK(r.cpus_off == std::vector<int>{3});
  // A drift tolerance above it passes the drift test.
  CheckSettings loose;
  loose.drift_tolerance_ppb = 300'000;
  CHECK(failing_pairs(decide_check(CheckEvidence(m), loose), CheckFailureKind::drift).empty());
}

TEST_CASE("check: one bad pair is failed and named, the bands contradict") {
  // The pair 1->2 alone sees an offset of 400 ticks (e.g. a moved vCPU during its visits):
  // its two roles fit no one line, so the pair fails in both.
  const MatrixResult m = matrix_of({0, 0, 0, 0}, {0, 0, 0, 0}, [](std::size_t a, std::size_t b, SimulationSpec& s) {
    if (a == 1 && b == 2) s.offset_ticks = 400;
  });
  const CheckResult r = decide_check(CheckEvidence(m), CheckSettings{});
  INFO(check_text(r, true));
  CHECK_FALSE(r.synchronized);
  CHECK(failing_pairs(r, CheckFailureKind::offset) == std::vector<std::string>{"1->2"});
  CHECK(failing_pairs(r, CheckFailureKind::inconsistent_bands) == std::vector<std::string>{"-1->-1"});
  CHECK_THAT(check_reason_text(r), Contains("pair 1->2: CPU 2 is ahead of CPU 1"));
  CHECK(failing_pairs(r, CheckFailureKind::roles_disagree) == std::vector<std::string>{"1->2", "2->1"});
  CHECK_THAT(check_reason_text(r), Contains("(2 of 12 ordered pairs fail; "));
  CHECK(r.cpus_off.empty());
  CHECK(r.diagnosis.findings.empty());  // CPUs 1 and 2 pass their other pairs
  CHECK_THAT(check_reason_text(r), StartsWith("not synchronized: pair 1->2: "));
  bool named = false;
  for (const PairDisagreement& d : m.cpu.disagreeing) named = named || (d.a == 1 && d.b == 2);
  CHECK(named);
}

TEST_CASE("check: self-inconsistent rounds fail under an ordering receive only, a missing role leaves the verdict to the other") {
  MatrixResult m = two_cpus(ReadVariant::lfence_rdtsc, true);
  m.cells[1].self_inconsistent = 3;
  CheckResult r = decide_check(CheckEvidence(m), CheckSettings{});
  CHECK_FALSE(r.synchronized);
  CHECK(failing_pairs(r, CheckFailureKind::self_inconsistent) == std::vector<std::string>{"0->1"});
  CHECK(check_reason_text(r) ==
        "not synchronized: pair 0->1: 3 rounds impossible for any offset under receive variant "
        "lfence_rdtsc, which should order the read (1 of 2 ordered pairs fail; those that pass are within "
        "\u00b160 ticks)");
  m.recv = recorded_variant(ReadVariant::rdtsc);
  r = decide_check(CheckEvidence(m), CheckSettings{});
  CHECK(r.synchronized);
  CHECK(r.widest_band_ticks == Approx(110).margin(0));
  m.cells[2] = PairCell{};
  r = decide_check(CheckEvidence(m), CheckSettings{});
  // The pair is still measured in one role: its CPUs are linked, and the verdict stands on it.
  CHECK(r.outcome == CheckOutcome::synchronized);
  CHECK(r.missing == std::vector<std::string>{"1->0"});
  CHECK_FALSE(r.missing_needed);
  CHECK(check_reason_text(r) ==
        "synchronized to within \u00b160 ticks: the 1 ordered pairs with rounds over 2 CPUs (of 2 planned) have "
        "offset bands that contain 0, no detectable drift; 1 ordered pair of 2 has no rounds (1->0): the run holds "
        "none for it, and the rest still link every CPU");
  // Neither role: no pair links the two CPUs, and nothing is proven either way.
  m.cells[1] = PairCell{};
  CheckEvidence lost(m);
  lost.lost = {"rounds/cpu-0.zst at byte 0: the zstd frame does not decompress"};
  r = decide_check(lost, CheckSettings{});
  CHECK(r.outcome == CheckOutcome::inconclusive);
  CHECK(r.inconclusive == InconclusiveWhy::pairs_missing);
  CHECK(exit_code_of(r.outcome) == 5);
  CHECK(check_reason_text(r) ==
        "inconclusive: 2 ordered pairs of 2 have no rounds (0->1, 1->0): lost from the run directory (evidence "
        "lost: rounds/cpu-0.zst at byte 0: the zstd frame does not decompress)");
}

TEST_CASE("check: an infeasible band fails as unbounded, not as synchronized") {
  const MatrixResult m = two_cpus(ReadVariant::rdtsc, false);
  const CheckResult r = decide_check(CheckEvidence(m), CheckSettings{});
  CHECK_FALSE(r.synchronized);
  CHECK(failing_pairs(r, CheckFailureKind::no_band) == std::vector<std::string>{"0->1", "1->0"});
}
