// Where a long run's offset stops being one line: time-ordered bounds on the offset cut
// into the fewest pieces that each admit one line, and each cut sized with its bounds.
//
// What is provable (docs/method.md §3.4, §5.2 test 4, §9.3): the bounds of a piece are
// consistent with one line within the quantum; when the bounds of two neighbouring pieces
// together admit no line, the offset did not follow one line over them: it stepped, or
// changed its rate, or some bounds are too small (early reads at this order statistic).
// Where the two pieces' bands are disjoint at the cut, no offset fits both sides at that
// moment: a step, proven, whose size lies between the bands' gaps. Where they meet, the
// bounds only show a bend: a change of drift, or a step smaller than the bands, which two-
// way timing cannot tell from an equal and opposite change of the two delays.
//
// What is not: a move of the estimate inside the bands. Every piece's estimate wanders
// with its delays' floors; nothing here calls that a step.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "estimate/fit.hpp"
#include "estimate/hull.hpp"

namespace tscaudit {

/// A bound on the offset theta at one time. Upper (a forward latency U = t2 - t1):
/// theta(x) <= y + q. Lower (minus a reverse latency, L = t3 - t4): theta(x) >= y - q.
struct TimedBound {
  Point point;  // x: a's ticks from the caller's reference time; y: ticks
  bool upper = true;
  std::size_t source = 0;  // the caller's tag (an interval index): reported back, never read
};

/// A stretch of the bounds that one line fits.
struct OffsetPiece {
  std::size_t first = 0;               // index of its first bound in the sorted bounds
  std::size_t last = 0;                // one past its last bound
  std::vector<std::size_t> set_aside;  // indices in [first, last) left out of its fit
  EnvelopeFit fit;                     // drift free within +-kMaxDrift, on its bounds (widened by q)
  LineEstimate line;                   // the line reported: fit.line, or the zero-drift refit when 0
                                       // lies in the fit's drift band (no detectable drift)
  bool zero_drift = false;
  bool one_sided = false;  // only upper or only lower bounds: no band, no line of its own
};

/// The cut between two pieces: the offset changed in (window_lo_x, window_hi_x].
struct OffsetChange {
  std::size_t before = 0;            // index of the piece before it
  double window_lo_x = 0;            // the last bound that the next piece's line cannot fit
  double window_hi_x = 0;            // the first bound that the previous piece's line cannot fit
  std::size_t window_lo_source = 0;  // their sources
  std::size_t window_hi_source = 0;
  double at_x = 0;           // the middle of the window: where the size is evaluated
  double size_ticks = 0;     // next line minus previous line at at_x
  double size_lo_ticks = 0;  // the smallest and largest jump the two bands allow at at_x
  double size_hi_ticks = 0;
  /// The bands are disjoint at at_x: a step (size_lo > 0 or size_hi < 0). Otherwise a bend.
  bool proven_step = false;
};

/// Bounds that contradict the line fitting both sides of them, set aside: a burst of
/// early reads at this order statistic, or an excursion too short for a line of its own.
struct OffsetTransient {
  std::vector<std::size_t> bounds;  // indices into the sorted bounds, ascending
};

struct OffsetSegmentation {
  /// False when the greedy cut gave more than max_pieces pieces: that is no handful of
  /// changes but bounds too small all over the run (early reads at this order
  /// statistic). The greedy pieces are kept as they are, unfitted, and no change is
  /// looked for.
  bool resolved = true;
  std::vector<TimedBound> bounds;     // the input, sorted by x (stable), or as given
  std::vector<OffsetPiece> pieces;    // in time order; one when a line fits everything
  std::vector<OffsetChange> changes;  // pieces.size() - 1 entries
  std::vector<OffsetTransient> transients;
};

/// Fewest bounds a piece needs to stand on its own (an upper and a lower bound in each of
/// two intervals): a shorter piece can be fitted by almost any line under the drift
/// prior, so it proves no offset of its own. Callers pass the number of their sources.
inline constexpr std::size_t kMinPieceSources = 3;

/// Most greedy pieces taken for changes of the offset. Folding costs a fit of the
/// neighbours per piece, so the limit also keeps a contaminated run from costing
/// pieces x bounds.
inline constexpr std::size_t kMaxPieces = 64;

/// The order in which the bounds follow one another in time. `by_x`: their own x, which
/// the cut sorts them by (a monitor's intervals). `given`: the order they are passed in (a
/// run's time bins, in round order), for when x itself can go backwards: a counter set back
/// during the run leaves later rounds at earlier x.
enum class BoundOrder { by_x, given };

/// Cuts `bounds` (any order with `by_x`: sorted here by x) into pieces.
///
/// 1. Greedy from the left: each piece is the longest run of bounds from its start that
///    one line fits within the quantum (the fewest pieces: a subset of a feasible set is
///    feasible). Galloping search, O(n log n) fits over the hull vertices.
///    With more than `max_pieces` pieces it stops there (resolved = false).
/// 2. A piece with bounds from fewer than `min_sources` sources, or one-sided, is set
///    aside when another piece remains: if its neighbours agree (one line fits both)
///    they become one piece; its bounds that still fit are taken back (the earlier
///    neighbour forward in time while it can, then the later one backward), and the rest
///    are a transient.
/// 3. Each cut between the pieces left: the window where the change lies, from the
///    greedy extensions of each side over the other; the size at the window's middle with
///    the bounds the two bands allow.
/// \pre quantum_ticks >= 1; min_sources >= 1.
OffsetSegmentation segment_offset(std::vector<TimedBound> bounds, std::int64_t quantum_ticks,
                                  std::size_t min_sources = kMinPieceSources, std::size_t max_pieces = kMaxPieces,
                                  BoundOrder order = BoundOrder::by_x);

/// Whether one line fits the bounds (within +-kMaxDrift and the quantum). A set with only
/// upper or only lower bounds always fits.
bool bounds_admit_one_line(std::span<const TimedBound> bounds, std::int64_t quantum_ticks);

}  // namespace tscaudit
