// Synthetic runs with known truth (`tscaudit simulate`): the same Run that `measure`
// produces, generated from a model whose offset, drift, quantum, delays and early reads
// are known, so that the analysis can be checked against ground truth.
//
// The model (all times in ticks; "true time" T is a's counter before quantization):
//
//   Offset      theta(T) = offset_ticks + drift_ppb * 1e-9 * (T - T_ref)
//                          + the sum of step j's ticks over the steps with T >= T_step_j
//   Readings    a reads  Ca(T) = phase_a + q * floor((T - phase_a) / q)
//               b reads  Cb(T) = phase_b + q * floor((T + theta(T) - phase_b) / q)
//               q = quantum_ticks; phase_a, phase_b whole ticks drawn uniformly from
//               {0, ..., q-1}. So a reading r of a counter whose true value is x obeys
//               r <= x < r + q and r = phase (mod q) (docs/method.md §2: r = x - e,
//               e in [0, q); the per-CPU phase is what makes residues constant per CPU).
//   Round i     T1 = start_tick                     (i = 0)
//               T1 = T4[i-1] + max(1, gap_ticks + Exp(gap_exp_mean_ticks))   (i > 0)
//               T2 = T1 + df,  T3 = T2 + turnaround_base_ticks + Exp(turnaround_exp_mean_ticks),
//               T4 = T3 + dr,  with a delay d = base_ticks + Exp(exp_mean_ticks)
//                               + (with probability tail_fraction) Pareto(1.5, tail_scale_ticks)
//               from `fwd` for df and from `rev` for dr. Closed loop, like the ping-pong.
//               t1 = Ca(T1), t2 = Cb(T2 - e2), t3 = Cb(T3), t4 = Ca(T4 - e4), where e2 (e4)
//               is 0, or with probability spec_b.rate (spec_a.rate) uniform in
//               [early_min_ticks, early_max_ticks]: a speculatively early receive read.
//               Early reads of any size: one larger than the round trip puts t4 before
//               this round's t1 (a's counter runs backwards within the round) or t2
//               before b's previous t3, evidence that the analysis must count
//               (SimulationTruth::backwards_a_count).
//   T_ref       floor(T1[0] + 0.5 * (T4[n-1] - T1[0])): the middle of the run, a whole tick.
//   T_step_j    floor(T1[0] + at_fraction_j * (T4[n-1] - T1[0])), a whole tick, for each
//               step j. (Same expression as T_ref, so at_fraction 0.5 puts T_step exactly
//               at T_ref.)
//               The true times do not depend on theta, so T_ref and T_step come from a
//               first pass that replays the same random draws; the second pass reads
//               the counters. No round is stored twice.
//
// Reproducibility: std::mt19937_64 seeded with `seed`; uniforms are built from its 53 high
// bits and the exponential and Pareto draws by inversion, so a given seed gives the same
// rounds with any standard library (up to libm's log and pow in the last bit). Every
// round consumes the same number of draws whatever the rates, so two specs that differ
// only in rates, offsets, drift, step or quantum share their true times: a run with
// spec_b.rate = 1 differs from the same seed with rate 0 only in its early reads.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/run.hpp"

namespace tscaudit {

inline constexpr std::string_view kSimulationTruthSchema = "tscaudit-simulation-truth/2";

/// Largest accepted number of rounds: about 1 GiB of rounds in memory.
inline constexpr std::uint64_t kMaxSimulatedRounds = 20'000'000;

/// One-way delay distribution, true ticks: base + Exp(mean) + sometimes a Pareto tail.
struct DelaySpec {
  double base_ticks = 180;        // the floor: the minimum one-way delay
  double exp_mean_ticks = 15;     // mean of the exponential part above the floor
  double tail_fraction = 0.01;    // probability that a delay also gets a Pareto tail
  double tail_scale_ticks = 500;  // Pareto scale (its minimum); shape alpha = kTailAlpha
};

/// Shape of the Pareto tail: heavy (infinite variance), finite mean 3 * scale.
inline constexpr double kTailAlpha = 1.5;

/// A jump of the offset during the run (a TSC write, a vCPU moved to another host CPU).
struct SimulatedStep {
  double ticks = 0;          // the jump of theta, |.| <= 1e15 (0: none)
  double at_fraction = 0.5;  // T_step as a fraction of the run's duration, [0, 1]
};

/// Most steps one simulated run takes.
inline constexpr std::size_t kMaxSimulatedSteps = 64;

/// Early (speculative) receive reads on one CPU.
struct SpeculationSpec {
  double rate = 0;              // probability that a receive read is early, [0, 1]
  double early_min_ticks = 50;  // how early, uniform in [early_min, early_max] true ticks
  double early_max_ticks = 200;
};

struct SimulationSpec {
  std::uint64_t rounds = 200'000;                // 1 .. kMaxSimulatedRounds
  std::uint64_t seed = 1;                        // seeds std::mt19937_64
  std::uint64_t start_tick = 1'000'000'000'000;  // true time of round 0's t1, <= 1e15
  double offset_ticks = 0;                       // theta at T_ref of the line before any step, |.| <= 1e15
  double drift_ppb = 0;                          // d theta / dT in 1e-9, |.| <= 1e6
  std::uint64_t quantum_ticks = 1;               // counter step q, 1 .. 1e6
  DelaySpec fwd;                                 // a -> b delay
  DelaySpec rev;                                 // b -> a delay
  double turnaround_base_ticks = 30;             // b: from its t2 to its t3, floor
  double turnaround_exp_mean_ticks = 5;          // b: exponential part of the turnaround
  double gap_ticks = 50;                         // a: from t4 to the next t1, floor (>= 1 in effect)
  double gap_exp_mean_ticks = 10;                // a: exponential part of the gap
  SpeculationSpec spec_a;                        // early t4 reads (a receives the reply)
  SpeculationSpec spec_b;                        // early t2 reads (b receives the ping)
  std::vector<SimulatedStep> steps;                 // jumps of the offset, any order, at most kMaxSimulatedSteps
  double tsc_hz = 2.3e9;                         // only written into the metadata, (0, 1e12]
  bool include_quantum_metadata = true;          // false: no `quantum_ticks` key; the analysis infers q
};

/// A step as it happened: theta includes `ticks` from a's true tick `tick` on.
struct TrueStep {
  double ticks = 0;
  std::uint64_t tick = 0;  // T_step
};

/// What the analysis should find. Ticks on a's counter unless stated.
struct SimulationTruth {
  /// theta at t_ref_tick on the stretch of the line that contains t_ref_tick (each step's
  /// stretch is half-open, [T_step, next T_step)): offset_ticks plus every step with
  /// tick <= t_ref_tick.
  double offset_ticks_at_ref = 0;
  std::uint64_t t_ref_tick = 0;  // T_ref (see the model): the middle of the run, a's true ticks
  double drift_ppb = 0;
  std::uint64_t quantum_ticks = 1;
  std::uint64_t phase_a_ticks = 0;  // every reading of a is = phase_a_ticks (mod quantum)
  std::uint64_t phase_b_ticks = 0;  // every reading of b is = phase_b_ticks (mod quantum)
  std::vector<TrueStep> steps;      // the steps of nonzero size, by tick (spec order on a tie)
  std::uint64_t early_t2_count = 0;
  std::uint64_t early_t4_count = 0;
  std::vector<std::uint8_t> early_t2;  // per round: 1 when t2 was read early
  std::vector<std::uint8_t> early_t4;  // per round: 1 when t4 was read early
  /// Rounds whose readings run backwards on one counter: t4 < t1 (a's: an early t4 by more
  /// than the round trip) and t3 < t2 (b's: a negative step between t2 and t3).
  std::uint64_t backwards_a_count = 0;
  std::uint64_t backwards_b_count = 0;
  double min_fwd_delay_ticks = 0;  // true one-way delays drawn (before any early read)
  double max_fwd_delay_ticks = 0;
  double min_rev_delay_ticks = 0;
  double max_rev_delay_ticks = 0;
};

/// Generates `spec.rounds` rounds (seq 0..n-1, flags 0) with header metadata schema, a, b,
/// send, recv, transport, tsc_hz, quantum_ticks (when asked), simulated, seed and trailer
/// rounds_written, status complete. Fills `truth` (replacing what it held).
/// The largest start_tick of a simulated run: counter values stay far below 2^63.
inline constexpr std::uint64_t kMaxStartTick = 1'000'000'000'000'000;

/// Ranges: rounds 1..kMaxSimulatedRounds, quantum 1..1e6, start_tick <= 1e15, |offset|,
/// every step's |ticks| <= 1e15 and at most kMaxSimulatedSteps steps, |drift| <= 1e6 ppb,
/// rates and fractions in [0, 1], delays, gap,
/// turnaround and early amounts in [0, 1e12] ticks with early_min <= early_max,
/// tsc_hz in [1, 1e12]. NaN is out of every range.
/// \throws UsageError "simulate: FIELD = VALUE: rule" when the spec is out of range, or
///         when a counter would read outside [0, 2^63) (offset too negative for start_tick).
Run simulate(const SimulationSpec& spec, SimulationTruth& truth);

/// The true times a spec's run spans (a's true ticks). They come from the draws alone, so
/// they do not depend on the offset, the drift, the step, the rates or the quantum's phases.
struct SimulatedSpan {
  double first_t1_tick = 0;      // T1 of round 0
  double last_t4_tick = 0;       // T4 of the last round
  std::uint64_t t_ref_tick = 0;  // T_ref of the model (the run's middle): SimulationTruth::t_ref_tick
  std::vector<std::uint64_t> step_ticks;  // T_step of each of spec.steps, in the spec's order
};

/// Replays the model's true times (one pass over the draws, no rounds kept).
/// \throws UsageError as simulate() when the spec is out of range.
SimulatedSpan simulated_span(const SimulationSpec& spec);

/// theta at a's true tick `a_tick` according to `truth`: the exact model line, steps included.
double true_offset_ticks(const SimulationTruth& truth, double a_tick);

/// A delay distribution as truth_json() writes it (with the tail's shape, tail_alpha).
nlohmann::ordered_json delay_spec_json(const DelaySpec& d);
/// Early reads as truth_json() writes them.
nlohmann::ordered_json speculation_spec_json(const SpeculationSpec& s);

/// The "truth" object of truth_json(): every field of `truth` but the per-round early flags.
nlohmann::ordered_json simulation_truth_json(const SimulationTruth& truth);

/// {"schema": kSimulationTruthSchema, "spec": {every parameter}, "truth": {...}}; the
/// per-round early flags are left out (only their counts).
nlohmann::ordered_json truth_json(const SimulationSpec& spec, const SimulationTruth& truth);

}  // namespace tscaudit
