// worst_of, exact: the CPUs farthest from the median per-CPU offset, the pairs with the
// largest offsets and the most causality violations, ties in matrix order.
#include <catch2/catch.hpp>

#include <vector>

#include "matrix/matrix_worst.hpp"

using namespace tscaudit;

namespace {

/// Four CPUs, every ordered pair measured with offset x_b − x_a and no violations but those
/// set; x = 0, 0, 2, −400 ticks for CPUs 10, 11, 12, 13.
MatrixResult four_cpus() {
  MatrixResult m;
  m.cpus = {10, 11, 12, 13};
  const std::vector<double> x = {0, 0, 2, -400};
  m.cells.resize(16);
  for (std::size_t a = 0; a < 4; ++a) {
    for (std::size_t b = 0; b < 4; ++b) {
      if (a == b) continue;
      PairCell& c = m.cells[a * 4 + b];
      c.measured = true;
      c.offset_ticks = x[b] - x[a];
    }
  }
  m.cpu.offset_ticks = x;
  return m;
}

}  // namespace

TEST_CASE("worst: CPUs by distance from the median offset") {
  MatrixResult m = four_cpus();
  SECTION("the median of 0 0 2 -400 is 0 (upper median of -400 0 0 2)") {
    const MatrixWorst w = worst_of(m, 3);
    CHECK(w.median_cpu_offset_ticks == Approx(0).margin(0));
    CHECK(w.cpus == std::vector<std::size_t>{3, 2, 0});  // 400, 2, then 0 and 0 in matrix order
  }
  SECTION("the reference CPU off: every other CPU is 400 from it, and it is the one named") {
    m.cpu.offset_ticks = {0, -400, -400, -400};
    const MatrixWorst w = worst_of(m, 2);
    CHECK(w.median_cpu_offset_ticks == Approx(-400).margin(0));
    CHECK(w.cpus == std::vector<std::size_t>{0, 1});
  }
  SECTION("CPUs with no offset are left out") {
    m.cpu.offset_ticks = {0, kNoValue, 2, kNoValue};
    const MatrixWorst w = worst_of(m, 10);
    CHECK(w.median_cpu_offset_ticks == Approx(2).margin(0));  // the upper median of 0 and 2
    CHECK(w.cpus == std::vector<std::size_t>{0, 2});
  }
  SECTION("no per-CPU offsets: no CPUs") {
    m.cpu.offset_ticks.clear();
    const MatrixWorst w = worst_of(m, 10);
    CHECK(w.cpus.empty());
    CHECK(w.offset_pairs.size() == 10);
  }
}

TEST_CASE("worst: pairs by |offset| and by causality violations") {
  MatrixResult m = four_cpus();
  m.cells[0 * 4 + 1].causality_violations = 3;
  m.cells[2 * 4 + 1].causality_violations = 7;
  m.cells[1 * 4 + 0].causality_violations = 3;
  m.cells[3 * 4 + 0].measured = false;  // 13->10: not measured, though its offset is the largest
  m.cells[0 * 4 + 3].offset_ticks = kNoValue;
  const MatrixWorst w = worst_of(m, 4);
  // |offset| 402 for 12<->13, 400 for 11<->13; 13->10 is not measured, 10->13 has none.
  CHECK(w.offset_pairs == std::vector<CellIndex>{{2, 3}, {3, 2}, {1, 3}, {3, 1}});
  CHECK(w.violation_pairs == std::vector<CellIndex>{{2, 1}, {0, 1}, {1, 0}});
  CHECK(worst_of(m, 1).violation_pairs == std::vector<CellIndex>{{2, 1}});
  CHECK(worst_of(m, 0).offset_pairs.empty());
}
