// matrix_totals, exact: sums over every cell, the median and the smallest over the measured
// pairs, bands that leave 0 out, and the offsets only a plain-read matrix shows.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "matrix/matrix_totals.hpp"

using namespace tscaudit;

namespace {

/// Three CPUs (CPU numbers 4, 5, 6); the cells set are measured with the rtt and band given.
MatrixResult totals_matrix() {
  MatrixResult m;
  m.cpus = {4, 5, 6};
  m.cells.resize(9);
  const auto set = [&](std::size_t a, std::size_t b, double rtt_min, double lo, double hi) {
    PairCell& c = m.cells[a * 3 + b];
    c.measured = true;
    c.rounds = 1000 * (a + 1) + b;
    c.rtt_min_ticks = rtt_min;
    c.offset_lo_ticks = lo;
    c.offset_hi_ticks = hi;
    c.causality_violations = a + b;
    c.self_inconsistent = b;
  };
  set(0, 1, 300, -10, 12);   // holds 0
  set(1, 0, 280, -12, 10);   // holds 0
  set(0, 2, 500, 40, 90);    // leaves 0 out, above
  set(2, 0, 260, -90, -40);  // leaves 0 out, below
  return m;
}

}  // namespace

TEST_CASE("matrix totals: sums over the cells", "[matrix_totals]") {
  const MatrixResult m = totals_matrix();
  CHECK(total_rounds(m) == 1001 + 2000 + 1002 + 3000);
  CHECK(total_causality_violations(m) == 1 + 1 + 2 + 2);
  CHECK(total_self_inconsistent(m) == 1 + 0 + 2 + 0);
  CHECK(total_rounds(MatrixResult{}) == 0);
}

TEST_CASE("matrix totals: the upper median and the smallest over the measured pairs", "[matrix_totals]") {
  MatrixResult m = totals_matrix();
  const PairCellField rtt = [](const PairCell& c) { return c.rtt_min_ticks; };
  // 260 280 300 500: the upper median of an even count is 300.
  CHECK(median_over_pairs(m, rtt) == Approx(300).margin(0));
  CHECK(smallest_over_pairs(m, rtt) == Approx(260).margin(0));
  m.cells[2 * 3 + 0].rtt_min_ticks = kNoValue;  // not finite: never the smallest
  CHECK(smallest_over_pairs(m, rtt) == Approx(280).margin(0));
  m.cells[1 * 3 + 2].rtt_min_ticks = 1;  // not measured: counted nowhere
  CHECK(smallest_over_pairs(m, rtt) == Approx(280).margin(0));
  CHECK(std::isnan(median_over_pairs(MatrixResult{}, rtt)));
  CHECK(std::isnan(smallest_over_pairs(MatrixResult{}, rtt)));
}

TEST_CASE("matrix totals: a band that leaves 0 out, and the offsets only plain reads show", "[matrix_totals]") {
  const MatrixResult plain = totals_matrix();
  CHECK_FALSE(band_excludes_zero(plain.at(0, 1)));
  CHECK(band_excludes_zero(plain.at(0, 2)));
  CHECK(band_excludes_zero(plain.at(2, 0)));
  CHECK_FALSE(band_excludes_zero(plain.at(1, 2)));  // not measured
  PairCell edge;
  edge.measured = true;
  edge.offset_lo_ticks = 0;
  edge.offset_hi_ticks = 5;
  CHECK_FALSE(band_excludes_zero(edge));  // 0 on the band's edge is in it
  edge.offset_hi_ticks = kNoValue;
  edge.offset_lo_ticks = 1;
  CHECK_FALSE(band_excludes_zero(edge));  // no band

  // The ordered matrix lists the same CPUs in another order, its bands all holding 0 but
  // 6->4's, which leaves it out as the plain one does.
  MatrixResult ordered;
  ordered.cpus = {6, 4, 5};
  ordered.cells.resize(9);
  const auto set = [&](int a, int b, double lo, double hi) {
    PairCell& c = ordered.cells[ordered.index_of(a) * 3 + ordered.index_of(b)];
    c.measured = true;
    c.offset_lo_ticks = lo;
    c.offset_hi_ticks = hi;
  };
  set(4, 6, -3, 4);
  set(6, 4, -60, -20);
  set(4, 5, -3, 3);
  CHECK(false_plain_offset(plain, ordered, 0, 2));        // 4->6: plain [40, 90], ordered [-3, 4]
  CHECK_FALSE(false_plain_offset(plain, ordered, 2, 0));  // 6->4: both leave 0 out
  CHECK_FALSE(false_plain_offset(plain, ordered, 0, 1));  // 4->5: plain holds 0
  ordered.cells[ordered.index_of(4) * 3 + ordered.index_of(6)].offset_lo_ticks = kNoValue;
  CHECK_FALSE(false_plain_offset(plain, ordered, 0, 2));  // no ordered band to compare with
  MatrixResult other;
  other.cpus = {7, 8};
  other.cells.resize(4);
  CHECK_FALSE(false_plain_offset(plain, other, 0, 2));  // CPUs the ordered matrix does not have
}
