// A measured matrix cell made by hand: its band and drift band, the instant the band holds
// at, for the tests of what a matrix proves per CPU (counter_table_of, published_state_of).
#pragma once

#include <cstdint>

#include "matrix/pair_cells.hpp"

namespace tscaudit::testing {

/// A measured cell: its band [lo, hi] ticks at `instant` on its initiator's counter, its
/// drift band [drift_lo, drift_hi] ppb, 10000 rounds.
inline PairCell banded_cell(double lo, double hi, std::uint64_t instant, double drift_lo = 0, double drift_hi = 0) {
  PairCell c;
  c.measured = true;
  c.rounds = 10000;
  c.band_feasible = true;
  c.offset_lo_ticks = lo;
  c.offset_hi_ticks = hi;
  c.offset_ticks = (lo + hi) / 2;
  c.band_t_ref_tick = instant;
  c.drift_lo_ppb = drift_lo;
  c.drift_hi_ppb = drift_hi;
  c.drift_ppb = (drift_lo + drift_hi) / 2;
  return c;
}

}  // namespace tscaudit::testing
