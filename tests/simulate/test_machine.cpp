// Simulated whole machines: the model (distances, per-pair specs, seeds, truth) exactly,
// and the whole-machine analysis at scale on it: 16 CPUs in two packages, every ordered
// pair simulated, analyzed by analyze_run, assembled by build_matrix, solved by
// solve_cpu_offsets and judged by decide_check, against the machine's truth.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "estimate/role_hulls.hpp"
#include "error_messages.hpp"
#include "matrix/check.hpp"
#include "matrix/matrix.hpp"
#include "pair/analyze.hpp"
#include "render/matrix_output.hpp"
#include "render/verdict_text.hpp"
#include "simulate/machine.hpp"

using namespace tscaudit;
using Catch::Matchers::Contains;

namespace {

/// hwloc's "package:2 l3:2 core:2 pu:2" as places: 16 CPUs numbered in topology order,
/// 2 packages of 2 L3 domains of 2 cores of 2 SMT siblings (CPUs 2k and 2k+1 share core k).
std::vector<CpuPlace> two_packages() {
  std::vector<CpuPlace> places;
  for (int cpu = 0; cpu < 16; ++cpu) {
    CpuPlace p;
    p.cpu = cpu;
    p.package = cpu / 8;
    p.l3 = cpu / 4;
    p.core = cpu / 2;
    places.push_back(p);
  }
  return places;
}

/// 2000 rounds per pair; a long gap and turnaround stretch each run to about 45 M ticks
/// (20 ms at 2.3 GHz, so that a drift of 100 ppm moves the offset by thousands of ticks)
/// and leave room for early reads 1500-1800 ticks early (beyond every distance's
/// round-trip floor). The analysis' cost grows with rounds, not ticks.
MachineSpec machine_spec() {
  MachineSpec m;
  m.cpus = two_packages();
  m.seed = 2024;
  m.rounds_per_pair = 2000;
  m.base.gap_ticks = 20000;
  m.base.turnaround_base_ticks = 500;
  return m;
}

struct AnalyzedMachine {
  std::vector<int> cpus;
  std::vector<PairAnalysis> analyses;
  std::vector<MachinePairTruth> truth;
  MatrixResult matrix;

  [[nodiscard]] const PairCell& cell(int a, int b) const {
    return matrix.at(static_cast<std::size_t>(a), static_cast<std::size_t>(b));  // CPU i at index i
  }
  [[nodiscard]] const MachinePairTruth& truth_of(int a, int b) const {
    return *std::find_if(truth.begin(), truth.end(), [&](const MachinePairTruth& t) { return t.a == a && t.b == b; });
  }
};

/// Every ordered pair simulated and analyzed, the matrix built and solved.
AnalyzedMachine analyze(const SimulatedMachine& machine) {
  AnalyzedMachine out;
  for (const CpuPlace& p : machine.spec().cpus) out.cpus.push_back(p.cpu);
  const auto pairs = machine.ordered_pairs();
  out.analyses.reserve(pairs.size());
  for (const auto& [a, b] : pairs) {
    const MachinePairRun r = machine.simulate_pair(a, b);
    out.analyses.push_back(analyze_run(r.run, "pair_" + std::to_string(a) + "_" + std::to_string(b)));
    out.truth.push_back(r.truth);
  }
  std::vector<const PairAnalysis*> pointers;
  for (const PairAnalysis& p : out.analyses) pointers.push_back(&p);
  out.matrix = build_matrix(out.cpus, pointers);
  out.matrix.places = machine.spec().cpus;  // the topology names the findings' groups
  return out;
}

/// The CPUs named in every failure of `kind` (a CPU the failures have in common).
std::set<int> common_cpus(const CheckResult& r, CheckFailureKind kind) {
  std::set<int> common;
  bool first = true;
  for (const CheckFailure& f : r.failures) {
    if (f.kind != kind) continue;
    const std::set<int> these = {f.a, f.b};
    if (first) {
      common = these;
      first = false;
    } else {
      std::set<int> kept;
      std::set_intersection(common.begin(), common.end(), these.begin(), these.end(),
                            std::inserter(kept, kept.begin()));
      common = kept;
    }
  }
  return common;
}

/// The one finding of `kind` on exactly `cpus`, whose band holds `truth`; fails the test otherwise.
const Finding& finding_on(const CheckResult& r, FindingKind kind, const std::vector<int>& cpus, double truth) {
  INFO(check_text(r, true));
  const auto& all = r.diagnosis.findings;
  const auto it = std::find_if(all.begin(), all.end(), [&](const Finding& f) { return f.kind == kind && f.cpus == cpus; });
  REQUIRE(it != all.end());
  INFO(finding_text(*it, 0));
  CHECK(it->lo <= truth);
  CHECK(truth <= it->hi);
  return *it;
}

std::size_t failures_of(const CheckResult& r, CheckFailureKind kind) {
  return static_cast<std::size_t>(
      std::count_if(r.failures.begin(), r.failures.end(), [&](const CheckFailure& f) { return f.kind == kind; }));
}

}  // namespace

TEST_CASE("machine: distances by topology, nearest first") {
  const auto p = two_packages();
  CHECK(cpu_distance(p[0], p[1]) == CpuDistance::smt);
  CHECK(cpu_distance(p[0], p[2]) == CpuDistance::l3);
  CHECK(cpu_distance(p[0], p[4]) == CpuDistance::package);
  CHECK(cpu_distance(p[0], p[8]) == CpuDistance::cross_package);
  CHECK(cpu_distance(p[15], p[0]) == CpuDistance::cross_package);
  // Levels the machine lacks (-1) never make CPUs siblings; no package at all is one package.
  CHECK(cpu_distance(CpuPlace{.cpu = 0}, CpuPlace{.cpu = 1}) == CpuDistance::package);
  CHECK(distance_name(CpuDistance::cross_package) == "cross_package");
  const MachineLatency l;
  CHECK(l.smt.base_ticks < l.l3.base_ticks);
  CHECK(l.l3.base_ticks < l.package.base_ticks);
  CHECK(l.package.base_ticks < l.cross_package.base_ticks);
  CHECK(l.l3.base_ticks ==
        Approx(SimulationSpec{}.fwd.base_ticks).margin(0));  // the one-pair default is the same-L3 pair
}

TEST_CASE("machine: a pair is exactly the one-pair simulation of its spec") {
  MachineSpec spec = machine_spec();
  spec.cpu_offset_ticks = {{3, 40}, {9, -25}};
  spec.package_offset_ticks = {{1, 150}};
  spec.early_reads[3] = {0.02, 1500, 1800};
  const SimulatedMachine machine(spec);
  CHECK(machine.cpu_offset_ticks(3) == Approx(40).margin(0));
  CHECK(machine.cpu_offset_ticks(9) == Approx(125).margin(0));

  const SimulationSpec s = machine.pair_spec(3, 9, 0);
  CHECK(s.offset_ticks == Approx(125 - 40).margin(0));  // no drift: x_b - x_a whatever the reference time
  CHECK(s.drift_ppb == Approx(0).margin(0));
  CHECK(s.fwd.base_ticks == Approx(MachineLatency{}.cross_package.base_ticks).margin(0));
  CHECK(s.rev.base_ticks == Approx(MachineLatency{}.cross_package.base_ticks).margin(0));
  CHECK(s.spec_a.rate == Approx(0.02).margin(0));  // 3 initiates: its early reads are t4's
  CHECK(s.spec_b.rate == Approx(0).margin(0));
  CHECK(s.seed == machine_pair_seed(2024, 3, 9, 0));
  CHECK(s.rounds == 2000);

  SimulationTruth direct_truth;
  const Run direct = simulate(s, direct_truth);
  const MachinePairRun r = machine.simulate_pair(3, 9);
  CHECK(r.run.rounds == direct.rounds);
  CHECK(r.run.header.get("a") == std::optional<std::string_view>("3"));
  CHECK(r.run.header.get("b") == std::optional<std::string_view>("9"));
  CHECK(r.run.header.get("distance") == std::optional<std::string_view>("cross_package"));
  CHECK(r.run.header.get("seed") == std::optional<std::string_view>(std::to_string(s.seed)));
  CHECK(r.truth.truth.offset_ticks_at_ref == Approx(direct_truth.offset_ticks_at_ref).margin(0));
  CHECK(r.truth.truth.early_t4_count == direct_truth.early_t4_count);
  CHECK(r.truth.truth.early_t4_count > 0);
  CHECK(r.truth.truth.early_t4.empty());  // the flags stay with the one-pair truth

  // Same inputs, same run; another pair, visit or machine seed, other seeds.
  CHECK(machine.simulate_pair(3, 9).run.rounds == r.run.rounds);
  const std::set<std::uint64_t> seeds = {machine_pair_seed(2024, 3, 9, 0), machine_pair_seed(2024, 9, 3, 0),
                                         machine_pair_seed(2024, 3, 9, 1), machine_pair_seed(2025, 3, 9, 0)};
  CHECK(seeds.size() == 4);
  // A later visit starts visit_spacing_ticks later.
  CHECK(machine.pair_spec(3, 9, 2).start_tick == s.start_tick + 2 * spec.visit_spacing_ticks);
}

TEST_CASE("machine: drift is referred to the machine's start, a step keeps the sign of b minus a") {
  MachineSpec spec = machine_spec();
  spec.cpu_offset_ticks = {{1, 10}};
  spec.cpu_drift_ppb = {{1, 1000}, {2, -500}};
  spec.step = MachineStep{2, 300, 0.25};
  const SimulatedMachine machine(spec);
  for (const auto& [a, b] : std::vector<std::pair<int, int>>{{1, 2}, {2, 1}}) {
    const SimulationSpec s = machine.pair_spec(a, b, 1);
    const SimulatedSpan span = simulated_span(s);
    const double since = static_cast<double>(span.t_ref_tick) - static_cast<double>(spec.base.start_tick);
    const double x1 = 10 + 1000e-9 * since;
    const double x2 = -500e-9 * since;
    INFO(a << "->" << b);
    CHECK(s.drift_ppb == Approx((a == 1 ? -1500 : 1500)).margin(0));
    CHECK(s.offset_ticks == Approx(a == 1 ? x2 - x1 : x1 - x2).margin(1e-9));
    REQUIRE(s.steps.size() == 1);
    CHECK(s.steps[0].ticks == Approx((b == 2 ? 300 : -300)).margin(0));
    CHECK(s.steps[0].at_fraction == Approx(0.25).margin(0));
  }
  CHECK(machine.pair_spec(0, 3, 0).steps.empty());
}

TEST_CASE("machine: values for CPUs or packages the machine lacks are refused, named") {
  using tscaudit::test::what_thrown;
  const auto error_of = [](const MachineSpec& spec) {
    return what_thrown<UsageError>([&] { (void)SimulatedMachine(spec); });
  };
  MachineSpec spec = machine_spec();
  spec.cpu_offset_ticks = {{16, 400}};
  CHECK(error_of(spec) == "simulate: --cpu-offset-ticks: CPU 16 is not in the machine (CPUs 0-15)");
  spec = machine_spec();
  spec.package_offset_ticks = {{2, 150}};
  CHECK(error_of(spec) == "simulate: --package-offset-ticks: package 2 is not in the machine (packages 0, 1)");
  spec = machine_spec();
  spec.cpu_drift_ppb = {{-1, 5}};
  CHECK_THAT(error_of(spec), Contains("--cpu-drift-ppb: CPU -1 is not in the machine"));
  spec = machine_spec();
  spec.early_reads[99] = {};
  CHECK_THAT(error_of(spec), Contains("--early-reads: CPU 99 is not in the machine"));
  spec = machine_spec();
  spec.step = MachineStep{20, 100, 0.5};
  CHECK_THAT(error_of(spec), Contains("--step: CPU 20 is not in the machine"));
  spec = machine_spec();
  spec.early_reads[5] = {1.5, 50, 200};
  CHECK(error_of(spec) == "simulate: --early-reads: CPU 5: rate 1.5 must be in [0, 1]");
  spec.early_reads[5] = {0.5, 300, 200};
  CHECK(error_of(spec) == "simulate: --early-reads: CPU 5: how early (300 to 200 ticks) must be 0 <= min <= max");
  spec = machine_spec();
  spec.step = MachineStep{2, 100, 1.5};
  CHECK(error_of(spec) == "simulate: --step: the fraction 1.5 must be in [0, 1]");
  spec = machine_spec();
  spec.base.gap_ticks = -1;  // the shared parameters, as the one-pair model words them
  CHECK(error_of(spec) == "simulate: gap_ticks = -1: must be in [0, 1000000000000]");
  spec = machine_spec();
  spec.cpus.resize(1);
  CHECK_THAT(error_of(spec), Contains("at least two CPUs"));
  spec = machine_spec();
  spec.cpus[3].cpu = 2;
  CHECK(error_of(spec) == "simulate: --topology: CPU 2 appears twice");
  const SimulatedMachine machine(machine_spec());
  CHECK_THAT(what_thrown<UsageError>([&] { (void)machine.pair_spec(4, 4, 0); }), Contains("with itself"));
  CHECK_THAT(what_thrown<UsageError>([&] { (void)machine.pair_spec(4, 40, 0); }),
             Contains("CPU 40 is not in the machine"));
}

TEST_CASE("machine: the truth JSON has the model, every CPU and every pair") {
  MachineSpec spec = machine_spec();
  spec.cpus.resize(4);
  spec.cpu_offset_ticks = {{2, 400}};
  spec.cpu_drift_ppb = {{3, -20}};
  const SimulatedMachine machine(spec);
  std::vector<MachinePairTruth> pairs;
  for (const auto& [a, b] : machine.ordered_pairs()) pairs.push_back(machine.simulate_pair(a, b).truth);
  CHECK(pairs.size() == 12);
  const auto j = machine.truth_json(pairs);
  CHECK(j["schema"] == "tscaudit-machine-truth/1");
  CHECK(j["model"]["seed"] == 2024);
  CHECK(j["model"]["latency"]["smt"]["base_ticks"] == 60.0);
  CHECK(j["model"]["step"].is_null());
  REQUIRE(j["cpus"].size() == 4);
  CHECK(j["cpus"][2]["cpu"] == 2);
  CHECK(j["cpus"][2]["offset_ticks"] == 400.0);
  CHECK(j["cpus"][2]["core"] == 1);
  CHECK(j["cpus"][3]["drift_ppb"] == -20.0);
  REQUIRE(j["pairs"].size() == 12);
  CHECK(j["pairs"][1]["a"] == 0);
  CHECK(j["pairs"][1]["b"] == 2);
  CHECK(j["pairs"][1]["distance"] == "l3");
  CHECK(j["pairs"][1]["offset_ticks_at_ref"] == 400.0);
  CHECK(j["pairs"][1]["seed"] == machine_pair_seed(2024, 0, 2, 0));
}

TEST_CASE("machine at scale: one CPU 400 ticks ahead fails check, which names it and no other") {
  MachineSpec spec = machine_spec();
  spec.cpu_offset_ticks = {{5, 400}};
  const AnalyzedMachine m = analyze(SimulatedMachine(spec));
  const CheckResult r = decide_check(CheckEvidence(m.matrix), CheckSettings{});
  INFO(check_text(r, true));
  CHECK_FALSE(r.synchronized);
  CHECK(failures_of(r, CheckFailureKind::offset) > 0);
  CHECK(common_cpus(r, CheckFailureKind::offset) == std::set<int>{5});
  for (const CheckFailure& f : r.failures) {
    if (f.a >= 0) CHECK((f.a == 5 || f.b == 5));  // every failing pair involves CPU 5
  }
  // Every pair of 5 inside its package has bands narrower than 400 ticks: all fail.
  for (int other = 0; other < 8; ++other) {
    if (other == 5) continue;
    CHECK(m.cell(5, other).offset_hi_ticks < 0);
    CHECK(m.cell(other, 5).offset_lo_ticks > 0);
  }
  CHECK_THAT(check_reason_text(r), Contains("not synchronized: CPU 5 is ahead of the rest (CPUs 0-4,6-15) by "));
  CHECK(r.cpus_off == std::vector<int>{5});
  finding_on(r, FindingKind::offset, {5}, 400);
  CHECK(r.diagnosis.findings.size() == 1);
  // The per-CPU solution puts 5 alone at +400.
  for (std::size_t i = 0; i < m.cpus.size(); ++i) {
    INFO("CPU " << i);
    CHECK(std::fabs(m.matrix.cpu.offset_ticks[i] - (i == 5 ? 400.0 : 0.0)) < 30);
  }
}

TEST_CASE("machine at scale: cpus_off names the CPU off though its pairs across packages pass") {
  // Its pairs across packages have round trips near 1000 ticks, so their bands (about
  // 1000 ticks wide) contain 0 and pass; only its 7 pairs inside its package fail. The
  // failures are still explained by it alone (docs/machine.md §10.3).
  for (const int cpu : {0, 10, 15}) {
    CAPTURE(cpu);
    MachineSpec spec = machine_spec();
    spec.rounds_per_pair = 500;
    spec.cpu_offset_ticks = {{cpu, 400}};
    const AnalyzedMachine m = analyze(SimulatedMachine(spec));
    const CheckResult r = decide_check(CheckEvidence(m.matrix), CheckSettings{});
    INFO(check_text(r, true));
    REQUIRE_FALSE(r.synchronized);
    std::size_t across_passing = 0;
    for (int other = 0; other < 16; ++other) {
      if (other / 8 != cpu / 8)
        across_passing += m.cell(cpu, other).offset_lo_ticks <= 0 ? std::size_t{1} : std::size_t{0};
    }
    CHECK(across_passing > 0);  // a rule that needs every pair of it to fail would name none
    CHECK(r.cpus_off == std::vector<int>{cpu});
    CHECK_THAT(check_reason_text(r), Contains("not synchronized: CPU " + std::to_string(cpu) + " is ahead of the rest"));
    finding_on(r, FindingKind::offset, {cpu}, 400);
    CHECK(r.diagnosis.findings.size() == 1);
  }
}

TEST_CASE("machine at scale: two CPUs off in different packages are both named") {
  MachineSpec spec = machine_spec();
  spec.rounds_per_pair = 500;
  spec.cpu_offset_ticks = {{3, 400}, {12, -400}};
  const AnalyzedMachine m = analyze(SimulatedMachine(spec));
  const CheckResult r = decide_check(CheckEvidence(m.matrix), CheckSettings{});
  INFO(check_text(r, true));
  REQUIRE_FALSE(r.synchronized);
  CHECK(r.cpus_off == std::vector<int>{3, 12});
  // Two findings, one per CPU, each against the 14 others.
  CHECK(r.diagnosis.findings.size() == 2);
  CHECK(finding_on(r, FindingKind::offset, {3}, 400).against.size() == 14);
  CHECK(finding_on(r, FindingKind::offset, {12}, -400).against.size() == 14);
}

TEST_CASE("machine at scale: a package off beyond the bands across fails every pair across and names its CPUs") {
  // 3000 ticks: beyond every band across the packages (about 1000 ticks wide), so all 128
  // ordered pairs across fail and the 112 inside the packages pass. Either package's 8
  // CPUs explain the failures as well as the other's: the finding's group is the one that is
  // not the reference (without the matrix's first CPU), and cpus_off names its CPUs.
  MachineSpec spec = machine_spec();
  spec.rounds_per_pair = 500;
  spec.package_offset_ticks = {{1, 3000}};
  const AnalyzedMachine m = analyze(SimulatedMachine(spec));
  const CheckResult r = decide_check(CheckEvidence(m.matrix), CheckSettings{});
  INFO(check_text(r, true));
  REQUIRE_FALSE(r.synchronized);
  CHECK(failures_of(r, CheckFailureKind::offset) == 128);
  for (const CheckFailure& f : r.failures) {
    if (f.kind == CheckFailureKind::offset) CHECK((f.a / 8 != f.b / 8));
  }
  CHECK(r.cpus_off == std::vector<int>{8, 9, 10, 11, 12, 13, 14, 15});
  // The structure: one finding, the package against the other, named.
  REQUIRE(r.diagnosis.findings.size() == 1);
  const Finding& f = finding_on(r, FindingKind::offset, {8, 9, 10, 11, 12, 13, 14, 15}, 3000);
  CHECK(f.name == "package 1");
  CHECK(f.against_name == "package 0");
  CHECK_THAT(check_reason_text(r),
             Catch::Matchers::StartsWith("not synchronized: package 1 (CPUs 8-15) is ahead of package 0 (CPUs 0-7) by "));
}

TEST_CASE("machine at scale: one package 150 ticks ahead shows in every CPU of it, within its hard bounds") {
  MachineSpec spec = machine_spec();
  spec.package_offset_ticks = {{1, 150}};
  const AnalyzedMachine m = analyze(SimulatedMachine(spec));
  const CpuOffsets& x = m.matrix.cpu;
  CHECK(x.bands_consistent);
  for (std::size_t i = 0; i < m.cpus.size(); ++i) {
    const double truth = i >= 8 ? 150.0 : 0.0;  // relative to CPU 0, the first of the list
    INFO("CPU " << i << ": " << x.offset_ticks[i] << " in [" << x.lo_ticks[i] << ", " << x.hi_ticks[i] << "]");
    CHECK(std::fabs(x.offset_ticks[i] - truth) < 30);
    if (i == 0) continue;
    CHECK(x.lo_ticks[i] <= truth);
    CHECK(x.hi_ticks[i] >= truth);
  }
  // Every estimate sits with its package: the least squares over all 240 pairs separates
  // them, although no cross-package band (about 2 * 500 ticks wide) can prove 150 ticks
  // alone, and check, which judges pairs by their hard bands, passes the machine.
  double highest_package0 = -1e9;
  double lowest_package1 = 1e9;
  for (std::size_t i = 0; i < 8; ++i) highest_package0 = std::max(highest_package0, x.offset_ticks[i]);
  for (std::size_t i = 8; i < 16; ++i) lowest_package1 = std::min(lowest_package1, x.offset_ticks[i]);
  CHECK(lowest_package1 - highest_package0 > 100);
  const CheckResult r = decide_check(CheckEvidence(m.matrix), CheckSettings{});
  INFO(check_text(r, true));
  CHECK(r.synchronized);
}

TEST_CASE("machine at scale: a drifting CPU is caught by the pairs' drift decision") {
  MachineSpec spec = machine_spec();
  spec.cpu_drift_ppb = {{11, 100'000}};  // 100 ppm: about 4500 ticks over a pair's run
  const AnalyzedMachine m = analyze(SimulatedMachine(spec));
  for (int a = 0; a < 16; ++a) {
    for (int b = 0; b < 16; ++b) {
      if (a == b) continue;
      INFO(a << "->" << b);
      const PairCell& c = m.cell(a, b);
      const bool involved = a == 11 || b == 11;
      CHECK(c.drift_detectable == involved);
      if (involved) {
        const double truth = m.truth_of(a, b).truth.drift_ppb;
        CHECK(c.drift_lo_ppb <= truth);
        CHECK(c.drift_hi_ppb >= truth);
      }
    }
  }
  const CheckResult r = decide_check(CheckEvidence(m.matrix), CheckSettings{});
  CHECK(failures_of(r, CheckFailureKind::drift) == 30);  // 2 * 15 ordered pairs
  CHECK(common_cpus(r, CheckFailureKind::drift) == std::set<int>{11});
  // The diagnosis: CPU 11 drifts, and nothing else (its moving offset is not an offset finding).
  CHECK(r.diagnosis.findings.size() == 1);
  finding_on(r, FindingKind::drift, {11}, 100'000);
  CHECK(r.cpus_off == std::vector<int>{11});
}

TEST_CASE("machine at scale: early reads on one CPU are classified as causality violations, only there") {
  MachineSpec spec = machine_spec();
  spec.early_reads[6] = {0.01, 1500, 1800};
  const AnalyzedMachine m = analyze(SimulatedMachine(spec));
  std::uint64_t injected = 0;
  std::uint64_t found = 0;
  for (std::size_t i = 0; i < m.analyses.size(); ++i) {
    const PairAnalysis& p = m.analyses[i];
    const MachinePairTruth& t = m.truth[i];
    INFO(t.a << "->" << t.b);
    // No false positives: a direction's violations never outnumber its early reads ...
    CHECK(p.fwd_classes.causality_violation <= t.truth.early_t2_count);
    CHECK(p.rev_classes.causality_violation <= t.truth.early_t4_count);
    if (t.a != 6 && t.b != 6) CHECK(t.truth.early_t2_count + t.truth.early_t4_count == 0);
    injected += t.truth.early_t2_count + t.truth.early_t4_count;
    found += p.fwd_classes.causality_violation + p.rev_classes.causality_violation;
    // ... and the band still holds the truth.
    REQUIRE(p.fit.band.feasible);
    CHECK(p.fit.band.offset_lo_ticks <= t.truth.offset_ticks_at_ref);
    CHECK(p.fit.band.offset_hi_ticks >= t.truth.offset_ticks_at_ref);
  }
  // 30 pairs of CPU 6, one early direction each, 1 % of 2000 rounds.
  CHECK(injected > 400);
  // Reads 1500+ ticks early are beyond every round trip's floor but not every tail's.
  CHECK(static_cast<double>(found) >= 0.9 * static_cast<double>(injected));
  CHECK(m.cell(6, 0).causality_violations > 0);
  CHECK(m.cell(0, 6).causality_violations > 0);
}

TEST_CASE("machine at scale: minimum round trips follow SMT < L3 < package < cross-package") {
  const AnalyzedMachine m = analyze(SimulatedMachine(machine_spec()));
  std::map<CpuDistance, std::pair<double, double>> range;  // min, max of rtt_min per distance
  for (const MachinePairTruth& t : m.truth) {
    const double rtt = m.cell(t.a, t.b).rtt_min_ticks;
    auto [it, fresh] = range.try_emplace(t.distance, rtt, rtt);
    it->second.first = std::min(it->second.first, rtt);
    it->second.second = std::max(it->second.second, rtt);
  }
  REQUIRE(range.size() == 4);
  INFO("smt " << range[CpuDistance::smt].first << "-" << range[CpuDistance::smt].second << ", l3 "
              << range[CpuDistance::l3].first << "-" << range[CpuDistance::l3].second << ", package "
              << range[CpuDistance::package].first << "-" << range[CpuDistance::package].second << ", cross "
              << range[CpuDistance::cross_package].first << "-" << range[CpuDistance::cross_package].second);
  CHECK(range[CpuDistance::smt].second < range[CpuDistance::l3].first);
  CHECK(range[CpuDistance::l3].second < range[CpuDistance::package].first);
  CHECK(range[CpuDistance::package].second < range[CpuDistance::cross_package].first);
  // The floor of each is twice its one-way floor, and no smaller.
  const MachineLatency l;
  CHECK(range[CpuDistance::smt].first >= 2 * l.smt.base_ticks - 1);
  CHECK(range[CpuDistance::cross_package].first >= 2 * l.cross_package.base_ticks - 1);
  // Nothing was offset: the machine passes.
  const CheckResult r = decide_check(CheckEvidence(m.matrix), CheckSettings{});
  INFO(check_text(r, true));
  CHECK(r.synchronized);
}

TEST_CASE("machine at scale: a step of one CPU is proven in its nearest pairs and nowhere else") {
  MachineSpec spec = machine_spec();
  spec.step = MachineStep{9, 600, 0.5};
  const AnalyzedMachine m = analyze(SimulatedMachine(spec));
  for (int a = 0; a < 16; ++a) {
    for (int b = 0; b < 16; ++b) {
      if (a == b) continue;
      INFO(a << "->" << b);
      if (a != 9 && b != 9) CHECK(m.cell(a, b).steps.empty());
    }
  }
  // Its SMT sibling and L3 neighbours (bands about 120 and 360 ticks wide), both roles.
  for (int other : {8, 10, 11}) {
    INFO("9 and " << other);
    CHECK(m.cell(9, other).steps.size() == 1);
    CHECK(m.cell(other, 9).steps.size() == 1);
  }
  // The diagnosis puts the step on CPU 9, with the band of its jump; its offset after the
  // jump is not a finding of its own.
  const CheckResult r = decide_check(CheckEvidence(m.matrix), CheckSettings{});
  CHECK(r.diagnosis.findings.size() == 1);
  const Finding& f = finding_on(r, FindingKind::step, {9}, 600);
  CHECK(f.against == std::vector<int>{8, 10, 11});
  CHECK(r.cpus_off == std::vector<int>{9});
}

TEST_CASE("machine at scale: an L3 domain off is one finding, named") {
  MachineSpec spec = machine_spec();
  spec.rounds_per_pair = 500;
  spec.cpu_offset_ticks = {{4, 500}, {5, 500}, {6, 500}, {7, 500}};
  const CheckResult r = decide_check(CheckEvidence(analyze(SimulatedMachine(spec)).matrix), CheckSettings{});
  REQUIRE(r.diagnosis.findings.size() == 1);
  CHECK(finding_on(r, FindingKind::offset, {4, 5, 6, 7}, 500).name == "L3 1");
  CHECK(r.cpus_off == std::vector<int>{4, 5, 6, 7});
}

TEST_CASE("machine at scale: a drifting package, and a package off beside a drifting CPU") {
  MachineSpec spec = machine_spec();
  spec.rounds_per_pair = 500;
  for (int cpu = 8; cpu < 16; ++cpu) spec.cpu_drift_ppb[cpu] = -100'000;
  CheckResult r = decide_check(CheckEvidence(analyze(SimulatedMachine(spec)).matrix), CheckSettings{});
  REQUIRE(r.diagnosis.findings.size() == 1);
  CHECK(finding_on(r, FindingKind::drift, {8, 9, 10, 11, 12, 13, 14, 15}, -100'000).name == "package 1");
  CHECK(r.cpus_off == std::vector<int>{8, 9, 10, 11, 12, 13, 14, 15});

  spec = machine_spec();
  spec.rounds_per_pair = 500;
  spec.package_offset_ticks = {{1, 3000}};
  spec.cpu_drift_ppb = {{5, 100'000}};
  r = decide_check(CheckEvidence(analyze(SimulatedMachine(spec)).matrix), CheckSettings{});
  REQUIRE(r.diagnosis.findings.size() == 2);
  const Finding& package = finding_on(r, FindingKind::offset, {8, 9, 10, 11, 12, 13, 14, 15}, 3000);
  CHECK(package.against == std::vector<int>{0, 1, 2, 3, 4, 6, 7});
  CHECK(package.against_name == "package 0");
  finding_on(r, FindingKind::drift, {5}, 100'000);
  CHECK(r.cpus_off == std::vector<int>{5, 8, 9, 10, 11, 12, 13, 14, 15});
  CHECK_THAT(check_reason_text(r), Catch::Matchers::StartsWith("not synchronized: package 1 (CPUs 8-15) is ahead of "
                                                               "package 0 (CPUs 0-4,6-7) by "));
}

TEST_CASE("machine at scale: synchronized with paths slower one way and early reads: no finding") {
  MachineSpec spec = machine_spec();
  spec.rounds_per_pair = 500;
  spec.latency.cross_package_skew_ticks = 300;  // the estimates across packages lean 150 ticks
  spec.early_reads[6] = {0.01, 1500, 1800};
  const AnalyzedMachine m = analyze(SimulatedMachine(spec));
  CHECK(std::fabs(m.matrix.cpu.offset_ticks[8] - m.matrix.cpu.offset_ticks[0]) > 100);
  const CheckResult r = decide_check(CheckEvidence(m.matrix), CheckSettings{});
  INFO(check_text(r, true));
  CHECK(r.diagnosis.findings.empty());
  CHECK(r.cpus_off.empty());
}

TEST_CASE("machine at scale: roles that saw different paths: the bound is the pairs' bands over both roles") {
  // The second role of every pair in a host's slow regime, four times the delays: alone its
  // bands are four times as wide, and a bound over the roles' own bands would be theirs.
  MachineSpec spec = machine_spec();
  spec.rounds_per_pair = 500;
  spec.latency.second_role_slowdown = 4;
  const AnalyzedMachine m = analyze(SimulatedMachine(spec));
  const CheckResult r = decide_check(CheckEvidence(m.matrix), CheckSettings{});
  INFO(check_text(r, true));
  REQUIRE(r.outcome == CheckOutcome::synchronized);
  double widest_joined = 0, widest_role = 0;
  for (int a = 0; a < 16; ++a) {
    for (int b = a + 1; b < 16; ++b) {
      // The pair's band, joined here from the two analyses, exactly as the matrix joins them.
      const auto& ab = m.analyses[static_cast<std::size_t>(a * 15 + (b - 1))];
      const auto& ba = m.analyses[static_cast<std::size_t>(b * 15 + a)];
      REQUIRE(ab.a == std::to_string(a));
      REQUIRE(ba.a == std::to_string(b));
      const std::optional<BothRolesFit> joined = fit_both_roles(ab.hulls, ba.hulls);
      REQUIRE(joined);
      const HardBand& band = joined->free_fit.band;
      REQUIRE(band.feasible);
      const double reach = std::max(std::fabs(band.offset_lo_ticks), std::fabs(band.offset_hi_ticks));
      widest_joined = std::max(widest_joined, reach);
      // Never looser than the pair's own band over both roles.
      CHECK(r.bound_ticks >= reach - 1e-6);
      for (const PairCell* c : {&m.cell(a, b), &m.cell(b, a)}) {
        CHECK(c->band_source == BandSource::both_roles);
        widest_role = std::max({widest_role, std::fabs(c->role_offset_lo_ticks), std::fabs(c->role_offset_hi_ticks)});
      }
    }
  }
  // The headline bound is the widest of the pairs' bands over both roles, within a tick,
  // and far inside what the slow roles alone prove.
  CHECK(r.bound_ticks == Approx(widest_joined).margin(1));
  CHECK(r.bound_ticks < widest_role / 2);
}

TEST_CASE("machine: truth.json's text puts each CPU and each pair on one line") {
  const nlohmann::ordered_json j = {{"schema", "tscaudit-machine-truth/1"},
                                    {"model", {{"seed", 7}, {"step", nullptr}}},
                                    {"cpus", {{{"cpu", 0}}, {{"cpu", 1}}}},
                                    {"pairs", nlohmann::ordered_json::array()}};
  CHECK(truth_json_text(j) ==
        "{\n"
        "  \"schema\": \"tscaudit-machine-truth/1\",\n"
        "  \"model\": {\n"
        "    \"seed\": 7,\n"
        "    \"step\": null\n"
        "  },\n"
        "  \"cpus\": [\n"
        "    {\"cpu\":0},\n"
        "    {\"cpu\":1}\n"
        "  ],\n"
        "  \"pairs\": []\n"
        "}\n");
  // The layout is only whitespace: the text reads back as the object.
  MachineSpec spec = machine_spec();
  spec.cpus.resize(4);
  const SimulatedMachine machine(spec);
  std::vector<MachinePairTruth> pairs;
  for (const auto& [a, b] : machine.ordered_pairs()) pairs.push_back(machine.simulate_pair(a, b).truth);
  const auto full = machine.truth_json(pairs);
  CHECK(nlohmann::ordered_json::parse(truth_json_text(full)) == full);
}
