// diagnose, exact: matrices made from per-CPU truth (offsets, drifts, a step) with bands
// whose half-widths follow the distance of the two CPUs, so that every finding's CPU sets,
// names and bands are known in advance; and the cases that must give no finding.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "matrix/check.hpp"
#include "matrix/findings.hpp"
#include "render/matrix_output.hpp"
#include "render/verdict_text.hpp"

using namespace tscaudit;

namespace {

/// `packages` packages of 2 L3 domains of 2 cores of 2 SMT siblings: CPU c sits in package
/// c / 8, L3 c / 4, core c / 2.
std::vector<CpuPlace> places(int packages) {
  std::vector<CpuPlace> out;
  for (int cpu = 0; cpu < 8 * packages; ++cpu) out.push_back(CpuPlace{cpu, cpu / 8, -1, -1, cpu / 4, cpu / 2});
  return out;
}

/// The half-width of a pair's offset band by distance: SMT 60, L3 180, package 300,
/// another package 500 ticks (about the round-trip floors of docs/machine.md §10.5).
double half_width(const CpuPlace& a, const CpuPlace& b) {
  if (a.core == b.core) return 60;
  if (a.l3 == b.l3) return 180;
  if (a.package == b.package) return 300;
  return 500;
}

struct Truth {
  std::vector<double> offset_ticks;  // per CPU
  std::vector<double> drift_ppb;     // per CPU; empty: none
  /// Added to the estimate of every pair from a lower package to a higher one (an
  /// asymmetric path: the band stays centred on the estimate's truth, widened to hold it).
  double cross_estimate_bias_ticks = 0;
};

/// Every ordered pair measured: estimate x_b − x_a, band [θ − w, θ + w]; drift d_b − d_a with
/// the band [δ − 5, δ + 5] ppb, detectable where δ ≠ 0.
MatrixResult matrix_of(const std::vector<CpuPlace>& where, const Truth& t) {
  MatrixResult m;
  const std::size_t n = where.size();
  for (const CpuPlace& p : where) m.cpus.push_back(p.cpu);
  m.places = where;
  m.recv = recorded_variant(ReadVariant::lfence_rdtsc);
  std::vector<PairCell> cells(n * n);
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      if (a == b) continue;
      PairCell& c = cells[a * n + b];
      c.measured = true;
      c.rounds = 2000;
      c.band_feasible = true;
      const double theta = t.offset_ticks[b] - t.offset_ticks[a];
      double w = half_width(where[a], where[b]);
      double estimate = theta;
      if (where[a].package != where[b].package && std::fabs(t.cross_estimate_bias_ticks) > 0) {
        const double bias = where[a].package < where[b].package ? t.cross_estimate_bias_ticks : -t.cross_estimate_bias_ticks;
        estimate += bias;
        w += std::fabs(bias);  // the band around the biased estimate still holds the truth
      }
      c.offset_ticks = estimate;
      c.offset_lo_ticks = estimate - w;
      c.offset_hi_ticks = estimate + w;
      const double delta = t.drift_ppb.empty() ? 0 : t.drift_ppb[b] - t.drift_ppb[a];
      c.drift_ppb = delta;
      c.drift_lo_ppb = delta - 5;
      c.drift_hi_ppb = delta + 5;
      c.drift_detectable = std::fabs(delta) > 0;
    }
  }
  m.cells = cells;
  m.cpu = solve_cpu_offsets(m.cpus, m.cells, 1);
  return m;
}

std::vector<int> range(int first, int last) {
  std::vector<int> out;
  for (int c = first; c <= last; ++c) out.push_back(c);
  return out;
}

std::vector<int> all_but(int n, const std::vector<int>& left) {
  std::vector<int> out;
  for (int c = 0; c < n; ++c) {
    if (std::find(left.begin(), left.end(), c) == left.end()) out.push_back(c);
  }
  return out;
}

Truth offsets(int n, const std::function<double(int)>& x) {
  Truth t;
  for (int c = 0; c < n; ++c) t.offset_ticks.push_back(x(c));
  return t;
}

}  // namespace

TEST_CASE("findings: a synchronized machine has none, even with asymmetric paths across packages") {
  const MatrixResult m = matrix_of(places(2), offsets(16, [](int) { return 0.0; }));
  const Diagnosis d = diagnose(m, {});
  CHECK(d.findings.empty());
  CHECK(d.cpus_off.empty());
  CHECK(d.offset_groups == 1);
  CHECK(d.offset_group == std::vector<int>(16, 0));
  // The estimates across packages lie 150 ticks off (paths slower one way), the bands hold 0.
  Truth skewed = offsets(16, [](int) { return 0.0; });
  skewed.cross_estimate_bias_ticks = 150;
  const MatrixResult s = matrix_of(places(2), skewed);
  CHECK(std::fabs(s.cpu.offset_ticks[8] - s.cpu.offset_ticks[0]) > 100);  // the estimates see the skew
  CHECK(diagnose(s, {}).findings.empty());
  CHECK(decide_check(CheckEvidence(s), {}).synchronized);
}

TEST_CASE("findings: a package off is one finding, named, with the band its pairs prove") {
  const MatrixResult m = matrix_of(places(2), offsets(16, [](int c) { return c >= 8 ? 600.0 : 0.0; }));
  const Diagnosis d = diagnose(m, {});
  REQUIRE(d.findings.size() == 1);
  const Finding& f = d.findings[0];
  CHECK(f.kind == FindingKind::offset);
  CHECK(f.cpus == range(8, 15));
  CHECK(f.against == range(0, 7));
  CHECK(f.name == "package 1");
  CHECK(f.against_name == "package 0");
  // Each CPU of package 1 against package 0: every pair across has the half-width 500.
  CHECK(f.lo == Approx(100).margin(0));
  CHECK(f.hi == Approx(1100).margin(0));
  CHECK(f.estimate == Approx(600).margin(1e-6));
  CHECK(f.pairs == 2 * 8 * 8);
  // Two halves alike: the one that is not the reference (without the matrix's first CPU)
  // is the finding's group, and its CPUs are named.
  CHECK(d.cpus_off == range(8, 15));
  CHECK(d.offset_groups == 2);
  for (std::size_t i = 0; i < 16; ++i) CHECK(d.offset_group[i] == (i >= 8 ? 1 : 0));
  CHECK(finding_text(f, 0) == "package 1 (CPUs 8-15) is ahead of package 0 (CPUs 0-7) by 100 to 1100 ticks");
  CHECK(finding_text(f, 1e9) ==
        "package 1 (CPUs 8-15) is ahead of package 0 (CPUs 0-7) by 100 to 1100 ticks (100 to 1100 ns)");
  // The check's reason is this finding.
  const CheckResult r = decide_check(CheckEvidence(m), {});
  CHECK(r.outcome == CheckOutcome::not_synchronized);
  CHECK(check_reason_text(r) ==
        "not synchronized: package 1 (CPUs 8-15) is ahead of package 0 (CPUs 0-7) by 100 to 1100 ticks (128 of 240 "
        "ordered pairs fail; those that pass are within \u00b1300 ticks)");
}

TEST_CASE("findings: one package of three off is singled out, the two that agree are one group") {
  const MatrixResult m = matrix_of(places(3), offsets(24, [](int c) { return c >= 16 ? -700.0 : 0.0; }));
  const Diagnosis d = diagnose(m, {});
  REQUIRE(d.findings.size() == 1);
  const Finding& f = d.findings[0];
  CHECK(f.cpus == range(16, 23));
  CHECK(f.against == range(0, 15));
  CHECK(f.name == "package 2");
  CHECK(f.against_name.empty());
  CHECK(f.lo == Approx(-1200).margin(0));
  CHECK(f.hi == Approx(-200).margin(0));
  CHECK(d.cpus_off == range(16, 23));
  CHECK(finding_text(f, 0) == "package 2 (CPUs 16-23) is behind the rest (CPUs 0-15) by 200 to 1200 ticks");
}

TEST_CASE("findings: an L3 domain off is named so, its pairs inside the package prove it") {
  const MatrixResult m = matrix_of(places(2), offsets(16, [](int c) { return c >= 4 && c <= 7 ? 400.0 : 0.0; }));
  const Diagnosis d = diagnose(m, {});
  REQUIRE(d.findings.size() == 1);
  const Finding& f = d.findings[0];
  CHECK(f.cpus == range(4, 7));
  CHECK(f.name == "L3 1");
  CHECK(f.against == all_but(16, range(4, 7)));
  // Each CPU of L3 1: its tightest pairs with the reference are in its package (300).
  CHECK(f.lo == Approx(100).margin(0));
  CHECK(f.hi == Approx(700).margin(0));
  CHECK(d.cpus_off == range(4, 7));
}

TEST_CASE("findings: two CPUs off in different packages, by different amounts, are two findings") {
  const MatrixResult m =
      matrix_of(places(2), offsets(16, [](int c) { return c == 5 ? 400.0 : c == 12 ? -300.0 : 0.0; }));
  const Diagnosis d = diagnose(m, {});
  REQUIRE(d.findings.size() == 2);
  CHECK(d.findings[0].cpus == std::vector<int>{5});
  CHECK(d.findings[0].lo == Approx(340).margin(0));  // its SMT sibling's band: 400 ± 60
  CHECK(d.findings[0].hi == Approx(460).margin(0));
  CHECK(d.findings[0].name.empty());  // one CPU is named by its number
  CHECK(d.findings[1].cpus == std::vector<int>{12});
  CHECK(d.findings[1].lo == Approx(-360).margin(0));
  CHECK(d.findings[1].hi == Approx(-240).margin(0));
  CHECK(d.findings[0].against == all_but(16, {5, 12}));
  CHECK(d.cpus_off == std::vector<int>{5, 12});
  CHECK(finding_text(d.findings[1], 0) == "CPU 12 is behind CPUs 0-4,6-11,13-15 by 240 to 360 ticks");
}

TEST_CASE("findings: a core off is named with its CPUs") {
  const MatrixResult m = matrix_of(places(2), offsets(16, [](int c) { return c / 2 == 6 ? 250.0 : 0.0; }));
  const Diagnosis d = diagnose(m, {});
  REQUIRE(d.findings.size() == 1);
  CHECK(d.findings[0].name == "core 6");
  CHECK(finding_text(d.findings[0], 0) == "core 6 (CPUs 12-13) is ahead of the rest (CPUs 0-11,14-15) by 70 to 430 ticks");
}

TEST_CASE("findings: one bad pair alone invents no group") {
  MatrixResult m = matrix_of(places(2), offsets(16, [](int) { return 0.0; }));
  for (const auto& [a, b, sign] : {std::tuple{2, 3, 1.0}, std::tuple{3, 2, -1.0}}) {
    PairCell& c = m.cells[static_cast<std::size_t>(a * 16 + b)];
    c.offset_ticks = sign * 110;
    c.offset_lo_ticks = sign > 0 ? 100 : -120;
    c.offset_hi_ticks = sign > 0 ? 120 : -100;
  }
  m.cpu = solve_cpu_offsets(m.cpus, m.cells, 1);
  const Diagnosis d = diagnose(m, {});
  CHECK(d.findings.empty());
  CHECK(d.cpus_off.empty());
  const CheckResult r = decide_check(CheckEvidence(m), {});
  CHECK_FALSE(r.synchronized);
  CHECK(check_reason_text(r).rfind("not synchronized: pair 2->3: CPU 3 is ahead of CPU 2 by 110 ticks", 0) == 0);
}

TEST_CASE("findings: a drifting CPU is a drift finding and leaves the offsets' structure") {
  Truth t = offsets(16, [](int c) { return c == 5 ? 6000.0 : 0.0; });  // its offset at the pairs' times
  t.drift_ppb.assign(16, 0);
  t.drift_ppb[5] = 400;
  const MatrixResult m = matrix_of(places(2), t);
  const Diagnosis d = diagnose(m, {});
  REQUIRE(d.findings.size() == 1);
  const Finding& f = d.findings[0];
  CHECK(f.kind == FindingKind::drift);
  CHECK(f.cpus == std::vector<int>{5});
  CHECK(f.against == all_but(16, {5}));
  CHECK(f.lo == Approx(395).margin(0));
  CHECK(f.hi == Approx(405).margin(0));
  CHECK(d.offset_group[5] == -1);
  CHECK(d.cpus_off == std::vector<int>{5});
  CHECK(finding_text(f, 0) == "CPU 5 runs 395 to 405 ppb faster than the rest (CPUs 0-4,6-15)");
  // A drift tolerance wider than the drift: no drift finding (the CPU's offset, which moved
  // with it, is then judged with the others').
  for (const Finding& g : diagnose(m, {0, 410}).findings) CHECK(g.kind != FindingKind::drift);
}

TEST_CASE("findings: a drifting package, and a package off beside a drifting CPU") {
  Truth drifting = offsets(16, [](int) { return 0.0; });
  drifting.drift_ppb.assign(16, 0);
  for (int c = 8; c < 16; ++c) drifting.drift_ppb[static_cast<std::size_t>(c)] = -250;
  Diagnosis d = diagnose(matrix_of(places(2), drifting), {});
  REQUIRE(d.findings.size() == 1);
  CHECK(d.findings[0].kind == FindingKind::drift);
  CHECK(d.findings[0].cpus == range(8, 15));
  CHECK(d.findings[0].name == "package 1");
  CHECK(finding_text(d.findings[0], 0) == "package 1 (CPUs 8-15) runs 245 to 255 ppb slower than package 0 (CPUs 0-7)");
  CHECK(d.cpus_off == range(8, 15));

  Truth both = offsets(16, [](int c) { return c >= 8 ? 600.0 : c == 5 ? 6000.0 : 0.0; });
  both.drift_ppb.assign(16, 0);
  both.drift_ppb[5] = 400;
  d = diagnose(matrix_of(places(2), both), {});
  REQUIRE(d.findings.size() == 2);
  // The package first (the larger group); package 0 keeps its name without its drifting CPU.
  CHECK(d.findings[0].kind == FindingKind::offset);
  CHECK(d.findings[0].cpus == range(8, 15));
  CHECK(d.findings[0].against == std::vector<int>{0, 1, 2, 3, 4, 6, 7});
  CHECK(d.findings[0].against_name == "package 0");
  CHECK(d.findings[0].lo == Approx(100).margin(0));
  CHECK(d.findings[0].hi == Approx(1100).margin(0));
  CHECK(d.findings[1].kind == FindingKind::drift);
  CHECK(d.findings[1].cpus == std::vector<int>{5});
  // Every finding's group is off: the drifting CPU and package 1, which is not the reference.
  CHECK(d.cpus_off == std::vector<int>{5, 8, 9, 10, 11, 12, 13, 14, 15});
}

TEST_CASE("findings: a step is put on the CPU its pairs share, with the band of its jump") {
  MatrixResult m = matrix_of(places(2), offsets(16, [](int c) { return c == 7 ? 600.0 : 0.0; }));
  // CPU 7's counter jumped by +600: proven in its pairs with 6 (SMT) and 4, 5 (L3), both
  // roles; the jump of b minus a has the band ±50 around it.
  for (const int other : {4, 5, 6}) {
    for (const auto& [a, b] : {std::pair{other, 7}, std::pair{7, other}}) {
      const double size = b == 7 ? 600 : -600;
      PairCell& c = m.cells[static_cast<std::size_t>(a * 16 + b)];
      c.steps.push_back(StepVerdict{size, 1000, 990, 1010, size - 50 + other, size + 50 + other});
    }
  }
  const Diagnosis d = diagnose(m, {});
  REQUIRE(d.findings.size() == 1);
  const Finding& f = d.findings[0];
  CHECK(f.kind == FindingKind::step);
  CHECK(f.cpus == std::vector<int>{7});
  CHECK(f.against == std::vector<int>{4, 5, 6});
  CHECK(f.pairs == 6);
  // The intersection of the jump's bands, each turned into 7's own: [556, 646] ... [554, 644].
  CHECK(f.lo == Approx(556).margin(0));
  CHECK(f.hi == Approx(644).margin(0));
  CHECK(f.step_round == 1000);
  CHECK(d.offset_group[7] == -1);
  CHECK(d.cpus_off == std::vector<int>{7});
  CHECK(finding_text(f, 0) ==
        "CPU 7's counter jumped forward by 556 to 644 ticks during the run, against CPUs 4-6 (6 ordered pairs; the "
        "largest jump at round 1000)");
  // One pair alone that stepped: a finding of that pair, which singles out neither CPU.
  MatrixResult one = matrix_of(places(2), offsets(16, [](int) { return 0.0; }));
  one.cells[2 * 16 + 9].steps.push_back(StepVerdict{-700, 50, 50, 50, -760, -640});
  const Diagnosis d1 = diagnose(one, {});
  REQUIRE(d1.findings.size() == 1);
  CHECK(d1.findings[0].cpus == std::vector<int>{9});
  CHECK(d1.findings[0].against == std::vector<int>{2});
  CHECK(d1.cpus_off.empty());
}

TEST_CASE("findings: as JSON, with the fields the schema names") {
  const MatrixResult m = matrix_of(places(2), offsets(16, [](int c) { return c == 5 ? 400.0 : 0.0; }));
  const nlohmann::ordered_json j = findings_json(diagnose(m, {}), 2e9);
  REQUIRE(j.size() == 1);
  CHECK(j[0]["kind"] == "offset");
  CHECK(j[0]["cpus"] == nlohmann::ordered_json::array({5}));
  CHECK(j[0]["against"].size() == 15);
  CHECK(j[0]["lo"] == 340.0);
  CHECK(j[0]["hi"] == 460.0);
  CHECK(j[0]["unit"] == "ticks");
  CHECK(j[0]["name"].is_null());
  CHECK(j[0]["against_name"].is_null());
  CHECK(j[0]["what"] == "CPU 5 is ahead of the rest (CPUs 0-4,6-15) by 340 to 460 ticks (170 to 230 ns)");
}

TEST_CASE("topology_name: the largest unit the set fills, else none") {
  const MatrixResult m = matrix_of(places(2), offsets(16, [](int) { return 0.0; }));
  CHECK(topology_name(m, range(0, 7)) == "package 0");
  CHECK(topology_name(m, range(4, 7)) == "L3 1");
  CHECK(topology_name(m, {2, 3}) == "core 1");
  CHECK(topology_name(m, {5}).empty());
  CHECK(topology_name(m, {3, 4}).empty());
  CHECK(topology_name(m, range(0, 6)).empty());
  CHECK(topology_name(m, range(0, 6), {7}) == "package 0");
  MatrixResult plain = m;
  plain.places.assign(16, CpuPlace{});
  CHECK(topology_name(plain, range(0, 7)).empty());
}

TEST_CASE("check: the verdict states its width, --max-bound makes a wide proof inconclusive") {
  const MatrixResult m = matrix_of(places(2), offsets(16, [](int) { return 0.0; }));
  CheckResult r = decide_check(CheckEvidence(m), {});
  CHECK(r.outcome == CheckOutcome::synchronized);
  CHECK(r.bound_ticks == Approx(500).margin(0));  // the pairs across packages: [-500, 500]
  CHECK(check_reason_text(r).rfind("synchronized to within \u00b1500 ticks: all 240 ordered pairs of 16 CPUs", 0) == 0);
  CheckSettings tight;
  tight.max_bound_ticks = 200;
  r = decide_check(CheckEvidence(m), tight);
  CHECK(r.outcome == CheckOutcome::inconclusive);
  CHECK_FALSE(r.synchronized);
  CHECK(r.failures.empty());
  CHECK(check_reason_text(r).rfind(
            "inconclusive: the offsets are proven only to within \u00b1500 ticks, wider than the maximum bound of 200 ticks; all "
            "240 ordered pairs",
            0) == 0);
  CHECK(check_json(r)["outcome"] == "inconclusive");
  tight.max_bound_ticks = 500;
  CHECK(decide_check(CheckEvidence(m), tight).outcome == CheckOutcome::synchronized);
  // A proof of a difference is never inconclusive, however wide the bands.
  const MatrixResult off = matrix_of(places(2), offsets(16, [](int c) { return c == 5 ? 400.0 : 0.0; }));
  tight.max_bound_ticks = 10;
  CHECK(decide_check(CheckEvidence(off), tight).outcome == CheckOutcome::not_synchronized);
}
