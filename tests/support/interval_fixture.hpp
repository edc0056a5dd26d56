// Interval logs with known truth, for the tests: simulated rounds (simulate.hpp) cut into
// intervals by t1 and summarised by sorting, the plain reference the monitor's
// accumulator must agree with. Slow and obvious on purpose.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/histogram.hpp"
#include "core/run.hpp"
#include "formats/interval_log.hpp"
#include "simulate/simulate.hpp"

namespace tscaudit {

/// b's counter jumps by `ticks` from a's tick `at_tick` on: t2 and t3 of every round whose
/// t1 is at or after it move (a whole number of quanta keeps the reads on b's lattice).
inline void add_offset_step(Run& run, std::uint64_t at_tick, std::int64_t ticks) {
  for (Round& r : run.rounds) {
    if (r.t1 < at_tick) continue;
    r.t2 = static_cast<std::uint64_t>(static_cast<std::int64_t>(r.t2) + ticks);
    r.t3 = static_cast<std::uint64_t>(static_cast<std::int64_t>(r.t3) + ticks);
  }
}

/// One interval's summary of `rounds` (all of whose t1 lie in [start, end)), by sorting.
inline IntervalSummary summarise_by_sorting(std::uint64_t index, std::uint64_t start, std::uint64_t end,
                                            const std::vector<Round>& rounds, std::int64_t quantum_ticks) {
  IntervalSummary s;
  s.index = index;
  s.start_tick = start;
  s.end_tick = end;
  s.rounds = rounds.size();
  std::vector<std::pair<std::int64_t, std::uint64_t>> fwd, rev;  // (latency, at_tick)
  SignedHistogram fwd_h, rev_h, rtt_h;
  for (const Round& r : rounds) {
    fwd.emplace_back(fwd_ticks(r), r.t1);
    rev.emplace_back(rev_ticks(r), r.t4);
    fwd_h.record(fwd_ticks(r));
    rev_h.record(rev_ticks(r));
    rtt_h.record(rtt_ticks(r));
    s.fwd_negative += fwd_ticks(r) < 0 ? 1U : 0U;
    s.rev_negative += rev_ticks(r) < 0 ? 1U : 0U;
    s.self_inconsistent += rtt_ticks(r) < -2 * quantum_ticks ? 1U : 0U;
  }
  // Ties: the earlier round first (a stable sort of rounds in time order).
  std::stable_sort(fwd.begin(), fwd.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::stable_sort(rev.begin(), rev.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  for (std::size_t ki = 0; ki < kIntervalKCount; ++ki) {
    const std::size_t k = kIntervalKs[ki];
    if (fwd.size() >= k) s.fwd_k[ki] = {true, fwd[k - 1].first, fwd[k - 1].second};
    if (rev.size() >= k) s.rev_k[ki] = {true, rev[k - 1].first, rev[k - 1].second};
  }
  if (!rounds.empty()) {
    s.fwd_p50 = fwd_h.value_at_percentile(50);
    s.fwd_max = fwd_h.max();
    s.rev_p50 = rev_h.value_at_percentile(50);
    s.rev_max = rev_h.max();
    s.rtt_min = rtt_h.min();
    s.rtt_p50 = rtt_h.value_at_percentile(50);
    s.rtt_p99 = rtt_h.value_at_percentile(99);
    s.rtt_p999 = rtt_h.value_at_percentile(99.9);
    s.rtt_max = rtt_h.max();
  }
  return s;
}

/// The log of `run` cut into `intervals` equal intervals by t1 over [first t1, last t1]:
/// the run's header (a, b, send, recv, tsc_hz, quantum_ticks) and status complete.
inline IntervalLog interval_log_of(const Run& run, std::size_t intervals) {
  IntervalLog log;
  for (const char* key : {"a", "b", "send", "recv", "tsc_hz", "quantum_ticks"}) {
    if (const auto v = run.header.get(key)) log.header.set(key, std::string(*v));
  }
  std::int64_t q = 1;
  if (const auto v = run.header.get("quantum_ticks")) q = std::stoll(std::string(*v));
  const std::uint64_t first = run.rounds.front().t1;
  const std::uint64_t length = (run.rounds.back().t1 - first) / intervals + 1;
  std::size_t next = 0;
  for (std::size_t i = 0; i < intervals; ++i) {
    const std::uint64_t start = first + i * length, end = start + length;
    std::vector<Round> in;
    while (next < run.rounds.size() && run.rounds[next].t1 < end) in.push_back(run.rounds[next++]);
    log.intervals.push_back(summarise_by_sorting(i, start, end, in, q));
  }
  log.trailer.set("status", std::string(kStatusComplete));
  return log;
}

}  // namespace tscaudit
