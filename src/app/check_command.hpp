// `tscaudit check`: measure the matrix (or, with --quick, the quick check's pairs), decide
// (matrix/check.hpp), and answer for scripts: the reason in one line, the exit code of the
// outcome (0 synchronized, 1 not, 5 inconclusive, 3 incomplete). For scripts and fleets.
#pragma once

#include <string>

#include "app/matrix_types.hpp"
#include "app/tolerance.hpp"
#include "render/openmetrics_output.hpp"

namespace tscaudit {

struct CheckOptions {
  MatrixOptions matrix;  // which CPUs, variants, rounds; out_dir keeps the evidence
  Tolerance tolerance;
  double drift_tolerance_ppb = 0;
  Tolerance max_bound;   // --max-bound; 0: no limit
  bool details = false;  // text: every failure and warning, not only the reason
  /// --format openmetrics: the metrics on standard output instead of the text or JSON.
  bool openmetrics_stdout = false;
  std::string openmetrics_file;  // --openmetrics FILE: the metrics written aside, then renamed
  CheckExport metrics;           // --export-cpus, --export-pairs
  /// --publish FILE: the state for programs (app/state_publish.hpp), written aside, renamed.
  std::string publish_file;
  /// --quick: libtscaudit's quick check (run_quick_check, quick/quick_check.hpp) instead of
  /// the matrix: milliseconds of measuring, the same decision; nothing kept (no --out).
  bool quick = false;
  /// --history DIR: this boot's answer kept in DIR, compared with the previous boot's
  /// (app/boot_history.hpp); the metrics gain tscaudit_boot_moved_cpus.
  std::string history_dir;
};

/// \returns exit_code_of the decision (0 synchronized, 1 not, 5 inconclusive, 3 incomplete:
///          cut short by a signal, a visit that failed, a run directory that says so).
int run_check(const CheckOptions& options);

}  // namespace tscaudit
