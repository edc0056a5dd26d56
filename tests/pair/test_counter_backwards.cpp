// Rounds in which a counter runs backwards (t4 < t1, t3 < t2) are evidence: imported or
// simulated, they are kept, counted per side exactly, shown with the rounds around the
// worst one, and do not cost the band the truth.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "formats/run_format.hpp"
#include "pair/analyze.hpp"
#include "render/pair_output.hpp"
#include "render/verdict_text.hpp"
#include "simulate/simulate.hpp"
#include "simulation_fixture.hpp"

using namespace tscaudit;
using namespace tscaudit::test;

namespace {

/// The rounds of `run` as an import table: no schema, only t1..t4 and the metadata that
/// an import may carry.
std::string as_import(const Run& run) {
  std::string text =
      "# quantum_ticks: " + std::string(*run.header.get("quantum_ticks")) + "\n# tsc_hz: 2300000000\nt1,t2,t3,t4\n";
  for (const Round& r : run.rounds) {
    text += std::to_string(r.t1) + "," + std::to_string(r.t2) + "," + std::to_string(r.t3) + "," +
            std::to_string(r.t4) + "\n";
  }
  return text;
}

bool contains(const std::vector<std::uint8_t>& injected, const std::vector<std::uint64_t>& seqs) {
  return std::all_of(seqs.begin(), seqs.end(), [&](std::uint64_t s) { return injected.at(s) != 0; });
}

}  // namespace

TEST_CASE("counter_backwards: an import with rounds that run backwards is analyzed, each counted per side") {
  SimulationTruth truth;
  Run run = simulate(
      simulation_spec({.rounds = 100000, .seed = 1601, .offset_ticks = 2000, .drift_ppb = 0, .quantum_ticks = 1}),
      truth);
  REQUIRE(truth.backwards_a_count == 0);
  REQUIRE(truth.backwards_b_count == 0);
  // One round in 1000 gets a t4 728 ticks before its t1 (as in a table from another
  // tool); one in 1500 has t2 and t3 swapped, so b's counter runs backwards.
  std::uint64_t want_a = 0, want_b = 0;
  for (std::size_t i = 0; i < run.rounds.size(); ++i) {
    Round& r = run.rounds[i];
    if (i % 1000 == 500) {
      r.t4 = r.t1 - (i == 50500 ? 5000 : 728);  // round 50500 goes furthest back
      ++want_a;
    }
    if (i % 1500 == 7 && r.t3 > r.t2) {
      std::swap(r.t2, r.t3);
      ++want_b;
    }
  }
  const Run imported = parse_run(as_import(run), "rounds.csv");
  REQUIRE(imported.rounds.size() == run.rounds.size());
  const PairAnalysis p = analyze_run(imported, "rounds.csv");
  CHECK(p.counter_backwards_a == want_a);
  CHECK(p.counter_backwards_b == want_b);
  REQUIRE(p.worst_backwards_a.has_value());
  CHECK(p.worst_backwards_a->seq == 50500);
  CHECK(p.worst_backwards_a->value_ticks == -5000);
  CHECK(p.worst_backwards_a->beyond_band_ticks == Approx(5000).margin(0));
  CHECK(p.worst_backwards_a->around.size() == 7);
  REQUIRE(p.worst_backwards_b.has_value());
  CHECK(p.worst_backwards_b->value_ticks < 0);
  // Self-inconsistent for any offset: the verdict says so, with the counts.
  CHECK(p.verdict.kind == VerdictKind::unsafe_reads);
  CHECK(p.verdict.unsafe.counter_backwards_a == want_a);
  CHECK(p.verdict.unsafe.counter_backwards_b == want_b);
  // Every one-way latency still has its class, and the band still holds the truth.
  CHECK(p.fwd_classes.normal + p.fwd_classes.offset_explained + p.fwd_classes.marginal +
            p.fwd_classes.causality_violation ==
        p.rounds);
  CHECK(p.rev_classes.normal + p.rev_classes.offset_explained + p.rev_classes.marginal +
            p.rev_classes.causality_violation ==
        p.rounds);
  REQUIRE(p.fit.band.feasible);
  const double truth_at_ref = true_offset_ticks(truth, static_cast<double>(p.t_ref_tick));
  CHECK(p.fit.band.offset_lo_ticks <= truth_at_ref);
  CHECK(p.fit.band.offset_hi_ticks >= truth_at_ref);
  // Text and JSON show the counts and the evidence.
  const std::string text = analysis_text(p);
  CHECK_THAT(text, Catch::Contains("  backwards a " + std::to_string(want_a) + " rounds (t4 < t1), b " +
                                   std::to_string(want_b) + " rounds (t3 < t2)"));
  CHECK_THAT(text, Catch::Contains("  worst a backwards (t4 - t1): round 50500, -5000 ticks, 5000 ticks back"));
  CHECK_THAT(verdict_text(p.verdict), Catch::Contains("in which a counter ran backwards (a: " + std::to_string(want_a) +
                                                     ", b: " + std::to_string(want_b) + ")"));
  const nlohmann::ordered_json j = analysis_json({p});
  const auto& pair = j.at("pairs").at(0);
  CHECK(pair.at("counter_backwards").at("a") == want_a);
  CHECK(pair.at("counter_backwards").at("b") == want_b);
  CHECK(pair.at("worst").at("backwards_a").at("seq") == 50500);
  CHECK(pair.at("worst").at("backwards_a").at("rounds").size() == 7);
  CHECK(pair.at("worst").at("backwards_b").at("value_ticks") < 0);
}

TEST_CASE("counter_backwards: degenerate tables do not crash or poison the band") {
  SECTION("one round, a's counter backwards") {
    const PairAnalysis p = analyze_run(parse_run("t1,t2,t3,t4\n100,150,160,90\n", "in.csv"), "in.csv");
    CHECK(p.counter_backwards_a == 1);
    CHECK(p.counter_backwards_b == 0);
    CHECK(p.span_ticks == Approx(0).margin(0));  // not a wrap of 2^64
    CHECK(p.t_ref_tick == 100);
    CHECK(p.verdict.kind == VerdictKind::unsafe_reads);
  }
  SECTION("every round with rtt < 0") {
    std::string text = "t1,t2,t3,t4\n";
    for (std::uint64_t i = 0; i < 5000; ++i) {
      const std::uint64_t t1 = 1'000'000 + 1000 * i;
      text += std::to_string(t1) + "," + std::to_string(t1 + 200) + "," + std::to_string(t1 + 230) + "," +
              std::to_string(t1 - 10) + "\n";
    }
    const PairAnalysis p = analyze_run(parse_run(text, "in.csv"), "in.csv");
    CHECK(p.counter_backwards_a == 5000);
    CHECK(p.rtt_ticks.max() < 0);
    CHECK(p.verdict.kind == VerdictKind::unsafe_reads);
    CHECK_FALSE(analysis_text(p).empty());
  }
  SECTION("across a wrap of 2^64 the round is whole, a jump by almost 2^64 is backwards") {
    const PairAnalysis p = analyze_run(
        parse_run("t1,t2,t3,t4\n18446744073709551606,18446744073709551610,3,5\n5,6,7,18446744073709551615\n", "in.csv"),
        "in.csv");
    CHECK(p.counter_backwards_a == 1);
    CHECK(p.counter_backwards_b == 0);
  }
}

TEST_CASE("counter_backwards: early reads larger than the round trip, counted exactly as injected") {
  std::uint64_t seed = 1610;
  for (double rate : {0.001, 0.01}) {
    for (std::uint64_t q : {std::uint64_t{1}, std::uint64_t{26}}) {
      SimulationSpec spec = simulation_spec(
          {.rounds = 200000, .seed = ++seed, .offset_ticks = -150, .drift_ppb = 200, .quantum_ticks = q});
      // No delay tails: every delay lies far below the early reads (2000-5000 ticks), so
      // every early read is beyond the band and every early t4 precedes its round's t1.
      spec.fwd.tail_fraction = spec.rev.tail_fraction = 0;
      spec.spec_b = {rate, 2000, 5000};
      spec.spec_a = {rate, 2000, 5000};
      SimulationTruth truth;
      const Run run = simulate(spec, truth);
      const PairAnalysis p = analyze_run(run, "sim");
      INFO("rate " << rate << ", q " << q);
      REQUIRE(truth.early_t4_count > 0);
      CHECK(truth.backwards_a_count == truth.early_t4_count);  // every early t4 runs backwards
      CHECK(truth.backwards_b_count == 0);                     // an early t2 cannot put it after this round's t3
      // Every early read beyond the band is a causality violation, and only those.
      CHECK(p.fwd_classes.causality_violation == truth.early_t2_count);
      CHECK(p.rev_classes.causality_violation == truth.early_t4_count);
      CHECK(contains(truth.early_t2, p.fwd_violation_seqs));
      CHECK(contains(truth.early_t4, p.rev_violation_seqs));
      // Every round that breaks same-clock order counts under counter_backwards.
      CHECK(p.counter_backwards_a == truth.backwards_a_count);
      CHECK(p.counter_backwards_b == 0);
      REQUIRE(p.worst_backwards_a.has_value());
      CHECK(truth.early_t4.at(p.worst_backwards_a->seq) == 1);
      CHECK(p.verdict.kind == VerdictKind::unsafe_reads);
      // The estimate and the band still hold the truth.
      REQUIRE(p.fit.band.feasible);
      const double truth_at_ref = true_offset_ticks(truth, static_cast<double>(p.t_ref_tick));
      CHECK(p.fit.band.offset_lo_ticks <= truth_at_ref);
      CHECK(p.fit.band.offset_hi_ticks >= truth_at_ref);
      CHECK(std::fabs(p.fit.line.offset_ticks - truth_at_ref) <= static_cast<double>(q) / 2 + 1);
    }
  }
}

TEST_CASE("counter_backwards: b's counter stepped back between t2 and t3 of a round") {
  // A step of -100 ticks inside b's turnaround of some round: that round's t3 precedes
  // its t2. The band (about 390 ticks wide) cannot prove a step that small, so nothing
  // explains the round: it counts. The step falls where the model puts it; search seeds
  // for one inside a round.
  for (std::uint64_t seed = 1; seed < 400; ++seed) {
    SimulationSpec spec =
        simulation_spec({.rounds = 20000, .seed = seed, .offset_ticks = 0, .drift_ppb = 0, .quantum_ticks = 1});
    spec.steps = {{-100, 0.37}};
    SimulationTruth truth;
    const Run run = simulate(spec, truth);
    if (truth.backwards_b_count == 0) continue;
    INFO("seed " << seed);
    CHECK(truth.backwards_b_count == 1);
    CHECK(truth.backwards_a_count == 0);
    const PairAnalysis p = analyze_run(run, "sim");
    CHECK(p.steps.empty());
    CHECK(p.counter_backwards_b == 1);
    CHECK(p.counter_backwards_a == 0);
    REQUIRE(p.worst_backwards_b.has_value());
    CHECK(p.worst_backwards_b->value_ticks < 0);
    CHECK(p.verdict.kind == VerdictKind::unsafe_reads);

    // The same round with a jump of -900 ticks, which the bands prove: the round is the
    // step's, in flight at it, and counted in neither segment.
    spec.steps = {{-900, 0.37}};
    const Run stepped = simulate(spec, truth);
    REQUIRE(truth.backwards_b_count == 1);
    const PairAnalysis s = analyze_run(stepped, "sim");
    REQUIRE(s.steps.size() == 1);
    REQUIRE(s.steps[0].in_flight.has_value());
    CHECK(s.counter_backwards_b == 0);
    CHECK(s.verdict.kind == VerdictKind::offset_stepped);
    return;
  }
  FAIL("no seed below 400 put the step inside a turnaround");
}
