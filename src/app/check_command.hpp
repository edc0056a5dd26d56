// `tscaudit check`: measure the matrix, decide, exit 0 (synchronized) or 1 (not), with the
// reason in one line. For scripts and fleets.
#pragma once

#include <string>
#include <vector>

#include "app/matrix_command.hpp"
#include "matrix/check.hpp"
#include "render/openmetrics_output.hpp"

namespace tscaudit {

/// A tolerance as typed: "40" or "40ticks" are ticks, "15ns" nanoseconds (converted with
/// the TSC frequency once it is known).
struct Tolerance {
  double value = 0;
  bool ns = false;
};

/// \throws UsageError naming the option and the text when it is not a number >= 0 with
///         an optional "ticks" or "ns" unit.
Tolerance parse_tolerance(const std::string& option, const std::string& text);

/// `t` in ticks; one given in ns is converted with `tsc_hz`.
/// \throws UsageError naming `option` when it is in ns and the frequency is unknown (<= 0).
double tolerance_in_ticks(const std::string& option, const Tolerance& t, double tsc_hz);

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
  /// --quick: libtscaudit's quick check (run_quick_check, quick/quick_check.hpp) instead of
  /// the matrix: milliseconds of measuring, the same decision; nothing kept (no --out).
  bool quick = false;
};

/// The warning codes that make a check's answer less trustworthy (printed, never failed).
bool weakens_check(const std::string& warning_code);

/// Those of `warnings` that weaken the check, as "code: message" lines.
std::vector<std::string> check_warnings(const std::vector<Warning>& warnings);

/// \returns 0 synchronized, 1 not, 5 inconclusive (every pair passes, but they prove the
///          offsets only within more than --max-bound), 3 when a visit failed and the
///          answer is incomplete (the reason says so; a failed visit never passes the check).
int run_check(const CheckOptions& options);

}  // namespace tscaudit
