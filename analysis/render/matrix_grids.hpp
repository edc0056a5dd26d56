// The matrices of the all-pairs run that `matrix`, `check` and `report` write for gnuplot
// (DIR/NAME.dat) and draw as heatmaps: which, in what order, with what title and units, and
// each one's grid over a matrix. Pure.
#pragma once

#include <span>

#include "matrix/matrix.hpp"
#include "render/matrix_text.hpp"

namespace tscaudit {

/// One matrix written for gnuplot: (file stem, title, units, the value of a cell, the
/// heatmap script that draws it).
struct MatrixGridSpec {
  const char* name;
  const char* title;  // "TSC" stands for the counter's name
  const char* units;
  double (*value)(const PairCell&);
  const char* script;  // heatmap script in plots/, or nullptr: the .dat file only
};

/// The offset, its hard band's two ends, the drift, the round trip's minimum and median,
/// the causality violations: in this order.
std::span<const MatrixGridSpec> matrix_grid_specs();

/// The grid of `spec` over `m`: its title with the counter by its name (TSC, CNTVCT) and,
/// for a coarse counter, what one tick lasts; the labels, boundaries, groups and left-out
/// pairs of `m`; the value of every measured cell, NaN elsewhere. N² values: make one at a
/// time on a large matrix.
MatrixGrid matrix_grid(const MatrixGridSpec& spec, const MatrixResult& m);

}  // namespace tscaudit
