// The choice of k (estimate/k_sweep.hpp), exactly, on fabricated sweep steps. The
// tolerances: half a quantum (at least 1 tick) on the offset; on the margin's rise, the
// largest of half a quantum, 2 ticks and a tenth of the margin.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "estimate/k_sweep.hpp"

using namespace tscaudit;

namespace {

SweepFit fit(double offset, double margin) { return {true, offset, margin}; }
SweepFit crossed(double offset, double margin) { return {false, offset, margin}; }

/// A sweep and the choice the rule must make of it.
struct Case {
  std::string what;
  std::vector<SweepFit> steps;
  std::int64_t q;
  std::optional<std::size_t> stable;
  bool shown;
  std::optional<std::size_t> largest_feasible;
};

}  // namespace

TEST_CASE("k sweep: the choice on fabricated sweeps") {
  const std::optional<std::size_t> none;
  const Case c = GENERATE_COPY(
      Case{"stable at once", {fit(100, 50), fit(100, 50), fit(100.5, 51), fit(100, 52)}, 1, 0, true, 3},
      // Early reads hold the offset off and the margin down at the first two steps; from
      // the third on, the fit moves by less than the tolerances.
      Case{"stable late",
           {fit(140, 20), fit(120, 30), fit(101, 45), fit(100, 47), fit(100, 48), fit(99.5, 50)},
           1,
           2,
           true,
           5},
      Case{"never stable: the largest feasible step is there to fall back on",
           {fit(200, 20), fit(150, 30), fit(100, 40), crossed(50, -5)},
           1,
           none,
           true,
           2},
      // Step 0 agrees with nothing infeasible after it; steps 1 and 2 are infeasible
      // themselves; step 3 is the last, and the line of step 2 (crossed, but the same)
      // did not move into it.
      Case{"an infeasible step is never chosen and stops the one before it",
           {fit(100, 50), crossed(100, 50), crossed(100, 50), fit(100, 50)},
           1,
           3,
           true,
           3},
      Case{"nothing feasible", {crossed(10, -3), crossed(11, -2)}, 26, none, true, none},
      Case{"no step at all", {}, 1, none, true, none},
      Case{"one step needs no other to agree", {fit(100, 50)}, 1, 0, true, 0},
      // The last step is stable by the rule, but the offset still moved into it.
      Case{"the last step, still moving, is not shown stable",
           {fit(300, 10), fit(200, 20), fit(100, 30)},
           1,
           2,
           false,
           2},
      Case{"the next to last needs only the last to agree", {fit(300, 10), fit(100, 30), fit(100, 30)}, 1, 1, true, 2},
      // The margin's allowance is a tenth of a wide margin: 20 ticks at 200, not 21.
      Case{"a wide margin may rise by a tenth", {fit(0, 200), fit(0, 220), fit(0, 220)}, 1, 0, true, 2},
      Case{"but no more", {fit(0, 200), fit(0, 221), fit(0, 221)}, 1, 1, true, 2});
  INFO(c.what);
  const SweepChoice choice = choose_sweep_step(c.steps, c.q);
  CHECK(choice.stable == c.stable);
  CHECK(choice.shown == c.shown);
  CHECK(choice.largest_feasible == c.largest_feasible);
}

TEST_CASE("k sweep: ties: a move of exactly the tolerance agrees, a hair more does not") {
  struct Tie {
    std::int64_t q;
    double offset_move;  // from step 0 to step 1 (steps 1 and 2 agree exactly)
    double margin_rise;
    bool stable_at_0;
  };
  // q = 1: offset 1 tick, margin 2 ticks (a tenth of 10 is less). q = 26: offset 13 ticks,
  // margin 13. A fall of the margin always agrees.
  const Tie t = GENERATE(Tie{1, 1.0, 2.0, true}, Tie{1, 1.0 + 1.0 / 1024, 0, false}, Tie{1, 0, 2.0 + 1.0 / 1024, false},
                         Tie{1, -1.0, 2.0, true}, Tie{26, 13.0, 13.0, true}, Tie{26, 13.0 + 1.0 / 1024, 0, false},
                         Tie{26, 0, 13.0 + 1.0 / 1024, false}, Tie{1, 0, -1000, true});
  const double margin = 10;
  const std::vector<SweepFit> steps = {fit(100, margin), fit(100 + t.offset_move, margin + t.margin_rise),
                                       fit(100 + t.offset_move, margin + t.margin_rise)};
  INFO("q " << t.q << ", offset move " << t.offset_move << ", margin rise " << t.margin_rise);
  CHECK((choose_sweep_step(steps, t.q).stable == std::size_t{0}) == t.stable_at_0);
}
