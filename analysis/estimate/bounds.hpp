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

namespace tscsync {

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
};

/// One pass (two when the rounds are out of time order). Time bin i holds the rounds
/// [i n / bins, (i + 1) n / bins) by index.
/// \pre rounds is not empty, bins >= 1, ks ascending with every k > 1, and every bin
///      holds at least ks.back() rounds.
BoundSets collect_bounds(std::span<const Round> rounds, std::span<const std::uint64_t> ks, std::size_t bins);

}  // namespace tscsync
