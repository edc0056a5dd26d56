// What a running monitor says on stderr (render/monitor_run_text.hpp), exactly.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "render/monitor_run_text.hpp"

using namespace tscaudit;

namespace {

MonitorRunTotals totals() {
  MonitorRunTotals t;
  t.intervals = 10;
  t.rounds = 25'000'000;
  t.lost = 3;
  t.late = 2;
  t.fwd_negative = 5;
  t.rev_negative = 0;
  t.self_inconsistent = 1;
  t.rtt_max = 123456;
  t.stall_ms_max = 1500;
  t.first_peak_rss_kib = 14000;
  t.last_peak_rss_kib = 14100;
  return t;
}

const MonitorRunSetting kSetting{0, 1, "rdtsc", "lfence_rdtsc", 1.0, "mon.log", "", 2.5e9};

const std::string kHead =
    "tscaudit monitor: no verdict here: tscaudit analyze mon.log reads the log\n"
    "  pair          CPU 0 -> CPU 1, send rdtsc, recv lfence_rdtsc\n"
    "  intervals     10 of 1 s\n"
    "  rounds        25000000 recorded (about 2.5 M rounds/s), 3 lost (queue full), 2 late\n"
    "  one-way < 0   fwd 5, rev 0; rtt < -2q 1 round\n"
    "  longest rtt   123456 ticks (49.4 µs); longest pause (nothing ran) 1500 ms\n"
    "  peak RSS      14000 KiB after the first interval, 14100 KiB after the last\n";

}  // namespace

TEST_CASE("monitor run text: the summary of each ending") {
  CHECK(monitor_summary_text(kSetting, {MonitorEnding::complete, "", ""}, totals()) ==
        kHead + "  wrote mon.log (status: complete)\n");
  CHECK(monitor_summary_text(kSetting, {MonitorEnding::interrupted, "SIGINT", ""}, totals()) ==
        kHead +
            "  interrupted by SIGINT: wrote mon.log with every interval up to now (status: interrupted);\n"
            "    `tscaudit analyze mon.log` reads it\n");
  CHECK(monitor_summary_text(kSetting, {MonitorEnding::aborted, "", "CPU 1 stopped answering"}, totals()) ==
        kHead + "  ABORTED: CPU 1 stopped answering\n  wrote mon.log with the intervals done (status: aborted)\n");
  MonitorRunSetting to_stdout = kSetting;
  to_stdout.out = "-";
  CHECK(monitor_summary_text(to_stdout, {}, totals()).ends_with("  wrote stdout (status: complete)\n"));
  CHECK(monitor_summary_text(to_stdout, {}, totals())
            .starts_with("tscaudit monitor: no verdict here: the log went to standard output (tscaudit analyze - reads "
                         "it)\n  pair          CPU 0 -> CPU 1"));
}

TEST_CASE("monitor run text: the longest rtt in ticks, and in time where the frequency is known") {
  MonitorRunTotals slow = totals();
  slow.rtt_max = 166320362;
  CHECK(monitor_summary_text(kSetting, {}, slow).find("  longest rtt   166320362 ticks (66.5 ms); longest pause") !=
        std::string::npos);
  MonitorRunSetting unknown = kSetting;
  unknown.tsc_hz = 0;
  CHECK(monitor_summary_text(unknown, {}, slow).find("  longest rtt   166320362 ticks; longest pause") !=
        std::string::npos);
}

TEST_CASE("monitor run text: the answer first, wrapped to 100 columns") {
  MonitorRunSetting answered = kSetting;
  answered.answer =
      "synchronized within the band: the offset lies in [-190, 212] ticks, which contains 0; 12 negative one-way "
      "latencies, none proven beyond the band (the log keeps counts, not rounds)";
  const std::string text = monitor_summary_text(answered, {MonitorEnding::complete, "", ""}, totals());
  CHECK(
      text.starts_with("tscaudit monitor: synchronized within the band: the offset lies in [-190, 212] ticks, "
                       "which contains\n  0; 12 negative one-way latencies, none proven beyond the band (the log "
                       "keeps counts, not rounds)\n  pair          CPU 0 -> CPU 1"));
}

TEST_CASE("monitor run text: no interval yet is no division by zero") {
  const std::string text = monitor_summary_text(kSetting, {}, MonitorRunTotals{});
  CHECK(text.find("  rounds        0 recorded (about 0 M rounds/s), 0 lost (queue full), 0 late\n") !=
        std::string::npos);
}

TEST_CASE("monitor run text: the progress line and the warnings of an interval") {
  CHECK(monitor_progress_text(totals()) == "interval 10, 25000000 rounds, fwd<0 5, rev<0 0, lost 3");

  IntervalSummary s;
  s.index = 7;
  CHECK(interval_warnings(s).empty());
  s.stall_ms = kStallWarnMs - 1;
  CHECK(interval_warnings(s).empty());
  s.stall_ms = kStallWarnMs;
  s.lost = 12;
  CHECK(interval_warnings(s) ==
        std::vector<std::string>{
            "tscaudit monitor: warning: nothing ran for 1000 ms in interval 7 (the process was stopped, or the\n"
            "  host did not run this VM); the log marks it in stall_ms\n",
            "tscaudit monitor: warning: interval 7 lost 12 rounds (the queue to the aggregator was full); the log\n"
            "  counts them in lost\n"});
  // One round is a round; a count of many digits still fits 100 columns (the text wraps).
  s.stall_ms = 0;
  s.lost = 1;
  CHECK(interval_warnings(s) ==
        std::vector<std::string>{"tscaudit monitor: warning: interval 7 lost 1 round (the queue to the aggregator was "
                                 "full); the log\n  counts them in lost\n"});
}
