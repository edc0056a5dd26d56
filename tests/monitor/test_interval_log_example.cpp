// tests/data/monitor/example.log: what the interval accumulator and the log writer make
// of simulated rounds (tests/data/monitor/README.md). Other tests read it as a fixture;
// this one keeps it equal to what the code writes today.
//
// To write it again after a deliberate change of the format or the accumulator:
//   build/tests/tscaudit_tests "[.write-example-log]"
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "formats/interval_log.hpp"
#include "monitor/interval_accumulator.hpp"
#include "simulate/simulate.hpp"

using namespace tscaudit;

namespace {

const std::string kExamplePath = TSCAUDIT_TEST_DATA "/monitor/example.log";

/// 10 intervals of 1 ms at 2.6 GHz (2,600,000 ticks, about 5,100 rounds each) from a
/// simulated pair with quantum 26, an offset of -120 ticks and rare early t2 reads (so a
/// few forward latencies are negative: fwd_k1 and fwd_k4 below 0, fwd_k16 above). The run
/// is interrupted by SIGINT after the 10th interval. In interval 4 the queue overflows
/// (its rounds 200 to 1399 are lost); the last 3 rounds of interval 5 arrive late, in
/// interval 6. The interference columns are made up (the monitor measures them).
std::string example_log_text() {
  constexpr std::uint64_t kIntervalTicks = 2'600'000;
  constexpr std::uint64_t kIntervals = 10;
  SimulationSpec spec;
  spec.rounds = 60'000;
  spec.seed = 2026;
  spec.quantum_ticks = 26;
  spec.offset_ticks = -120;
  spec.spec_b.rate = 0.002;
  spec.tsc_hz = 2.6e9;
  SimulationTruth truth;
  const Run run = simulate(spec, truth);

  Metadata header;
  for (const char* key : {"a", "b", "send", "recv", "transport", "tsc_hz", "quantum_ticks", "simulated", "seed"}) {
    header.set(key, std::string(*run.header.get(key)));
  }
  header.set("interval_ticks", std::to_string(kIntervalTicks));
  std::string text = interval_log_head(header);

  IntervalAccumulator acc(static_cast<std::int64_t>(spec.quantum_ticks));
  const std::uint64_t t0 = run.rounds.front().t1;
  std::size_t pos = 0;
  std::vector<Round> held_back;  // late: they reach the aggregator one interval later
  for (std::uint64_t i = 0; i < kIntervals; ++i) {
    const std::uint64_t start = t0 + i * kIntervalTicks;
    const std::uint64_t end = start + kIntervalTicks;
    acc.begin(i, start, end);
    for (const Round& r : held_back) acc.add(r, /*late=*/true);
    held_back.clear();
    std::size_t in_interval = 0;
    for (; pos < run.rounds.size() && run.rounds[pos].t1 < end; ++pos, ++in_interval) {
      const Round& r = run.rounds[pos];
      // Among the interval's last 3: the third round after it is in a later one (t1 ascends).
      const bool last_three = pos + 3 >= run.rounds.size() || run.rounds[pos + 3].t1 >= end;
      if (i == 4 && in_interval >= 200 && in_interval < 1400) {
        acc.add_lost(1);
      } else if (i == 5 && last_three) {
        held_back.push_back(r);
      } else {
        acc.add(r);
      }
    }
    IntervalSummary s = acc.summary();
    s.switches_a = (i * 7) % 3;
    s.switches_b = i % 2;
    s.stall_ms = i == 4 ? 1 : 0;
    s.peak_rss_kib = 6144 + 4 * i;
    text += interval_log_line(s);
  }
  Metadata trailer;
  trailer.set("intervals_written", std::to_string(kIntervals));
  trailer.set("signal", "SIGINT");
  trailer.set("status", std::string(kStatusInterrupted));
  text += interval_log_tail(trailer);
  return text;
}

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace

TEST_CASE("interval log: the example log is what the code writes, and reads back") {
  const std::string text = file_text(kExamplePath);
  REQUIRE(!text.empty());
  CHECK(text == example_log_text());
  CHECK(text.size() < 20'000);
  const IntervalLog log = read_interval_log_file(kExamplePath);
  REQUIRE(log.intervals.size() == 10);
  CHECK(*interval_log_incomplete_reason(log) == "interrupted by SIGINT after 10 intervals");
  CHECK(log.intervals[4].lost == 1200);
  CHECK(log.intervals[5].late == 0);
  CHECK(log.intervals[6].late == 3);
  std::uint64_t fwd_negative = 0;
  for (const IntervalSummary& s : log.intervals) {
    CHECK(s.rounds + s.lost > 4900);  // 5,000 to 5,131 measured per interval
    fwd_negative += s.fwd_negative;
  }
  CHECK(fwd_negative > 0);  // the early reads show
}

TEST_CASE("interval log: write the example log", "[.write-example-log]") {
  std::ofstream out(kExamplePath, std::ios::binary | std::ios::trunc);
  REQUIRE(out.good());
  out << example_log_text();
  REQUIRE(out.good());
}
