#include "app/monitor_command.hpp"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "app/progress.hpp"
#include "app/stop_signals.hpp"
#include "core/errors.hpp"
#include "core/format.hpp"
#include "estimate/quantum.hpp"
#include "formats/interval_log.hpp"
#include "formats/output_file.hpp"
#include "measure/monitor_threads.hpp"
#include "measure/pair_run.hpp"
#include "monitor/interval_analysis.hpp"
#include "monitor/interval_sequencer.hpp"
#include "platform/affinity.hpp"
#include "platform/platform.hpp"
#include "platform/process_stats.hpp"
#include "render/exposition.hpp"
#include "render/openmetrics_output.hpp"
#include "version.hpp"

namespace tscaudit {
namespace {

using Clock = std::chrono::steady_clock;

/// Where the log grows until the run ends (then it is renamed to the name asked for).
constexpr const char* kPartialSuffix = ".partial";

/// A wake-up later than its period by more than this is a stall worth recording: the
/// aggregator (and so, most likely, the whole process) did not run.
constexpr std::chrono::milliseconds kStallNotice{100};

/// Stalls this long are also announced on stderr as they happen.
constexpr std::uint64_t kStallWarnMs = 1000;

/// How often the aggregator wakes up to empty the queue: a tenth of an interval, between
/// 1 and 20 ms. On a machine whose every CPU measures, each wake-up takes a CPU from a
/// measuring thread for a moment (it shows in switches_a/switches_b); at 20 ms the queue
/// (kDefaultMonitorQueueRounds) still holds several times the rounds that come meanwhile.
std::chrono::milliseconds wake_period(double interval_s) {
  const double ms = std::clamp(interval_s * 1000.0 / 10.0, 1.0, 20.0);
  return std::chrono::milliseconds(static_cast<long>(ms));
}

/// Sleeps `period`, or less when a signal comes (nanosleep returns EINTR: no restart).
void nap(std::chrono::milliseconds period) {
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(period).count();
  timespec ts{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
  ::nanosleep(&ts, nullptr);
}

/// What the summary on stderr says at the end: the totals of the analysis, and the peak
/// resident set after the first and the last interval (memory that does not grow).
struct Totals : MonitorTotals {
  std::uint64_t first_peak_rss_kib = 0;
  std::uint64_t last_peak_rss_kib = 0;
};

enum class Ending { running, complete, interrupted, aborted };

/// How a run ended: the kind, the signal that interrupted it, the fault that aborted it.
struct RunEnd {
  Ending ending = Ending::running;
  int signal = 0;
  std::string error;
};

/// The interval length in ticks and the planned count, for validated CPUs and variants.
struct MonitorPlan {
  PlatformFacts platform;
  double hz = 0;
  std::uint64_t interval_ticks = 0;
  std::uint64_t interval_count = 0;  // 0: until a signal
};

MonitorPlan plan_monitor(const MonitorOptions& o) {
  if (o.cpu_a == o.cpu_b) {
    throw UsageError("--cpus " + std::to_string(o.cpu_a) + "," + std::to_string(o.cpu_b) +
                     ": monitor needs two different CPUs (its threads spin)");
  }
  const CpuAvailability cpus = read_cpu_availability();
  for (int cpu : {o.cpu_a, o.cpu_b}) {
    if (auto problem = cpu_problem(cpu, cpus)) throw UsageError(*problem);
  }
  MonitorPlan plan;
  plan.platform = probe_platform();
  require_supported_variants(o.choice, plan.platform);
  plan.hz = plan.platform.tsc.hz;
  if (!(plan.hz > 0)) throw UnsupportedError("the TSC frequency is unknown here: intervals cannot be cut in ticks");
  plan.interval_ticks = static_cast<std::uint64_t>(std::llround(o.interval_s * plan.hz));
  plan.interval_count =
      o.duration_s > 0 ? static_cast<std::uint64_t>(std::ceil(o.duration_s / o.interval_s - 1e-9)) : 0;
  return plan;
}

/// Waits until both measuring threads are past their setup.
/// \throws RuntimeError when one failed, or when a signal came first (no log is written).
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

Metadata monitor_header(const MonitorOptions& o, const MonitorPlan& plan, const QuantumEstimate& qa,
                        const QuantumEstimate& qb) {
  Metadata header = run_header(plan.platform, o.choice, o.cpu_a, o.cpu_b, o.command_line);
  header.set("schema", std::string(kMonitorSchema));
  header.set("interval_s", format_sig(o.interval_s, 9));
  header.set("interval_ticks", std::to_string(plan.interval_ticks));
  header.set("intervals_planned", plan.interval_count == 0 ? "until a signal" : std::to_string(plan.interval_count));
  header.set("queue_rounds", std::to_string(o.queue_rounds));
  header.set("timeout_ms", std::to_string(o.timeout.count()));
  header.set("quantum_ticks", std::to_string(std::max(qa.quantum_ticks, qb.quantum_ticks)));
  header.set("quantum_ticks_a", std::to_string(qa.quantum_ticks));
  header.set("quantum_ticks_b", std::to_string(qb.quantum_ticks));
  header.set("start_utc", format_utc(std::chrono::system_clock::now()));
  return header;
}

/// `--openmetrics FILE`: the metrics for Prometheus, rewritten whole (aside, then renamed)
/// after every interval, so node_exporter's textfile collector never reads half a file
/// (docs/formats.md, "Metrics for Prometheus"). Without a path it does nothing.
class MetricsWriter {
 public:
  MetricsWriter(const MonitorOptions& o, const MonitorPlan& plan) : path_(o.openmetrics) {
    state_.a = o.cpu_a;
    state_.b = o.cpu_b;
    state_.send = variant_name(o.choice.send);
    state_.recv = variant_name(o.choice.recv);
    state_.version = kToolVersion;
    state_.tsc_hz = plan.hz;
    state_.interval_s = o.interval_s;
    if (o.openmetrics_histogram) rtt_.emplace(plan.hz);
    state_.rtt = rtt_ ? &*rtt_ : nullptr;
  }
  /// A run that ends on an error says so as it can: running 0. Never throws.
  ~MetricsWriter() {
    if (path_.empty() || !state_.running) return;
    try {
      finish();
    } catch (const std::exception&) {  // the error that ended the run is the one to report
    }
  }
  MetricsWriter(const MetricsWriter&) = delete;
  MetricsWriter& operator=(const MetricsWriter&) = delete;

  void set_quantum(std::int64_t quantum_ticks) { state_.quantum_ticks = quantum_ticks; }

  void record(const Round& r) {
    if (!rtt_) return;
    // Differences modulo 2^64, as the analysis takes them.
    const auto rtt = static_cast<std::int64_t>((r.t4 - r.t1) - (r.t3 - r.t2));
    rtt_->record(rtt);
  }

  /// After each interval written to the log. \throws IoError.
  void interval(const IntervalSummary& s, const MonitorTotals& totals) {
    if (path_.empty()) return;
    state_.last = s;
    state_.totals = totals;
    state_.last_end_unix_s = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    write();
  }

  /// The last rewrite: the run has ended. \throws IoError.
  void finish() {
    state_.running = false;
    write();
  }

  /// Writes the file as it stands. \throws IoError.
  void write() const {
    if (path_.empty()) return;
    OutputFile f(path_);
    f.write(exposition_text(monitor_metrics(state_), ExpositionDialect::prometheus_text));
    f.commit();
  }

 private:
  std::string path_;
  MonitorMetricsState state_;
  std::optional<RttBuckets> rtt_;
};

/// What happens to each finished interval: the interference the kernel saw is added, the
/// line goes to disk, and the totals, warnings and progress follow.
class IntervalWriter {
 public:
  IntervalWriter(OutputFile& out, MetricsWriter& metrics, long tid_a, long tid_b, std::uint64_t interval_count)
      : out_(out),
        metrics_(metrics),
        tid_a_(tid_a),
        tid_b_(tid_b),
        switches_a_(thread_context_switches(tid_a).value_or(0)),
        switches_b_(thread_context_switches(tid_b).value_or(0)),
        progress_(interval_count == 0 ? 1 : interval_count),
        tty_(isatty(STDERR_FILENO) == 1) {}

  /// A stall the aggregator saw (it woke this late); it goes into the next interval written.
  void note_stall(std::uint64_t ms) { stall_pending_ms_ = std::max(stall_pending_ms_, ms); }

  void write(IntervalSummary& s) {
    s.switches_a = switches_since(tid_a_, switches_a_);
    s.switches_b = switches_since(tid_b_, switches_b_);
    s.stall_ms = stall_pending_ms_;
    stall_pending_ms_ = 0;
    s.peak_rss_kib = peak_rss_kib().value_or(0);
    out_.write(interval_log_line(s));
    out_.sync();
    add_to_totals(s);
    metrics_.interval(s, totals_);
    warn(s);
    progress_.update(totals_.intervals,
                     "interval " + std::to_string(totals_.intervals) + ", " + std::to_string(totals_.rounds) +
                         " rounds, fwd<0 " + std::to_string(totals_.fwd_negative) + ", rev<0 " +
                         std::to_string(totals_.rev_negative) + ", lost " + std::to_string(totals_.lost),
                     "monitor");
  }

  [[nodiscard]] const Totals& totals() const { return totals_; }
  [[nodiscard]] bool tty() const { return tty_; }

 private:
  /// The thread's context switches since the last call (0 when /proc no longer has it).
  static std::uint64_t switches_since(long tid, std::uint64_t& last) {
    const auto n = thread_context_switches(tid);
    if (!n) return 0;
    const std::uint64_t since = *n - std::min(*n, last);
    last = *n;
    return since;
  }

  void add_to_totals(const IntervalSummary& s) {
    if (totals_.intervals == 0) totals_.first_peak_rss_kib = s.peak_rss_kib;
    totals_.last_peak_rss_kib = s.peak_rss_kib;
    add_interval(totals_, s);
  }

  void warn(const IntervalSummary& s) const {
    const char* fresh_line = tty_ ? "\n" : "";  // past the progress line
    if (s.stall_ms >= kStallWarnMs) {
      std::cerr << fresh_line << "tscaudit monitor: warning: nothing ran for " << s.stall_ms << " ms in interval "
                << s.index
                << " (the process was stopped, or the host did not run this VM); the log marks it in stall_ms\n";
    }
    if (s.lost > 0) {
      std::cerr << fresh_line << "tscaudit monitor: warning: interval " << s.index << " lost " << s.lost
                << " rounds (the queue to the aggregator was full); the log counts them in lost\n";
    }
  }

  OutputFile& out_;
  MetricsWriter& metrics_;
  long tid_a_;
  long tid_b_;
  std::uint64_t switches_a_;
  std::uint64_t switches_b_;
  std::uint64_t stall_pending_ms_ = 0;
  Totals totals_;
  Progress progress_;
  bool tty_;
};

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

/// The aggregator: wakes every period, moves the queue's rounds into the sequencer, closes
/// the intervals that are due (also those in which no round came), and watches for the
/// end, a signal, a failed thread and a CPU taken away.
class Aggregator {
 public:
  Aggregator(const MonitorOptions& o, const MonitorPlan& plan, MonitorThreads& threads, IntervalSequencer& sequencer,
             IntervalWriter& writer, MetricsWriter& metrics)
      : o_(o),
        plan_(plan),
        threads_(threads),
        sequencer_(sequencer),
        writer_(writer),
        metrics_(metrics),
        batch_(8192),
        period_(wake_period(o.interval_s)) {}

  /// Runs until the run ends. \throws RuntimeError from the sequencer (a counter that jumped).
  RunEnd run() {
    const auto grace_ticks =
        static_cast<std::uint64_t>(std::chrono::duration<double>(2 * period_ + kStallNotice).count() * plan_.hz);
    RunEnd end;
    last_seen_ = Clock::now();
    while (end.ending == Ending::running) {
      nap(period_);
      const Clock::time_point now = watch_clock();
      drain();
      if (sequencer_.started()) {
        // a's counter now, estimated from the first round's t1 and the steady clock: it
        // closes the intervals in which no round came (a stall, a stopped process).
        const double since_s = std::chrono::duration<double>(now - first_seen_).count();
        sequencer_.close_due(first_tick_ + static_cast<std::uint64_t>(since_s * plan_.hz), grace_ticks);
      }
      end = check_end();
    }
    return end;
  }

  /// What the queue still holds once the threads are joined; the time the join took is
  /// after the run, not a stall in it.
  void drain_rest() {
    last_seen_ = Clock::now();
    drain();
  }

 private:
  /// Moves what the queue holds into the sequencer, and the rounds a counted lost.
  void drain() {
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
  Clock::time_point watch_clock() {
    const Clock::time_point now = Clock::now();
    if (now - last_seen_ > period_ + kStallNotice) {
      const auto late = std::chrono::duration_cast<std::chrono::milliseconds>(now - last_seen_ - period_);
      writer_.note_stall(static_cast<std::uint64_t>(late.count()));
    }
    last_seen_ = now;
    return now;
  }

  RunEnd check_end() {
    if (sequencer_.done()) return {Ending::complete, 0, ""};
    if (const int s = StopSignals::caught()) return {Ending::interrupted, s, ""};
    if (threads_.control().abort.load()) return {Ending::aborted, 0, ""};
    if (auto error = cpu_taken_away(o_, threads_)) return {Ending::aborted, 0, *error};
    if (threads_.control().abort.load()) return {Ending::aborted, 0, ""};
    return {};
  }

  const MonitorOptions& o_;
  const MonitorPlan& plan_;
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

Metadata monitor_trailer(const RunEnd& end, const Totals& totals, const IntervalSequencer& sequencer,
                         const MonitorThreads& threads) {
  Metadata trailer;
  trailer.set("end_utc", format_utc(std::chrono::system_clock::now()));
  trailer.set("intervals", std::to_string(totals.intervals));
  trailer.set("rounds_recorded", std::to_string(sequencer.rounds_recorded()));
  trailer.set("rounds_lost", std::to_string(sequencer.rounds_lost()));
  trailer.set("rounds_lost_outside_intervals", std::to_string(sequencer.rounds_lost_outside()));
  trailer.set("rounds_after_end", std::to_string(sequencer.rounds_after_end()));
  trailer.set("self_stalls_a", std::to_string(threads.a().self_stalls));
  trailer.set("self_stalls_b", std::to_string(threads.b().self_stalls));
  switch (end.ending) {
    case Ending::complete:
    case Ending::running: trailer.set("status", std::string(kStatusComplete)); break;
    case Ending::interrupted:
      trailer.set("signal", signal_name(end.signal));
      trailer.set("status", std::string(kStatusInterrupted));
      break;
    case Ending::aborted:
      trailer.set("error", end.error);
      trailer.set("status", std::string(kStatusAborted));
      break;
  }
  return trailer;
}

/// The summary on stderr. \returns the exit code: 0 complete or interrupted, 3 aborted.
int print_summary(const MonitorOptions& o, const RunEnd& end, const Totals& totals, bool tty) {
  if (tty) std::cerr << "\n";
  const double seconds = static_cast<double>(totals.intervals) * o.interval_s;
  std::cerr << "tscaudit monitor: CPU " << o.cpu_a << " -> CPU " << o.cpu_b << ", send " << variant_name(o.choice.send)
            << ", recv " << variant_name(o.choice.recv) << "\n"
            << "  intervals     " << totals.intervals << " of " << format_sig(o.interval_s, 6) << " s\n"
            << "  rounds        " << totals.rounds << " recorded (about "
            << format_sig(static_cast<double>(totals.rounds) / std::max(seconds, 1e-9) / 1e6, 3) << " M rounds/s), "
            << totals.lost << " lost (queue full), " << totals.late << " late\n"
            << "  one-way < 0   fwd " << totals.fwd_negative << ", rev " << totals.rev_negative << "; rtt < -2q "
            << totals.self_inconsistent << " rounds\n"
            << "  longest rtt   " << totals.rtt_max << " ticks; longest stall " << totals.stall_ms_max << " ms\n"
            << "  peak RSS      " << totals.first_peak_rss_kib << " KiB after the first interval, "
            << totals.last_peak_rss_kib << " KiB after the last\n";
  const std::string where = o.out == "-" ? std::string("stdout") : o.out;
  switch (end.ending) {
    case Ending::complete:
    case Ending::running: std::cerr << "  wrote " << where << " (status: complete)\n"; return kExitOk;
    case Ending::interrupted:
      std::cerr << "  interrupted by " << signal_name(end.signal) << ": wrote " << where
                << " with every interval up to now (status: interrupted); `tscaudit analyze " << where << "` reads it\n";
      return kExitOk;
    case Ending::aborted:
      std::cerr << "  ABORTED: " << end.error << "\n  wrote " << where
                << " with the intervals done (status: aborted)\n";
      return kExitRuntime;
  }
  return kExitOk;
}

}  // namespace

int run_monitor(const MonitorOptions& o) {
  const MonitorPlan plan = plan_monitor(o);
  // Opened before measuring: an output that cannot be created fails at once.
  OutputFile out(o.out, kPartialSuffix);
  const std::string partial = out.temp_path().empty() ? o.out : out.temp_path();
  MetricsWriter metrics(o, plan);
  metrics.write();  // before measuring too: a metrics file that cannot be written fails at once

  StopSignals signals;
  MonitorThreads threads(PairConfig{o.cpu_a, o.cpu_b, o.timeout}, o.queue_rounds);
  {
    StopSignals::Blocked blocked;  // the measuring threads inherit the block
    start_monitor_threads(o.choice.send, o.choice.recv, threads);
  }
  wait_for_threads(threads);
  const QuantumEstimate qa = estimate_quantum(threads.a().quantum_reads);
  const QuantumEstimate qb = estimate_quantum(threads.b().quantum_reads);
  metrics.set_quantum(static_cast<std::int64_t>(std::max(qa.quantum_ticks, qb.quantum_ticks)));
  IntervalWriter writer(out, metrics, threads.a().tid, threads.b().tid, plan.interval_count);
  IntervalSequencer sequencer(plan.interval_ticks, plan.interval_count,
                              static_cast<std::int64_t>(std::max(qa.quantum_ticks, qb.quantum_ticks)),
                              [&](IntervalSummary& s) { writer.write(s); });
  Aggregator aggregator(o, plan, threads, sequencer, writer, metrics);

  RunEnd end;
  try {
    out.write(interval_log_head(monitor_header(o, plan, qa, qb)));
    out.sync();
    threads.control().go.store(true);
    end = aggregator.run();
  } catch (const RuntimeError& e) {  // the sequencer: a counter that jumped
    end = {Ending::aborted, 0, e.what()};
  } catch (const IoError& e) {
    threads.join();
    const std::uint64_t written = writer.totals().intervals;
    if (!out.temp_path().empty() && written > 0 && ::access(out.temp_path().c_str(), F_OK) == 0) {
      out.keep_partial();
      throw IoError(std::string(e.what()) + "; the " + std::to_string(written) + " intervals written before stay in " +
                    partial + " (no status line: cut short)");
    }
    throw;
  }

  threads.join();
  if (end.ending == Ending::aborted && end.error.empty()) end.error = threads.error();
  try {
    aggregator.drain_rest();  // what a pushed before it stopped
    if (!sequencer.done()) sequencer.close_partial();
  } catch (const RuntimeError& e) {
    if (end.ending != Ending::aborted) end.error = e.what();
    end.ending = Ending::aborted;
  }
  if (writer.totals().intervals == 0) {
    // No round came at all: there is nothing to analyse, and a log without intervals
    // would only be refused by analyze. The file written aside is removed.
    throw RuntimeError(end.ending == Ending::interrupted
                           ? "interrupted by " + signal_name(end.signal) + " before the first round; no log was written"
                       : end.error.empty() ? "no round was measured; no log was written"
                                           : end.error);
  }
  out.write(interval_log_tail(monitor_trailer(end, writer.totals(), sequencer, threads)));
  out.commit();
  metrics.finish();
  return print_summary(o, end, writer.totals(), writer.tty());
}

}  // namespace tscaudit
