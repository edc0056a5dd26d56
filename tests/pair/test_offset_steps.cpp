// Runs whose offset steps several times (docs/method.md §6.4), held to simulated truth: every
// step found, located and sized, each segment's band holding its own truth, and no step
// taken for an early read.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/format.hpp"
#include "pair/analyze.hpp"
#include "render/pair_output.hpp"
#include "render/verdict_text.hpp"
#include "simulate/simulate.hpp"
#include "simulation_fixture.hpp"

using namespace tscaudit;
using namespace tscaudit::test;

namespace {

/// The first round whose t1 is at or after a's true tick `tick`: the first round of the
/// segment after a step there (or the round after one in flight at it).
std::uint64_t first_round_at(const Run& run, std::uint64_t tick) {
  const auto it = std::find_if(run.rounds.begin(), run.rounds.end(), [&](const Round& r) { return r.t1 >= tick; });
  return it == run.rounds.end() ? run.rounds.size() : it->seq;
}

/// The analysis against the truth of a run whose offset stepped: as many steps, each at its
/// round (to one round: the one in flight may go either way) or inside the stretch of
/// rounds the analysis names, sized within the bands, each segment holding its truth, no
/// early read claimed and no round impossible. \pre the truth's steps are provable: larger
/// than the bands and at least three time bins apart and from the ends.
void check_steps(const Run& run, const SimulationTruth& truth, const PairAnalysis& p) {
  INFO("verdict: " << verdict_text(p.verdict));
  const auto q = static_cast<double>(truth.quantum_ticks);
  REQUIRE(p.steps.size() == truth.steps.size());
  REQUIRE(p.segments.size() == truth.steps.size() + 1);
  for (std::size_t j = 0; j < truth.steps.size(); ++j) {
    const OffsetStep& found = p.steps[j];
    const TrueStep& real = truth.steps[j];
    INFO("step " << j + 1 << " of " << real.ticks << " ticks at round " << first_round_at(run, real.tick));
    const std::uint64_t at = first_round_at(run, real.tick);
    const bool located = found.first_round_after + 1 >= at && found.first_round_after <= at + 1;
    CHECK((located || (found.first_round_lo <= at && at <= found.first_round_hi + 1)));
    CHECK(found.first_round_lo <= found.first_round_after);
    CHECK(found.first_round_after <= found.first_round_hi);
    // The size: drift moves each line by at most a fraction of a tick across a step.
    CHECK(found.size_lo_ticks <= real.ticks + q);
    CHECK(found.size_hi_ticks >= real.ticks - q);
    CHECK(std::fabs(found.size_ticks - real.ticks) <= 3 * q + 2);
    REQUIRE(p.verdict.steps.size() == truth.steps.size());
    CHECK(p.verdict.steps[j].round == found.first_round_after);
  }
  for (std::size_t s = 0; s < p.segments.size(); ++s) {
    const PairAnalysis& segment = p.segments[s];
    INFO("segment " << s + 1);
    const double truth_at_ref = true_offset_ticks(truth, static_cast<double>(segment.t_ref_tick));
    REQUIRE(segment.fit.band.feasible);
    CHECK(segment.fit.band.offset_lo_ticks <= truth_at_ref);
    CHECK(segment.fit.band.offset_hi_ticks >= truth_at_ref);
    CHECK(segment.steps.empty());
  }
  CHECK(p.fwd_classes.causality_violation + p.rev_classes.causality_violation == 0);
  CHECK(p.self_inconsistent == 0);
  CHECK(p.counter_backwards_a + p.counter_backwards_b == 0);
  CHECK(p.verdict.kind == VerdictKind::offset_stepped);
}

/// `count` step fractions in [0.02, 0.98], at least 0.06 apart, and sizes of 700 to 3000
/// ticks either way.
std::vector<SimulatedStep> random_steps(std::mt19937_64& rng, std::size_t count) {
  std::uniform_real_distribution<double> where(0.02, 0.98), size(700, 3000);
  std::vector<SimulatedStep> steps;
  while (steps.size() < count) {
    const double at = where(rng);
    const bool apart = std::all_of(steps.begin(), steps.end(),
                                   [&](const SimulatedStep& s) { return std::fabs(s.at_fraction - at) >= 0.06; });
    if (apart) steps.push_back({(rng() % 2 ? 1 : -1) * size(rng), at});
  }
  return steps;
}

}  // namespace

TEST_CASE("offset steps: +700 at 30 % and -900 at 70 % of a run are two steps, not early reads") {
  SimulationSpec spec =
      simulation_spec({.rounds = 400000, .seed = 5, .offset_ticks = 100, .drift_ppb = 0, .quantum_ticks = 26});
  spec.steps = {{700, 0.3}, {-900, 0.7}};
  SimulationTruth truth;
  const Run run = simulate(spec, truth);
  const PairAnalysis p = analyze_run(run, "two-steps.csv");
  CHECK_FALSE(p.fit.band.feasible);  // no one line: the whole run is the wrong model
  check_steps(run, truth, p);
  // The middle segment: 800 ticks ahead, and its negative reverse latencies all explained.
  CHECK(p.segments[1].verdict.kind == VerdictKind::offset);
  CHECK(p.segments[1].rev_classes.offset_explained > 0);
  const std::string text = analysis_text(p);
  CHECK_THAT(text, Catch::Matchers::Contains("offset stepped 2 times: by "));
  CHECK_THAT(text, Catch::Matchers::Contains("step 2    by "));
  CHECK_THAT(text, Catch::Matchers::Contains("segment 3: synchronized within the band"));
}

TEST_CASE("offset steps: 0 to 3 steps at random places, the ends included, with and without drift", "[slow]") {
  std::mt19937_64 rng(20261126);
  std::uint64_t seed = 100;
  for (std::uint64_t q : {std::uint64_t{1}, std::uint64_t{26}}) {
    for (double drift_ppb : {0.0, 20000.0}) {
      for (std::size_t count = 0; count <= 3; ++count) {
        for (int repeat = 0; repeat < 2; ++repeat) {
          SimulationSpec spec = simulation_spec(
              {.rounds = 200000, .seed = ++seed, .offset_ticks = -300, .drift_ppb = drift_ppb, .quantum_ticks = q});
          spec.steps = random_steps(rng, count);
          // The ends: a step in the first and in the last 1/16 of the run (the first and last
          // statistical block), in the second round of each case with steps.
          if (repeat == 1 && count >= 2) {
            spec.steps[0].at_fraction = 0.03;
            spec.steps[1].at_fraction = 0.97;
          }
          SimulationTruth truth;
          const Run run = simulate(spec, truth);
          const PairAnalysis p = analyze_run(run, "sim");
          INFO("q " << q << ", drift " << drift_ppb << " ppb, " << count << " steps, seed " << seed);
          std::string given;  // as simulate --steps takes them, to replay a failure
          for (const SimulatedStep& s : spec.steps) {
            given += (given.empty() ? "" : ",") + format_sig(s.ticks, 17) + "@" + format_sig(s.at_fraction, 17);
          }
          INFO("simulate --steps " << given);
          if (count == 0) {
            CHECK(p.fit.band.feasible);
            CHECK_FALSE(p.pieces.has_value());
            CHECK(p.steps.empty());
            CHECK(p.verdict.kind != VerdictKind::unsafe_reads);
            CHECK(p.verdict.kind != VerdictKind::offset_stepped);
            continue;
          }
          check_steps(run, truth, p);
        }
      }
    }
  }
}

TEST_CASE("offset steps just wider than the band are proven, with a drift of -5 ppm") {
  // Steps of 430 and 450 ticks against bands about 360 wide (q = 1, delay floors of 180):
  // the sides' own bands, tight where they rest on every round, prove them. (Located
  // against the pieces' bands alone, the first split lay 3000 rounds early.)
  SimulationSpec spec =
      simulation_spec({.rounds = 200000, .seed = 979960, .offset_ticks = -300, .drift_ppb = -5000, .quantum_ticks = 1});
  spec.steps = {{-430.155, 0.57591}, {-449.888, 0.75672}};
  SimulationTruth truth;
  const Run run = simulate(spec, truth);
  const PairAnalysis p = analyze_run(run, "small-steps.csv");
  CHECK_FALSE(p.fit.band.feasible);
  check_steps(run, truth, p);
}

TEST_CASE("a burst of early reads is not a step of the offset") {
  // 10 % of the t2 reads 300 to 400 ticks early for 8000 rounds, none elsewhere: the forward
  // floor drops there and the reverse one stays. No step is claimed, and the early reads
  // beyond the band are violations.
  SimulationSpec spec =
      simulation_spec({.rounds = 100000, .seed = 3, .offset_ticks = 0, .drift_ppb = 0, .quantum_ticks = 1});
  SimulationTruth truth;
  Run run = simulate(spec, truth);
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<std::uint8_t> early(run.rounds.size(), 0);
  for (std::size_t i = 40000; i < 48000; ++i) {
    if (u(rng) >= 0.1) continue;
    run.rounds[i].t2 -= 300 + static_cast<std::uint64_t>(100 * u(rng));
    early[i] = 1;
  }
  const PairAnalysis p = analyze_run(run, "burst");
  INFO("verdict: " << verdict_text(p.verdict));
  CHECK(p.steps.empty());
  CHECK(p.fwd_classes.causality_violation > 0);
  for (std::uint64_t seq : p.fwd_violation_seqs) CHECK(early.at(seq) == 1);
  CHECK(p.rev_classes.causality_violation == 0);
  CHECK(p.verdict.kind == VerdictKind::unsafe_reads);
}

TEST_CASE("offset steps with early reads: the steps are found and every violation is an injected read") {
  for (std::uint64_t q : {std::uint64_t{1}, std::uint64_t{26}}) {
    SimulationSpec spec =
        simulation_spec({.rounds = 200000, .seed = 41, .offset_ticks = 50, .drift_ppb = 0, .quantum_ticks = q});
    spec.steps = {{-1200, 0.25}, {900, 0.6}};
    spec.spec_b = {0.001, 800, 1000};  // early t2 reads, beyond the band
    SimulationTruth truth;
    const Run run = simulate(spec, truth);
    const PairAnalysis p = analyze_run(run, "sim");
    INFO("q " << q);
    REQUIRE(p.steps.size() == 2);
    REQUIRE(p.pieces.has_value());
    CHECK(p.pieces->k > 1);  // the early reads are stepped over
    for (std::size_t j = 0; j < 2; ++j) {
      CHECK(std::fabs(p.steps[j].size_ticks - truth.steps[j].ticks) <= 3 * static_cast<double>(q) + 2);
    }
    // Every violation is an injected early read, and the early reads beyond every band are
    // all found: the counts add up over the segments.
    for (std::uint64_t seq : p.fwd_violation_seqs) CHECK(truth.early_t2.at(seq) == 1);
    CHECK(p.fwd_classes.causality_violation > 0);
    CHECK(p.fwd_classes.causality_violation <= truth.early_t2_count);
    CHECK(p.rev_classes.causality_violation == 0);
    CHECK(p.verdict.kind == VerdictKind::unsafe_reads);  // they are early reads all the same
  }
}

TEST_CASE("offset steps: a round in flight at a step is in neither segment", "[slow]") {
  // An up step inside b's turnaround makes its round's rtt negative (impossible for any one
  // offset), a down step makes b's span t3 - t2 negative. Search seeds for such a round.
  for (double size : {1500.0, -1500.0}) {
    bool seen = false;
    for (std::uint64_t seed = 1; seed < 400 && !seen; ++seed) {
      SimulationSpec spec =
          simulation_spec({.rounds = 40000, .seed = seed, .offset_ticks = 0, .drift_ppb = 0, .quantum_ticks = 1});
      spec.steps = {{size, 0.41}};
      SimulationTruth truth;
      const Run run = simulate(spec, truth);
      const bool in_turnaround = std::any_of(run.rounds.begin(), run.rounds.end(), [](const Round& r) {
        return rtt_ticks(r) < -2 || diff_ticks(r.t3, r.t2) < 0;
      });
      if (!in_turnaround) continue;
      seen = true;
      INFO("step " << size << ", seed " << seed);
      const PairAnalysis p = analyze_run(run, "sim");
      REQUIRE(p.steps.size() == 1);
      REQUIRE(p.steps[0].in_flight.has_value());
      const Round* flight = nullptr;
      for (const Round& r : p.steps[0].in_flight->around) {
        if (r.seq == p.steps[0].in_flight->seq) flight = &r;
      }
      REQUIRE(flight != nullptr);
      CHECK((rtt_ticks(*flight) < -2 || diff_ticks(flight->t3, flight->t2) < 0));
      CHECK(p.steps[0].in_flight->seq + 1 == p.steps[0].first_round_after);
      // The segments leave it out, and nothing is impossible or early.
      CHECK(p.segments[0].rounds + p.segments[1].rounds + 1 == run.rounds.size());
      check_steps(run, truth, p);
      CHECK_THAT(analysis_text(p), Catch::Matchers::Contains(
                                       "was in flight (rtt " + std::to_string(rtt_ticks(*flight)) + " ticks)"));
    }
    CHECK(seen);
  }
}

TEST_CASE("offset steps: a jump of a's counter inside a round is located to that round") {
  // a's counter goes back by 1500 ticks between t1 and t4 of round m: every later read of a
  // is 1500 lower, so theta = TSC_b - TSC_a rises by 1500, and round m's own t4 comes
  // before its t1 (impossible for any offset; possible once the jump is taken out).
  SimulationSpec spec =
      simulation_spec({.rounds = 60000, .seed = 77, .offset_ticks = 0, .drift_ppb = 0, .quantum_ticks = 1});
  SimulationTruth truth;
  Run run = simulate(spec, truth);
  const std::size_t m = 21000;
  run.rounds[m].t4 -= 1500;
  for (std::size_t i = m + 1; i < run.rounds.size(); ++i) {
    run.rounds[i].t1 -= 1500;
    run.rounds[i].t4 -= 1500;
  }
  REQUIRE(diff_ticks(run.rounds[m].t4, run.rounds[m].t1) < 0);
  const PairAnalysis p = analyze_run(run, "a-jumped");
  REQUIRE(p.steps.size() == 1);
  const OffsetStep& step = p.steps[0];
  CHECK(step.first_round_after == m + 1);
  CHECK(step.first_round_lo == m + 1);
  CHECK(step.first_round_hi == m + 1);
  REQUIRE(step.in_flight.has_value());
  CHECK(step.in_flight->seq == m);
  CHECK(std::fabs(step.size_ticks - 1500) <= 5);
  CHECK(p.counter_backwards_a == 0);  // the round in flight is in neither segment
  CHECK(p.self_inconsistent == 0);
  CHECK(p.verdict.kind == VerdictKind::offset_stepped);

  // The same round with no jump after it (a lone early t4, 1500 ticks early): no step, and
  // the round counts as a counter that ran backwards.
  for (std::size_t i = m + 1; i < run.rounds.size(); ++i) {
    run.rounds[i].t1 += 1500;
    run.rounds[i].t4 += 1500;
  }
  const PairAnalysis lone = analyze_run(run, "early-t4");
  CHECK(lone.steps.empty());
  CHECK(lone.counter_backwards_a == 1);
  CHECK(lone.verdict.kind == VerdictKind::unsafe_reads);
}
