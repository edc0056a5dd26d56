// The constraint sets of the k-sweep (docs/method.md §3, §4), from one pass over
// the rounds: the hulls of every forward and every reverse bound (k = 1) and, per time
// bin, the k-th smallest forward and k-th largest reverse bound for each k > 1.
//
// Memory: the pass keeps hull vertices only, never an array of every bound nor of every
// bin's order statistics, so the analysis of a run costs nothing per round beyond the
// rounds themselves. Only rounds that are not in time order (an imported table) need a
// sorted copy of every bound for the k = 1 hulls (16 bytes per round more) and of every
// bin's order statistics.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/run.hpp"
#include "estimate/hull.hpp"
#include "estimate/offset_segments.hpp"

namespace tscaudit {

struct BoundSets {
  /// The run's time span on a's counter, its smallest t1 and largest t4, and the
  /// reference time every x below is relative to: the middle of that span.
  std::uint64_t first_tick = 0;
  std::uint64_t last_tick = 0;
  std::uint64_t t_ref_tick = 0;
  /// k = 1: the lower hull of the forward bounds U = t2 - t1 at x = t1 - t_ref
  /// (theta(x) <= U), and the upper hull of the reverse bounds L = t3 - t4 at
  /// x = t4 - t_ref (theta(x) >= L). Left to right.
  std::vector<Point> upper_hull;
  std::vector<Point> lower_hull;
  /// The k > 1 collected, ascending, and for each of them the same two hulls over one
  /// point per time bin: the bin's k-th smallest U and k-th largest L, at their own x.
  std::vector<std::uint64_t> ks;
  std::vector<std::vector<Point>> kth_upper;
  std::vector<std::vector<Point>> kth_lower;
  /// False when t1 or t4 went backwards somewhere in the rounds; the k = 1 hulls then
  /// came from a sorted copy of every bound.
  bool in_time_order = true;
  /// How many rounds' t1 or t4 came before the previous round's: a few where a's counter
  /// was set back during the run, about half of them in a table sorted by something else.
  std::size_t time_reversals = 0;
};

/// One pass (two when the rounds are out of time order). Time bin i holds the rounds
/// [i n / bins, (i + 1) n / bins) by index.
/// \pre rounds is not empty, bins >= 1, ks ascending with every k > 1, and every bin
///      holds at least ks.back() rounds.
BoundSets collect_bounds(std::span<const Round> rounds, std::span<const std::uint64_t> ks, std::size_t bins);

/// The same bins' k-th bounds kept as points rather than hulled: for each ks[j], per bin in
/// bin order, its k-th smallest forward bound (upper) and k-th largest reverse bound
/// (lower) at their own x = t - t_ref, tagged with the bin (source). What the pieces of a
/// run are cut from when no line fits it whole (docs/method.md §6.4). One pass, O(n log
/// k); 2 bins points per k.
/// \pre rounds is not empty, bins >= 1, ks ascending with every k >= 1, and every bin
///      holds at least ks.back() rounds.
std::vector<std::vector<TimedBound>> bin_bounds(std::span<const Round> rounds, std::uint64_t t_ref_tick,
                                                std::span<const std::uint64_t> ks, std::size_t bins);

}  // namespace tscaudit
