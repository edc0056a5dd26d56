// What `tscaudit monitor` is asked to do: the options the command line builds and the
// command, its aggregator (monitor_aggregator) and its writers (monitor_writers) read.
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

}  // namespace tscaudit
