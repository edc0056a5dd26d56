#include "app/monitor_aggregator.hpp"

#include <time.h>

#include <optional>
#include <string>
#include <tuple>

#include "app/stop_signals.hpp"
#include "core/errors.hpp"
#include "platform/affinity.hpp"

namespace tscaudit {
namespace {

/// A wake-up later than its period by more than this is a stall worth recording: the
/// aggregator (and so, most likely, the whole process) did not run.
constexpr std::chrono::milliseconds kStallNotice{100};

/// Sleeps `period`, or less when a signal comes (nanosleep returns EINTR: no restart).
void nap(std::chrono::milliseconds period) {
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(period).count();
  timespec ts{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
  ::nanosleep(&ts, nullptr);
}

/// Why a measuring thread no longer runs on its CPU, seen in its affinity mask by tid (a CPU
/// taken away shows there at once, before the thread is moved); nullopt while both are
/// where they belong, or when a thread has ended on its own error (abort set).
std::optional<std::string> cpu_taken_away(const MonitorOptions& o, MonitorThreads& threads) {
  for (const auto& [tid, cpu, role] :
       {std::tuple{threads.a().tid, o.cpu_a, "initiator"}, std::tuple{threads.b().tid, o.cpu_b, "responder"}}) {
    std::vector<int> mask;
    try {
      mask = thread_affinity(tid);
    } catch (const RuntimeError& e) {
      if (threads.control().abort.load()) return std::nullopt;
      return e.what();
    }
    if (mask != std::vector<int>{cpu}) {
      std::string now_cpus;
      for (int c : mask) now_cpus += (now_cpus.empty() ? "" : ",") + std::to_string(c);
      return "CPU " + std::to_string(cpu) + " was taken away from the " + role + " thread: its affinity is now " +
             (now_cpus.empty() ? "empty" : now_cpus) +
             " (taskset or a cgroup cpuset changed it); the pair is no longer the one asked for";
    }
  }
  return std::nullopt;
}

}  // namespace

void wait_for_threads(MonitorThreads& threads) {
  MonitorControl& control = threads.control();
  while (control.ready.load() < 2) {
    if (control.abort.load()) {
      threads.join();
      throw RuntimeError(threads.error());
    }
    if (const int s = StopSignals::caught()) {
      threads.join();
      throw RuntimeError("interrupted by " + signal_name(s) + " before the first round; no log was written");
    }
    nap(std::chrono::milliseconds(1));
  }
}

MonitorAggregator::MonitorAggregator(const MonitorOptions& o, double hz, MonitorThreads& threads,
                                     IntervalSequencer& sequencer, IntervalWriter& writer, MetricsWriter& metrics)
    : o_(o),
      hz_(hz),
      threads_(threads),
      sequencer_(sequencer),
      writer_(writer),
      metrics_(metrics),
      batch_(8192),
      period_(monitor_wake_period(o.interval_s)) {}

MonitorEnd MonitorAggregator::run() {
  const auto grace_ticks =
      static_cast<std::uint64_t>(std::chrono::duration<double>(2 * period_ + kStallNotice).count() * hz_);
  MonitorEnd end;
  last_seen_ = Clock::now();
  while (end.ending == MonitorEnding::running) {
    nap(period_);
    const Clock::time_point now = watch_clock();
    drain();
    if (sequencer_.started()) {
      // a's counter now, estimated from the first round's t1 and the steady clock: it
      // closes the intervals in which no round came (a stall, a stopped process).
      const double since_s = std::chrono::duration<double>(now - first_seen_).count();
      sequencer_.close_due(first_tick_ + static_cast<std::uint64_t>(since_s * hz_), grace_ticks);
    }
    end = check_end();
  }
  return end;
}

void MonitorAggregator::drain_rest() {
  last_seen_ = Clock::now();
  drain();
}

/// Moves what the queue holds into the sequencer, and the rounds a counted lost.
void MonitorAggregator::drain() {
  while (true) {
    // The clock is watched before each batch as well: a stop that lands while this loop
    // runs is noted before the rounds after it close their interval, the last one too.
    watch_clock();
    const std::size_t n = threads_.queue().pop(batch_.data(), batch_.size());
    if (n == 0) break;
    if (!sequencer_.started()) {
      first_seen_ = Clock::now();
      first_tick_ = batch_[0].t1;
    }
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t recorded = sequencer_.rounds_recorded();
      sequencer_.add(batch_[i]);
      // The histogram counts the rounds of the log's intervals, not those after the end.
      if (sequencer_.rounds_recorded() != recorded) metrics_.record(batch_[i]);
    }
  }
  const std::uint64_t lost = threads_.control().lost.load(std::memory_order_relaxed);
  sequencer_.add_lost(lost - lost_seen_);
  lost_seen_ = lost;
}

/// Notes a stall when the steady clock moved more than a period (plus the notice) since
/// the aggregator last looked: it did not run meanwhile. \returns the time now.
MonitorAggregator::Clock::time_point MonitorAggregator::watch_clock() {
  const Clock::time_point now = Clock::now();
  if (now - last_seen_ > period_ + kStallNotice) {
    const auto late = std::chrono::duration_cast<std::chrono::milliseconds>(now - last_seen_ - period_);
    writer_.note_stall(static_cast<std::uint64_t>(late.count()));
  }
  last_seen_ = now;
  return now;
}

MonitorEnd MonitorAggregator::check_end() {
  if (sequencer_.done()) return {MonitorEnding::complete, "", ""};
  if (const int s = StopSignals::caught()) return {MonitorEnding::interrupted, signal_name(s), ""};
  if (threads_.control().abort.load()) return {MonitorEnding::aborted, "", ""};
  if (auto error = cpu_taken_away(o_, threads_)) return {MonitorEnding::aborted, "", *error};
  if (threads_.control().abort.load()) return {MonitorEnding::aborted, "", ""};
  return {};
}

}  // namespace tscaudit
