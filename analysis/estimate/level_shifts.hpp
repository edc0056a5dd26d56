// Level shifts in a series of per-interval offset estimates: the statistical view beside
// the proof of offset_segments.hpp, as blocks.hpp is beside the hard band for a run.
//
// An interval's estimate is the midpoint of its own band; its margin is half the band's
// width (about the minimum one-way latency). When the estimates shift but the bands
// still admit one line, nothing is proven: an offset step and an equal and opposite
// change of the two delays look the same to two-way timing. What can be said: a shift
// that moves the estimate while the margin stays put is what an offset step would look
// like (both floors move together); one that moves the margin with it is a change of
// the delays.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace tscaudit {

struct LevelShift {
  std::size_t first_after = 0;  // index of the first value after the shift
  // Between the neighbouring shifts (or the ends of the series):
  double size = 0;           // median after minus median before
  double residual_sd = 0;    // standard deviation of the two-mean model's residuals
  double margin_change = 0;  // median margin after minus before
  /// The margin moved by at most max(2 q, |size| / 4): the floors moved together, as an
  /// offset step moves them. Otherwise the delays changed.
  bool offset_like = false;
};

/// A shift is reported when |size| exceeds kShiftQuanta quanta and kShiftSigmas times the
/// series' scatter (blocks.hpp's thresholds for a run's step), and kShiftResiduals times
/// the residual standard deviation of its two-mean split. The scatter is robust, from the
/// median absolute difference of neighbours (sigma = 1.4826 median |v[i+1] - v[i]| /
/// sqrt 2), which the shifts themselves barely touch: a split judged by its own residuals
/// alone is held back by any other shift in its segment (the first split of 0, 30, -20
/// would be), and one judged by the scatter alone takes a lone outlier for a shift.
/// (Design judgement.)
inline constexpr double kShiftQuanta = 4;
inline constexpr double kShiftSigmas = 4;
inline constexpr double kShiftResiduals = 2;

/// Binary segmentation: the split of the series into two means with the least residual
/// sum of squares, kept when its size (the difference of the two sides' medians) passes
/// the thresholds, then each side again (a side whose
/// split fails is left whole). Each side
/// keeps at least `min_run` values; at most `max_shifts` are reported. O(n) per level.
/// \param values   the estimates (ticks), drift removed, in time order
/// \param margins  the margins (ticks), the same length
/// \param quantum_ticks  q >= 1
/// \returns the shifts sorted by first_after.
std::vector<LevelShift> find_level_shifts(std::span<const double> values, std::span<const double> margins,
                                          double quantum_ticks, std::size_t min_run = 3, std::size_t max_shifts = 16);

}  // namespace tscaudit
