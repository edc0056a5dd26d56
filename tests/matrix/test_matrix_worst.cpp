// worst_of, exact: the CPUs of the findings first, then those farthest from the reference
// (the median per-CPU offset of the reference group, else of all; the lower median of an
// even count), the pairs with the largest offsets and the most causality violations, ties
// in matrix order.
#include <catch2/catch.hpp>

#include <cmath>
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

TEST_CASE("worst: the lower median") {
  CHECK(lower_median({3, 1, 2}) == Approx(2).margin(0));
  CHECK(lower_median({600, 0, 600, 0}) == Approx(0).margin(0));  // two halves: the lower one's value
  CHECK(lower_median({kNoValue, 5, kNoValue, -1}) == Approx(-1).margin(0));
  CHECK(lower_median({7}) == Approx(7).margin(0));
  CHECK(std::isnan(lower_median({kNoValue})));
  CHECK(std::isnan(lower_median({})));
}

TEST_CASE("worst: without a diagnosis, CPUs by distance from the median offset of all") {
  MatrixResult m = four_cpus();
  SECTION("the median of 0 0 2 -400 is 0 (the lower median of -400 0 0 2)") {
    const MatrixWorst w = worst_of(m, 3);
    CHECK(w.reference_offset_ticks == Approx(0).margin(0));
    CHECK(w.reference_group_cpus == 0);
    CHECK(w.cpus == std::vector<std::size_t>{3, 2, 0});  // 400, 2, then 0 and 0 in matrix order
    CHECK(w.cpu_findings == std::vector<int>{-1, -1, -1});
  }
  SECTION("the reference CPU off: every other CPU is 400 from it, and it is the one named") {
    m.cpu.offset_ticks = {0, -400, -400, -400};
    const MatrixWorst w = worst_of(m, 2);
    CHECK(w.reference_offset_ticks == Approx(-400).margin(0));
    CHECK(w.cpus == std::vector<std::size_t>{0, 1});
  }
  SECTION("two equal halves: the lower median names the upper half, not both at half the gap") {
    m.cpu.offset_ticks = {0, 0, 600, 600};
    const MatrixWorst w = worst_of(m, 4);
    CHECK(w.reference_offset_ticks == Approx(0).margin(0));
    CHECK(w.cpus == std::vector<std::size_t>{2, 3, 0, 1});
  }
  SECTION("CPUs with no offset are left out") {
    m.cpu.offset_ticks = {0, kNoValue, 2, kNoValue};
    const MatrixWorst w = worst_of(m, 10);
    CHECK(w.reference_offset_ticks == Approx(0).margin(0));  // the lower median of 0 and 2
    CHECK(w.cpus == std::vector<std::size_t>{2, 0});
  }
  SECTION("no per-CPU offsets: no CPUs") {
    m.cpu.offset_ticks.clear();
    const MatrixWorst w = worst_of(m, 10);
    CHECK(w.cpus.empty());
    CHECK(w.offset_pairs.size() == 10);
  }
}

namespace {

/// The diagnosis of CPUs 10-13 with CPUs 12 and 13 (a package) ahead by 600 and CPU 11
/// drifting (left out of the offset groups).
Diagnosis package_and_drift() {
  Diagnosis d;
  Finding package;
  package.kind = FindingKind::offset;
  package.cpus = {12, 13};
  package.against = {10};
  Finding drift;
  drift.kind = FindingKind::drift;
  drift.cpus = {11};
  drift.against = {10, 12, 13};
  d.findings = {package, drift};
  d.offset_group = {0, -1, 1, 1};
  d.offset_groups = 2;
  return d;
}

}  // namespace

TEST_CASE("worst: with a diagnosis, the findings' CPUs first, in turn, then by distance from the reference group") {
  MatrixResult m = four_cpus();
  m.cpu.offset_ticks = {0, 5, 600, 600};
  const Diagnosis d = package_and_drift();
  SECTION("the package's first CPU, the drifting CPU, the package's second, then the rest") {
    const MatrixWorst w = worst_of(m, 10, &d);
    CHECK(w.reference_offset_ticks == Approx(0).margin(0));  // CPU 10 alone in group 0
    CHECK(w.reference_group_cpus == 1);
    CHECK(w.cpus == std::vector<std::size_t>{2, 1, 3, 0});
    CHECK(w.cpu_findings == std::vector<int>{0, 1, 0, -1});
  }
  SECTION("a short list still holds every finding") {
    const MatrixWorst w = worst_of(m, 2, &d);
    CHECK(w.cpus == std::vector<std::size_t>{2, 1});
    CHECK(w.cpu_findings == std::vector<int>{0, 1});
  }
  SECTION("the reference is the group's median, whichever CPU the offsets are relative to") {
    // Offsets relative to CPU 10, itself off: the group 0 of CPUs 11-13 sits at -400.
    m.cpu.offset_ticks = {0, -400, -400, -401};
    Diagnosis one_off;
    Finding f;
    f.cpus = {10};
    f.against = {11, 12, 13};
    one_off.findings = {f};
    one_off.offset_group = {1, 0, 0, 0};
    one_off.offset_groups = 2;
    const MatrixWorst w = worst_of(m, 10, &one_off);
    CHECK(w.reference_offset_ticks == Approx(-400).margin(0));  // the lower median of -401, -400, -400
    CHECK(w.reference_group_cpus == 3);
    CHECK(w.cpus == std::vector<std::size_t>{0, 3, 1, 2});  // CPU 10, then 13 (1 away), then 11, 12 (0)
    CHECK(w.cpu_findings == std::vector<int>{0, -1, -1, -1});
  }
  SECTION("a finding's CPU with no offset is listed; another CPU with none is not") {
    m.cpu.offset_ticks = {kNoValue, kNoValue, 600, 600};
    const MatrixWorst w = worst_of(m, 10, &d);
    CHECK(w.reference_offset_ticks == Approx(600).margin(0));  // group 0 has no offset: of all
    CHECK(w.reference_group_cpus == 0);
    CHECK(w.cpus == std::vector<std::size_t>{2, 1, 3});
  }
  SECTION("a diagnosis without groups: the median of all") {
    Diagnosis bare = d;
    bare.offset_group.clear();
    const MatrixWorst w = worst_of(m, 10, &bare);
    CHECK(w.reference_offset_ticks == Approx(5).margin(0));  // the lower median of 0, 5, 600, 600
    CHECK(w.cpus == std::vector<std::size_t>{2, 1, 3, 0});
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
