// Two runs' per-CPU offset tables compared (matrix/offset_compare.hpp, render/compare_output.hpp,
// docs/commands.md "compare"), on tables written out here: a CPU moved up and one down by
// exactly the gap between their bands, bands that overlap or touch, an unbounded CPU, CPUs in
// one run only, a second run against another reference (rebased, its bands widened), nothing
// in common; the answer's words and the JSON reader's refusals.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "core/errors.hpp"
#include "matrix/offset_compare.hpp"
#include "render/compare_output.hpp"

using namespace tscaudit;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// A table against CPU `reference` (its band [0, 0]), the others' bands as given.
OffsetTable table(int reference, std::vector<int> cpus, std::vector<double> lo, std::vector<double> hi) {
  OffsetTable t;
  t.reference_cpu = reference;
  t.cpus = std::move(cpus);
  t.lo = std::move(lo);
  t.hi = std::move(hi);
  for (std::size_t i = 0; i < t.cpus.size(); ++i) t.estimate.push_back((t.lo[i] + t.hi[i]) / 2);
  t.tsc_hz = 2e9;
  return t;
}

}  // namespace

TEST_CASE("compare: a CPU changed only where its two bands are disjoint, by at least the gap") {
  const OffsetTable a = table(0, {0, 1, 2, 3}, {0, -61, -301, -100}, {0, 61, 301, 100});
  // CPU 1 up by 400 (bands [-61, 61] and [339, 461]); CPU 3 down, its band touching: [-300, -100].
  const OffsetTable b = table(0, {0, 1, 2, 3}, {0, 339, 99, -300}, {0, 461, 701, -100});
  const OffsetComparison c = compare_offsets(a, b);
  REQUIRE(c.cpus.size() == 4);
  CHECK(c.compared == 4);
  CHECK(c.moved == 1);
  CHECK(c.changed());
  CHECK_FALSE(c.rebased);
  CHECK(c.cpus[0].change == OffsetChange::overlap);
  CHECK(c.cpus[1].change == OffsetChange::moved);
  CHECK(c.cpus[1].moved_at_least == Approx(278).margin(0));
  CHECK(c.cpus[1].moved_at_most == Approx(522).margin(0));
  CHECK(c.cpus[2].change == OffsetChange::overlap);  // [99, 701] meets [-301, 301]
  CHECK(c.cpus[3].change == OffsetChange::overlap);  // they share -100: nothing proven
  CHECK(comparison_answer(c) == "changed: CPU 1 moved +278 to +522 ticks (+139 to +261 ns) against CPU 0");

  // The other way round: moved down, signed, the smaller size first.
  const OffsetComparison back = compare_offsets(b, a);
  CHECK(back.cpus[1].moved_at_least == Approx(-278).margin(0));
  CHECK(back.cpus[1].moved_at_most == Approx(-522).margin(0));
  CHECK(comparison_answer(back) == "changed: CPU 1 moved -278 to -522 ticks (-139 to -261 ns) against CPU 0");
}

TEST_CASE("compare: no proven change, unbounded CPUs, and what is in one run only") {
  const OffsetTable a = table(0, {0, 1, 2}, {0, -61, -kInf}, {0, 61, 5});
  const OffsetTable b = table(0, {0, 1, 4}, {0, -20, -10}, {0, 100, 10});
  const OffsetComparison c = compare_offsets(a, b);
  REQUIRE(c.cpus.size() == 4);
  CHECK(c.compared == 2);
  CHECK_FALSE(c.changed());
  CHECK(c.cpus[1].change == OffsetChange::overlap);
  CHECK(c.cpus[2].change == OffsetChange::only_first);
  CHECK(c.cpus[3].cpu == 4);
  CHECK(c.cpus[3].change == OffsetChange::only_second);
  CHECK(comparison_answer(c) ==
        "no proven change: the offset bands of the 2 CPUs in both runs overlap (against CPU 0)");

  // A band open below still proves a move above it; one that overlaps is "unbounded", not "~".
  const OffsetTable up = table(0, {0, 1, 2}, {0, -61, 10}, {0, 61, 20});
  const OffsetComparison open = compare_offsets(a, up);
  CHECK(open.cpus[2].change == OffsetChange::moved);
  CHECK(open.cpus[2].moved_at_least == Approx(5).margin(0));
  CHECK((std::isinf(open.cpus[2].moved_at_most) && open.cpus[2].moved_at_most > 0));
  CHECK(comparison_answer(open) == "changed: CPU 2 moved +5 ticks or more (+3 ns or more) against CPU 0");
  const OffsetTable same = table(0, {0, 1, 2}, {0, -61, -3}, {0, 61, 3});
  const OffsetComparison unbounded = compare_offsets(a, same);
  CHECK(unbounded.cpus[2].change == OffsetChange::unbounded);
  CHECK(comparison_answer(unbounded) ==
        "no proven change: the offset bands of the 3 CPUs in both runs overlap (against CPU 0); 1 CPU has no bound "
        "in a run");
}

TEST_CASE("compare: a second run against another CPU is referred to the first's reference") {
  const OffsetTable a = table(0, {0, 1, 2}, {0, -10, -10}, {0, 10, 10});
  // Against CPU 1: CPU 0 at [-5, 5], CPU 2 at [500, 510]. Against CPU 0: CPU 1 at [-5, 5],
  // CPU 2 at [495, 515].
  const OffsetTable b = table(1, {1, 0, 2}, {0, -5, 500}, {0, 5, 510});
  const OffsetComparison c = compare_offsets(a, b);
  CHECK(c.rebased);
  CHECK(c.reference_cpu == 0);
  REQUIRE(c.cpus.size() == 3);
  CHECK(c.cpus[1].second_lo == Approx(-5).margin(0));
  CHECK(c.cpus[1].second_hi == Approx(5).margin(0));
  CHECK(c.cpus[2].second_lo == Approx(495).margin(0));
  CHECK(c.cpus[2].second_hi == Approx(515).margin(0));
  CHECK(c.cpus[2].moved_at_least == Approx(485).margin(0));
  CHECK(c.cpus[2].moved_at_most == Approx(525).margin(0));

  // Every CPU but the reference moved the same way: the reference may be the one.
  const OffsetTable all = table(0, {0, 1, 2}, {0, 100, 100}, {0, 120, 120});
  CHECK(comparison_answer(compare_offsets(a, all)) ==
        "changed: 2 CPUs moved against CPU 0: CPU 1 +90 to +130 ticks (+45 to +65 ns), CPU 2 +90 to +130 ticks (+45 "
        "to +65 ns); every other CPU moved the same way: CPU 0 itself may be the one that moved");

  // The second run lacks the first's reference: nothing can be set against it.
  const OffsetTable other = table(5, {5, 6}, {0, -1}, {0, 1});
  const OffsetComparison none = compare_offsets(a, other);
  CHECK(none.compared == 0);
  CHECK(nothing_to_compare(none));
  CHECK(comparison_answer(none) ==
        "nothing to compare: the second run does not hold CPU 0, the first's reference, so no offset of the one can "
        "be set against the other");
}

TEST_CASE("compare: the JSON of matrix and check read, and what is not such a table refused by name") {
  const auto j = nlohmann::ordered_json::parse(R"({"tsc_hz": 2e9, "reason": "synchronized",
      "cpu_offset_ticks": [{"cpu": 0, "estimate": 0, "lo": 0, "hi": 0},
                           {"cpu": 3, "estimate": null, "lo": null, "hi": 7}],
      "cpu_offset_reference": 0})");
  const OffsetTable t = offset_table_from_json(j, "c.json");
  CHECK(t.reference_cpu == 0);
  CHECK(t.cpus == std::vector<int>{0, 3});
  CHECK((std::isinf(t.lo[1]) && t.lo[1] < 0));
  CHECK(t.hi[1] == Approx(7).margin(0));
  CHECK(t.tsc_hz == Approx(2e9).margin(0));
  CHECK(t.answer == "synchronized");

  const auto refused = [](const char* text) {
    try {
      (void)offset_table_from_json(nlohmann::ordered_json::parse(text), "x.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(refused("{}") ==
        "x.json: no per-CPU offsets (cpu_offset_ticks): give a run directory, a report directory, or the JSON of "
        "`matrix --format json` or `check --format json`");
  CHECK(refused(R"({"cpu_offset_ticks": [{"cpu": 1}, {"cpu": 1}], "cpu_offset_reference": 1})") ==
        "x.json: cpu_offset_ticks[1]: CPU 1 is in the table twice");
  CHECK(refused(R"({"cpu_offset_ticks": [{"cpu": 1, "lo": 2, "hi": 1}], "cpu_offset_reference": 1})") ==
        "x.json: cpu_offset_ticks[0]: CPU 1's band has lo > hi");
  CHECK(refused(R"({"cpu_offset_ticks": [{"cpu": 1, "lo": "a"}], "cpu_offset_reference": 1})") ==
        "x.json: cpu_offset_ticks[0].lo is not a number");
  CHECK(refused(R"({"cpu_offset_ticks": [{"cpu": -1}]})") == "x.json: cpu_offset_ticks[0] has no CPU number");
  CHECK(refused(R"({"cpu_offset_ticks": [{"cpu": 1}], "cpu_offset_reference": 2})") ==
        "x.json: cpu_offset_reference does not name a CPU of cpu_offset_ticks");
}
