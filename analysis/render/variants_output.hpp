// Writers for `tscaudit variants`: text a person reads in ten seconds, JSON per the
// contract ("tscaudit-variants/1"), and the gnuplot inputs of plots/variants_*.gp.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/run.hpp"
#include "core/warning.hpp"
#include "variants/read_cost_summary.hpp"
#include "variants/variants.hpp"

namespace tscaudit {

inline constexpr std::string_view kVariantsSchema = "tscaudit-variants/1";

/// The run that switches its receive read half-way (plain rdtsc on both sides, then an
/// ordering receive read), as the two halves' runs.
struct SwitchRun {
  Combination first;
  Combination second;
  Run first_run;
  Run second_run;
  std::string problem;  // why it is missing or incomplete; empty when fine
};

/// Everything `variants` found, for the writers.
struct VariantsResult {
  int cpu_a = 0;
  int cpu_b = 1;
  double tsc_hz = 0;
  std::int64_t quantum_ticks = 1;
  std::uint64_t rounds_per_combination = 0;  // asked for: both roles together
  std::uint64_t passes = 0;                  // each combination's rounds are split over these
  std::vector<ReadCost> read_costs;          // on cpu_a: the TSC variants, then the clocks
  std::vector<ExchangeSummary> exchanges;
  std::vector<ReferenceBand> reference_bands;  // per role, from the ordering receive reads
  std::optional<ControlSummary> control;
  std::optional<SwitchRun> switch_run;
  VariantsVerdict verdict;
  std::vector<Warning> warnings;  // the platform warnings that weaken the answer (weakening: VM, clocksource ...)
  std::vector<std::string> problems;  // visits that failed, parts left out
  std::vector<std::string> left_out;  // variants this CPU cannot run (no RDTSCP, no FEAT_ECV), each with
                                      // why: what the machine is, not a problem of the measurement
};

/// The read-cost table, the exchange table, the control, then the findings.
std::string variants_text(const VariantsResult& r);

/// {"schema": "tscaudit-variants/1", "cpus", "tsc_hz", "quantum_ticks", "read_cost": [...],
///  "exchange": [...], "control", "recommendation", "findings", "warnings", "problems"}, and
///  "left_out" where a variant could not run here.
nlohmann::ordered_json variants_json(const VariantsResult& r);

/// The percentiles the curves are drawn at: a fine grid up to 90 %, then each decade of
/// the tail (99, 99.9 ...) with its half-way point, as long as a sample lies beyond it.
std::vector<double> curve_percentiles(std::uint64_t samples);

/// plots/variants_cost.gp input: one row per clock (name p50 min mean p99.9 method, the
/// believed method's figures in ticks).
std::string cost_dat(const std::vector<ReadCost>& costs, int cpu, double tsc_hz);

/// plots/variants_tradeoff.gp input: one row per receive variant measured with a plain
/// send (its cost, its violations per million one-way latencies).
std::string tradeoff_dat(const std::vector<ReadCost>& costs, const std::vector<ExchangeSummary>& exchanges);

/// plots/variants_percentiles.gp input: one block per combination, the one-way latency at
/// each curve percentile.
std::string percentiles_dat(const std::vector<ExchangeSummary>& exchanges, int cpu_a, int cpu_b);

/// plots/variants_switch.gp input: per time bin of each half (bins_per_half bins), the
/// minimum and median forward and reverse latency and the minimum rtt, time in ms from
/// the first round's t1 (on a's counter). \pre tsc_hz > 0; both runs have rounds.
std::string switch_dat(const SwitchRun& s, int cpu_a, int cpu_b, double tsc_hz, std::size_t bins_per_half = 200);

}  // namespace tscaudit
