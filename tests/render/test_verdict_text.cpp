// Every verdict sentence, exactly, from fabricated verdict data: what `analyze`, the
// monitor's analysis, `check`, `variants` and the report say.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "render/matrix_output.hpp"
#include "render/verdict_text.hpp"
#include "unwrap_text.hpp"

using namespace tscaudit;

namespace {

/// A fit's answer with its offset band; every one drifts by 1234.5 ppb in [1000, 1500].
FitVerdict fit(VerdictKind kind, double offset, double lo, double hi) {
  return {kind, offset, lo, hi, 1234.5, 1000, 1500};
}

PairVerdict fit_verdict(const FitVerdict& f, double hz) {
  PairVerdict v;
  v.kind = f.kind;
  v.fit = f;
  v.tsc_hz = hz;
  return v;
}

UnsafeReads unsafe(bool at_least) {
  UnsafeReads u;
  u.send = recorded_variant(ReadVariant::rdtsc);
  u.recv = recorded_variant(std::optional<std::string_view>("other_tool_read"));
  u.fwd_violations = 12;
  u.rev_violations = 3;
  u.at_least = at_least;
  u.k = 4;
  return u;
}

}  // namespace

TEST_CASE("verdict text: a pair's answer from its fit") {
  CHECK(verdict_text(fit_verdict(fit(VerdictKind::synchronized, 1, -181, 181), 2.3e9)) ==
        "synchronized within the band: the offset lies in [-181, 181] ticks, which contains 0");
  CHECK(verdict_text(fit_verdict(fit(VerdictKind::offset, 506, 311, 701), 2.3e9)) ==
        "offset of 506 ticks (220.0 ns): b's counter is ahead of a's; the band [311, 701] ticks excludes 0");
  CHECK(verdict_text(fit_verdict(fit(VerdictKind::offset, -308, -503, -113), 0)) ==
        "offset of -308 ticks: b's counter is behind a's; the band [-503, -113] ticks excludes 0");
  CHECK(verdict_text(fit_verdict(fit(VerdictKind::drifting, 0, -5, 5), 0)) ==
        "drifting by 1230 ppb (band 1000 to 1500 ppb)");
  PairVerdict negatives = fit_verdict(fit(VerdictKind::synchronized, 0, -198, 192), 0);
  negatives.negatives = {17, 2, 15};
  CHECK(verdict_text(negatives) ==
        "synchronized within the band: the offset lies in [-198, 192] ticks, which contains 0; 17 negative one-way "
        "latencies, none beyond the band (2 explained by any offset in it, 15 by some: not proof of early reads)");
}

TEST_CASE("verdict text: unsafe reads, with a variant this tool does not know named as written") {
  PairVerdict v;
  v.kind = VerdictKind::unsafe_reads;
  v.unsafe = unsafe(false);
  CHECK(verdict_text(v) ==
        "unsafe reads: causality violated under this variant (send rdtsc, recv other_tool_read): 12 forward and 3 "
        "reverse one-way latencies below every offset the rest of the run allows");
  v.unsafe.self_inconsistent = 7;
  v.unsafe.no_band = true;
  // The pair and the monitor say "no line fits the bounds" alike.
  CHECK(verdict_text(v) ==
        "unsafe reads: causality violated under this variant (send rdtsc, recv other_tool_read): 12 forward and 3 "
        "reverse one-way latencies below every offset the rest of the run allows, 7 rounds impossible for any "
        "offset; no line fits the bounds even with k = 4");
}

TEST_CASE("verdict text: a pair whose offset stepped, with each segment's answer") {
  PairVerdict v;
  v.kind = VerdictKind::offset_stepped;
  v.tsc_hz = 2.3e9;
  v.steps = {{496.5, 59865, 59865, 59865}};
  v.segments = {fit_verdict(fit(VerdictKind::synchronized, 0, -81, 283), 2.3e9),
                fit_verdict(fit(VerdictKind::offset, 608, 413, 803), 2.3e9)};
  CHECK(verdict_text(v) ==
        "offset stepped by 496.5 ticks (215.9 ns) at round 59865: a TSC write, a vCPU moved, or a migration; before: "
        "synchronized within the band: the offset lies in [-81, 283] ticks, which contains 0; after: offset of 608 "
        "ticks (264.3 ns): b's counter is ahead of a's; the band [413, 803] ticks excludes 0");
  // Where the rounds between fit either side, the stretch is named.
  v.steps[0].round_lo = 59850;
  v.steps[0].round_hi = 59871;
  v.segments.clear();
  CHECK(verdict_text(v) ==
        "offset stepped by 496.5 ticks (215.9 ns) at round 59865 (between rounds 59850 and 59871): a TSC write, a "
        "vCPU moved, or a migration");
}

TEST_CASE("verdict text: a pair whose offset stepped several times names the segments by number") {
  PairVerdict v;
  v.kind = VerdictKind::offset_stepped;
  v.steps = {{700, 60012, 60012, 60012}, {-900, 140020, 140001, 140020}};
  v.segments = {fit_verdict(fit(VerdictKind::synchronized, 0, -81, 283), 0),
                fit_verdict(fit(VerdictKind::offset, 700, 513, 903), 0),
                fit_verdict(fit(VerdictKind::offset, -200, -390, -10), 0)};
  CHECK(verdict_text(v) ==
        "offset stepped 2 times: by 700 ticks at round 60012, by -900 ticks at round 140020 (between rounds 140001 "
        "and 140020): a TSC write, a vCPU moved, or a migration; segment 1: synchronized within the band: the offset "
        "lies in [-81, 283] ticks, which contains 0; segment 2: offset of 700 ticks: b's counter is ahead of a's; the "
        "band [513, 903] ticks excludes 0; segment 3: offset of -200 ticks: b's counter is behind a's; the band [-390, "
        "-10] ticks excludes 0");
}

TEST_CASE("verdict text: a monitor run's parts") {
  MonitorVerdict v;
  v.tsc_hz = 2.3e9;
  v.k = 2;
  v.proven_steps = {{5000, 25, 383.3}};
  v.last_piece = fit(VerdictKind::offset, 4850, 4669, 5031);
  v.several_pieces = true;
  CHECK(verdict_text(v) ==
        "offset stepped 1 time: by 5000 ticks (2173.9 ns) at interval 25 (383.3 s into the run): a TSC write, a vCPU "
        "moved, or a migration; last piece: offset of 4850 ticks (2108.7 ns): b's counter is ahead of a's; the band "
        "[4669, 5031] ticks excludes 0");
  v.tsc_hz = 0;  // no frequency: ticks only, no seconds
  v.proven_steps = {{4000, 16, std::numeric_limits<double>::quiet_NaN()}, {-2500, 29, 0}};
  v.unproven_changes = 1;
  v.transients = 1;
  v.transient_bounds = 3;
  v.unproven_negatives = 88;
  v.last_piece.reset();
  CHECK(verdict_text(v) ==
        "offset stepped 2 times: by 4000 ticks at interval 16, by -2500 ticks at interval 29: a TSC write, a vCPU "
        "moved, or a migration; the offset changed course 1 time within the bands: no single line fits, but the "
        "bands meet at the change (a drift change, or a step smaller than the bands); 3 bounds in 1 transient set "
        "aside (they contradict the line on both sides: early reads at k = 2 or brief excursions); 88 negative "
        "one-way latencies, none proven beyond the band (the log keeps counts, not rounds)");
  MonitorVerdict u;
  u.unsafe = unsafe(true);
  u.unsafe->no_band = true;
  u.unsafe->unresolved_pieces = true;
  u.unsafe->max_pieces = 16;
  u.transients = 2;
  u.transient_bounds = 5;
  u.k = 4;
  CHECK(verdict_text(u) ==
        "unsafe reads: causality violated under this variant (send rdtsc, recv other_tool_read): at least 12 forward "
        "and 3 reverse one-way latencies below every offset the rest of the run allows; no line fits the bounds even "
        "with k = 4 (they break into more than 16 pieces: too small all over, not a few steps); 5 bounds in 2 "
        "transients set aside (they contradict the line on both sides: early reads at k = 4 or brief excursions)");
}

TEST_CASE("verdict text: the kinds' names for scripts") {
  CHECK(verdict_kind_name(VerdictKind::unsafe_reads) == "unsafe_reads");
  CHECK(verdict_kind_name(VerdictKind::offset_stepped) == "offset_stepped");
  CHECK(verdict_kind_name(VerdictKind::changed_course) == "changed_course");
  CHECK(verdict_kind_name(VerdictKind::drifting) == "drifting");
  CHECK(verdict_kind_name(VerdictKind::synchronized) == "synchronized");
  CHECK(verdict_kind_name(VerdictKind::offset) == "offset");
}

TEST_CASE("verdict text: the check's failures and reason") {
  CheckResult c;
  c.settings.tolerance_ticks = 50;
  c.settings.drift_tolerance_ppb = 10;
  c.tsc_hz = 2.3e9;
  c.recv = recorded_variant(ReadVariant::lfence_rdtsc);
  auto failure = [](CheckFailureKind kind) {
    CheckFailure f;
    f.a = 1;
    f.b = 2;
    f.kind = kind;
    return f;
  };
  CheckFailure offset = failure(CheckFailureKind::offset);
  offset.offset_ticks = -900;
  offset.offset_lo_ticks = -1081;
  offset.offset_hi_ticks = -719;
  offset.gap_ticks = 669;
  CHECK(check_failure_text(offset, c) ==
        "pair 1->2: CPU 2 is behind CPU 1 by 900 ticks (391.3 ns); the band [-1081, -719] ticks misses +/-50 ticks by "
        "669 ticks");
  CheckFailure drift = failure(CheckFailureKind::drift);
  drift.drift_ppb = 2e5;
  drift.drift_lo_ppb = 1.9e5;
  drift.drift_hi_ppb = 2.1e5;
  CHECK(check_failure_text(drift, c) ==
        "pair 1->2: drifting by 200000 ppb; the drift band [190000, 210000] ppb misses +/-10 ppb");
  CheckFailure self = failure(CheckFailureKind::self_inconsistent);
  self.self_inconsistent = 3;
  CHECK(check_failure_text(self, c) ==
        "pair 1->2: 3 rounds impossible for any offset under receive variant lfence_rdtsc, which should order the "
        "read");
  CHECK(check_failure_text(failure(CheckFailureKind::no_band), c) ==
        "pair 1->2: no offset fits every round (causality violated under recv lfence_rdtsc): the offset cannot be "
        "bounded; use a receive variant that orders the read");
  CHECK(check_failure_text(failure(CheckFailureKind::roles_disagree), c) ==
        "pair 1->2: no one offset line fits the rounds of both roles (1 initiating, then 2): the offset moved "
        "between them, or a read ran early");
  CHECK(check_failure_kind_name(CheckFailureKind::roles_disagree) == "roles_disagree");
  CheckFailure bands = failure(CheckFailureKind::inconsistent_bands);
  bands.a = bands.b = -1;
  CHECK(check_failure_text(bands, c) ==
        "the pairs' offset bands contradict one another (a cycle of pairs admits no offsets): an offset moved "
        "between visits, or a band is wrong");
  CHECK(check_failure_kind_name(CheckFailureKind::inconsistent_bands) == "inconsistent_bands");
  CHECK(check_failure_kind_name(CheckFailureKind::no_band) == "no_band");

  c.failures = {failure(CheckFailureKind::drift), offset};
  c.shown = 1;
  c.failing_pairs = 1;
  c.pairs_checked = 6;
  c.bound_ticks = 181;
  CHECK(check_reason_text(c) == "not synchronized: " + check_failure_text(offset, c) +
                                    " (1 of 6 ordered pairs fail; those that pass are within \u00b178.7 ns (181 ticks))");
  // --details: the failures up to a number, then how many more and where every one is.
  CHECK(test::flattened(check_text(c, true, 1)) ==
        test::flattened(check_reason_text(c) + "\n  fail: " + check_failure_text(c.failures[0], c) +
                        "\n  1 more failure: every one is in matrix.txt of --out, and in --format json\n"));
  CHECK(test::flattened(check_text(c, true)) ==
        test::flattened(check_reason_text(c) + "\n  fail: " + check_failure_text(c.failures[0], c) + "\n  fail: " +
                        check_failure_text(c.failures[1], c) + "\n"));
  // A finding, when there is one, is the cause; the others are counted.
  Finding found;
  found.cpus = {2};
  found.against = {0, 1};
  found.against_rest = true;
  found.lo = 300;
  found.hi = 500;
  c.diagnosis.findings = {found, found};
  CHECK(check_reason_text(c) ==
        "not synchronized: CPU 2 is ahead of the rest (CPUs 0-1) by 300 to 500 ticks (130 to 217 ns); and 1 more "
        "finding (1 of 6 ordered pairs fail; those that pass are within \u00b178.7 ns (181 ticks))");
  c.diagnosis.findings.clear();
  c.outcome = CheckOutcome::synchronized;
  c.synchronized = true;
  c.failures.clear();
  c.shown.reset();
  c.cpus = 3;
  c.widest_band_ticks = 362;
  CHECK(check_reason_text(c) ==
        "synchronized to within \u00b178.7 ns (181 ticks): all 6 ordered pairs of 3 CPUs have offset bands that meet "
        "\u00b121.7 ns (50 ticks), no drift beyond 10 ppb, no self-inconsistent rounds");
  c.settings = CheckSettings{};
  c.recv = recorded_variant(ReadVariant::rdtsc);  // plain receive reads: self-inconsistent rounds are not checked
  c.tsc_hz = 0;
  CHECK(check_reason_text(c) ==
        "synchronized to within \u00b1181 ticks: all 6 ordered pairs of 3 CPUs have offset bands that contain 0, no "
        "detectable drift");
  c.outcome = CheckOutcome::inconclusive;
  c.synchronized = false;
  c.settings.max_bound_ticks = 100;
  CHECK(check_reason_text(c) ==
        "inconclusive: the offsets are proven only to within \u00b1181 ticks, wider than the maximum bound of 100 ticks; all 6 "
        "ordered pairs of 3 CPUs have offset bands that contain 0, no detectable drift");
  CHECK(check_outcome_name(CheckOutcome::inconclusive) == "inconclusive");
  CHECK(check_outcome_name(CheckOutcome::not_synchronized) == "not_synchronized");
  CHECK(bound_text(23, 2.3e9) == "\u00b110 ns (23 ticks)");
}

TEST_CASE("verdict text: the CPUs off from the rest, and a sparse design's pairs, in the check's reason") {
  CHECK(cpus_off_text({}).empty());
  CHECK(cpus_off_text({5}) == "CPU 5 is off from the rest");
  CHECK(cpus_off_text({5, 9}) == "CPUs 5 and 9 are off from the rest");
  CHECK(cpus_off_text({3, 5, 9}) == "CPUs 3, 5 and 9 are off from the rest");
  CHECK(cpus_off_text({0, 1, 2, 3, 4, 5, 6, 7}) == "CPUs 0, 1, 2, 3, 4, 5, 6 and 7 are off from the rest");
  CHECK(cpus_off_text({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) ==
        "CPUs 0, 1, 2, 3, 4, 5, 6, 7 and 2 more are off from the rest");

  CheckResult c;
  c.tsc_hz = 2.3e9;
  c.recv = recorded_variant(ReadVariant::lfence_rdtsc);
  c.cpus = 256;
  c.pairs_checked = 8800;
  c.sparse = true;
  c.synchronized = true;
  c.outcome = CheckOutcome::synchronized;
  c.widest_band_ticks = 362;
  c.bound_ticks = 181;
  CHECK(checked_pairs_text(c) == "the 8800 ordered pairs of a sparse design over 256 CPUs (of 65280)");
  CHECK(check_reason_text(c) ==
        "synchronized to within \u00b178.7 ns (181 ticks): the 8800 ordered pairs of a sparse design over 256 CPUs "
        "(of 65280) have offset bands that contain 0, no detectable drift, no self-inconsistent rounds");

  CheckFailure offset;
  offset.a = 0;
  offset.b = 5;
  offset.kind = CheckFailureKind::offset;
  offset.offset_ticks = 400;
  offset.offset_lo_ticks = 396;
  offset.offset_hi_ticks = 405;
  offset.gap_ticks = 396;
  c.synchronized = false;
  c.outcome = CheckOutcome::not_synchronized;
  c.failures = {offset};
  c.shown = 0;
  c.failing_pairs = 68;
  c.cpus_off = {5};
  CHECK(check_reason_text(c) ==
        "not synchronized: pair 0->5: CPU 5 is ahead of CPU 0 by 400 ticks (173.9 ns); the band [396, 405] ticks "
        "misses 0 by 396 ticks (68 of the 8800 ordered pairs of a sparse design fail; those that pass are within "
        "\u00b178.7 ns (181 ticks))");
  // The whole design: all its pairs, as before.
  c.sparse = false;
  c.cpus = 4;
  c.pairs_checked = 12;
  c.failing_pairs = 6;
  c.cpus_off = {5, 9};
  CHECK(check_reason_text(c) ==
        "not synchronized: pair 0->5: CPU 5 is ahead of CPU 0 by 400 ticks (173.9 ns); the band [396, 405] ticks "
        "misses 0 by 396 ticks (6 of 12 ordered pairs fail; those that pass are within \u00b178.7 ns (181 "
        "ticks))");
  CHECK(checked_pairs_text(c) == "all 12 ordered pairs of 4 CPUs");
  // check.json and `check --format json` carry them as numbers.
  const auto j = check_json(c);
  CHECK(j["cpus_off"] == nlohmann::ordered_json::array({5, 9}));
  CHECK(j["reason"] == check_reason_text(c));
  c.cpus_off.clear();
  CHECK(check_json(c)["cpus_off"] == nlohmann::ordered_json::array());
}

TEST_CASE("verdict text: why a reference band is missing") {
  ReferenceBand b;
  b.culprit = {ReadVariant::rdtsc, ReadVariant::rdtscp};
  b.problem = ReferenceBand::Problem::none;
  CHECK(reference_problem_text(b).empty());
  b.problem = ReferenceBand::Problem::not_measured;
  CHECK(reference_problem_text(b) == "no receive read that waits for earlier loads was measured");
  b.problem = ReferenceBand::Problem::no_feasible_band;
  CHECK(reference_problem_text(b) == "rdtsc/rdtscp has no feasible band");
  b.problem = ReferenceBand::Problem::drift;
  CHECK(reference_problem_text(b) == "rdtsc/rdtscp has detectable drift");
  b.problem = ReferenceBand::Problem::offset_step;
  CHECK(reference_problem_text(b) == "rdtsc/rdtscp has an offset step");
  b.problem = ReferenceBand::Problem::disjoint;
  CHECK(reference_problem_text(b) == "the ordering reads' bands do not overlap");
}

TEST_CASE("verdict text: the pairs that disagree with the matrix, in the matrix's text and JSON") {
  MatrixResult m;
  m.cpus = {0, 1};
  m.cells.assign(4, PairCell{});
  m.cpu.offset_ticks = {0, 0};
  m.cpu.lo_ticks = m.cpu.hi_ticks = {kNoValue, kNoValue};
  m.cpu.residual_ticks = m.cpu.antisymmetry_ticks = std::vector<double>(4, kNoValue);
  PairDisagreement off;
  off.a = 4;
  off.b = 6;
  off.predicted_ticks = 59.0 / 3;
  off.lo_ticks = 21;
  off.hi_ticks = 23;
  PairDisagreement roles;
  roles.a = 0;
  roles.b = 1;
  roles.kind = PairDisagreement::Kind::roles_disagree;
  roles.lo_ticks = 90;
  roles.hi_ticks = 110;
  roles.other_lo_ticks = 30;
  roles.other_hi_ticks = 50;
  m.cpu.disagreeing = {off, roles};
  const std::string off_text =
      "pair 4->6: the per-CPU offsets put x_b - x_a at 19.67 ticks, outside its band [21, 23] by more than the "
      "quantum";
  const std::string roles_text =
      "pairs 0->1 and 1->0 disagree: the first puts the offset in [90, 110], the second (sign flipped) in [30, 50]";
  const std::string text = test::unwrapped(matrix_text(m));  // whole lines, as before their wrapping
  CHECK(text.find("Pairs that disagree with the rest:\n  " + off_text + "\n  " + roles_text + "\n") !=
        std::string::npos);
  const auto j = matrix_json(m, nullptr);
  CHECK(j["consistency"]["disagreeing_pairs"][0]["why"] == off_text);
  CHECK(j["consistency"]["disagreeing_pairs"][1]["why"] == roles_text);
}
