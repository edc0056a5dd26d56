// What one read of the clock costs: the pure summary of what src/measure/read_cost.cpp recorded
// for each TSC read variant and for clock_gettime, on one pinned CPU.
//
// Two methods, because they fail differently:
//   - batch: a batch of calls bracketed by two fenced TSC reads, minus the cost of an
//     empty bracket, divided by the calls. Averaging over the batch divides the
//     counter's step away, so it resolves costs far below one step; it cannot show how
//     single calls spread.
//   - deltas: the differences of back-to-back values of the clock itself. Each delta is
//     one call, so the spread is visible, but each is quantized by the counter's step.
//     On a coarse counter the small statistics lie: on AMD Zen (quantum 26, a read
//     inside one step returns the previous value + 1) the deltas of a 35-tick call are
//     26, 52, 25 or 1, so min and median say 1 or 26, not 35. Their mean does not lie:
//     it telescopes to (last - first) / (n - 1), the batch mean of one long batch.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "estimate/quantum.hpp"

namespace tscaudit {

/// What the measurement recorded for one clock on one CPU.
struct ReadCostSamples {
  std::string name;         // variant name ("rdtsc", ...) or "CLOCK_MONOTONIC", "CLOCK_MONOTONIC_RAW"
  bool tsc_variant = true;  // false: a clock_gettime clock, whose values are ns
  std::uint64_t calls_per_batch = 0;
  std::vector<double> batch_ticks_per_call;  // one per batch: (bracketed ticks - empty bracket) / calls_per_batch
  std::vector<std::uint64_t> values;         // back-to-back values of the clock itself, in its own unit (ticks, or ns)
  std::string error;                         // why it was not measured (empty when it was)
};

/// Per call, in ticks. Percentiles are nearest-rank on the sorted samples: the value at
/// the 1-based rank rank_for_percentile(p, samples) = max(1, ceil(p / 100 * samples))
/// (histogram.hpp), so p50 of 4 samples is the 2nd smallest and p99.9 of 1000 the 999th.
/// Every field is a sample (or, for mean, an average of samples), never interpolated.
/// All 0 when samples is 0.
struct CostStats {
  double min = 0, p50 = 0, mean = 0, p99_9 = 0;
  std::uint64_t samples = 0;
};

enum class CostMethod { batch, deltas };

/// The "which to believe" threshold: single deltas are trusted once the per-call cost
/// spans at least this many resolution steps (then quantization moves a delta by at
/// most a tenth of the cost).
inline constexpr double kDeltaResolutionSteps = 10;

struct ReadCost {
  std::string name;
  bool tsc_variant = true;
  CostStats batch_ticks;        // over the batch averages
  CostStats delta_ticks;        // over the back-to-back deltas converted to ticks (ns * tsc_hz / 1e9 for clock_gettime)
  double resolution_ticks = 1;  // TSC: the quantum; clock_gettime: 1 ns in ticks
  QuantumEstimate quantum;      // TSC variants: estimate_quantum(values); clocks: left default
  std::uint64_t backward_deltas = 0;  // back-to-back values that went down: left out of delta_ticks
  CostMethod believe = CostMethod::batch;
  std::string believe_reason;  // one sentence: why `believe`
  std::string error;           // why there is no result (then every statistic is 0)
};

/// Summarizes one clock's samples. Pure.
///
/// - batch_ticks: over the finite entries of batch_ticks_per_call (a NaN or infinity is
///   skipped; a negative entry, possible when a batch beat the empty bracket's minimum
///   by noise, is kept).
/// - delta_ticks: over values[i] - values[i - 1] for every i where the value did not go
///   down; zero deltas (two reads inside one step) are kept. Deltas where it went down
///   are counted in backward_deltas and left out (on one CPU they mean a broken counter
///   or a migration). Clock deltas are ns and are converted with tsc_hz.
/// - resolution_ticks: the TSC quantum (estimate_quantum(values), 1 when there are no
///   values) for a TSC variant; tsc_hz / 1e9 (one ns) for a clock.
/// - believe: with both methods present, deltas when batch_ticks.p50 >=
///   kDeltaResolutionSteps * resolution_ticks (single deltas resolve the cost and show
///   its spread), else batch (the deltas are quantized: their min and p50 are off by up
///   to a step, and on a +1 counter they are 1; the batch average is not). With only one
///   method present, that one.
/// - error: samples.error when set; "nothing was recorded" when there are neither
///   finite batch entries nor two values; for a clock, a tsc_hz that is not finite and
///   > 0 (ns cannot be converted). With an error every statistic is left 0.
ReadCost summarize_read_cost(const ReadCostSamples& samples, double tsc_hz);

/// An aarch64 read of CNTVCT_EL0 costing more than this per call (the believed p50) is
/// trapped: the instruction takes tens of ns where user space may read the counter, and an
/// exception into the kernel, which emulates it (a counter erratum's workaround), takes
/// microseconds.
inline constexpr double kTrappedReadNs = 1000;

/// True for an aarch64 read variant (core/read_variant.hpp) whose believed p50 per call is
/// above kTrappedReadNs at `tsc_hz`. Never for x86-64's reads (cpuid_rdtsc costs
/// microseconds under a hypervisor for another reason: a VM exit) nor clocks.
bool read_looks_trapped(const ReadCost& cost, double tsc_hz);

}  // namespace tscaudit
