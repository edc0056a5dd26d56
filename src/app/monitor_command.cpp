#include "app/monitor_command.hpp"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iostream>
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
#include "monitor/interval_sequencer.hpp"
#include "platform/affinity.hpp"
#include "platform/platform.hpp"
#include "platform/process_stats.hpp"

namespace tscsync {
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

/// What the summary on stderr says at the end.
struct Totals {
  std::uint64_t intervals = 0;
  std::uint64_t rounds = 0;
  std::uint64_t lost = 0;
  std::uint64_t late = 0;
  std::uint64_t fwd_negative = 0;
  std::uint64_t rev_negative = 0;
  std::uint64_t self_inconsistent = 0;
  std::uint64_t stall_ms_max = 0;
  std::int64_t rtt_max = 0;
  std::uint64_t first_peak_rss_kib = 0;
  std::uint64_t last_peak_rss_kib = 0;
};

enum class Ending { running, complete, interrupted, aborted };

}  // namespace

int run_monitor(const MonitorOptions& o) {
  if (o.cpu_a == o.cpu_b) {
    throw UsageError("--cpus " + std::to_string(o.cpu_a) + "," + std::to_string(o.cpu_b) +
                     ": monitor needs two different CPUs (its threads spin)");
  }
  const CpuAvailability cpus = read_cpu_availability();
  for (int cpu : {o.cpu_a, o.cpu_b}) {
    if (auto problem = cpu_problem(cpu, cpus)) throw UsageError(*problem);
  }
  const PlatformFacts platform = probe_platform();
  require_supported_variants(o.choice, platform.cpuid);
  const double hz = platform.tsc.hz;
  if (!(hz > 0)) throw UnsupportedError("the TSC frequency is unknown here: intervals cannot be cut in ticks");
  const auto interval_ticks = static_cast<std::uint64_t>(std::llround(o.interval_s * hz));
  const std::uint64_t interval_count =
      o.duration_s > 0 ? static_cast<std::uint64_t>(std::ceil(o.duration_s / o.interval_s - 1e-9)) : 0;

  // Opened before measuring: an output that cannot be created fails at once.
  OutputFile out(o.out, kPartialSuffix);
  const std::string partial = out.temp_path().empty() ? o.out : out.temp_path();

  StopSignals signals;
  MonitorThreads threads(PairConfig{o.cpu_a, o.cpu_b, o.timeout}, o.queue_rounds);
  {
    StopSignals::Blocked blocked;  // the measuring threads inherit the block
    start_monitor_threads(o.choice.send, o.choice.recv, threads);
  }
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
  const long tid_a = threads.a().tid;  // set before ready counted the thread
  const long tid_b = threads.b().tid;
  const QuantumEstimate qa = estimate_quantum(threads.a().quantum_reads);
  const QuantumEstimate qb = estimate_quantum(threads.b().quantum_reads);
  const std::uint64_t quantum = std::max(qa.quantum_ticks, qb.quantum_ticks);

  Metadata header = run_header(platform, o.choice, o.cpu_a, o.cpu_b, o.command_line);
  header.set("schema", std::string(kMonitorSchema));
  header.set("interval_s", format_sig(o.interval_s, 9));
  header.set("interval_ticks", std::to_string(interval_ticks));
  header.set("intervals_planned", interval_count == 0 ? "until a signal" : std::to_string(interval_count));
  header.set("queue_rounds", std::to_string(o.queue_rounds));
  header.set("timeout_ms", std::to_string(o.timeout.count()));
  header.set("quantum_ticks", std::to_string(quantum));
  header.set("quantum_ticks_a", std::to_string(qa.quantum_ticks));
  header.set("quantum_ticks_b", std::to_string(qb.quantum_ticks));
  header.set("start_utc", format_utc(std::chrono::system_clock::now()));

  Totals totals;
  std::uint64_t switches_a = thread_context_switches(tid_a).value_or(0);
  std::uint64_t switches_b = thread_context_switches(tid_b).value_or(0);
  std::uint64_t stall_pending_ms = 0;
  Progress progress(interval_count == 0 ? 1 : interval_count);
  const bool tty = isatty(STDERR_FILENO) == 1;

  // Each finished interval: the interference the kernel saw, then one line, on disk.
  auto write_interval = [&](IntervalSummary& s) {
    if (const auto n = thread_context_switches(tid_a)) {
      s.switches_a = *n - std::min(*n, switches_a);
      switches_a = *n;
    }
    if (const auto n = thread_context_switches(tid_b)) {
      s.switches_b = *n - std::min(*n, switches_b);
      switches_b = *n;
    }
    s.stall_ms = stall_pending_ms;
    stall_pending_ms = 0;
    s.peak_rss_kib = peak_rss_kib().value_or(0);
    out.write(interval_log_line(s));
    out.sync();

    if (totals.intervals == 0) totals.first_peak_rss_kib = s.peak_rss_kib;
    totals.last_peak_rss_kib = s.peak_rss_kib;
    ++totals.intervals;
    totals.rounds += s.rounds;
    totals.lost += s.lost;
    totals.late += s.late;
    totals.fwd_negative += s.fwd_negative;
    totals.rev_negative += s.rev_negative;
    totals.self_inconsistent += s.self_inconsistent;
    totals.stall_ms_max = std::max(totals.stall_ms_max, s.stall_ms);
    if (s.rounds > 0) totals.rtt_max = std::max(totals.rtt_max, s.rtt_max);
    if (s.stall_ms >= kStallWarnMs) {
      std::cerr << (tty ? "\n" : "") << "tscsync monitor: warning: nothing ran for " << s.stall_ms << " ms in interval "
                << s.index
                << " (the process was stopped, or the host did not run this VM); the log marks it in stall_ms\n";
    }
    if (s.lost > 0) {
      std::cerr << (tty ? "\n" : "") << "tscsync monitor: warning: interval " << s.index << " lost " << s.lost
                << " rounds (the queue to the aggregator was full); the log counts them in lost\n";
    }
    progress.update(totals.intervals,
                    "interval " + std::to_string(totals.intervals) + ", " + std::to_string(totals.rounds) +
                        " rounds, fwd<0 " + std::to_string(totals.fwd_negative) + ", rev<0 " +
                        std::to_string(totals.rev_negative) + ", lost " + std::to_string(totals.lost),
                    "monitor");
  };
  IntervalSequencer sequencer(interval_ticks, interval_count, static_cast<std::int64_t>(quantum), write_interval);

  std::vector<Round> batch(8192);
  Clock::time_point first_seen{};
  std::uint64_t first_tick = 0;
  std::uint64_t lost_seen = 0;
  auto drain = [&] {
    std::size_t n = 0;
    while ((n = threads.queue().pop(batch.data(), batch.size())) > 0) {
      if (!sequencer.started()) {
        first_seen = Clock::now();
        first_tick = batch[0].t1;
      }
      for (std::size_t i = 0; i < n; ++i) sequencer.add(batch[i]);
    }
    const std::uint64_t lost = control.lost.load(std::memory_order_relaxed);
    sequencer.add_lost(lost - lost_seen);
    lost_seen = lost;
  };

  Ending ending = Ending::running;
  int signal = 0;
  std::string error;
  const auto period = wake_period(o.interval_s);
  const auto grace_ticks =
      static_cast<std::uint64_t>(std::chrono::duration<double>(2 * period + kStallNotice).count() * hz);
  try {
    out.write(interval_log_head(header));
    out.sync();
    control.go.store(true);
    Clock::time_point last_wake = Clock::now();
    while (ending == Ending::running) {
      nap(period);
      const Clock::time_point now = Clock::now();
      if (now - last_wake > period + kStallNotice) {
        const auto late_ms = std::chrono::duration_cast<std::chrono::milliseconds>(now - last_wake - period);
        stall_pending_ms = std::max<std::uint64_t>(stall_pending_ms, static_cast<std::uint64_t>(late_ms.count()));
      }
      last_wake = now;
      drain();
      if (sequencer.started()) {
        // a's counter now, estimated from the first round's t1 and the steady clock: it
        // closes the intervals in which no round came (a stall, a stopped process).
        const double since_s = std::chrono::duration<double>(now - first_seen).count();
        sequencer.close_due(first_tick + static_cast<std::uint64_t>(since_s * hz), grace_ticks);
      }
      if (sequencer.done()) {
        ending = Ending::complete;
      } else if (const int s = StopSignals::caught()) {
        ending = Ending::interrupted;
        signal = s;
      } else if (control.abort.load()) {
        ending = Ending::aborted;
      } else {
        // A CPU taken away shows in the mask at once, before the thread is moved.
        for (const auto& [tid, cpu, role] :
             {std::tuple{tid_a, o.cpu_a, "initiator"}, std::tuple{tid_b, o.cpu_b, "responder"}}) {
          std::vector<int> mask;
          try {
            mask = thread_affinity(tid);
          } catch (const RuntimeError& e) {
            if (control.abort.load()) break;  // the thread ended with its own error
            ending = Ending::aborted;
            error = e.what();
            break;
          }
          if (mask != std::vector<int>{cpu}) {
            std::string now_cpus;
            for (int c : mask) now_cpus += (now_cpus.empty() ? "" : ",") + std::to_string(c);
            ending = Ending::aborted;
            error = "CPU " + std::to_string(cpu) + " was taken away from the " + role +
                    " thread: its affinity is now " + (now_cpus.empty() ? "empty" : now_cpus) +
                    " (taskset or a cgroup cpuset changed it); the pair is no longer the one asked for";
            break;
          }
        }
        if (ending == Ending::running && control.abort.load()) ending = Ending::aborted;
      }
    }
  } catch (const RuntimeError& e) {  // the sequencer: a counter that jumped
    ending = Ending::aborted;
    error = e.what();
  } catch (const IoError& e) {
    threads.join();
    if (!out.temp_path().empty() && totals.intervals > 0 && ::access(out.temp_path().c_str(), F_OK) == 0) {
      out.keep_partial();
      throw IoError(std::string(e.what()) + "; the " + std::to_string(totals.intervals) +
                    " intervals written before stay in " + partial + " (no status line: cut short)");
    }
    throw;
  }

  threads.join();
  if (ending == Ending::aborted && error.empty()) error = threads.error();
  try {
    drain();  // what a pushed before it stopped
    if (!sequencer.done()) sequencer.close_partial();
  } catch (const RuntimeError& e) {
    if (ending != Ending::aborted) error = e.what();
    ending = Ending::aborted;
  }
  if (totals.intervals == 0) {
    // No round came at all: there is nothing to analyse, and a log without intervals
    // would only be refused by analyze. The file written aside is removed.
    throw RuntimeError(ending == Ending::interrupted
                           ? "interrupted by " + signal_name(signal) + " before the first round; no log was written"
                       : error.empty() ? "no round was measured; no log was written"
                                       : error);
  }

  Metadata trailer;
  trailer.set("end_utc", format_utc(std::chrono::system_clock::now()));
  trailer.set("intervals", std::to_string(totals.intervals));
  trailer.set("rounds_recorded", std::to_string(sequencer.rounds_recorded()));
  trailer.set("rounds_lost", std::to_string(sequencer.rounds_lost()));
  trailer.set("rounds_lost_outside_intervals", std::to_string(sequencer.rounds_lost_outside()));
  trailer.set("rounds_after_end", std::to_string(sequencer.rounds_after_end()));
  trailer.set("self_stalls_a", std::to_string(threads.a().self_stalls));
  trailer.set("self_stalls_b", std::to_string(threads.b().self_stalls));
  switch (ending) {
    case Ending::complete:
    case Ending::running: trailer.set("status", std::string(kStatusComplete)); break;
    case Ending::interrupted:
      trailer.set("signal", signal_name(signal));
      trailer.set("status", std::string(kStatusInterrupted));
      break;
    case Ending::aborted:
      trailer.set("error", error);
      trailer.set("status", std::string(kStatusAborted));
      break;
  }
  out.write(interval_log_tail(trailer));
  out.commit();

  if (tty) std::cerr << "\n";
  const double seconds = static_cast<double>(totals.intervals) * o.interval_s;
  std::cerr << "tscsync monitor: CPU " << o.cpu_a << " -> CPU " << o.cpu_b << ", send " << variant_name(o.choice.send)
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
  switch (ending) {
    case Ending::complete:
    case Ending::running: std::cerr << "  wrote " << where << " (status: complete)\n"; return kExitOk;
    case Ending::interrupted:
      std::cerr << "  interrupted by " << signal_name(signal) << ": wrote " << where
                << " with every interval up to now (status: interrupted); `tscsync analyze " << where << "` reads it\n";
      return kExitOk;
    case Ending::aborted:
      std::cerr << "  ABORTED: " << error << "\n  wrote " << where << " with the intervals done (status: aborted)\n";
      return kExitRuntime;
  }
  return kExitOk;
}

}  // namespace tscsync
