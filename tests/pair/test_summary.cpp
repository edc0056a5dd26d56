#include <catch2/catch.hpp>

#include "pair/summary.hpp"

using namespace tscaudit;

TEST_CASE("signed differences survive unsigned wrap") {
  const Round r{0, 1000, 900, 950, 1100, 0};  // b is behind: fwd negative
  CHECK(fwd_ticks(r) == -100);
  CHECK(rev_ticks(r) == 150);
  CHECK(rtt_ticks(r) == 100 - 50);
  const Round wrap{0, 0xFFFFFFFFFFFFFFF0ull, 0x10, 0x20, 0x30, 0};
  CHECK(fwd_ticks(wrap) == 0x20);
  CHECK(rtt_ticks(wrap) == 0x40 - 0x10);
}

TEST_CASE("summary counts exactly") {
  const std::vector<Round> rounds = {
      {0, 100, 150, 160, 210, 0},             // fwd 50 rev 50 rtt 100
      {1, 300, 290, 300, 420, kFlagSwitchA},  // fwd -10 rev 120 rtt 110
      {2, 500, 560, 570, 565, 0},             // fwd 60 rev -5 rtt 55
      {3, 700, 640, 650, 690, kFlagStall},    // fwd -60 rev 40 rtt -20
  };
  const RunSummary s = summarize(rounds);
  CHECK(s.rounds == 4);
  CHECK(s.rtt_min_ticks == -20);
  CHECK(s.rtt_p50_ticks == 55);  // lower median of {-20, 55, 100, 110}
  CHECK(s.fwd_min_ticks == -60);
  CHECK(s.rev_min_ticks == -5);
  CHECK(s.fwd_negative == 2);
  CHECK(s.rev_negative == 1);
  CHECK(s.rtt_negative == 1);
  CHECK(s.flagged == 2);
  CHECK(s.stalls == 1);
  CHECK(s.span_ticks == 690 - 100);
}

TEST_CASE("stalls are rounds above ten times the median rtt") {
  std::vector<Round> rounds;
  for (std::uint64_t i = 0; i < 9; ++i)
    rounds.push_back({i, 1000 * i, 1000 * i + 50, 1000 * i + 60, 1000 * i + 110, 0});
  rounds.push_back({9, 20000, 20000 + 500, 20000 + 510, 20000 + 1010, 0});   // rtt 1000 = 10x: not above
  rounds.push_back({10, 30000, 30000 + 600, 30000 + 610, 30000 + 1011, 0});  // rtt 1001: a stall
  CHECK(median_rtt_ticks(rounds) == 100);
  CHECK(flag_stalls(rounds) == 1);
  CHECK(rounds[10].flags == kFlagStall);
  CHECK(rounds[9].flags == 0);
}
