// The read cost of every TSC read variant and of clock_gettime, measured on one pinned
// CPU (`tscaudit variants`). The summary (statistics, which method to believe) is pure
// and lives in analysis/variants/read_cost_summary.hpp; this is the measurement that feeds it.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

// The pure half has the same file name; a relative path names it whatever the include
// order, so "read_cost.hpp" from anywhere gives both halves.
#include "measure/variant.hpp"
#include "variants/read_cost_summary.hpp"

namespace tscaudit {

struct ReadCostConfig {
  std::uint64_t calls_per_batch = 256;
  std::uint64_t batches = 2000;        // at most; fewer if the time budget runs out
  std::uint64_t delta_reads = 100000;  // back-to-back values recorded, at most
  double budget_seconds_per_clock =
      0.05;  // cap per clock (cpuid_rdtsc under KVM costs microseconds per call: a VM exit)
};

/// At least this many batches per clock, whatever the budget says (unless
/// ReadCostConfig::batches is smaller): fewer would make p50 rest on a handful.
inline constexpr std::uint64_t kMinReadCostBatches = 20;
/// At least this many back-to-back values per clock (unless delta_reads is smaller).
inline constexpr std::uint64_t kMinReadCostDeltaReads = 1000;
/// Empty brackets timed for the bracket's own cost (its minimum is subtracted).
inline constexpr int kEmptyBracketTries = 1000;

/// Pins the calling thread to `cpu` (restoring the previous affinity afterwards, also
/// when it throws), measures every variant in `variants` in that order and then
/// CLOCK_MONOTONIC and CLOCK_MONOTONIC_RAW: one ReadCostSamples each, in that order.
///
/// Per clock:
///  - batches: `calls_per_batch` calls bracketed by two counter::BracketRead reads; each
///    entry is (bracket - the minimum of kEmptyBracketTries empty brackets) / calls.
///    The first batch is a warm-up that also times the call: the number of batches is
///    min(config.batches, max(kMinReadCostBatches, what fits in half the budget)), and
///    the loop stops early once that half is spent (never below kMinReadCostBatches).
///  - values: as many back-to-back values as fit in the rest of the budget at the cost
///    the batches saw, between kMinReadCostDeltaReads and config.delta_reads, into an
///    array allocated and pre-faulted before the loop. No clock is read inside the loop
///    except the one measured.
/// So a clock takes about budget_seconds_per_clock, more only when the minimum counts
/// need more (cpuid_rdtsc under a slow hypervisor).
///
/// \pre Only variants this CPU can execute are passed (variant_unsupported: RDTSCP, FEAT_ECV,
///      the architecture); the caller filters them. As a guard, any other variant gets an
///      `error` instead of being executed.
/// \throws UsageError when calls_per_batch or batches is 0, delta_reads is below 2 or the
///         budget is not a number > 0; RuntimeError when pinning (or reading the affinity mask) fails.
std::vector<ReadCostSamples> measure_read_costs(int cpu, std::span<const Variant> variants,
                                                const ReadCostConfig& config);

}  // namespace tscaudit
