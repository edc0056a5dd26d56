// The matrices of the all-pairs run that `matrix`, `check` and `report` write for gnuplot
// (DIR/NAME.dat) and draw as heatmaps: which, in what order, with what title and units, and
// each one's grid over a matrix, with the colour scale of the signed ones. Pure.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "matrix/matrix.hpp"
#include "render/matrix_text.hpp"

namespace tscaudit {

/// How a heatmap's colours are scaled.
enum class GridScale {
  values,    // by its script, over the values (latencies, counts)
  proven,    // signed, ±limit, written to the file (signed_colour_limit): white where the band contains 0
  estimate,  // signed, ±limit, at least the median half-width of the pairs' hard bands
};

/// One matrix written for gnuplot: (file stem, title, units, the value of a cell, the
/// heatmap script that draws it, how its colours are scaled).
struct MatrixGridSpec {
  const char* name;
  const char* title;  // "TSC" stands for the counter's name
  const char* units;
  double (*value)(const PairCell&);
  const char* script;  // heatmap script in plots/, or nullptr: the .dat file only
  GridScale scale = GridScale::values;
};

/// The proven offset: how far the pair's hard band [lo, hi] lies from 0, signed: lo where
/// lo > 0, hi where hi < 0, 0 where the band contains 0; NaN where an end is unknown (no
/// feasible band).
double proven_offset_ticks(const PairCell& c);

/// The proven offset, the offset's estimate, its hard band's two ends, the drift, the round
/// trip's minimum and median, the causality violations: in this order.
std::span<const MatrixGridSpec> matrix_grid_specs();

/// Where the colours of a signed heatmap end: ±limit.
struct ColourLimit {
  double limit = 1;
  /// Cells whose |value| exceeds the limit, drawn in the end colours.
  std::size_t clipped = 0;
};

/// The colour limit of a signed heatmap over `values` (NaN ignored): the largest |value|,
/// but at most 1.5 times the 75th percentile (nearest rank, rounded up) of the nonzero
/// |values|, so that cells holding under a quarter of the nonzero values (one CPU far off
/// among a package off a little) cannot stretch the scale until the rest read white; at
/// least `least` (and at least 1 when `least` is not positive); rounded up to two
/// significant digits.
ColourLimit signed_colour_limit(const std::vector<double>& values, double least);

/// The median of the measured pairs' hard band half-widths (hi − lo) / 2 over the bands
/// whose ends are both known (the lower median of an even count); NaN when there is none.
double median_band_half_width(const MatrixResult& m);

/// The grid of `spec` over `m`: its title with the counter by its name (TSC, CNTVCT) and,
/// for a coarse counter, what one tick lasts; the labels, boundaries, groups and left-out
/// pairs of `m`; the value of every measured cell, NaN elsewhere; for a signed scale the
/// colour limit and the note that says what white means and what is clipped. N² values:
/// make one at a time on a large matrix.
MatrixGrid matrix_grid(const MatrixGridSpec& spec, const MatrixResult& m);

}  // namespace tscaudit
