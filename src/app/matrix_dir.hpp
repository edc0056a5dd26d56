// A matrix's output directory (--out DIR of matrix, check and report's matrix/): the
// matrices, their heatmaps, the per-CPU offsets, matrix.json and matrix.txt, written from a
// matrix and the check's decision on it.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "app/matrix_types.hpp"
#include "app/pictures.hpp"
#include "matrix/check.hpp"

namespace tscaudit {

/// The outcome's losses as JSON (run_dir_loss_json each), for the `lost` key of the outputs.
nlohmann::ordered_json lost_json(const std::vector<RunDirLoss>& lost);

/// {"max_bound_ticks", "visits", "rounds", "pairs", "unproven"}: the visits added for
/// --max-bound; null when none were asked for.
nlohmann::ordered_json added_visits_json(const AddedVisits& added);

/// "after the plan, 3 pairs were not proven within ±21.7 ns (50 ticks): 12 more visits in
/// 2 sweeps (0-1, 0-2, 1-2); every pair proven within it" (or "; 1 still not when the
/// budget ended").
std::string added_visits_text(const AddedVisits& added, double tsc_hz);

/// Creates DIR and DIR/pairs before a run, so a directory that cannot be made fails in a
/// moment, not after the measuring. \throws IoError naming the directory and the reason.
void prepare_out_dir(const std::string& dir);

/// The first line of a matrix's text when its run was cut short (with a blank line after
/// it); "" when it was not.
std::string cut_short_line(const MatrixOutcome& o);

/// Writes matrix.json, matrix.txt (the check's answer first), the gnuplot-ready matrices and
/// the heatmaps (PNG and SVG; none where gnuplot is not installed, or with fewer than two
/// CPUs); analysis.json and pairs/ were written by the analysis (analyze_matrix). `check` is
/// the decision on this matrix (decide_check), with its settings.
/// \param pictures  when not null, receives what became of each heatmap.
/// \returns the problems that did not stop the writing: a heatmap that gnuplot failed to
///          draw (not one left out because gnuplot is not installed).
/// \throws IoError when a file cannot be written.
std::vector<std::string> write_matrix_dir(const std::string& dir, const MatrixOutcome& outcome,
                                          const CheckResult& check, PictureReport* pictures = nullptr);

}  // namespace tscaudit
