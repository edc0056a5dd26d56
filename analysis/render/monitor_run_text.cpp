#include "render/monitor_run_text.hpp"

#include <algorithm>

#include "core/format.hpp"
#include "core/human_units.hpp"
#include "render/text_wrap.hpp"

namespace tscaudit {

std::string monitor_progress_text(const MonitorTotals& t) {
  return "interval " + std::to_string(t.intervals) + ", " + std::to_string(t.rounds) + " rounds, fwd<0 " +
         std::to_string(t.fwd_negative) + ", rev<0 " + std::to_string(t.rev_negative) + ", lost " +
         std::to_string(t.lost);
}

std::vector<std::string> interval_warnings(const IntervalSummary& s) {
  std::vector<std::string> lines;
  if (s.stall_ms >= kStallWarnMs) {
    lines.push_back(wrap_lines("tscaudit monitor: warning: nothing ran for " + std::to_string(s.stall_ms) +
                               " ms in interval " + std::to_string(s.index) +
                               " (the process was stopped, or the host did not run this VM); the log marks it in "
                               "stall_ms\n"));
  }
  if (s.lost > 0) {
    lines.push_back(wrap_lines("tscaudit monitor: warning: interval " + std::to_string(s.index) + " lost " +
                               std::to_string(s.lost) + (s.lost == 1 ? " round" : " rounds") +
                               " (the queue to the aggregator was full); the log counts them in lost\n"));
  }
  return lines;
}

std::string monitor_summary_text(const MonitorRunSetting& o, const MonitorEnd& end, const MonitorRunTotals& totals) {
  const double seconds = static_cast<double>(totals.intervals) * o.interval_s;
  std::string text = "tscaudit monitor: ";
  if (!o.answer.empty()) {
    text += o.answer + "\n";
  } else if (o.out == "-") {
    text += "no verdict here: the log went to standard output (tscaudit analyze - reads it)\n";
  } else {
    text += "no verdict here: tscaudit analyze " + o.out + " reads the log\n";
  }
  text += "  pair          CPU " + std::to_string(o.cpu_a) + " -> CPU " + std::to_string(o.cpu_b) + ", send " + o.send +
          ", recv " + o.recv + "\n";
  text += "  intervals     " + std::to_string(totals.intervals) + " of " + format_sig(o.interval_s, 6) + " s\n";
  text += "  rounds        " + std::to_string(totals.rounds) + " recorded (about " +
          format_sig(static_cast<double>(totals.rounds) / std::max(seconds, 1e-9) / 1e6, 3) + " M rounds/s), " +
          std::to_string(totals.lost) + " lost (queue full), " + std::to_string(totals.late) + " late\n";
  text += "  one-way < 0   fwd " + std::to_string(totals.fwd_negative) + ", rev " +
          std::to_string(totals.rev_negative) + "; rtt < -2q " + std::to_string(totals.self_inconsistent) +
          (totals.self_inconsistent == 1 ? " round\n" : " rounds\n");
  const std::string rtt_time =
      o.tsc_hz > 0 ? " (" + duration_words(static_cast<double>(totals.rtt_max) / o.tsc_hz) + ")" : std::string();
  text += "  longest rtt   " + std::to_string(totals.rtt_max) + " ticks" + rtt_time + "; longest pause (nothing ran) " +
          std::to_string(totals.stall_ms_max) + " ms\n";
  text += "  peak RSS      " + std::to_string(totals.first_peak_rss_kib) + " KiB after the first interval, " +
          std::to_string(totals.last_peak_rss_kib) + " KiB after the last\n";
  const std::string where = o.out == "-" ? std::string("stdout") : o.out;
  switch (end.ending) {
    case MonitorEnding::complete:
    case MonitorEnding::running: text += "  wrote " + where + " (status: complete)\n"; break;
    case MonitorEnding::interrupted:
      text += "  interrupted by " + end.signal + ": wrote " + where +
              " with every interval up to now (status: interrupted); `tscaudit analyze " + where + "` reads it\n";
      break;
    case MonitorEnding::aborted:
      text += "  ABORTED: " + end.error + "\n  wrote " + where + " with the intervals done (status: aborted)\n";
      break;
  }
  return wrap_lines(text);
}

}  // namespace tscaudit
