// `tscaudit monitor`: one ordered pair, measured until a duration ends or a signal comes,
// kept as an interval log (analysis/formats/interval_log.hpp) in memory that does not grow.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "measure/exchange.hpp"

namespace tscaudit {

/// Rounds the queue between the measuring thread and the aggregator holds by default:
/// 2^18 rounds of 40 bytes (10 MiB), several times what the fastest pair makes between
/// two of the aggregator's wake-ups.
inline constexpr std::size_t kDefaultMonitorQueueRounds = std::size_t{1} << 18;

struct MonitorOptions {
  int cpu_a = 0;
  int cpu_b = 1;
  ExchangeChoice choice;                    // send and receive variants (the slot transport always)
  double interval_s = 1.0;                  // length of one interval of the log, seconds
  double duration_s = 0;                    // 0: until SIGINT or SIGTERM
  /// The fraction of every interval measured, from its start; the threads sleep the rest
  /// (0 < duty <= 1; 1: they spin all the time).
  double duty = 1.0;
  std::string out;                          // the interval log; "-" writes standard output
  std::chrono::milliseconds timeout{2000};  // a's longest wait for a reply while it runs
  std::size_t queue_rounds = kDefaultMonitorQueueRounds;
  std::string command_line;  // as typed, for provenance
  /// Metrics for Prometheus, rewritten (aside, then renamed) after every interval; "" none.
  std::string openmetrics;
  bool openmetrics_histogram = false;  // with them, the round-trip histogram
};

/// Measures, writes the log interval by interval (each line flushed to disk), and prints
/// a summary to stderr. The log is written to OUT.partial and renamed to OUT when the run
/// ends: complete, interrupted (SIGINT/SIGTERM: the open interval is written, the trailer
/// says which signal), or aborted by a fault (a partner that stops answering, a CPU taken
/// away, a counter that jumps), whose trailer holds the error.
/// \returns 0 for a complete or interrupted run, 3 for an aborted one.
/// \throws UsageError (bad CPUs, same CPU twice), UnsupportedError (variant), IoError (the
///         log cannot be created or written: the message names the path and the reason;
///         the intervals written so far stay in OUT.partial).
int run_monitor(const MonitorOptions& options);

}  // namespace tscaudit
