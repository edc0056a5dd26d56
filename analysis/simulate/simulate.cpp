#include "simulate/simulate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "core/errors.hpp"
#include "core/format.hpp"
#include "formats/run_format.hpp"

namespace tscaudit {
namespace {

/// Upper limit for every delay-like parameter: far above anything physical, and keeps
/// true times well inside the range where a double resolves fractions of a tick.
constexpr double kMaxDelayTicks = 1e12;
constexpr double kMaxOffsetTicks = 1e15;
constexpr double kMaxDriftPpb = 1e6;
constexpr std::uint64_t kMaxQuantumTicks = 1'000'000;
/// Counter values stay below 2^63 so that every difference fits an int64_t.
constexpr double kCounterLimit = 9223372036854775808.0;

[[noreturn]] void bad_field(std::string_view field, const std::string& value, const std::string& rule) {
  throw UsageError("simulate: " + std::string(field) + " = " + value + ": " + rule);
}

void require_range(std::string_view field, double value, double lo, double hi) {
  if (!(value >= lo && value <= hi)) {  // written so that NaN fails as well
    bad_field(field, format_sig(value, 6), "must be in [" + format_sig(lo, 6) + ", " + format_sig(hi, 6) + "]");
  }
}

void require_range(std::string_view field, std::uint64_t value, std::uint64_t lo, std::uint64_t hi) {
  if (value < lo || value > hi) {
    bad_field(field, std::to_string(value), "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
}

void validate_delay(const std::string& name, const DelaySpec& d) {
  require_range(name + ".base_ticks", d.base_ticks, 0, kMaxDelayTicks);
  require_range(name + ".exp_mean_ticks", d.exp_mean_ticks, 0, kMaxDelayTicks);
  require_range(name + ".tail_fraction", d.tail_fraction, 0, 1);
  require_range(name + ".tail_scale_ticks", d.tail_scale_ticks, 0, kMaxDelayTicks);
}

void validate_speculation(const std::string& name, const SpeculationSpec& s) {
  require_range(name + ".rate", s.rate, 0, 1);
  require_range(name + ".early_min_ticks", s.early_min_ticks, 0, kMaxDelayTicks);
  require_range(name + ".early_max_ticks", s.early_max_ticks, 0, kMaxDelayTicks);
  if (s.early_min_ticks > s.early_max_ticks) {
    bad_field(name + ".early_min_ticks", format_sig(s.early_min_ticks, 6),
              "must be <= " + name + ".early_max_ticks (" + format_sig(s.early_max_ticks, 6) + ")");
  }
}

void validate(const SimulationSpec& spec) {
  require_range("rounds", spec.rounds, 1, kMaxSimulatedRounds);
  require_range("start_tick", spec.start_tick, 0, kMaxStartTick);
  require_range("offset_ticks", spec.offset_ticks, -kMaxOffsetTicks, kMaxOffsetTicks);
  require_range("drift_ppb", spec.drift_ppb, -kMaxDriftPpb, kMaxDriftPpb);
  require_range("quantum_ticks", spec.quantum_ticks, 1, kMaxQuantumTicks);
  validate_delay("fwd", spec.fwd);
  validate_delay("rev", spec.rev);
  require_range("turnaround_base_ticks", spec.turnaround_base_ticks, 0, kMaxDelayTicks);
  require_range("turnaround_exp_mean_ticks", spec.turnaround_exp_mean_ticks, 0, kMaxDelayTicks);
  require_range("gap_ticks", spec.gap_ticks, 0, kMaxDelayTicks);
  require_range("gap_exp_mean_ticks", spec.gap_exp_mean_ticks, 0, kMaxDelayTicks);
  validate_speculation("spec_a", spec.spec_a);
  validate_speculation("spec_b", spec.spec_b);
  require_range("steps", spec.steps.size(), 0, kMaxSimulatedSteps);
  for (std::size_t j = 0; j < spec.steps.size(); ++j) {
    const std::string name = "steps[" + std::to_string(j) + "]";
    require_range(name + ".ticks", spec.steps[j].ticks, -kMaxOffsetTicks, kMaxOffsetTicks);
    require_range(name + ".at_fraction", spec.steps[j].at_fraction, 0, 1);
  }
  require_range("tsc_hz", spec.tsc_hz, 1, 1e12);
}

/// Uniform, exponential and Pareto draws from mt19937_64 by hand, so that the sequence
/// does not depend on the standard library's distributions.
class Draws {
 public:
  explicit Draws(std::uint64_t seed) : rng_(seed) {}

  /// [0, 1) from the 53 high bits.
  double uniform() { return static_cast<double>(rng_() >> 11) * 0x1.0p-53; }
  /// Exp(mean) by inversion; 1 - u is in (0, 1], so the log is finite.
  double exponential(double mean) { return -mean * std::log1p(-uniform()); }
  /// Pareto(kTailAlpha, scale) by inversion: scale * (1 - u)^(-1/alpha) >= scale.
  double pareto(double scale) { return scale * std::pow(1.0 - uniform(), -1.0 / kTailAlpha); }

 private:
  std::mt19937_64 rng_;
};

/// One round in true time, before any counter is read.
struct TrueRound {
  double t1 = 0, t2 = 0, t3 = 0, t4 = 0;  // true times of the four events
  double fwd_delay = 0, rev_delay = 0;
  bool early_t2 = false, early_t4 = false;
  double early_t2_ticks = 0, early_t4_ticks = 0;  // how early the read is (true ticks)
};

/// Replays the model's draws round by round. Two generators with the same spec give the
/// same sequence; each round takes a fixed number of draws, whatever the rates.
class RoundGenerator {
 public:
  explicit RoundGenerator(const SimulationSpec& spec) : spec_(spec), draws_(spec.seed) {
    phase_a_ = draw_phase();
    phase_b_ = draw_phase();
  }

  [[nodiscard]] std::uint64_t phase_a() const { return phase_a_; }
  [[nodiscard]] std::uint64_t phase_b() const { return phase_b_; }

  TrueRound next() {
    TrueRound r;
    if (first_) {
      r.t1 = static_cast<double>(spec_.start_tick);
      first_ = false;
    } else {
      r.t1 = prev_t4_ + std::max(1.0, spec_.gap_ticks + draws_.exponential(spec_.gap_exp_mean_ticks));
    }
    r.fwd_delay = delay(spec_.fwd);
    r.t2 = r.t1 + r.fwd_delay;
    r.t3 = r.t2 + spec_.turnaround_base_ticks + draws_.exponential(spec_.turnaround_exp_mean_ticks);
    r.rev_delay = delay(spec_.rev);
    r.t4 = r.t3 + r.rev_delay;
    // Early reads of any size: one earlier than the round's own t1 (t4) or than b's
    // previous t3 (t2) makes a counter run backwards, which the analysis must count.
    r.early_t2 = early(spec_.spec_b, r.early_t2_ticks);
    r.early_t4 = early(spec_.spec_a, r.early_t4_ticks);
    prev_t4_ = r.t4;
    return r;
  }

 private:
  std::uint64_t draw_phase() {
    const auto q = spec_.quantum_ticks;
    return std::min(q - 1, static_cast<std::uint64_t>(draws_.uniform() * static_cast<double>(q)));
  }

  double delay(const DelaySpec& d) {
    const double spread = draws_.exponential(d.exp_mean_ticks);
    const bool tail = draws_.uniform() < d.tail_fraction;
    const double tail_ticks = draws_.pareto(d.tail_scale_ticks);
    return d.base_ticks + spread + (tail ? tail_ticks : 0.0);
  }

  /// Whether the read is early; `ticks` = how early, 0 when not early.
  bool early(const SpeculationSpec& s, double& ticks) {
    const bool is_early = draws_.uniform() < s.rate;
    const double amount = s.early_min_ticks + (s.early_max_ticks - s.early_min_ticks) * draws_.uniform();
    ticks = is_early ? amount : 0.0;
    return is_early;
  }

  const SimulationSpec& spec_;
  Draws draws_;
  std::uint64_t phase_a_ = 0;
  std::uint64_t phase_b_ = 0;
  bool first_ = true;
  double prev_t4_ = 0;
};

/// phase + q * floor((x - phase) / q): the reading of a counter whose true value is x.
std::uint64_t read_counter(double x, std::uint64_t phase, std::uint64_t q, std::string_view cpu) {
  const double steps = std::floor((x - static_cast<double>(phase)) / static_cast<double>(q));
  if (!(steps >= 0 && (steps + 1) * static_cast<double>(q) < kCounterLimit)) {
    throw UsageError("simulate: " + std::string(cpu) + "'s counter would read " + format_sig(x, 6) +
                     ", outside [0, 2^63): raise start_tick or reduce |offset_ticks|, |step_ticks| "
                     "or |drift_ppb|");
  }
  return static_cast<std::uint64_t>(steps) * q + phase;
}

/// Pass 1 of the model, without validating: true times only (they do not depend on the
/// offset), for T_ref and T_step.
SimulatedSpan span_of(const SimulationSpec& spec) {
  SimulatedSpan span;
  RoundGenerator gen(spec);
  for (std::uint64_t i = 0; i < spec.rounds; ++i) {
    const TrueRound r = gen.next();
    if (i == 0) span.first_t1_tick = r.t1;
    span.last_t4_tick = r.t4;
  }
  const double duration = span.last_t4_tick - span.first_t1_tick;
  span.t_ref_tick = static_cast<std::uint64_t>(std::floor(span.first_t1_tick + 0.5 * duration));  // as t_step at 0.5
  for (const SimulatedStep& step : spec.steps) {
    span.step_ticks.push_back(static_cast<std::uint64_t>(std::floor(span.first_t1_tick + step.at_fraction * duration)));
  }
  return span;
}

}  // namespace

SimulatedSpan simulated_span(const SimulationSpec& spec) {
  validate(spec);
  return span_of(spec);
}

Run simulate(const SimulationSpec& spec, SimulationTruth& truth) {
  validate(spec);
  const std::uint64_t n = spec.rounds;

  const SimulatedSpan span = span_of(spec);
  const auto t_ref = static_cast<double>(span.t_ref_tick);
  const double slope = spec.drift_ppb * 1e-9;

  // Pass 2: the same draws again, now reading the counters.
  RoundGenerator gen(spec);
  const std::uint64_t q = spec.quantum_ticks;
  truth = SimulationTruth{};
  for (std::size_t j = 0; j < spec.steps.size(); ++j) {
    const double ticks = spec.steps[j].ticks;
    if (ticks < 0 || ticks > 0) truth.steps.push_back({ticks, span.step_ticks[j]});
  }
  std::stable_sort(truth.steps.begin(), truth.steps.end(),
                   [](const TrueStep& x, const TrueStep& y) { return x.tick < y.tick; });
  // The steps taken by true time t: the model's sum over the steps with t >= T_step.
  const auto steps_by = [&](double t) {
    double sum = 0;
    for (const TrueStep& step : truth.steps) sum += t >= static_cast<double>(step.tick) ? step.ticks : 0.0;
    return sum;
  };
  const auto theta = [&](double t) { return spec.offset_ticks + slope * (t - t_ref) + steps_by(t); };
  truth.t_ref_tick = static_cast<std::uint64_t>(t_ref);
  truth.offset_ticks_at_ref = spec.offset_ticks + steps_by(t_ref);
  truth.drift_ppb = spec.drift_ppb;
  truth.quantum_ticks = q;
  truth.phase_a_ticks = gen.phase_a();
  truth.phase_b_ticks = gen.phase_b();
  truth.early_t2.resize(n);
  truth.early_t4.resize(n);
  truth.min_fwd_delay_ticks = truth.min_rev_delay_ticks = std::numeric_limits<double>::infinity();
  truth.max_fwd_delay_ticks = truth.max_rev_delay_ticks = -std::numeric_limits<double>::infinity();

  Run run;
  run.header.set("schema", std::string(kRunSchema));
  run.header.set("a", "0");
  run.header.set("b", "1");
  run.header.set("send", "simulated");
  run.header.set("recv", "simulated");
  run.header.set("transport", "simulated");
  run.header.set("tsc_hz", std::to_string(static_cast<std::uint64_t>(std::llround(spec.tsc_hz))));
  if (spec.include_quantum_metadata) run.header.set("quantum_ticks", std::to_string(q));
  run.header.set("simulated", "yes");
  run.header.set("seed", std::to_string(spec.seed));

  run.rounds.reserve(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    const TrueRound r = gen.next();
    const double t2_true = r.t2 - r.early_t2_ticks;
    Round round;
    round.seq = i & kMaxSeq;  // simulate() refuses more rounds than that
    round.t1 = read_counter(r.t1, truth.phase_a_ticks, q, "a");
    round.t2 = read_counter(t2_true + theta(t2_true), truth.phase_b_ticks, q, "b");
    round.t3 = read_counter(r.t3 + theta(r.t3), truth.phase_b_ticks, q, "b");
    round.t4 = read_counter(r.t4 - r.early_t4_ticks, truth.phase_a_ticks, q, "a");
    run.rounds.push_back(round);
    truth.backwards_a_count += diff_ticks(round.t4, round.t1) < 0 ? 1U : 0U;
    truth.backwards_b_count += diff_ticks(round.t3, round.t2) < 0 ? 1U : 0U;

    truth.early_t2[i] = r.early_t2 ? 1 : 0;
    truth.early_t4[i] = r.early_t4 ? 1 : 0;
    truth.early_t2_count += r.early_t2 ? 1 : 0;
    truth.early_t4_count += r.early_t4 ? 1 : 0;
    truth.min_fwd_delay_ticks = std::min(truth.min_fwd_delay_ticks, r.fwd_delay);
    truth.max_fwd_delay_ticks = std::max(truth.max_fwd_delay_ticks, r.fwd_delay);
    truth.min_rev_delay_ticks = std::min(truth.min_rev_delay_ticks, r.rev_delay);
    truth.max_rev_delay_ticks = std::max(truth.max_rev_delay_ticks, r.rev_delay);
  }

  run.trailer.set("rounds_written", std::to_string(n));
  run.trailer.set("status", std::string(kStatusComplete));
  return run;
}

double true_offset_ticks(const SimulationTruth& truth, double a_tick) {
  const double ref = static_cast<double>(truth.t_ref_tick);
  // The line before every step, at t_ref: offset_ticks_at_ref holds the steps up to t_ref.
  double theta = truth.offset_ticks_at_ref + truth.drift_ppb * 1e-9 * (a_tick - ref);
  for (const TrueStep& step : truth.steps) {
    const auto at = static_cast<double>(step.tick);
    theta += (a_tick >= at ? step.ticks : 0.0) - (ref >= at ? step.ticks : 0.0);
  }
  return theta;
}

nlohmann::ordered_json delay_spec_json(const DelaySpec& d) {
  return {{"base_ticks", d.base_ticks},
          {"exp_mean_ticks", d.exp_mean_ticks},
          {"tail_fraction", d.tail_fraction},
          {"tail_scale_ticks", d.tail_scale_ticks},
          {"tail_alpha", kTailAlpha}};
}

nlohmann::ordered_json speculation_spec_json(const SpeculationSpec& s) {
  return {{"rate", s.rate}, {"early_min_ticks", s.early_min_ticks}, {"early_max_ticks", s.early_max_ticks}};
}

namespace {

/// The first step, as the truth's "step" object has always given it.
nlohmann::ordered_json first_step_json(const SimulationTruth& truth) {
  const bool present = !truth.steps.empty();
  return {{"present", present},
          {"step_ticks", present ? truth.steps.front().ticks : 0.0},
          {"step_tick", present ? truth.steps.front().tick : std::uint64_t{0}}};
}

nlohmann::ordered_json steps_json(const SimulationTruth& truth) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const TrueStep& step : truth.steps) out.push_back({{"step_ticks", step.ticks}, {"step_tick", step.tick}});
  return out;
}

}  // namespace

nlohmann::ordered_json simulation_truth_json(const SimulationTruth& truth) {
  return {
      {"offset_ticks_at_ref", truth.offset_ticks_at_ref},
      {"t_ref_tick", truth.t_ref_tick},
      {"drift_ppb", truth.drift_ppb},
      {"quantum_ticks", truth.quantum_ticks},
      {"phase_a_ticks", truth.phase_a_ticks},
      {"phase_b_ticks", truth.phase_b_ticks},
      {"step", first_step_json(truth)},
      {"steps", steps_json(truth)},
      {"early_t2_count", truth.early_t2_count},
      {"early_t4_count", truth.early_t4_count},
      {"backwards_a_count", truth.backwards_a_count},
      {"backwards_b_count", truth.backwards_b_count},
      {"fwd_delay_ticks", {{"min", truth.min_fwd_delay_ticks}, {"max", truth.max_fwd_delay_ticks}}},
      {"rev_delay_ticks", {{"min", truth.min_rev_delay_ticks}, {"max", truth.max_rev_delay_ticks}}},
  };
}

namespace {

nlohmann::ordered_json spec_steps_json(const std::vector<SimulatedStep>& steps) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const SimulatedStep& step : steps) out.push_back({{"ticks", step.ticks}, {"at_fraction", step.at_fraction}});
  return out;
}

}  // namespace

nlohmann::ordered_json truth_json(const SimulationSpec& spec, const SimulationTruth& truth) {
  nlohmann::ordered_json s = {
      {"rounds", spec.rounds},
      {"seed", spec.seed},
      {"start_tick", spec.start_tick},
      {"offset_ticks", spec.offset_ticks},
      {"drift_ppb", spec.drift_ppb},
      {"quantum_ticks", spec.quantum_ticks},
      {"fwd", delay_spec_json(spec.fwd)},
      {"rev", delay_spec_json(spec.rev)},
      {"turnaround_base_ticks", spec.turnaround_base_ticks},
      {"turnaround_exp_mean_ticks", spec.turnaround_exp_mean_ticks},
      {"gap_ticks", spec.gap_ticks},
      {"gap_exp_mean_ticks", spec.gap_exp_mean_ticks},
      {"spec_a", speculation_spec_json(spec.spec_a)},
      {"spec_b", speculation_spec_json(spec.spec_b)},
      {"steps", spec_steps_json(spec.steps)},
      {"tsc_hz", spec.tsc_hz},
      {"include_quantum_metadata", spec.include_quantum_metadata},
  };
  return {
      {"schema", std::string(kSimulationTruthSchema)}, {"spec", std::move(s)}, {"truth", simulation_truth_json(truth)}};
}

}  // namespace tscaudit
