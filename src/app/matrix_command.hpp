// `tscaudit matrix`: every ordered pair of the selected CPUs, visited several times over the
// whole run; the per-pair analyses become matrices, per-CPU offsets and heatmaps, the
// check's answer first. The measuring (matrix_source.hpp) and the directory writing
// (matrix_dir.hpp) are shared with `check` and `report`.
#pragma once

#include "app/matrix_types.hpp"

namespace tscaudit {

/// \returns the check's exit code on this matrix (exit_code_of: 0, 1, 5, 3), or 3 when a
///          visit failed or a picture could not be drawn (the matrix is still written).
int run_matrix(const MatrixOptions& options);

}  // namespace tscaudit
