// The monitor's cutting of rounds into intervals: exact boundaries, every interval once and
// in order, late and lost rounds counted where they belong, stalls closing empty intervals.
#include <catch2/catch.hpp>

#include <vector>

#include "core/errors.hpp"
#include "monitor/interval_sequencer.hpp"

using namespace tscaudit;

namespace {

/// A round at a's time t1 with fixed latencies (fwd 40, turnaround 10, rev 60 ticks).
Round at(std::uint64_t seq, std::uint64_t t1) { return Round(seq, t1, t1 + 40, t1 + 50, t1 + 110); }

struct Collected {
  std::vector<IntervalSummary> intervals;
  IntervalSequencer::Sink sink() {
    return [this](IntervalSummary& s) { intervals.push_back(s); };
  }
};

}  // namespace

TEST_CASE("interval sequencer: rounds cut at exact boundaries of a's counter") {
  Collected c;
  IntervalSequencer seq(100, 3, 1, c.sink());
  std::uint64_t n = 0;
  for (std::uint64_t t = 1000; t < 1350; t += 10) seq.add(at(n++, t));
  // t1 = 1000..1090 | 1100..1190 | 1200..1290; 1300.. are past the end.
  REQUIRE(c.intervals.size() == 3);
  for (std::uint64_t i = 0; i < 3; ++i) {
    CHECK(c.intervals[i].index == i);
    CHECK(c.intervals[i].start_tick == 1000 + 100 * i);
    CHECK(c.intervals[i].end_tick == 1100 + 100 * i);
    CHECK(c.intervals[i].rounds == 10);
    CHECK(c.intervals[i].late == 0);
    CHECK(c.intervals[i].fwd_k[0].value_ticks == 40);
    CHECK(c.intervals[i].fwd_k[0].at_tick == 1000 + 100 * i);  // the earliest of equal values
  }
  CHECK(seq.done());
  CHECK(seq.rounds_recorded() == 30);
  CHECK(seq.rounds_after_end() == 5);
  CHECK(seq.start_tick() == 1000);
}

TEST_CASE("interval sequencer: a gap in the rounds writes the empty intervals between") {
  Collected c;
  IntervalSequencer seq(100, 0, 1, c.sink());
  seq.add(at(0, 1000));
  seq.add(at(1, 1450));  // intervals 1, 2 and 3 had no round
  REQUIRE(c.intervals.size() == 4);
  CHECK(c.intervals[0].rounds == 1);
  for (std::size_t i = 1; i < 4; ++i) {
    CHECK(c.intervals[i].index == i);
    CHECK(c.intervals[i].rounds == 0);
    CHECK_FALSE(c.intervals[i].fwd_k[0].present);
  }
  CHECK_FALSE(seq.done());  // no planned end
}

TEST_CASE("interval sequencer: close_due closes stalled intervals after the grace, late rounds counted") {
  Collected c;
  IntervalSequencer seq(100, 5, 1, c.sink());
  seq.close_due(5000, 0);  // no round yet: no clock, nothing closes
  CHECK(c.intervals.empty());
  seq.add(at(0, 1000));
  seq.add(at(1, 1050));
  seq.close_due(1119, 20);  // interval 0 ends at 1100: 19 ticks past it, inside the grace
  CHECK(c.intervals.empty());
  seq.close_due(1120, 20);
  REQUIRE(c.intervals.size() == 1);
  CHECK(c.intervals[0].rounds == 2);
  // A round of interval 0 that waited out the stall in the queue: late, in interval 1.
  seq.add(at(2, 1090));
  seq.add(at(3, 1110));
  seq.close_due(1400, 0);  // intervals 1, 2 and 3 end at 1200, 1300 and 1400
  REQUIRE(c.intervals.size() == 4);
  CHECK(c.intervals[1].rounds == 2);
  CHECK(c.intervals[1].late == 1);
  CHECK(c.intervals[2].rounds == 0);
  CHECK(c.intervals[3].rounds == 0);
  CHECK_FALSE(seq.done());
}

TEST_CASE("interval sequencer: lost rounds go to the open interval") {
  Collected c;
  IntervalSequencer seq(100, 2, 1, c.sink());
  seq.add_lost(7);  // before the first round: in no interval
  seq.add(at(0, 1000));
  seq.add_lost(3);
  seq.add(at(1, 1100));
  seq.add_lost(4);
  seq.add(at(2, 1250));
  REQUIRE(c.intervals.size() == 2);
  CHECK(c.intervals[0].lost == 3);
  CHECK(c.intervals[1].lost == 4);
  CHECK(seq.rounds_lost() == 7);  // the sum of the intervals' lost
  seq.add_lost(5);                // after the last interval
  CHECK(seq.rounds_lost() == 7);
  CHECK(seq.rounds_lost_outside() == 12);
}

TEST_CASE("interval sequencer: an interrupted run closes the open interval at its last round") {
  Collected c;
  IntervalSequencer seq(100, 0, 1, c.sink());
  seq.close_partial();  // nothing yet: nothing to close
  CHECK(c.intervals.empty());
  seq.add(at(0, 1000));
  seq.add(at(1, 1120));
  seq.add(at(2, 1160));
  seq.close_partial();
  REQUIRE(c.intervals.size() == 2);
  CHECK(c.intervals[1].start_tick == 1100);
  CHECK(c.intervals[1].end_tick == 1161);
  CHECK(c.intervals[1].rounds == 2);
  CHECK(seq.done());
  seq.add(at(3, 1170));
  CHECK(c.intervals.size() == 2);
  CHECK(seq.rounds_after_end() == 1);

  Collected empty;
  IntervalSequencer seq2(100, 0, 1, empty.sink());
  seq2.add(at(0, 1000));
  seq2.close_due(1200, 0);  // interval 1 (1100..1200) closed empty, interval 2 open
  seq2.close_partial();     // ... and closed empty too, one tick long
  REQUIRE(empty.intervals.size() == 3);
  CHECK(empty.intervals[2].start_tick == 1200);
  CHECK(empty.intervals[2].end_tick == 1201);
}

TEST_CASE("interval sequencer: a counter that jumps a million intervals ahead ends the run") {
  Collected c;
  IntervalSequencer seq(100, 0, 1, c.sink());
  seq.add(at(0, 1000));
  seq.add(at(1, 1000 + 100 * 999));  // 998 empty intervals: a long stall, still fine
  CHECK(c.intervals.size() == 999);
  CHECK_THROWS_AS(seq.add(at(2, 1000 + 100 * 2'001'000)), RuntimeError);
  CHECK(c.intervals.size() == 999);  // refused before writing a million empty lines
}
