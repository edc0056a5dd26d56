// Writers for MonitorAnalysis: text for a person (analysis_output's style), JSON
// ("tscaudit-monitor-analysis/1", one object per log), CSV with one row per interval, and
// the time series that plots/monitor_timeseries.gp draws.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "formats/interval_log.hpp"
#include "monitor/interval_analysis.hpp"

namespace tscaudit {

inline constexpr std::string_view kMonitorAnalysisSchema = "tscaudit-monitor-analysis/1";

/// The status and the verdict first, then the evidence: band, drift, sweep, pieces and
/// steps, totals, the worst intervals, memory.
std::string monitor_text(const MonitorAnalysis& m);

/// {"schema": "tscaudit-monitor-analysis/1", "source", ...}: everything but the
/// per-interval rows (those are the CSV).
nlohmann::ordered_json monitor_json(const MonitorAnalysis& m);

/// The CSV header row (monitor_csv_rows's columns).
std::string monitor_csv_header();
/// One row per interval: the log's figures and the analysis's band, estimate and line.
/// \pre `log` is the log `m` was made from.
std::string monitor_csv_rows(const MonitorAnalysis& m, const IntervalLog& log);

/// plots/monitor_timeseries.gp's input: "# key: value" lines (title, xlabel, k, the
/// offset axis range, the steps' and bends' times), then one row per interval,
/// whitespace-separated, in the columns that script documents. Time is seconds into the
/// run (the interval's middle), or the interval number without the frequency.
/// \pre `log` is the log `m` was made from.
std::string monitor_timeseries_dat(const MonitorAnalysis& m, const IntervalLog& log);

}  // namespace tscaudit
