// Where a run's offset is no one line (docs/method.md §6.4): the k-th bounds of its time
// bins cut into pieces (estimate/offset_segments.hpp), the rate taken from the longest
// one, the bounds cut again into the fewest flat levels under that rate, the k chosen as
// the monitor chooses it, and each change between two levels located to a round. These
// are candidates only: analyze.cpp analyzes the rounds between the splits alone, and a
// step is proven only where the bands of the two sides are disjoint.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/run.hpp"
#include "estimate/fit.hpp"
#include "estimate/k_sweep.hpp"

namespace tscaudit {

/// Where the rounds split at one change of the offset. Indices into the rounds passed in.
struct RoundSplit {
  /// The first round of the side after the change: where the fewest bounds lie on the
  /// wrong side of the middle of the two pieces' lines.
  std::size_t first_after = 0;
  /// No round contradicts either piece's band wherever in [first_after_lo, first_after_hi]
  /// the first round after is put: the change certainly happened in that stretch.
  std::size_t first_after_lo = 0;
  std::size_t first_after_hi = 0;
  /// Round first_after - 1 was in flight at the change and belongs to neither side: a
  /// counter jumped inside it (b's between its reads t2 and t3, or a's between t1 and t4).
  /// Its forward bound fits the piece before and its reverse bound the piece after but no
  /// one piece fits it whole, or it is impossible for any offset (rtt < -2q, t3 < t2 or
  /// t4 < t1) and possible once the jump is taken out of that counter's span. The change
  /// is then located exactly: first_after_lo = first_after_hi = first_after.
  bool in_flight = false;
};

struct RunPieces {
  std::vector<std::uint64_t> ks;    // the k tried, ascending
  std::vector<SweepPieces> sweep;   // what each k's bounds broke into
  bool chosen = false;              // some k was resolved into pieces: k and splits below
  std::uint64_t k = 1;              // the k whose pieces were taken
  double drift = 0;                 // the drift the levels were cut under: the longest piece's
  std::vector<RoundSplit> splits;   // one per change, in round order, first_after increasing
};

/// One side of a change: a band and a line of the offset on that side, and the tick of a's
/// counter their x counts from. With `drift`, they are of the offset with drift * x taken
/// out: the offset at x lies in band + drift * x.
struct ChangeSide {
  const HardBand& band;  // feasible
  const LineEstimate& line;
  std::uint64_t t_ref_tick = 0;
  double drift = 0;
};

/// Where rounds [w0, w1) split between two sides of a change of the offset:
/// 1. where the fewest rounds contradict their side's band (a round in flight left out):
///    rounds that fit both bands carry no proof, so a stretch of splits ties, and the
///    change certainly lies in it (first_after_lo .. first_after_hi);
/// 2. inside that stretch, where the fewest bounds lie on the wrong side of the middle of
///    the two lines; the middle of the splits that tie again;
/// 3. a round in flight next to the stretch is the change itself: the split follows it.
/// \pre w0 < w1 <= rounds.size(), rounds in time order, quantum_ticks >= 1.
RoundSplit locate_change(std::span<const Round> rounds, std::size_t w0, std::size_t w1, std::int64_t quantum_ticks,
                         const ChangeSide& before, const ChangeSide& after);

/// The levels of a run whose bounds no one line fits, and where the rounds split between
/// them.
/// \param rounds  in time order (t1 never decreasing), as a measured run stores them.
/// \param t_ref_tick  the reference time on a's counter (analyze's).
/// \param ks  ascending, every k >= 1; each of the `bins` bins holds at least ks.back() rounds.
/// \param bins  the time bins by round index, as analyze's k-sweep cuts them.
/// \pre quantum_ticks >= 1, rounds not empty.
RunPieces find_run_pieces(std::span<const Round> rounds, std::uint64_t t_ref_tick, std::int64_t quantum_ticks,
                          std::span<const std::uint64_t> ks, std::size_t bins);

}  // namespace tscaudit
