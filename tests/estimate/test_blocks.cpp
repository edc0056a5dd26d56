// Block estimates, their least-squares line, the runs test and the step search: exact on
// hand-made rounds, and held to account on simulated runs with known truth.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>

#include "estimate/blocks.hpp"
#include "simulate/simulate.hpp"

using namespace tscaudit;

namespace {

constexpr std::uint64_t kStart = 1'000'000'000;
constexpr std::size_t kHandBlocks = 16;
constexpr std::size_t kHandPerBlock = 64;
constexpr std::int64_t kHandSpacing = 100;  // t1 to the next t1
constexpr std::int64_t kHandRtt = 300;      // t1 to t4

/// t_ref of the hand-made rounds: the middle of [first t1, last t4].
std::uint64_t hand_t_ref() {
  const std::uint64_t last_t4 = kStart + (kHandBlocks * kHandPerBlock - 1) * kHandSpacing + kHandRtt;
  return kStart + (last_t4 - kStart) / 2;
}

/// Block b's mid time relative to hand_t_ref(), as fit_blocks computes it.
double hand_tau(std::size_t b) {
  const std::uint64_t first_t1 = kStart + b * kHandPerBlock * kHandSpacing;
  const std::uint64_t last_t4 = first_t1 + (kHandPerBlock - 1) * kHandSpacing + kHandRtt;
  return 0.5 * (static_cast<double>(first_t1 + last_t4) - 2 * static_cast<double>(hand_t_ref()));
}

/// 16 blocks of 64 rounds with the offset constant within a block: theta_of(b), a whole
/// number of ticks. Every forward bound is theta + 100 + (i % 7) * 3 except one per block
/// at theta + 40 (a too-small value that k = 2 sets aside); every reverse bound is
/// theta - 100 - (i % 5) * 2. So the 2nd smallest U is theta + 100, the 2nd largest L
/// theta - 100: the block value is theta_of(b) exactly, the margin 100.
std::vector<Round> hand_rounds(const std::function<std::int64_t(std::size_t)>& theta_of) {
  std::vector<Round> rounds;
  for (std::size_t i = 0; i < kHandBlocks * kHandPerBlock; ++i) {
    const std::int64_t theta = theta_of(i / kHandPerBlock);
    const auto j = static_cast<std::int64_t>(i);
    const std::int64_t upper = i % kHandPerBlock == 10 ? theta + 40 : theta + 100 + (j % 7) * 3;
    const std::int64_t lower = theta - 100 - (j % 5) * 2;
    Round r;
    r.seq = i & kMaxSeq;
    r.t1 = kStart + i * kHandSpacing;
    r.t4 = r.t1 + kHandRtt;
    r.t2 = r.t1 + static_cast<std::uint64_t>(upper);  // U = t2 - t1
    r.t3 = r.t4 + static_cast<std::uint64_t>(lower);  // L = t3 - t4
    rounds.push_back(r);
  }
  return rounds;
}

/// A whole-tick line over the blocks: theta = 1000 + drift * tau_b with drift = 2 ticks per
/// block (6400 ticks), so theta_b = 985 + 2b.
constexpr double kHandDrift = 2.0 / 6400;
std::int64_t hand_line(std::size_t b) { return 985 + 2 * static_cast<std::int64_t>(b); }

SimulationSpec clean_spec(std::uint64_t seed, double drift_ppb, std::uint64_t q) {
  SimulationSpec spec;
  spec.rounds = 100000;
  spec.seed = seed;
  spec.offset_ticks = 1234.3;
  spec.drift_ppb = drift_ppb;
  spec.quantum_ticks = q;
  spec.rev = spec.fwd;  // symmetric delays: no asymmetry bias for the CI to miss
  return spec;
}

BlockFit fit_simulated(const Run& run, const SimulationTruth& truth, std::uint64_t k = 1) {
  return fit_blocks(run.rounds, truth.t_ref_tick, static_cast<std::int64_t>(truth.quantum_ticks),
                    truth.drift_ppb * 1e-9, k);
}

/// Index of the first round whose t1 is at or after the true step.
std::size_t true_step_round(const Run& run, const SimulationTruth& truth) {
  const auto it =
      std::find_if(run.rounds.begin(), run.rounds.end(), [&](const Round& r) { return r.t1 >= truth.steps.at(0).tick; });
  return static_cast<std::size_t>(it - run.rounds.begin());
}

}  // namespace

TEST_CASE("student t quantiles: table and expansion") {
  CHECK(student_t_975(1) == Approx(12.706));
  CHECK(student_t_975(2) == Approx(4.303));
  CHECK(student_t_975(10) == Approx(2.228));
  CHECK(student_t_975(14) == Approx(2.145));
  CHECK(student_t_975(30) == Approx(2.042));
  CHECK(student_t_975(31) == Approx(2.0395).margin(0.001));
  CHECK(student_t_975(40) == Approx(2.0211).margin(0.001));
  CHECK(student_t_975(120) == Approx(1.9799).margin(0.001));
  CHECK(student_t_975(1'000'000) == Approx(1.96).margin(0.001));
  CHECK(std::isinf(student_t_975(0)));
  for (std::size_t df = 1; df < 200; ++df) CHECK(student_t_975(df + 1) < student_t_975(df));
}

TEST_CASE("hand-made blocks on an exact line: exact offset, drift, zero standard errors") {
  const std::vector<Round> rounds = hand_rounds(hand_line);
  const BlockFit fit = fit_blocks(rounds, hand_t_ref(), 1, 0.0, 2);
  REQUIRE(fit.valid);
  REQUIRE(fit.blocks == kHandBlocks);
  REQUIRE(fit.per_block.size() == kHandBlocks);
  for (std::size_t b = 0; b < kHandBlocks; ++b) {
    const BlockEstimate& e = fit.per_block[b];
    CHECK(e.first_round == b * kHandPerBlock);
    CHECK(e.last_round == (b + 1) * kHandPerBlock);
    CHECK(e.tau_ticks == Approx(hand_tau(b)));
    CHECK(e.theta_ticks == Approx(static_cast<double>(hand_line(b))));
    CHECK(e.margin_ticks == Approx(100));
    CHECK(std::fabs(1000 + kHandDrift * e.tau_ticks - e.theta_ticks) < 1e-9);  // the blocks are on the line
  }
  CHECK(fit.offset_ticks == Approx(1000).margin(1e-9));
  CHECK(fit.drift == Approx(kHandDrift).margin(1e-15));
  CHECK(fit.offset_se_ticks < 1e-9);
  CHECK(fit.offset_ci_ticks < 1e-8);
  CHECK(fit.drift_se < 1e-15);
  CHECK(fit.zero_drift_offset_ticks == Approx(1000).margin(1e-9));  // mean of 985 + 2b
  CHECK(fit.zero_drift_se_ticks > 1);                               // the rho = 0 model does not fit a line
  // Every residual is zero (rounding): no signs, no runs, nothing to find.
  CHECK(fit.runs.n_plus == 0);
  CHECK(fit.runs.n_minus == 0);
  CHECK_FALSE(fit.runs.structured);
  CHECK_FALSE(fit.step);

  SECTION("k = 1 takes the too-small forward bound: every block 30 ticks lower") {
    const BlockFit low = fit_blocks(rounds, hand_t_ref(), 1, 0.0, 1);
    REQUIRE(low.valid);
    CHECK(low.offset_ticks == Approx(970).margin(1e-9));
    CHECK(low.drift == Approx(kHandDrift).margin(1e-15));
    CHECK(low.per_block[3].margin_ticks == Approx(70));
  }
  SECTION("the global drift is removed inside each block") {
    // With drift d passed in, U' = U - d (x - tau): the block value moves by
    // (-d (x_U - tau) - d (x_L - tau)) / 2 where x_U, x_L are the chosen bounds' times.
    const BlockFit tilted = fit_blocks(rounds, hand_t_ref(), 1, 1e-6, 2);
    REQUIRE(tilted.valid);
    CHECK(std::fabs(tilted.offset_ticks - 1000) < 0.01);
  }
}

TEST_CASE("hand-made blocks: the runs test counts signs") {
  SECTION("alternating residuals: as many runs as blocks") {
    const BlockFit fit =
        fit_blocks(hand_rounds([](std::size_t b) { return hand_line(b) + (b % 2 ? 1 : -1); }), hand_t_ref(), 1, 0.0, 2);
    REQUIRE(fit.valid);
    CHECK(fit.runs.runs == 16);
    CHECK(fit.runs.n_plus == 8);
    CHECK(fit.runs.n_minus == 8);
    CHECK(fit.runs.expected == Approx(9));
    CHECK(fit.runs.z == Approx(7 / std::sqrt(2.0 * 64 * 112 / (256 * 15))));
    CHECK_FALSE(fit.runs.structured);
    CHECK_FALSE(fit.step);
  }
  SECTION("a 40-tick step at block 8, smaller than the delays: found, known to one block") {
    const std::vector<Round> rounds = hand_rounds([](std::size_t b) { return hand_line(b) + (b >= 8 ? 40 : 0); });
    const BlockFit fit = fit_blocks(rounds, hand_t_ref(), 1, 0.0, 2);
    REQUIRE(fit.valid);
    // Residuals of the line through a step: + + + - - - - - + + + + + - - -.
    CHECK(fit.runs.runs == 4);
    CHECK(fit.runs.n_plus == 8);
    CHECK(fit.runs.n_minus == 8);
    CHECK(fit.runs.z == Approx(-5 / std::sqrt(2.0 * 64 * 112 / (256 * 15))));
    CHECK(fit.runs.structured);
    REQUIRE(fit.step);
    CHECK(fit.step->size_ticks == Approx(40).margin(1e-9));
    CHECK_FALSE(fit.step->refined_to_round);  // no bound crosses the midpoint: delays >= 100 > 40 / 2
    CHECK(fit.step->after_block == 8);
    CHECK(fit.step->first_round_after == 8 * kHandPerBlock);
    CHECK(fit.step->t1_tick == rounds[8 * kHandPerBlock].t1);
  }
  SECTION("a 400-tick step at block 8: refined to its round") {
    const std::vector<Round> rounds = hand_rounds([](std::size_t b) { return hand_line(b) + (b >= 8 ? 400 : 0); });
    const BlockFit fit = fit_blocks(rounds, hand_t_ref(), 1, 0.0, 2);
    REQUIRE(fit.valid);
    CHECK(fit.runs.structured);
    REQUIRE(fit.step);
    CHECK(fit.step->size_ticks == Approx(400).margin(1e-9));
    CHECK(fit.step->refined_to_round);
    CHECK(fit.step->first_round_after == 8 * kHandPerBlock);
    CHECK(fit.step->after_block == 8);
  }
}

TEST_CASE("not enough rounds or bad parameters: not valid, with a reason") {
  const std::vector<Round> rounds = hand_rounds(hand_line);
  const std::span<const Round> all(rounds);
  const BlockFit few = fit_blocks(all.first(5), hand_t_ref(), 1, 0.0, 1);  // 2 blocks of 2
  CHECK_FALSE(few.valid);
  CHECK_THAT(few.reason, Catch::Matchers::Contains("too few"));
  CHECK_FALSE(fit_blocks(all.first(47), hand_t_ref(), 1, 0.0, 8).valid);  // 47 / 16 < 3 blocks
  CHECK(fit_blocks(all.first(48), hand_t_ref(), 1, 0.0, 8).valid);        // exactly 3 blocks of 16
  CHECK(fit_blocks(all.first(48), hand_t_ref(), 1, 0.0, 8).blocks == 3);
  CHECK_FALSE(fit_blocks({}, hand_t_ref(), 1, 0.0, 1).valid);
  CHECK_THAT(fit_blocks(all, hand_t_ref(), 1, 0.0, 0).reason, Catch::Matchers::Contains("k = 0"));
  CHECK_THAT(fit_blocks(all, hand_t_ref(), 0, 0.0, 1).reason, Catch::Matchers::Contains("quantum"));
  CHECK_THAT(fit_blocks(all, hand_t_ref(), 1, 0.0, 1, 2).reason, Catch::Matchers::Contains("at least 3"));
  std::vector<Round> shuffled = rounds;
  std::swap(shuffled[3], shuffled[700]);
  CHECK_THAT(fit_blocks(shuffled, hand_t_ref(), 1, 0.0, 1).reason, Catch::Matchers::Contains("time order"));
}

TEST_CASE("simulated clean runs: the CI covers the truth, the residuals show no structure", "[slow]") {
  for (bool drifting : {false, true}) {
    const double drift_ppb = drifting ? 20000 : 0;
    for (std::uint64_t q : {std::uint64_t{1}, std::uint64_t{26}}) {
      int covered = 0, drift_covered = 0, structured = 0;
      for (std::uint64_t seed = 1; seed <= 10; ++seed) {
        SimulationTruth truth;
        const Run run = simulate(clean_spec(seed, drift_ppb, q), truth);
        const BlockFit fit = fit_simulated(run, truth);
        INFO("drift " << drift_ppb << " ppb, q " << q << ", seed " << seed);
        REQUIRE(fit.valid);
        REQUIRE(fit.blocks == 16);
        const double truth_offset = true_offset_ticks(truth, static_cast<double>(truth.t_ref_tick));
        const double error = fit.offset_ticks - truth_offset;
        const double drift_error = fit.drift - drift_ppb * 1e-9;
        // The block values are midpoints of readings on the q-lattice: without dither they
        // can all agree (CI 0) and still miss the truth by up to q/2. That, and nothing
        // more, is allowed beyond the CI in every run.
        const double lattice = static_cast<double>(q) / 2;
        const double span = fit.per_block.back().tau_ticks - fit.per_block.front().tau_ticks;
        CHECK(std::fabs(error) <= fit.offset_ci_ticks + lattice);
        CHECK(std::fabs(drift_error) <= fit.drift_ci + 2 * lattice / span);
        if (!drifting) {
          CHECK(std::fabs(fit.zero_drift_offset_ticks - truth_offset) <= fit.zero_drift_ci_ticks + lattice);
        }
        covered += std::fabs(error) <= fit.offset_ci_ticks;
        drift_covered += std::fabs(drift_error) <= fit.drift_ci;
        structured += fit.runs.structured;
        CHECK_FALSE(fit.step);
      }
      INFO("drift " << drift_ppb << " ppb, q " << q);
      CHECK(structured <= 1);
      if (drifting) {  // the drift dithers the lattice: a true 95 % interval
        CHECK(covered >= 9);
        CHECK(drift_covered >= 9);
      }
    }
  }
}

TEST_CASE("simulated runs with early reads: k sets them aside") {
  SimulationSpec spec = clean_spec(7, 20000, 1);
  spec.spec_a.rate = spec.spec_b.rate = 2e-4;  // about one early read per block and direction
  SimulationTruth truth;
  const Run run = simulate(spec, truth);
  const double truth_offset = true_offset_ticks(truth, static_cast<double>(truth.t_ref_tick));
  const BlockFit robust = fit_simulated(run, truth, 8);
  REQUIRE(robust.valid);
  CHECK(std::fabs(robust.offset_ticks - truth_offset) <= robust.offset_ci_ticks + 0.5);
  CHECK_FALSE(robust.step);
  const BlockFit hard = fit_simulated(run, truth, 1);  // k = 1: early reads cut in
  REQUIRE(hard.valid);
  CHECK(hard.offset_ci_ticks > 10 * robust.offset_ci_ticks);
}

TEST_CASE("simulated step of 500 ticks at 0.3 of the run: found, sized, located") {
  struct Case {
    double drift_ppb;
    std::uint64_t q;
    double step_ticks;
  };
  for (const Case c : {Case{0, 1, 500}, Case{20000, 1, -500}, Case{0, 26, 500}, Case{20000, 26, -500}}) {
    for (std::uint64_t seed = 1; seed <= 2; ++seed) {
      SimulationSpec spec = clean_spec(seed, c.drift_ppb, c.q);
      spec.steps = {{c.step_ticks, 0.3}};
      SimulationTruth truth;
      const Run run = simulate(spec, truth);
      const BlockFit fit = fit_simulated(run, truth);
      INFO("drift " << c.drift_ppb << " ppb, q " << c.q << ", step " << c.step_ticks << ", seed " << seed);
      REQUIRE(fit.valid);
      CHECK(fit.runs.structured);
      REQUIRE(fit.step);
      const Step& step = *fit.step;
      CHECK(std::fabs(step.size_ticks - c.step_ticks) <= 3 * static_cast<double>(c.q) + 2);
      const std::size_t truth_round = true_step_round(run, truth);
      const auto holder = std::find_if(fit.per_block.begin(), fit.per_block.end(),
                                       [&](const BlockEstimate& b) { return b.last_round > truth_round; });
      const auto truth_block = static_cast<std::size_t>(holder - fit.per_block.begin());  // holds the step
      CHECK(step.after_block == truth_block + 1);  // the first block wholly after it
      CHECK(step.refined_to_round);
      CHECK(std::max(step.first_round_after, truth_round) - std::min(step.first_round_after, truth_round) <= 2);
      CHECK(step.t1_tick == run.rounds[step.first_round_after].t1);
    }
  }
}

TEST_CASE("simulated step of 100 ticks, below the delay floor: found to one block, sized") {
  SimulationSpec spec = clean_spec(3, 20000, 1);
  spec.steps = {{100, 0.3}};
  SimulationTruth truth;
  const Run run = simulate(spec, truth);
  const BlockFit fit = fit_simulated(run, truth);
  REQUIRE(fit.valid);
  REQUIRE(fit.step);
  CHECK_FALSE(fit.step->refined_to_round);
  CHECK(std::fabs(fit.step->size_ticks - 100) <= 5);
  const std::size_t truth_round = true_step_round(run, truth);
  const BlockEstimate& holder = fit.per_block.at(fit.step->after_block - 1);  // the step lies in it
  CHECK(holder.first_round <= truth_round);
  CHECK(truth_round < holder.last_round);
}

TEST_CASE("block k-th values equal a sort of each block, for small k (heaps) and large k (selection)") {
  SimulationSpec spec = clean_spec(21, 0, 1);
  spec.rounds = 32000;
  spec.spec_b.rate = 0.01;  // early reads: the lowest forward bounds are outliers
  SimulationTruth truth;
  const Run run = simulate(spec, truth);
  const std::span<const Round> rounds(run.rounds);
  // 16 blocks of 2000 rounds: k = 1..250 take the heaps (8 k <= 2000), 251..1000 the copy.
  for (const std::uint64_t k : std::initializer_list<std::uint64_t>{1, 5, 60, 250, 251, 700, 1000}) {
    const BlockFit fit = fit_blocks(rounds, truth.t_ref_tick, 1, 0.0, k, 16, TimeOrder::known);
    REQUIRE(fit.valid);
    for (const BlockEstimate& e : fit.per_block) {
      std::vector<std::int64_t> upper, lower;
      for (std::size_t i = e.first_round; i < e.last_round; ++i) {
        upper.push_back(fwd_ticks(rounds[i]));
        lower.push_back(-rev_ticks(rounds[i]));
      }
      std::sort(upper.begin(), upper.end());
      std::sort(lower.begin(), lower.end(), std::greater<>());
      const auto u_k = static_cast<double>(upper[k - 1]), l_k = static_cast<double>(lower[k - 1]);
      // Zero drift: theta = (k-th U + k-th L) / 2 exactly (integers, halves, in double).
      CHECK(e.theta_ticks == Approx((u_k + l_k) / 2).epsilon(0).margin(0));
      CHECK(e.margin_ticks == Approx((u_k - l_k) / 2).epsilon(0).margin(0));
    }
  }
}

TEST_CASE("KthOfStream: the k-th smallest and largest of a stream equal a sort") {
  std::mt19937_64 rng(31);
  for (const std::size_t n : std::initializer_list<std::size_t>{1, 2, 10, 1000, 20000}) {
    std::vector<double> values(n);
    // Ties on purpose (a few hundred distinct values), then a falling trend, where every
    // new value comes before the threshold.
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<double>(rng() % 300);
    for (const bool falling : {false, true}) {
      if (falling) std::sort(values.begin(), values.end(), std::greater<>());
      std::vector<double> sorted = values;
      std::sort(sorted.begin(), sorted.end());
      for (const std::size_t k : {std::size_t{1}, std::size_t{2}, std::size_t{7}, n / 3 + 1, n}) {
        if (k > n) continue;  // the precondition: at least k values
        KthOfStream<std::less<>> smallest;
        KthOfStream<std::greater<>> largest;
        smallest.reset(k);
        largest.reset(k);
        for (const double v : values) {
          smallest.offer(v);
          largest.offer(v);
        }
        CHECK(smallest.kth() == Approx(sorted[k - 1]).epsilon(0).margin(0));
        CHECK(largest.kth() == Approx(sorted[n - k]).epsilon(0).margin(0));
      }
    }
  }
}
