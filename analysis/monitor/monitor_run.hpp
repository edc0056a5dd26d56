// What a running monitor (`tscaudit monitor`) decides apart from its threads, files and
// clocks: how often its aggregator wakes up, the totals it keeps as the intervals come, how
// the run ended, the log's trailer and the exit code. Pure: the command, its aggregator and
// its writers (src/app/monitor_*.cpp) measure and write; render/monitor_run_text.hpp words it.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "core/interval_summary.hpp"
#include "core/run.hpp"
#include "monitor/interval_analysis.hpp"
#include "monitor/interval_sequencer.hpp"

namespace tscaudit {

/// How often the aggregator wakes up to empty the queue: a tenth of an interval, between
/// 1 and 20 ms. On a machine whose every CPU measures, each wake-up takes a CPU from a
/// measuring thread for a moment (it shows in switches_a/switches_b); at 20 ms the queue
/// (kDefaultMonitorQueueRounds) still holds several times the rounds that come meanwhile.
std::chrono::milliseconds monitor_wake_period(double interval_s);

/// Stalls this long (the aggregator woke this late) are announced on stderr as they happen.
inline constexpr std::uint64_t kStallWarnMs = 1000;

/// What the summary at the end says: the totals of the intervals written, and the peak
/// resident set after the first and the last of them (memory that does not grow).
struct MonitorRunTotals : MonitorTotals {
  std::uint64_t first_peak_rss_kib = 0;
  std::uint64_t last_peak_rss_kib = 0;
};

/// Adds one interval written to the log (its peak_rss_kib filled in).
void add_written_interval(MonitorRunTotals& totals, const IntervalSummary& interval);

enum class MonitorEnding { running, complete, interrupted, aborted };

/// How a run ended: the kind, the signal that interrupted it ("SIGINT"), the fault that
/// aborted it.
struct MonitorEnd {
  MonitorEnding ending = MonitorEnding::running;
  std::string signal;
  std::string error;
};

/// What the log's trailer says besides the sequencer's counts.
struct MonitorTrailerFacts {
  std::string end_utc;
  std::uint64_t intervals = 0;  // written
  std::uint64_t self_stalls_a = 0;
  std::uint64_t self_stalls_b = 0;
};

/// The interval log's trailer (docs/formats.md, "The interval log"): the end, the counts, and
/// the status with the signal or the error. A run still `running` is written complete.
Metadata monitor_trailer(const MonitorEnd& end, const MonitorTrailerFacts& facts, const IntervalSequencer& sequencer);

/// 0 for a complete or interrupted run, 3 (kExitRuntime) for an aborted one.
int monitor_exit_code(const MonitorEnd& end);

}  // namespace tscaudit
