// What a running monitor writes as each interval ends: the interval log's line (with the
// interference the kernel saw), the warnings and the progress line on stderr, and the
// metrics for Prometheus (--openmetrics). The words are render/monitor_run_text.hpp's; the
// totals are monitor/monitor_run.hpp's.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "app/monitor_options.hpp"
#include "app/progress.hpp"
#include "core/interval_summary.hpp"
#include "core/run.hpp"
#include "io/output_file.hpp"
#include "monitor/monitor_run.hpp"
#include "monitor/rtt_buckets.hpp"
#include "render/openmetrics_output.hpp"

namespace tscaudit {

/// `--openmetrics FILE`: the metrics for Prometheus, rewritten whole (aside, then renamed)
/// after every interval, so node_exporter's textfile collector never reads half a file
/// (docs/fleets.md, "Metrics for Prometheus"). Without a path it does nothing.
class MetricsWriter {
 public:
  /// \param hz  the counter's frequency (known: the monitor runs only where it is).
  MetricsWriter(const MonitorOptions& o, double hz);
  /// A run that ends on an error says so as it can: running 0. Never throws.
  ~MetricsWriter();
  MetricsWriter(const MetricsWriter&) = delete;
  MetricsWriter& operator=(const MetricsWriter&) = delete;

  void set_quantum(std::int64_t quantum_ticks) { state_.quantum_ticks = quantum_ticks; }

  /// One round of the log's intervals, for the round-trip histogram (when asked for).
  void record(const Round& r);

  /// After each interval written to the log. \throws IoError.
  void interval(const IntervalSummary& s, const MonitorTotals& totals);

  /// The last rewrite: the run has ended. \throws IoError.
  void finish();

  /// Writes the file as it stands. \throws IoError.
  void write() const;

 private:
  std::string path_;
  MonitorMetricsState state_;
  std::optional<RttBuckets> rtt_;
};

/// What happens to each finished interval: the interference the kernel saw is added, the
/// line goes to disk, and the totals, warnings and progress follow.
class IntervalWriter {
 public:
  /// \param tid_a, tid_b  the measuring threads, whose context switches each line counts.
  /// \param interval_count  planned, for the progress line; 0: until a signal.
  IntervalWriter(OutputFile& out, MetricsWriter& metrics, long tid_a, long tid_b, std::uint64_t interval_count);

  /// A stall the aggregator saw (it woke this late); it goes into the next interval written.
  void note_stall(std::uint64_t ms) { stall_pending_ms_ = std::max(stall_pending_ms_, ms); }

  /// Fills in the interference fields and writes. \throws IoError.
  void write(IntervalSummary& s);

  [[nodiscard]] const MonitorRunTotals& totals() const { return totals_; }
  /// Erases the progress line, for the summary.
  void end_progress() { progress_.clear(); }

 private:
  OutputFile& out_;
  MetricsWriter& metrics_;
  long tid_a_;
  long tid_b_;
  std::uint64_t switches_a_;
  std::uint64_t switches_b_;
  std::uint64_t stall_pending_ms_ = 0;
  MonitorRunTotals totals_;
  Progress progress_;
};

}  // namespace tscaudit
