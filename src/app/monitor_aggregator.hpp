// The monitor's aggregator, on the command's thread: it waits for the measuring threads,
// then wakes every period, moves the queue's rounds into the sequencer (which cuts them into
// intervals, monitor/interval_sequencer.hpp), closes the intervals that are due (also those
// in which no round came), and watches for the end, a signal, a failed thread and a CPU
// taken away.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "app/monitor_options.hpp"
#include "app/monitor_writers.hpp"
#include "core/run.hpp"
#include "measure/monitor_runner.hpp"
#include "monitor/interval_sequencer.hpp"
#include "monitor/monitor_run.hpp"

namespace tscaudit {

/// Waits until both measuring threads are past their setup.
/// \throws RuntimeError when one failed, or when a signal came first (no log is written).
void wait_for_threads(MonitorThreads& threads);

class MonitorAggregator {
 public:
  /// \param hz  the counter's frequency: a's counter is estimated from the steady clock
  ///            while no round comes.
  MonitorAggregator(const MonitorOptions& o, double hz, MonitorThreads& threads, IntervalSequencer& sequencer,
                    IntervalWriter& writer, MetricsWriter& metrics);

  /// Runs until the run ends. \throws RuntimeError from the sequencer (a counter that
  /// jumped); IoError from the writers.
  MonitorEnd run();

  /// What the queue still holds once the threads are joined; the time the join took is
  /// after the run, not a stall in it.
  void drain_rest();

 private:
  using Clock = std::chrono::steady_clock;

  void drain();
  Clock::time_point watch_clock();
  MonitorEnd check_end();

  const MonitorOptions& o_;
  double hz_;
  MonitorThreads& threads_;
  IntervalSequencer& sequencer_;
  IntervalWriter& writer_;
  MetricsWriter& metrics_;
  std::vector<Round> batch_;
  std::chrono::milliseconds period_;
  Clock::time_point last_seen_{};  // when the aggregator last looked at the clock
  Clock::time_point first_seen_{};
  std::uint64_t first_tick_ = 0;
  std::uint64_t lost_seen_ = 0;
};

}  // namespace tscaudit
