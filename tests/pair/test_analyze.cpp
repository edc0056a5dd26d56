// The analysis held to account on simulated runs with known truth.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>

#include "core/errors.hpp"
#include "formats/run_format.hpp"
#include "pair/analyze.hpp"
#include "render/pair_output.hpp"
#include "simulate/simulate.hpp"
#include "simulation_fixture.hpp"

using namespace tscaudit;
using namespace tscaudit::test;

namespace {

struct Outcome {
  PairAnalysis analysis;
  SimulationTruth truth;
  double true_offset = 0;  // at the analysis's reference time
};

Outcome run_scenario(const SimulationSpec& spec) {
  Outcome o;
  const Run run = simulate(spec, o.truth);
  o.analysis = analyze_run(run, "sim");
  o.true_offset = true_offset_ticks(o.truth, static_cast<double>(o.analysis.t_ref_tick));
  return o;
}

/// Documented accuracy of the point estimate (docs/method.md §3.6): within half a quantum
/// plus one tick of the truth, once the delay asymmetry is taken out: two-way timing
/// cannot see half the difference of the two delay floors, so it shows as offset.
double estimate_limit(std::uint64_t q) { return static_cast<double>(q) / 2 + 1; }

bool contains(const std::vector<std::uint8_t>& injected, const std::vector<std::uint64_t>& seqs) {
  return std::all_of(seqs.begin(), seqs.end(), [&](std::uint64_t s) { return injected.at(s) != 0; });
}

}  // namespace

TEST_CASE("clean runs: the band holds the truth, the estimate is close, no alarm", "[slow]") {
  std::uint64_t scenario = 0;
  for (int offset_case : {0, 1, 2}) {
    for (int drift_case : {0, 1, 2}) {
      const double offset = std::array{-150.0, 0.0, 3000.0}[static_cast<std::size_t>(offset_case)];
      const double drift_ppb = std::array{0.0, -2000.0, 20000.0}[static_cast<std::size_t>(drift_case)];
      for (std::uint64_t q : {std::uint64_t{1}, std::uint64_t{26}}) {
        for (bool asymmetric : {false, true}) {
          SimulationSpec spec = simulation_spec({.rounds = 100000,
                                                 .seed = ++scenario,
                                                 .offset_ticks = offset,
                                                 .drift_ppb = drift_ppb,
                                                 .quantum_ticks = q});
          spec.fwd.tail_fraction = spec.rev.tail_fraction = scenario % 2 ? 0.01 : 0.05;  // heavy tails
          if (asymmetric) spec.rev.base_ticks = 260;
          const Outcome o = run_scenario(spec);
          const PairAnalysis& p = o.analysis;
          const double bias = (spec.fwd.base_ticks - spec.rev.base_ticks) / 2;
          INFO("offset " << offset << " drift " << drift_ppb << " q " << q << " asymmetric " << asymmetric);
          REQUIRE(p.fit.band.feasible);
          CHECK(p.fit.band.offset_lo_ticks <= o.true_offset);
          CHECK(p.fit.band.offset_hi_ticks >= o.true_offset);
          CHECK(p.free_fit.band.drift_lo * 1e9 <= drift_ppb + 1e-6);
          CHECK(p.free_fit.band.drift_hi * 1e9 >= drift_ppb - 1e-6);
          CHECK(std::fabs(p.fit.line.offset_ticks - o.true_offset - bias) <= estimate_limit(q));
          CHECK(p.fwd_classes.causality_violation == 0);
          CHECK(p.rev_classes.causality_violation == 0);
          CHECK(p.self_inconsistent == 0);
          CHECK_FALSE(p.blocks.step.has_value());
          CHECK(p.verdict.kind != VerdictKind::unsafe_reads);
          CHECK(p.quantum_ticks == static_cast<std::int64_t>(q));
          if (drift_case == 2) {  // 20 ppm over ~5e7 ticks: detectable (2 ppm is not)
            CHECK_FALSE(p.zero_drift);
            // Documented: within the drift resolution 2 (q + 1) / span.
            const double resolution_ppb = 2.0 * static_cast<double>(q + 1) / p.span_ticks * 1e9;
            CHECK(std::fabs(p.fit.line.drift * 1e9 - drift_ppb) <= resolution_ppb);
            CHECK(p.verdict.kind == VerdictKind::drifting);
          }
          if (offset_case == 2 && drift_case == 0) {
            // Nearly every reverse latency is negative (a heavy-tailed delay can exceed 3000
            // ticks), and every negative one is explained by the offset.
            CHECK(p.rev_ticks.negative_count() >= spec.rounds * 99 / 100);
            CHECK(p.rev_classes.offset_explained == p.rev_ticks.negative_count());
            CHECK(p.verdict.kind == VerdictKind::offset);
            CHECK(p.verdict.negatives.explained >= p.rev_ticks.negative_count());
          }
        }
      }
    }
  }
}

TEST_CASE("early reads are flagged exactly where they were injected") {
  for (int sides : {1, 2}) {
    SimulationSpec spec = simulation_spec({.rounds = 200000,
                                           .seed = sides == 1 ? 78U : 79U,
                                           .offset_ticks = -150,
                                           .drift_ppb = 200,
                                           .quantum_ticks = 26});
    // An early read is provable only when it is earlier than the round trip's floor. A
    // long gap and turnaround keep reads 700-1000 ticks early inside the round (no counter
    // runs backwards here: test_counter_backwards.cpp has those), and every delay (no
    // tails) is far below them.
    spec.fwd.tail_fraction = spec.rev.tail_fraction = 0;
    spec.gap_ticks = 2000;
    spec.turnaround_base_ticks = 500;
    spec.spec_b = {0.002, 800, 1000};
    if (sides == 2) spec.spec_a = {0.001, 700, 800};
    const Outcome o = run_scenario(spec);
    const PairAnalysis& p = o.analysis;
    INFO("early reads on " << sides << " side(s)");
    // No false positives: every violation is an injected early read ...
    CHECK(contains(o.truth.early_t2, p.fwd_violation_seqs));
    CHECK(contains(o.truth.early_t4, p.rev_violation_seqs));
    // ... and every injected one (800+ ticks early against delays of ~180-400) is found.
    CHECK(p.fwd_classes.causality_violation == o.truth.early_t2_count);
    CHECK(p.rev_classes.causality_violation == o.truth.early_t4_count);
    CHECK(p.verdict.kind == VerdictKind::unsafe_reads);
    // The robust envelopes keep the estimate: k > 1 sets the early reads aside.
    CHECK(p.k > 1);
    REQUIRE(p.fit.band.feasible);
    CHECK(p.fit.band.offset_lo_ticks <= o.true_offset);
    CHECK(p.fit.band.offset_hi_ticks >= o.true_offset);
    CHECK(std::fabs(p.fit.line.offset_ticks - o.true_offset) <= estimate_limit(26));
    REQUIRE(p.worst_fwd.has_value());
    CHECK(o.truth.early_t2.at(p.worst_fwd->seq) == 1);
    CHECK(p.worst_fwd->around.size() == 7);
  }
}

TEST_CASE("a long run with early reads in every bin: the sweep does not stop on them", "[slow]") {
  // 2 M rounds at the early-read rate of the AMD machines (0.1 %): with 128 fixed bins
  // each would hold ~16 early reads, and k = 1 and 2 would agree on a contaminated floor.
  SimulationSpec spec =
      simulation_spec({.rounds = 2000000, .seed = 4242, .offset_ticks = -150, .drift_ppb = 200, .quantum_ticks = 26});
  spec.spec_b = {0.001, 200, 400};
  const Outcome o = run_scenario(spec);
  const PairAnalysis& p = o.analysis;
  REQUIRE(p.fit.band.feasible);
  CHECK(p.fit.band.offset_lo_ticks <= o.true_offset);
  CHECK(p.fit.band.offset_hi_ticks >= o.true_offset);
  CHECK(std::fabs(p.fit.line.offset_ticks - o.true_offset) <= estimate_limit(26));
  CHECK(p.k > 1);
  CHECK(contains(o.truth.early_t2, p.fwd_violation_seqs));  // no false positives
  CHECK(p.fwd_classes.causality_violation > 0);
  CHECK(p.verdict.kind == VerdictKind::unsafe_reads);
}

TEST_CASE("an offset that steps during the run is found and each segment analyzed alone") {
  for (double step : {500.0, -700.0}) {
    SimulationSpec spec;
    spec.rounds = 200000;
    spec.seed = step > 0 ? 31 : 32;
    spec.offset_ticks = 100;
    spec.quantum_ticks = 26;
    spec.steps = {{step, 0.3}};
    const Outcome o = run_scenario(spec);
    const PairAnalysis& p = o.analysis;
    INFO("step " << step);
    CHECK_FALSE(p.fit.band.feasible);  // no line fits the whole run
    REQUIRE(p.pieces.has_value());
    REQUIRE(p.steps.size() == 1);  // 500 ticks against bands ~390 wide: disjoint
    CHECK(std::fabs(p.steps[0].size_ticks - step) <= 3 * 26 + 2);
    CHECK(p.steps[0].size_lo_ticks <= step);
    CHECK(p.steps[0].size_hi_ticks >= step);
    REQUIRE(p.segments.size() == 2);
    CHECK(p.verdict.kind == VerdictKind::offset_stepped);
    REQUIRE(p.verdict.steps.size() == 1);
    CHECK(p.verdict.steps[0].size_ticks == Approx(p.steps[0].size_ticks).margin(0));
    CHECK(p.verdict.steps[0].round == p.steps[0].first_round_after);
    REQUIRE(p.verdict.segments.size() == 2);
    CHECK(p.verdict.segments[0].kind == p.segments[0].verdict.kind);
    // Each segment's band holds its own truth, and its estimate is close.
    for (const PairAnalysis& s : p.segments) {
      const double truth = true_offset_ticks(o.truth, static_cast<double>(s.t_ref_tick));
      REQUIRE(s.fit.band.feasible);
      CHECK(s.fit.band.offset_lo_ticks <= truth);
      CHECK(s.fit.band.offset_hi_ticks >= truth);
      CHECK(std::fabs(s.fit.line.offset_ticks - truth) <= estimate_limit(26));
      CHECK(s.fwd_classes.causality_violation + s.rev_classes.causality_violation == 0);
    }
    CHECK(p.fwd_classes.causality_violation + p.rev_classes.causality_violation == 0);
    CHECK(p.self_inconsistent == 0);
  }
}

TEST_CASE("a step smaller than the band is reported as unproven, and the run is not split") {
  SimulationSpec spec;
  spec.rounds = 200000;
  spec.seed = 33;
  spec.quantum_ticks = 1;
  spec.steps = {{100, 0.5}};  // the band is ~360 ticks wide: a constant offset still fits both halves
  const Outcome o = run_scenario(spec);
  const PairAnalysis& p = o.analysis;
  CHECK(p.steps.empty());
  CHECK(p.segments.empty());
  CHECK(p.verdict.kind != VerdictKind::offset_stepped);
}

TEST_CASE("clean runs raise no step") {
  for (std::uint64_t seed : {std::uint64_t{5}, std::uint64_t{6}, std::uint64_t{7}}) {
    SimulationSpec spec;
    spec.rounds = 100000;
    spec.seed = seed;
    spec.drift_ppb = 20000;
    spec.quantum_ticks = 26;
    const Outcome o = run_scenario(spec);
    CHECK_FALSE(o.analysis.blocks.step.has_value());
    CHECK(o.analysis.segments.empty());
  }
}

TEST_CASE("the quantum is inferred from the rounds when the metadata lacks it") {
  for (std::uint64_t q : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{26}}) {
    SimulationSpec spec;
    spec.rounds = 50000;
    spec.quantum_ticks = q;
    spec.include_quantum_metadata = false;
    const Outcome o = run_scenario(spec);
    INFO("q " << q);
    CHECK(o.analysis.quantum_ticks == static_cast<std::int64_t>(q));
    CHECK(o.analysis.quantum_source == "inferred");
  }
}

TEST_CASE("the analysis of a saved file equals the analysis in-process") {
  SimulationSpec spec;
  spec.rounds = 20000;
  spec.spec_b = {0.01, 400, 600};
  SimulationTruth truth;
  const Run run = simulate(spec, truth);
  std::string text;
  write_run(run, [&](std::string_view s) { text += s; });
  const std::vector<PairAnalysis> direct = {analyze_run(run, "x")};
  const std::vector<PairAnalysis> saved = {analyze_run(parse_run(text, "x"), "x")};
  CHECK(analysis_json(direct).dump() == analysis_json(saved).dump());
  CHECK(analysis_text(direct[0]) == analysis_text(saved[0]));
  CHECK(analysis_csv(direct) == analysis_csv(saved));
}

TEST_CASE("analysis.json written pair by pair is the whole document's bytes") {
  std::vector<PairAnalysis> pairs;
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    SimulationSpec spec;
    spec.rounds = 3000;
    spec.seed = seed;
    spec.spec_b = {0.01, 400, 600};  // early reads: evidence lists in the JSON
    SimulationTruth truth;
    pairs.push_back(analyze_run(simulate(spec, truth), "pair " + std::to_string(seed)));
  }
  for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
    INFO(count << " pairs");
    const std::vector<PairAnalysis> some(pairs.begin(), pairs.begin() + static_cast<std::ptrdiff_t>(count));
    std::string streamed;
    AnalysisJsonStream stream([&](std::string_view text) { streamed += text; });
    for (const PairAnalysis& p : some) stream.add(p);
    stream.finish();
    CHECK(streamed == analysis_json(some).dump(2) + "\n");
  }
}

TEST_CASE("an imported file may name read variants this tool does not know") {
  SimulationSpec spec;
  spec.rounds = 5000;
  SimulationTruth truth;
  Run run = simulate(spec, truth);
  run.header.set("send", "other_tool_read");  // another tool's data; the simulator's recv is "simulated"
  const PairAnalysis p = analyze_run(run, "imported.csv");
  CHECK(p.send.name == "other_tool_read");
  CHECK_FALSE(p.send.variant.has_value());
  CHECK(p.recv.name == "simulated");
  CHECK_FALSE(p.recv.variant.has_value());
  const auto j = analysis_json({p});
  CHECK(j["pairs"][0]["send"] == "other_tool_read");
  CHECK(j["pairs"][0]["recv"] == "simulated");
  CHECK(analysis_text(p).find("send other_tool_read, recv simulated") != std::string::npos);
}

TEST_CASE("the JSON carries the contract's keys") {
  SimulationSpec spec;
  spec.rounds = 5000;
  SimulationTruth truth;
  const auto j = analysis_json({analyze_run(simulate(spec, truth), "s.csv")});
  CHECK(j["schema"] == "tscaudit-analysis/1");
  const auto& p = j["pairs"][0];
  for (const char* key : {"a", "b", "send", "recv", "rounds", "quantum_ticks", "offset_ticks", "drift_ppb", "fwd_ticks",
                          "rev_ticks", "rtt_ticks", "classes", "self_inconsistent", "verdict"}) {
    INFO(key);
    CHECK(p.contains(key));
  }
  // The verdict in words, and its kind for scripts.
  CHECK(p["verdict"].is_string());
  CHECK(p["verdict_kind"] == "synchronized");
  for (const char* key : {"estimate", "lo", "hi"}) CHECK(p["offset_ticks"].contains(key));
  for (const char* key : {"min", "p50", "p99", "p99.9", "max"}) CHECK(p["rtt_ticks"].contains(key));
  for (const char* key : {"normal", "offset_explained", "marginal", "causality_violation"}) {
    CHECK(p["classes"]["fwd"].contains(key));
    CHECK(p["classes"]["rev"].contains(key));
  }
  CHECK(p["rounds"] == 5000);
}

TEST_CASE("the longest rounds are listed longest first, exactly") {
  Run run;
  for (std::uint64_t i = 0; i < 100; ++i) {
    const std::uint64_t t1 = 1000 * i, rtt = (i * 37) % 101;  // a permutation of 0..99 shifted
    run.rounds.push_back(Round{i, t1, t1 + 10, t1 + 10, t1 + 10 + rtt, 0});
  }
  const PairAnalysis p = analyze_run(run, "r");
  REQUIRE(p.longest_rounds.size() == kLongestRounds);
  std::vector<std::pair<std::uint64_t, std::int64_t>> expected;
  for (const Round& r : run.rounds) expected.emplace_back(r.seq, rtt_ticks(r));
  std::sort(expected.begin(), expected.end(), [](const auto& x, const auto& y) { return x.second > y.second; });
  expected.resize(kLongestRounds);
  CHECK(p.longest_rounds == expected);
}

TEST_CASE("an empty run is an input error") {
  Run run;
  CHECK_THROWS_AS(analyze_run(run, "e.csv"), InputError);
}
