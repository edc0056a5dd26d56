#include "pair/summary.hpp"

#include <algorithm>
#include <limits>

namespace tscaudit {

std::int64_t median_rtt_ticks(std::span<const Round> rounds) {
  if (rounds.empty()) return 0;
  std::vector<std::int64_t> rtts;
  rtts.reserve(rounds.size());
  for (const Round& r : rounds) rtts.push_back(rtt_ticks(r));
  const auto mid = rtts.begin() + static_cast<std::ptrdiff_t>((rtts.size() - 1) / 2);
  std::nth_element(rtts.begin(), mid, rtts.end());
  return *mid;
}

std::uint64_t flag_stalls(std::span<Round> rounds) {
  const std::int64_t median = median_rtt_ticks(rounds);
  if (median <= 0) return 0;
  const std::int64_t limit = median * kStallRttFactor;
  std::uint64_t n = 0;
  for (Round& r : rounds) {
    if (rtt_ticks(r) > limit) {
      r.flags |= kFlagStall;
      ++n;
    }
  }
  return n;
}

RunSummary summarize(std::span<const Round> rounds) {
  RunSummary s;
  s.rounds = rounds.size();
  s.rtt_min_ticks = std::numeric_limits<std::int64_t>::max();
  s.fwd_min_ticks = std::numeric_limits<std::int64_t>::max();
  s.rev_min_ticks = std::numeric_limits<std::int64_t>::max();
  for (const Round& r : rounds) {
    const std::int64_t fwd = fwd_ticks(r);
    const std::int64_t rev = rev_ticks(r);
    const std::int64_t rtt = rtt_ticks(r);
    s.rtt_min_ticks = std::min(s.rtt_min_ticks, rtt);
    s.fwd_min_ticks = std::min(s.fwd_min_ticks, fwd);
    s.rev_min_ticks = std::min(s.rev_min_ticks, rev);
    s.fwd_negative += fwd < 0;
    s.rev_negative += rev < 0;
    s.rtt_negative += rtt < 0;
    s.flagged += r.flags != 0;
    s.stalls += (r.flags & kFlagStall) != 0;
  }
  s.rtt_p50_ticks = median_rtt_ticks(rounds);
  s.span_ticks = diff_ticks(rounds.back().t4, rounds.front().t1);
  return s;
}

}  // namespace tscaudit
