#include "app/monitor_writers.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>

#include "formats/interval_log.hpp"
#include "platform/process_stats.hpp"
#include "render/exposition.hpp"
#include "render/monitor_run_text.hpp"
#include "version.hpp"

namespace tscaudit {
namespace {

/// The thread's context switches since the last call (0 when /proc no longer has it).
std::uint64_t switches_since(long tid, std::uint64_t& last) {
  const auto n = thread_context_switches(tid);
  if (!n) return 0;
  const std::uint64_t since = *n - std::min(*n, last);
  last = *n;
  return since;
}

}  // namespace

MetricsWriter::MetricsWriter(const MonitorOptions& o, double hz) : path_(o.openmetrics) {
  state_.a = o.cpu_a;
  state_.b = o.cpu_b;
  state_.send = variant_name(o.choice.send);
  state_.recv = variant_name(o.choice.recv);
  state_.version = kToolVersion;
  state_.tsc_hz = hz;
  state_.interval_s = o.interval_s;
  if (o.openmetrics_histogram) rtt_.emplace(hz);
  state_.rtt = rtt_ ? &*rtt_ : nullptr;
}

MetricsWriter::~MetricsWriter() {
  if (path_.empty() || !state_.running) return;
  try {
    finish();
  } catch (const std::exception&) {  // the error that ended the run is the one to report
  }
}

void MetricsWriter::record(const Round& r) {
  if (!rtt_) return;
  // Differences modulo 2^64, as the analysis takes them.
  const auto rtt = static_cast<std::int64_t>((r.t4 - r.t1) - (r.t3 - r.t2));
  rtt_->record(rtt);
}

void MetricsWriter::interval(const IntervalSummary& s, const MonitorTotals& totals) {
  if (path_.empty()) return;
  state_.last = s;
  state_.totals = totals;
  state_.last_end_unix_s = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  write();
}

void MetricsWriter::finish() {
  state_.running = false;
  write();
}

void MetricsWriter::write() const {
  if (path_.empty()) return;
  OutputFile f(path_);
  f.write(exposition_text(monitor_metrics(state_), ExpositionDialect::prometheus_text));
  f.commit();
}

IntervalWriter::IntervalWriter(OutputFile& out, MetricsWriter& metrics, long tid_a, long tid_b,
                               std::uint64_t interval_count)
    : out_(out),
      metrics_(metrics),
      tid_a_(tid_a),
      tid_b_(tid_b),
      switches_a_(thread_context_switches(tid_a).value_or(0)),
      switches_b_(thread_context_switches(tid_b).value_or(0)),
      progress_("monitoring", interval_count) {}

void IntervalWriter::write(IntervalSummary& s) {
  s.switches_a = switches_since(tid_a_, switches_a_);
  s.switches_b = switches_since(tid_b_, switches_b_);
  s.stall_ms = stall_pending_ms_;
  stall_pending_ms_ = 0;
  s.peak_rss_kib = peak_rss_kib().value_or(0);
  progress_.clear();  // the line (on standard output too, with --out -) in its place; drawn again below
  out_.write(interval_log_line(s));
  out_.sync();
  add_written_interval(totals_, s);
  metrics_.interval(s, totals_);
  const std::vector<std::string> warnings = interval_warnings(s);
  for (const std::string& line : warnings) std::cerr << line << std::flush;
  progress_.update(totals_.intervals, monitor_progress_text(totals_));
}

}  // namespace tscaudit
