#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/errors.hpp"
#include "error_messages.hpp"
#include "formats/run_format.hpp"
#include "run_text.hpp"
#include "simulate/simulate.hpp"
#include "simulation_fixture.hpp"

using namespace tscaudit;
using namespace tscaudit::test;

namespace {

std::string error_of(const SimulationSpec& spec) {
  return what_thrown<UsageError>([&] {
    SimulationTruth truth;
    simulate(spec, truth);
  });
}

/// The worst (smallest) slack of the causality bounds against the true line, and the
/// smallest offset-corrected one-way latencies, over rounds not near a step.
struct Causality {
  double fwd_slack = std::numeric_limits<double>::infinity();  // min of fwd + q - theta(t1)
  double rev_slack = std::numeric_limits<double>::infinity();  // min of rev + q + theta(t4)
  double fwd_floor = std::numeric_limits<double>::infinity();  // min of fwd - theta(t1)
  double rev_floor = std::numeric_limits<double>::infinity();  // min of rev + theta(t4)
  std::size_t skipped = 0;                                     // rounds that straddle the step
};

Causality causality(const Run& run, const SimulationTruth& truth) {
  Causality c;
  const auto q = static_cast<double>(truth.quantum_ticks);
  for (const Round& r : run.rounds) {
    const auto t1 = static_cast<double>(r.t1);
    const auto t4 = static_cast<double>(r.t4);
    const bool straddles = std::any_of(truth.steps.begin(), truth.steps.end(), [&](const TrueStep& step) {
      const auto at_step = static_cast<double>(step.tick);
      return at_step >= t1 - q && at_step <= t4 + q;
    });
    if (straddles) {
      ++c.skipped;  // the offset jumps inside this round: neither side of the line applies
      continue;
    }
    const auto fwd = static_cast<double>(fwd_ticks(r));
    const auto rev = static_cast<double>(rev_ticks(r));
    const double theta1 = true_offset_ticks(truth, t1);
    const double theta4 = true_offset_ticks(truth, t4);
    c.fwd_slack = std::min(c.fwd_slack, fwd + q - theta1);
    c.rev_slack = std::min(c.rev_slack, rev + q + theta4);
    c.fwd_floor = std::min(c.fwd_floor, fwd - theta1);
    c.rev_floor = std::min(c.rev_floor, rev + theta4);
  }
  return c;
}

}  // namespace

TEST_CASE("simulate: the same seed gives the same rounds, another seed other rounds") {
  SimulationSpec spec =
      simulation_spec({.rounds = 20000, .seed = 7, .offset_ticks = -150, .drift_ppb = 0, .quantum_ticks = 26});
  spec.spec_b.rate = 0.01;
  SimulationTruth t1;
  SimulationTruth t2;
  const Run a = simulate(spec, t1);
  const Run b = simulate(spec, t2);
  CHECK(a.rounds == b.rounds);
  CHECK(a.header.entries() == b.header.entries());
  CHECK(t1.early_t2 == t2.early_t2);
  CHECK(t1.phase_a_ticks == t2.phase_a_ticks);
  CHECK(t1.t_ref_tick == t2.t_ref_tick);

  spec.seed = 8;
  SimulationTruth t3;
  const Run c = simulate(spec, t3);
  CHECK(c.rounds != a.rounds);
  CHECK(c.header.get("seed") == std::optional<std::string_view>("8"));
}

TEST_CASE("simulate: without early reads every round obeys causality against the true line") {
  struct Case {
    double offset_ticks, drift_ppb;
    std::vector<SimulatedStep> steps;
    std::uint64_t quantum_ticks;
  };
  const Case cases[] = {
      {0, 0, {}, 1},
      {-150, 200, {}, 26},
      {12345.6, -5000, {}, 1},
      {-900.25, 80000, {}, 26},
      {40, 300, {{-700, 0.3}}, 26},                            // b's counter jumps back by 700 at 30 % of the run
      {-40, -300, {{450, 0.5}}, 1},                            // the step exactly at t_ref
      {10, 0, {{-900, 0.7}, {700, 0.3}, {0, 0.4}}, 26},        // two steps, given out of order, and no step
      {0, 150, {{300, 0.02}, {-600, 0.5}, {2000, 0.99}}, 1},  // three, near both ends
  };
  for (const Case& k : cases) {
    SimulationSpec spec = simulation_spec({.rounds = 50000,
                                           .seed = 11,
                                           .offset_ticks = k.offset_ticks,
                                           .drift_ppb = k.drift_ppb,
                                           .quantum_ticks = k.quantum_ticks});
    spec.steps = k.steps;
    SimulationTruth truth;
    const Run run = simulate(spec, truth);
    INFO("offset " << k.offset_ticks << " drift " << k.drift_ppb << " steps " << k.steps.size() << " q "
                   << k.quantum_ticks);
    const auto q = static_cast<double>(k.quantum_ticks);
    // Evaluating theta at t1 (t4) instead of at the true receive time costs at most |rho| * q.
    const double tolerance = std::abs(k.drift_ppb) * 1e-9 * q + 1e-3;
    const Causality c = causality(run, truth);
    CHECK(c.fwd_slack >= -tolerance);  // theta(t1) <= fwd + q
    CHECK(c.rev_slack >= -tolerance);  // theta(t4) >= -rev - q
    // The truth is tight, not merely a bound: the offset-corrected floor is the smallest
    // true delay to within the quantum (a wrong sign of drift or offset would miss it).
    CHECK(c.fwd_floor >= truth.min_fwd_delay_ticks - q - tolerance);
    CHECK(c.fwd_floor <= truth.min_fwd_delay_ticks + q + tolerance);
    CHECK(c.rev_floor >= truth.min_rev_delay_ticks - q - tolerance);
    CHECK(c.rev_floor <= truth.min_rev_delay_ticks + q + tolerance);
    CHECK(truth.min_fwd_delay_ticks >= spec.fwd.base_ticks);
    CHECK(truth.min_rev_delay_ticks >= spec.rev.base_ticks);
    CHECK(c.skipped <= 2 * k.steps.size());
    // The truth's steps: the nonzero ones, by time, each a jump of its size at its tick.
    std::vector<SimulatedStep> nonzero;
    for (const SimulatedStep& step : k.steps) {
      if (step.ticks < 0 || step.ticks > 0) nonzero.push_back(step);
    }
    std::sort(nonzero.begin(), nonzero.end(),
              [](const SimulatedStep& x, const SimulatedStep& y) { return x.at_fraction < y.at_fraction; });
    REQUIRE(truth.steps.size() == nonzero.size());
    for (std::size_t j = 0; j < nonzero.size(); ++j) {
      const auto at = static_cast<double>(truth.steps[j].tick);
      CHECK(truth.steps[j].ticks == Approx(nonzero[j].ticks).margin(0));
      if (j > 0) CHECK(truth.steps[j].tick > truth.steps[j - 1].tick);
      CHECK(true_offset_ticks(truth, at) - true_offset_ticks(truth, at - 1) ==
            Approx(nonzero[j].ticks + k.drift_ppb * 1e-9).margin(1e-6));
    }
  }
}

TEST_CASE("simulate: rtt and same-clock differences are never negative when nothing is early") {
  SimulationSpec spec =
      simulation_spec({.rounds = 50000, .seed = 1, .offset_ticks = 333, .drift_ppb = -1000, .quantum_ticks = 26});
  SimulationTruth truth;
  const Run run = simulate(spec, truth);
  CHECK(truth.early_t2_count == 0);
  CHECK(truth.early_t4_count == 0);
  std::int64_t min_rtt = std::numeric_limits<std::int64_t>::max();
  bool monotone = true;
  for (std::size_t i = 0; i < run.rounds.size(); ++i) {
    const Round& r = run.rounds[i];
    min_rtt = std::min(min_rtt, rtt_ticks(r));
    monotone = monotone && r.t4 >= r.t1 && r.t3 >= r.t2;
    if (i > 0) monotone = monotone && r.t1 >= run.rounds[i - 1].t4 && r.t2 >= run.rounds[i - 1].t3;
  }
  CHECK(min_rtt >= 0);
  CHECK(monotone);

  CHECK(truth.backwards_a_count == 0);
  CHECK(truth.backwards_b_count == 0);

  // Early reads of any size: asked for up to 5000 ticks early, a t4 can precede its own
  // round's t1 (a's counter runs backwards within the round) and a t2 b's previous t3.
  // The truth counts exactly the rounds read backwards; an early t2 never puts t3 before t2.
  spec.spec_a = SpeculationSpec{1, 0, 5000};
  spec.spec_b = SpeculationSpec{1, 0, 5000};
  const Run early = simulate(spec, truth);
  CHECK(truth.early_t2_count == spec.rounds);
  std::uint64_t a_back = 0, b_back = 0, b_across = 0;
  for (std::size_t i = 0; i < early.rounds.size(); ++i) {
    const Round& r = early.rounds[i];
    a_back += r.t4 < r.t1;
    b_back += r.t3 < r.t2;
    if (i > 0) b_across += r.t2 < early.rounds[i - 1].t3;
  }
  CHECK(a_back == truth.backwards_a_count);
  CHECK(a_back > 0);
  CHECK(b_back == 0);
  CHECK(truth.backwards_b_count == 0);
  CHECK(b_across > 0);
}

TEST_CASE("simulate: each counter reads on its own lattice of phase + k * q") {
  SimulationSpec spec =
      simulation_spec({.rounds = 20000, .seed = 1, .offset_ticks = -150.7, .drift_ppb = 300, .quantum_ticks = 26});
  spec.spec_a.rate = 0.1;  // early reads are on the lattice too
  spec.spec_b.rate = 0.1;
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    spec.seed = seed;
    SimulationTruth truth;
    const Run run = simulate(spec, truth);
    REQUIRE(truth.phase_a_ticks < 26);
    REQUIRE(truth.phase_b_ticks < 26);
    bool on_lattice = true;
    for (const Round& r : run.rounds) {
      on_lattice = on_lattice && (r.t1 - truth.phase_a_ticks) % 26 == 0 && (r.t4 - truth.phase_a_ticks) % 26 == 0 &&
                   (r.t2 - truth.phase_b_ticks) % 26 == 0 && (r.t3 - truth.phase_b_ticks) % 26 == 0;
    }
    CHECK(on_lattice);
    CHECK(run.header.get("quantum_ticks") == std::optional<std::string_view>("26"));
  }
  spec.include_quantum_metadata = false;
  SimulationTruth truth;
  CHECK_FALSE(simulate(spec, truth).header.get("quantum_ticks").has_value());
  CHECK(truth.quantum_ticks == 26);
}

TEST_CASE("simulate: early reads are injected at the asked rate and recorded per round") {
  SimulationSpec spec;
  spec.rounds = 200000;
  spec.seed = 5;
  spec.spec_b.rate = 0.02;
  spec.spec_a.rate = 0.05;
  SimulationTruth truth;
  simulate(spec, truth);
  const auto n = static_cast<double>(spec.rounds);
  const auto within_5_sigma = [n](std::uint64_t count, double p) {
    return std::abs(static_cast<double>(count) - n * p) <= 5 * std::sqrt(n * p * (1 - p));
  };
  CHECK(within_5_sigma(truth.early_t2_count, 0.02));
  CHECK(within_5_sigma(truth.early_t4_count, 0.05));
  REQUIRE(truth.early_t2.size() == spec.rounds);
  REQUIRE(truth.early_t4.size() == spec.rounds);
  std::uint64_t sum_t2 = 0;
  std::uint64_t sum_t4 = 0;
  for (std::size_t i = 0; i < truth.early_t2.size(); ++i) {
    sum_t2 += truth.early_t2[i];
    sum_t4 += truth.early_t4[i];
  }
  CHECK(sum_t2 == truth.early_t2_count);
  CHECK(sum_t4 == truth.early_t4_count);
}

TEST_CASE("simulate: an early read shortens exactly the latency it belongs to") {
  SimulationSpec spec =
      simulation_spec({.rounds = 20000, .seed = 9, .offset_ticks = -80, .drift_ppb = 100, .quantum_ticks = 1});
  SimulationTruth plain_truth;
  const Run plain = simulate(spec, plain_truth);
  spec.spec_b.rate = 1;  // every t2 early
  spec.spec_a.rate = 1;  // every t4 early
  SimulationTruth early_truth;
  const Run early = simulate(spec, early_truth);
  REQUIRE(early_truth.early_t2_count == spec.rounds);
  REQUIRE(early_truth.early_t4_count == spec.rounds);
  REQUIRE(plain.rounds.size() == early.rounds.size());
  // Same draws, so the same true times: only t2 and t4 move, by [early_min, early_max]
  // (to within q = 1 and the drift over that span).
  std::int64_t min_fwd_cut = std::numeric_limits<std::int64_t>::max();
  std::int64_t max_fwd_cut = std::numeric_limits<std::int64_t>::min();
  std::int64_t min_rev_cut = min_fwd_cut;
  std::int64_t max_rev_cut = max_fwd_cut;
  bool same_sends = true;
  for (std::size_t i = 0; i < plain.rounds.size(); ++i) {
    const Round& p = plain.rounds[i];
    const Round& e = early.rounds[i];
    same_sends = same_sends && p.t1 == e.t1 && p.t3 == e.t3;
    min_fwd_cut = std::min(min_fwd_cut, fwd_ticks(p) - fwd_ticks(e));
    max_fwd_cut = std::max(max_fwd_cut, fwd_ticks(p) - fwd_ticks(e));
    min_rev_cut = std::min(min_rev_cut, rev_ticks(p) - rev_ticks(e));
    max_rev_cut = std::max(max_rev_cut, rev_ticks(p) - rev_ticks(e));
  }
  CHECK(same_sends);
  CHECK(min_fwd_cut >= 50 - 1);
  CHECK(max_fwd_cut <= 200 + 1);
  CHECK(min_rev_cut >= 50 - 1);
  CHECK(max_rev_cut <= 200 + 1);
  // Against the truth: early t2 reads break the forward bound, never the reverse one.
  spec.spec_a.rate = 0;
  SimulationTruth t2_truth;
  const Causality c = causality(simulate(spec, t2_truth), t2_truth);
  CHECK(c.fwd_slack < 0);
  CHECK(c.rev_slack >= -1e-3);
}

TEST_CASE("simulate: spec errors name the field and its value") {
  const auto with = [](auto change) {
    SimulationSpec spec;
    spec.rounds = 10;
    change(spec);
    return error_of(spec);
  };
  using Catch::Matchers::Contains;
  CHECK_THAT(with([](SimulationSpec& s) { s.rounds = 0; }), Contains("rounds = 0"));
  CHECK_THAT(with([](SimulationSpec& s) { s.rounds = 20'000'001; }), Contains("rounds = 20000001"));
  CHECK_THAT(with([](SimulationSpec& s) { s.quantum_ticks = 0; }), Contains("quantum_ticks = 0"));
  CHECK_THAT(with([](SimulationSpec& s) { s.fwd.tail_fraction = 1.5; }), Contains("fwd.tail_fraction = 1.5"));
  CHECK_THAT(with([](SimulationSpec& s) { s.rev.base_ticks = -1; }), Contains("rev.base_ticks = -1"));
  CHECK_THAT(with([](SimulationSpec& s) { s.spec_a.rate = -0.1; }), Contains("spec_a.rate = -0.1"));
  CHECK_THAT(with([](SimulationSpec& s) { s.spec_b.early_min_ticks = 300; }),
             Contains("spec_b.early_min_ticks = 300") && Contains("spec_b.early_max_ticks"));
  CHECK_THAT(with([](SimulationSpec& s) { s.steps = {{10, 0.5}, {20, 1.2}}; }),
             Contains("steps[1].at_fraction = 1.2"));
  CHECK_THAT(with([](SimulationSpec& s) { s.steps = {{2e15, 0.5}}; }), Contains("steps[0].ticks = 2000000000000000"));
  CHECK_THAT(with([](SimulationSpec& s) { s.steps.assign(kMaxSimulatedSteps + 1, SimulatedStep{}); }),
             Contains("steps = 65"));
  CHECK_THAT(with([](SimulationSpec& s) { s.drift_ppb = 2e6; }), Contains("drift_ppb = 2000000"));
  CHECK_THAT(with([](SimulationSpec& s) { s.offset_ticks = std::nan(""); }), Contains("offset_ticks = nan"));
  CHECK_THAT(with([](SimulationSpec& s) { s.turnaround_exp_mean_ticks = -5; }),
             Contains("turnaround_exp_mean_ticks = -5"));
  CHECK_THAT(with([](SimulationSpec& s) {
               s.start_tick = 1000;
               s.offset_ticks = -1e6;
             }),
             Contains("b's counter"));
  CHECK(with([](SimulationSpec&) {}) == "(no error)");
}

TEST_CASE("simulate: a simulated run round-trips through the run format") {
  SimulationSpec spec =
      simulation_spec({.rounds = 5000, .seed = 1, .offset_ticks = -150, .drift_ppb = 200, .quantum_ticks = 26});
  spec.spec_b.rate = 0.01;
  SimulationTruth truth;
  const Run run = simulate(spec, truth);
  REQUIRE(run.rounds.size() == 5000);
  // Round 0 starts at start_tick, read on a's lattice: the largest phase_a + 26k <= start.
  const std::uint64_t start = spec.start_tick;
  const std::uint64_t below = start - start % 26 + truth.phase_a_ticks;
  CHECK(run.rounds.front().t1 == (below <= start ? below : below - 26));
  bool seq_and_flags = true;
  for (std::size_t i = 0; i < run.rounds.size(); ++i) {
    seq_and_flags = seq_and_flags && run.rounds[i].seq == i && run.rounds[i].flags == 0;
  }
  CHECK(seq_and_flags);
  CHECK(run.header.get("schema") == std::optional<std::string_view>(kRunSchema));
  CHECK(run.header.get("simulated") == std::optional<std::string_view>("yes"));
  CHECK(run.header.get("tsc_hz") == std::optional<std::string_view>("2300000000"));
  CHECK(run.header.get("transport") == std::optional<std::string_view>("simulated"));
  CHECK_FALSE(run.header.get("tool_version").has_value());
  CHECK(run.trailer.get("rounds_written") == std::optional<std::string_view>("5000"));

  test::check_round_trip(run);
}

TEST_CASE("simulate: the truth JSON carries the schema, the spec and the offset") {
  SimulationSpec spec;
  spec.rounds = 1000;
  spec.offset_ticks = -150;
  spec.steps = {{40, 0.7}};  // after t_ref: the offset at t_ref is the one before the step
  spec.spec_a.rate = 0.5;
  SimulationTruth truth;
  simulate(spec, truth);
  CHECK(truth.offset_ticks_at_ref == Approx(-150).margin(0));
  REQUIRE(truth.steps.size() == 1);
  CHECK(truth.steps[0].tick > truth.t_ref_tick);
  const auto j = truth_json(spec, truth);
  CHECK(j.begin().key() == "schema");
  CHECK(j["schema"] == "tscaudit-simulation-truth/2");
  CHECK(j["truth"]["offset_ticks_at_ref"].get<double>() == Approx(-150).margin(0));
  CHECK(j["truth"]["t_ref_tick"].get<std::uint64_t>() == truth.t_ref_tick);
  CHECK(j["truth"]["step"]["present"] == true);
  CHECK(j["truth"]["steps"].size() == 1);
  CHECK(j["truth"]["steps"][0]["step_ticks"].get<double>() == Approx(40).margin(0));
  CHECK(j["spec"]["steps"][0]["at_fraction"].get<double>() == Approx(0.7).margin(0));
  CHECK(j["truth"]["early_t4_count"].get<std::uint64_t>() == truth.early_t4_count);
  CHECK_FALSE(j["truth"].contains("early_t4"));
  CHECK(j["spec"]["offset_ticks"].get<double>() == Approx(-150).margin(0));
  CHECK(j["spec"]["spec_a"]["rate"].get<double>() == Approx(0.5).margin(0));
  CHECK(j["spec"]["rounds"].get<std::uint64_t>() == 1000);
  CHECK(nlohmann::ordered_json::parse(j.dump()) == j);

  spec.steps[0].at_fraction = 0.5;  // the step at t_ref itself: t_ref lies in the segment after it
  simulate(spec, truth);
  CHECK(truth.steps[0].tick == truth.t_ref_tick);
  CHECK(truth.offset_ticks_at_ref == Approx(-110).margin(0));
  CHECK(true_offset_ticks(truth, static_cast<double>(truth.t_ref_tick)) == Approx(-110).margin(0));
  CHECK(true_offset_ticks(truth, static_cast<double>(truth.t_ref_tick) - 1) == Approx(-150).margin(0));

  // Two steps either side of t_ref: offset_ticks is the line before both.
  spec.steps = {{300, 0.8}, {-1000, 0.2}};
  simulate(spec, truth);
  CHECK(truth.offset_ticks_at_ref == Approx(-1150).margin(0));
  CHECK(true_offset_ticks(truth, static_cast<double>(truth.steps[0].tick) - 1) == Approx(-150).margin(0));
  CHECK(true_offset_ticks(truth, static_cast<double>(truth.steps[1].tick)) == Approx(-850).margin(0));
  CHECK(truth_json(spec, truth)["truth"]["step"]["step_ticks"].get<double>() == Approx(-1000).margin(0));
}
