#include "app/monitor_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>

#include "app/monitor_aggregator.hpp"
#include "app/monitor_writers.hpp"
#include "app/stop_signals.hpp"
#include "measure/plan_runner.hpp"
#include "core/errors.hpp"
#include "core/format.hpp"
#include "estimate/quantum.hpp"
#include "formats/interval_log.hpp"
#include "io/output_file.hpp"
#include "measure/monitor_threads.hpp"
#include "measure/pair_run.hpp"
#include "monitor/interval_analysis.hpp"
#include "monitor/interval_sequencer.hpp"
#include "monitor/monitor_run.hpp"
#include "platform/affinity.hpp"
#include "platform/platform.hpp"
#include "render/monitor_run_text.hpp"
#include "render/text_wrap.hpp"
#include "render/verdict_text.hpp"

namespace tscaudit {
namespace {

/// Where the log grows until the run ends (then it is renamed to the name asked for).
constexpr const char* kPartialSuffix = ".partial";

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

Metadata monitor_header(const MonitorOptions& o, const MonitorPlan& plan, const QuantumEstimate& qa,
                        const QuantumEstimate& qb) {
  Metadata header = run_header(plan.platform, o.choice, o.cpu_a, o.cpu_b, o.command_line);
  header.set("schema", std::string(kMonitorSchema));
  header.set("interval_s", format_sig(o.interval_s, 9));
  header.set("interval_ticks", std::to_string(plan.interval_ticks));
  header.set("duty", format_sig(o.duty, 6));
  header.set("intervals_planned", plan.interval_count == 0 ? "until a signal" : std::to_string(plan.interval_count));
  header.set("queue_rounds", std::to_string(o.queue_rounds));
  header.set("timeout_ms", std::to_string(o.timeout.count()));
  header.set("quantum_ticks", std::to_string(std::max(qa.quantum_ticks, qb.quantum_ticks)));
  header.set("quantum_ticks_a", std::to_string(qa.quantum_ticks));
  header.set("quantum_ticks_b", std::to_string(qb.quantum_ticks));
  header.set("start_utc", format_utc(std::chrono::system_clock::now()));
  return header;
}

}  // namespace

int run_monitor(const MonitorOptions& o) {
  const MonitorPlan plan = plan_monitor(o);
  // Opened before measuring: an output that cannot be created fails at once.
  OutputFile out(o.out, kPartialSuffix);
  const std::string partial = out.temp_path().empty() ? o.out : out.temp_path();
  MetricsWriter metrics(o, plan.hz);
  metrics.write();  // before measuring too: a metrics file that cannot be written fails at once
  // Something at once: the first interval takes a while to close (and, on a terminal, the
  // progress line to appear).
  std::cerr << wrap_lines("tscaudit monitor: measuring CPU " + std::to_string(o.cpu_a) + " -> CPU " +
                          std::to_string(o.cpu_b) + " in intervals of " + format_sig(o.interval_s, 6) + " s, " +
                          (plan.interval_count == 0 ? std::string("until SIGINT or SIGTERM")
                                                    : std::to_string(plan.interval_count) +
                                                          (plan.interval_count == 1 ? " interval" : " intervals")) +
                          "; writing " + (o.out == "-" ? std::string("standard output") : o.out) + "\n");

  StopSignals signals;
  MonitorThreads threads(PairConfig{o.cpu_a, o.cpu_b, o.timeout}, o.queue_rounds);
  if (o.duty < 1.0) {
    threads.control().duty = {
        plan.interval_ticks,
        std::max<std::uint64_t>(
            1, static_cast<std::uint64_t>(std::llround(o.duty * static_cast<double>(plan.interval_ticks)))),
        plan.hz};
  }
  {
    const StopSignalsBlocked blocked;  // the measuring threads inherit the block
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
  MonitorAggregator aggregator(o, plan.hz, threads, sequencer, writer, metrics);

  MonitorEnd end;
  try {
    out.write(interval_log_head(monitor_header(o, plan, qa, qb)));
    out.sync();
    threads.control().go.store(true);
    end = aggregator.run();
  } catch (const RuntimeError& e) {  // the sequencer: a counter that jumped
    end = {MonitorEnding::aborted, "", e.what()};
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
  if (end.ending == MonitorEnding::aborted && end.error.empty()) end.error = threads.error();
  try {
    aggregator.drain_rest();  // what a pushed before it stopped
    if (!sequencer.done()) sequencer.close_partial();
  } catch (const RuntimeError& e) {
    if (end.ending != MonitorEnding::aborted) end.error = e.what();
    end.ending = MonitorEnding::aborted;
  }
  if (writer.totals().intervals == 0) {
    // No round came at all: there is nothing to analyze, and a log without intervals
    // would only be refused by analyze. The file written aside is removed.
    throw RuntimeError(end.ending == MonitorEnding::interrupted
                           ? "interrupted by " + end.signal + " before the first round; no log was written"
                       : end.error.empty() ? "no round was measured; no log was written"
                                           : end.error);
  }
  const MonitorTrailerFacts trailer{format_utc(std::chrono::system_clock::now()), writer.totals().intervals,
                                    threads.a().self_stalls, threads.b().self_stalls};
  out.write(interval_log_tail(monitor_trailer(end, trailer, sequencer)));
  out.commit();
  metrics.finish();
  writer.end_progress();
  // The answer first: the log just written, analyzed as `analyze` would (the offset band
  // over the run, any step). A log on standard output cannot be read back.
  std::string answer;
  if (o.out != "-") {
    try {
      answer = verdict_text(analyze_interval_log(read_interval_log_file(o.out), o.out).verdict);
    } catch (const std::exception& e) {
      answer = std::string("no verdict: the log could not be analyzed (") + e.what() + ")";
    }
  }
  std::cerr << monitor_summary_text({o.cpu_a, o.cpu_b, std::string(variant_name(o.choice.send)),
                                     std::string(variant_name(o.choice.recv)), o.interval_s, o.out, answer, plan.hz},
                                    end, writer.totals());
  return monitor_exit_code(end);
}

}  // namespace tscaudit
