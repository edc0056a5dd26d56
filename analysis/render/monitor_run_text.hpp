// What a running monitor (`tscaudit monitor`) says on standard error: the progress line,
// the warning an interval deserves as it is written (a stall, lost rounds), and the summary
// at the end. Pure; monitor/monitor_run.hpp holds what they report.
#pragma once

#include <string>
#include <vector>

#include "core/interval_summary.hpp"
#include "monitor/interval_analysis.hpp"
#include "monitor/monitor_run.hpp"

namespace tscaudit {

/// The run as the summary names it.
struct MonitorRunSetting {
  int cpu_a = 0;
  int cpu_b = 1;
  std::string send;  // read variants, by name
  std::string recv;
  double interval_s = 1.0;
  std::string out;  // the log's path; "-": standard output
  /// The answer: the verdict of the log's analysis, with the offset band over the run
  /// (render/verdict_text.hpp); empty when there is none (the log went to standard output).
  std::string answer = {};
  /// The counter's frequency (Hz): the longest rtt is given in time as well; 0 when unknown.
  double tsc_hz = 0;
};

/// "interval 12, 34000 rounds, fwd<0 0, rev<0 0, lost 0": what the progress line shows.
std::string monitor_progress_text(const MonitorTotals& totals);

/// The warnings of an interval as it is written, one line each with its line end: a stall
/// of kStallWarnMs or more, rounds lost (the queue was full). Empty when it has none.
std::vector<std::string> interval_warnings(const IntervalSummary& interval);

/// The summary at the end, its answer first: the verdict over the run (the offset band and
/// any step), or why there is none; then the pair and its variants, the intervals, rounds,
/// negative latencies, longest rtt and pause (time nothing ran), the peak resident set, and
/// what was written with which status (an aborted run's error first). Fits 100 columns.
std::string monitor_summary_text(const MonitorRunSetting& setting, const MonitorEnd& end,
                                 const MonitorRunTotals& totals);

}  // namespace tscaudit
