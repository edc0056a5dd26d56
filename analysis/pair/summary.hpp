// The short account of one run that `measure` prints: counts, rtt, negative latencies.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/run.hpp"

namespace tscaudit {

/// A round whose rtt is above this many times the median rtt is a stall (kFlagStall):
/// an interrupt, a preempted vCPU, a page walk. Ten times the median sits well above
/// the bulk of the distribution and well below a scheduler tick.
inline constexpr std::int64_t kStallRttFactor = 10;

struct RunSummary {
  std::uint64_t rounds = 0;
  std::int64_t rtt_min_ticks = 0;
  std::int64_t rtt_p50_ticks = 0;  // lower median
  std::int64_t fwd_min_ticks = 0;
  std::int64_t rev_min_ticks = 0;
  std::uint64_t fwd_negative = 0;  // rounds with t2 - t1 < 0
  std::uint64_t rev_negative = 0;  // rounds with t4 - t3 < 0
  std::uint64_t rtt_negative = 0;  // rounds with (t4 - t1) - (t3 - t2) < 0
  std::uint64_t flagged = 0;       // rounds with any interference flag
  std::uint64_t stalls = 0;        // rounds flagged kFlagStall
  std::int64_t span_ticks = 0;     // t4 of the last round minus t1 of the first (a's clock)
};

/// \pre rounds is not empty.
RunSummary summarize(std::span<const Round> rounds);

/// The lower median rtt of `rounds` (0 for none). O(n).
std::int64_t median_rtt_ticks(std::span<const Round> rounds);

/// Sets kFlagStall on every round whose rtt exceeds kStallRttFactor times the median
/// rtt (when the median is positive). Returns how many were flagged.
std::uint64_t flag_stalls(std::span<Round> rounds);

}  // namespace tscaudit
