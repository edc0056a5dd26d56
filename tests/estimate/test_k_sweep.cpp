// The choice of k (estimate/k_sweep.hpp), exactly, on fabricated sweep steps. The
// tolerances: half a quantum (at least 1 tick) on the offset; on the margin's rise, the
// largest of half a quantum, 2 ticks and a tenth of the margin.
#include <catch2/catch.hpp>

#include <optional>
#include <vector>

#include "estimate/k_sweep.hpp"

using namespace tscsync;

namespace {

SweepFit fit(double offset, double margin) { return {true, offset, margin}; }
SweepFit crossed(double offset, double margin) { return {false, offset, margin}; }

}  // namespace

TEST_CASE("k sweep: stable at once") {
  const std::vector<SweepFit> steps = {fit(100, 50), fit(100, 50), fit(100.5, 51), fit(100, 52)};
  const SweepChoice c = choose_sweep_step(steps, 1);
  CHECK(c.stable == std::size_t{0});
  CHECK(c.shown);
  CHECK(c.largest_feasible == std::size_t{3});
}

TEST_CASE("k sweep: stable late, once the early reads are stepped over") {
  // Early reads hold the offset off and the margin down at k = 1, 2; from the third
  // step on the fit moves by less than the tolerances.
  const std::vector<SweepFit> steps = {fit(140, 20), fit(120, 30), fit(101, 45),
                                       fit(100, 47), fit(100, 48), fit(99.5, 50)};
  const SweepChoice c = choose_sweep_step(steps, 1);
  CHECK(c.stable == std::size_t{2});
  CHECK(c.shown);
  CHECK(c.largest_feasible == std::size_t{5});
}

TEST_CASE("k sweep: never stable: no stable step, the largest feasible one is there to fall back on") {
  const std::vector<SweepFit> steps = {fit(200, 20), fit(150, 30), fit(100, 40), crossed(50, -5)};
  const SweepChoice c = choose_sweep_step(steps, 1);
  CHECK_FALSE(c.stable.has_value());
  CHECK(c.shown);
  CHECK(c.largest_feasible == std::size_t{2});
}

TEST_CASE("k sweep: an infeasible step is never chosen and stops the one before it") {
  // Step 0 agrees with nothing infeasible after it; steps 1 and 2 are infeasible
  // themselves; step 3 is the last, and the line of step 2 (crossed, but the same) did
  // not move into it.
  const std::vector<SweepFit> steps = {fit(100, 50), crossed(100, 50), crossed(100, 50), fit(100, 50)};
  const SweepChoice c = choose_sweep_step(steps, 1);
  CHECK(c.stable == std::size_t{3});
  CHECK(c.shown);
  CHECK(c.largest_feasible == std::size_t{3});
}

TEST_CASE("k sweep: nothing feasible") {
  const std::vector<SweepFit> steps = {crossed(10, -3), crossed(11, -2)};
  const SweepChoice c = choose_sweep_step(steps, 26);
  CHECK_FALSE(c.stable.has_value());
  CHECK_FALSE(c.largest_feasible.has_value());
  CHECK(choose_sweep_step({}, 1).largest_feasible == std::nullopt);
}

TEST_CASE("k sweep: one step, or the last step, needs only the steps after it to agree") {
  const std::vector<SweepFit> one = {fit(100, 50)};
  CHECK(choose_sweep_step(one, 1).stable == std::size_t{0});
  CHECK(choose_sweep_step(one, 1).shown);
  // The last step is stable by the rule, but the offset still moved into it: not shown.
  const std::vector<SweepFit> moving = {fit(300, 10), fit(200, 20), fit(100, 30)};
  const SweepChoice c = choose_sweep_step(moving, 1);
  CHECK(c.stable == std::size_t{2});
  CHECK_FALSE(c.shown);
  // The next to last: the last agrees with it, and nothing is after the last.
  const std::vector<SweepFit> settling = {fit(300, 10), fit(100, 30), fit(100, 30)};
  const SweepChoice s = choose_sweep_step(settling, 1);
  CHECK(s.stable == std::size_t{1});
  CHECK(s.shown);
}

TEST_CASE("k sweep: ties: a move of exactly the tolerance agrees, a hair more does not") {
  struct Case {
    std::int64_t q;
    double offset_move;  // from step 0 to step 1 (steps 1 and 2 agree exactly)
    double margin_rise;
    bool stable_at_0;
  };
  // q = 1: offset 1 tick, margin 2 ticks (a tenth of 10 is less). q = 26: offset 13 ticks,
  // margin 13. Margin 200: a tenth, 20 ticks. A fall of the margin always agrees.
  const Case c =
      GENERATE(Case{1, 1.0, 2.0, true}, Case{1, 1.0 + 1.0 / 1024, 0, false}, Case{1, 0, 2.0 + 1.0 / 1024, false},
               Case{1, -1.0, 2.0, true}, Case{26, 13.0, 13.0, true}, Case{26, 13.0 + 1.0 / 1024, 0, false},
               Case{26, 0, 13.0 + 1.0 / 1024, false}, Case{1, 0, -1000, true});
  const double margin = 10;
  std::vector<SweepFit> steps = {fit(100, margin), fit(100 + c.offset_move, margin + c.margin_rise),
                                 fit(100 + c.offset_move, margin + c.margin_rise)};
  INFO("q " << c.q << ", offset move " << c.offset_move << ", margin rise " << c.margin_rise);
  CHECK((choose_sweep_step(steps, c.q).stable == std::size_t{0}) == c.stable_at_0);
  // The margin's allowance is a tenth of a wide margin: 20 ticks at 200, not 21.
  const std::vector<SweepFit> wide = {fit(0, 200), fit(0, 220), fit(0, 220)};
  CHECK(choose_sweep_step(wide, 1).stable == std::size_t{0});
  const std::vector<SweepFit> wider = {fit(0, 200), fit(0, 221), fit(0, 221)};
  CHECK(choose_sweep_step(wider, 1).stable == std::size_t{1});
}
