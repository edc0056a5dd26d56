// The table a matrix proves (matrix/counter_table_of.hpp, docs/machine.md §10.8), on
// hand-made cells worked out here: the moment, the bands of a machine without drift (the
// shortest paths of the pair bands, and the slack), a drifting CPU's two pairs at instants
// 10^10 ticks apart (each band moved along its initiator's counter to the one moment, where
// they agree while the matrix's per-CPU bounds, which join them at their own instants, are
// unset), bands that contradict each other even so, and a matrix with no CPU.
#include <catch2/catch.hpp>

#include "banded_cell.hpp"

#include <cstdint>
#include <limits>
#include <vector>

#include "matrix/counter_table_of.hpp"

using namespace tscaudit;

namespace {

/// A measured cell (support/banded_cell.hpp).
PairCell cell(double lo, double hi, std::uint64_t instant, double drift_lo = 0, double drift_hi = 0) {
  return testing::banded_cell(lo, hi, instant, drift_lo, drift_hi);
}

/// A matrix of `cpus` with `cells` (n×n, row a, column b), its per-CPU offsets solved as
/// build_matrix solves them (their bounds unset where the bands at their own instants
/// contradict each other).
MatrixResult matrix(const std::vector<int>& cpus, const std::vector<PairCell>& cells) {
  MatrixResult m;
  m.cpus = cpus;
  m.tsc_hz = 2e9;
  m.quantum_ticks = 26;
  m.cells = PairCells(cells);
  m.cpu = solve_cpu_offsets(cpus, m.cells, m.quantum_ticks);
  return m;
}

}  // namespace

TEST_CASE("counter_table_of: without drift, the shortest paths of the pair bands at the median instant") {
  // CPUs 0, 2, 1 (the first is the reference): 1 is 100..120 ahead of 0, 2 is 30..50 behind,
  // 1 − 2 is 140..160. The instants on the reference counter (less the least-squares
  // estimates 0, 110, −40):
  // 1000 and 1000, 3000 and 3000, 5000 and 5000: the median is 3000.
  const PairCell none;
  const std::vector<PairCell> cells = {none,
                                       cell(-50, -30, 3000),
                                       cell(100, 120, 1000),  // 0 -> 0, 2, 1
                                       cell(30, 50, 2960),
                                       none,
                                       cell(140, 160, 4960),  // 2 -> ...
                                       cell(-120, -100, 1110),
                                       cell(-160, -140, 5110),
                                       none};  // 1 -> ...
  const CounterTable t = counter_table_of(matrix({0, 2, 1}, cells));
  CHECK(t.reference_cpu == 0);
  CHECK(t.counter_hz == Approx(2e9).margin(0));
  CHECK(t.quantum_ticks == 26);
  CHECK(t.as_of_counter == 3000);
  REQUIRE(t.known() == 3);
  const CpuCounterBand* one = t.band_of(1);
  const CpuCounterBand* two = t.band_of(2);
  REQUIRE(one != nullptr);
  REQUIRE(two != nullptr);
  // The direct bands are the tightest; never narrower, wider by the slack of 1e-6 alone.
  CHECK(one->offset_lo_ticks <= 100);
  CHECK(one->offset_lo_ticks == Approx(100).margin(2e-6));
  CHECK(one->offset_hi_ticks >= 120);
  CHECK(one->offset_hi_ticks == Approx(120).margin(2e-6));
  CHECK(two->offset_lo_ticks <= -50);
  CHECK(two->offset_lo_ticks == Approx(-50).margin(2e-6));
  CHECK(two->offset_hi_ticks >= -30);
  CHECK(two->offset_hi_ticks == Approx(-30).margin(2e-6));
  CHECK(one->drift_lo_ppb == Approx(0).margin(0));
  CHECK(one->drift_hi_ppb == Approx(0).margin(0));
  const CpuCounterBand& zero = t.bands[0];
  CHECK(zero.cpu == 0);
  CHECK(zero.offset_lo_ticks == Approx(0).margin(0));
  CHECK(zero.offset_hi_ticks == Approx(0).margin(0));
}

TEST_CASE("counter_table_of: a drifting CPU's bands at instants 10^10 ticks apart, moved to one moment") {
  // CPU 1 runs 1 ppm fast: 110 ticks ahead at 10^12, 10,110 ahead 10^10 ticks later. Pair
  // 0->1 saw [100, 120] at 10^12 on CPU 0's counter; pair 1->0 saw [−10,120, −10,100] at
  // 10^12 + 10^10 + 10,110 on CPU 1's. At their own instants they contradict; the moment is
  // the later instant (the median of two), 10^12 + 10^10 + 5000 by the least-squares
  // estimate 5110 (the two pairs' 110 and 10,110), where
  // 0->1's band has moved by 1e-6 (± 1e-3 of it) times the 10^10 + 5000 + x_1 ticks of CPU
  // 0's counter between: [10,090, 10,130], and 1->0's, turned, is [10,100, 10,120] moved by
  // at most 1.001e-6 · 15,300 = 0.016. Truth: 10,110.005.
  const std::uint64_t t0 = 1'000'000'000'000;
  const std::uint64_t t1 = t0 + 10'000'000'000 + 10'110;
  const PairCell none;
  const std::vector<PairCell> cells = {none, cell(100, 120, t0, 1000, 1000), cell(-10'120, -10'100, t1, -1000, -1000),
                                       none};
  const MatrixResult m = matrix({0, 1}, cells);
  CHECK_FALSE(m.cpu.bands_consistent);
  const CounterTable t = counter_table_of(m);
  CHECK(t.as_of_counter == t0 + 10'000'000'000 + 5000);
  REQUIRE(t.known() == 2);
  const CpuCounterBand* one = t.band_of(1);
  REQUIRE(one != nullptr);
  CHECK(one->offset_lo_ticks <= 10'100);
  CHECK(one->offset_lo_ticks >= 10'100 - 0.02);
  CHECK(one->offset_hi_ticks >= 10'120);
  CHECK(one->offset_hi_ticks <= 10'120 + 0.02);
  // The drift band against the reference's counter: 1 ppm, and a part in a thousand of it
  // either way for the change of counter.
  CHECK(one->drift_lo_ppb == Approx(999).epsilon(1e-12));
  CHECK(one->drift_hi_ppb == Approx(1001).epsilon(1e-12));
}

TEST_CASE("counter_table_of: bands that contradict each other at the moment band no CPU but the reference") {
  // No drift: 1 is 100..120 ahead by one pair, 200..220 by the other, at the same instant.
  const PairCell none;
  const std::vector<PairCell> cells = {none, cell(100, 120, 5000), cell(-220, -200, 5110), none};
  const CounterTable t = counter_table_of(matrix({0, 1}, cells));
  CHECK(t.reference_cpu == 0);
  CHECK(t.known() == 1);
  CHECK(t.band_of(1) == nullptr);
  REQUIRE(t.band_of(0) != nullptr);
}

TEST_CASE("counter_table_of: a pair without a band or a drift band, or unmeasured, takes no part") {
  const PairCell none;
  PairCell no_drift = cell(100, 120, 5000);
  no_drift.drift_lo_ppb = std::numeric_limits<double>::quiet_NaN();
  PairCell infeasible = cell(100, 120, 5000);
  infeasible.band_feasible = false;
  // CPU 2 is reached by a good pair; CPU 1 only by pairs that cannot be moved.
  const std::vector<PairCell> cells = {none,       no_drift, cell(-50, -30, 5000),  // 0 -> 0, 1, 2
                                       infeasible, none,     none,                  // 1 -> ...
                                       none,       none,     none};
  const CounterTable t = counter_table_of(matrix({0, 1, 2}, cells));
  CHECK(t.known() == 2);
  CHECK(t.band_of(1) == nullptr);
  REQUIRE(t.band_of(2) != nullptr);
  CHECK(t.band_of(2)->offset_lo_ticks == Approx(-50).margin(2e-6));
  // A CPU of no measured pair at all: the reference alone, at no moment.
  const CounterTable lonely = counter_table_of(matrix({3, 4}, {none, none, none, none}));
  CHECK(lonely.reference_cpu == 3);
  CHECK(lonely.known() == 1);
  CHECK(lonely.bands.size() == 5);
}

TEST_CASE("counter_table_of: a matrix with no CPU has no table") {
  const CounterTable t = counter_table_of(MatrixResult{});
  CHECK(t.reference_cpu == -1);
  CHECK(t.known() == 0);
  CHECK(t.bands.empty());
}
