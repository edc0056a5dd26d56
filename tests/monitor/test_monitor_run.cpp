// What a running monitor decides apart from its threads and files (monitor/monitor_run.hpp):
// the aggregator's wake-up period, the totals with the peak resident set, the log's trailer
// and the exit code, exactly.
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "monitor/monitor_run.hpp"

using namespace tscaudit;

namespace {

IntervalSummary interval(std::uint64_t index, std::uint64_t rounds, std::uint64_t peak_rss_kib) {
  IntervalSummary s;
  s.index = index;
  s.rounds = rounds;
  s.rtt_min = 200 + static_cast<std::int64_t>(index);
  s.rtt_max = 900 - static_cast<std::int64_t>(index);
  s.stall_ms = 10 * index;
  s.peak_rss_kib = peak_rss_kib;
  return s;
}

std::vector<std::pair<std::string, std::string>> entries(const Metadata& m) { return m.entries(); }

/// A sequencer that has cut 3 rounds into two intervals of 100 ticks, one more round lost
/// in the open interval and one after the end.
struct TwoIntervals {
  std::vector<IntervalSummary> written;
  IntervalSequencer sequencer{100, 2, 1, [this](IntervalSummary& s) { written.push_back(s); }};
  TwoIntervals() {
    sequencer.add(Round(0, 1000, 1040, 1050, 1110));
    sequencer.add(Round(1, 1050, 1090, 1100, 1160));
    sequencer.add_lost(1);
    sequencer.add(Round(2, 1100, 1140, 1150, 1210));
    sequencer.close_due(1300, 0);
    sequencer.add(Round(3, 1300, 1340, 1350, 1410));  // after the end
  }
};

}  // namespace

TEST_CASE("monitor run: the aggregator wakes a tenth of an interval, between 1 and 20 ms") {
  CHECK(monitor_wake_period(1.0) == std::chrono::milliseconds(20));
  CHECK(monitor_wake_period(0.1) == std::chrono::milliseconds(10));
  CHECK(monitor_wake_period(0.055) == std::chrono::milliseconds(5));
  CHECK(monitor_wake_period(0.001) == std::chrono::milliseconds(1));
  CHECK(monitor_wake_period(3600) == std::chrono::milliseconds(20));
}

TEST_CASE("monitor run: the totals keep the peak resident set after the first and the last interval") {
  MonitorRunTotals t;
  add_written_interval(t, interval(0, 100, 4000));
  add_written_interval(t, interval(1, 0, 4100));
  add_written_interval(t, interval(2, 50, 4096));
  CHECK(t.intervals == 3);
  CHECK(t.rounds == 150);
  CHECK(t.empty_intervals == 1);
  CHECK(t.rtt_min == 200);
  CHECK(t.rtt_max == 900);
  CHECK(t.stall_ms_max == 20);
  CHECK(t.first_peak_rss_kib == 4000);
  CHECK(t.last_peak_rss_kib == 4096);
}

TEST_CASE("monitor run: the trailer of each ending, exactly") {
  TwoIntervals two;
  REQUIRE(two.written.size() == 2);
  const MonitorTrailerFacts facts{"2026-01-02T03:04:05Z", 2, 7, 0};
  const std::vector<std::pair<std::string, std::string>> counts = {{"end_utc", "2026-01-02T03:04:05Z"},
                                                                   {"intervals", "2"},
                                                                   {"rounds_recorded", "3"},
                                                                   {"rounds_lost", "1"},
                                                                   {"rounds_lost_outside_intervals", "0"},
                                                                   {"rounds_after_end", "1"},
                                                                   {"self_stalls_a", "7"},
                                                                   {"self_stalls_b", "0"}};
  auto with = [&](std::vector<std::pair<std::string, std::string>> tail) {
    auto all = counts;
    all.insert(all.end(), tail.begin(), tail.end());
    return all;
  };
  CHECK(entries(monitor_trailer({MonitorEnding::complete, "", ""}, facts, two.sequencer)) ==
        with({{"status", "complete"}}));
  CHECK(entries(monitor_trailer({}, facts, two.sequencer)) == with({{"status", "complete"}}));
  CHECK(entries(monitor_trailer({MonitorEnding::interrupted, "SIGINT", ""}, facts, two.sequencer)) ==
        with({{"signal", "SIGINT"}, {"status", "interrupted"}}));
  CHECK(entries(monitor_trailer({MonitorEnding::aborted, "", "CPU 1 stopped answering"}, facts, two.sequencer)) ==
        with({{"error", "CPU 1 stopped answering"}, {"status", "aborted"}}));
}

TEST_CASE("monitor run: exit 3 for an aborted run only") {
  CHECK(monitor_exit_code({MonitorEnding::complete, "", ""}) == kExitOk);
  CHECK(monitor_exit_code({MonitorEnding::running, "", ""}) == kExitOk);
  CHECK(monitor_exit_code({MonitorEnding::interrupted, "SIGTERM", ""}) == kExitOk);
  CHECK(monitor_exit_code({MonitorEnding::aborted, "", "x"}) == kExitRuntime);
}
