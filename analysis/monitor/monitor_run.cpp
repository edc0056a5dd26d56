#include "monitor/monitor_run.hpp"

#include <algorithm>

#include "core/errors.hpp"
#include "formats/interval_log.hpp"

namespace tscaudit {

std::chrono::milliseconds monitor_wake_period(double interval_s) {
  const double ms = std::clamp(interval_s * 1000.0 / 10.0, 1.0, 20.0);
  return std::chrono::milliseconds(static_cast<long>(ms));
}

void add_written_interval(MonitorRunTotals& totals, const IntervalSummary& interval) {
  if (totals.intervals == 0) totals.first_peak_rss_kib = interval.peak_rss_kib;
  totals.last_peak_rss_kib = interval.peak_rss_kib;
  add_interval(totals, interval);
}

Metadata monitor_trailer(const MonitorEnd& end, const MonitorTrailerFacts& facts, const IntervalSequencer& sequencer) {
  Metadata trailer;
  trailer.set("end_utc", facts.end_utc);
  trailer.set("intervals", std::to_string(facts.intervals));
  trailer.set("rounds_recorded", std::to_string(sequencer.rounds_recorded()));
  trailer.set("rounds_lost", std::to_string(sequencer.rounds_lost()));
  trailer.set("rounds_lost_outside_intervals", std::to_string(sequencer.rounds_lost_outside()));
  trailer.set("rounds_after_end", std::to_string(sequencer.rounds_after_end()));
  trailer.set("self_stalls_a", std::to_string(facts.self_stalls_a));
  trailer.set("self_stalls_b", std::to_string(facts.self_stalls_b));
  switch (end.ending) {
    case MonitorEnding::complete:
    case MonitorEnding::running: trailer.set("status", std::string(kStatusComplete)); break;
    case MonitorEnding::interrupted:
      trailer.set("signal", end.signal);
      trailer.set("status", std::string(kStatusInterrupted));
      break;
    case MonitorEnding::aborted:
      trailer.set("error", end.error);
      trailer.set("status", std::string(kStatusAborted));
      break;
  }
  return trailer;
}

int monitor_exit_code(const MonitorEnd& end) {
  return end.ending == MonitorEnding::aborted ? kExitRuntime : kExitOk;
}

}  // namespace tscaudit
