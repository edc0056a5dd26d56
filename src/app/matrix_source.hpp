// Where a matrix comes from: planned and measured on this machine (the plan's runner,
// measure/plan_runner.hpp, into a run directory), or rebuilt from a run directory (--from);
// either way analyzed from the run directory, and turned into the evidence the check decides
// on. What `matrix`, `check` and `report` ask for a matrix.
#pragma once

#include <optional>

#include "app/matrix_types.hpp"
#include "io/output_dir.hpp"
#include "matrix/check.hpp"

namespace tscaudit {

/// The CPUs in topology order and the plan. Validates the options against the topology
/// and, unless a topology file stands in for it, against this machine's usable CPUs. One
/// CPU gets an empty plan (PlannedMatrix::one_cpu).
/// \throws UsageError (bad CPU list, bad topology, no CPU, a plan that does not fit in
///         memory, a measured plan whose estimate exceeds its budget without over_budget).
PlannedMatrix plan_matrix(const MatrixOptions& options);

/// --dry-run: the plan on standard output, as text (plan_text, with the topology) or JSON
/// (plan_json); for one CPU, that there is no pair to plan.
void print_plan(const PlannedMatrix& planned, OutputFormat format);

/// --dry-run of `matrix` and `check`: the plan of `options` (plan_matrix), printed
/// (print_plan) in options.format. \returns the exit code: kExitOk.
int print_dry_run(const MatrixOptions& options);

/// What `matrix` and `check` do before they obtain a matrix with --out: the evidence is
/// looked at first (a --from that holds no run is said as such, before an output directory
/// is made for it); then --out is taken, built aside and put in place whole when everything
/// is written (docs/formats.md, "Output directories"), so that a directory in use is refused
/// at once. options.out_dir then names the aside directory.
/// \returns the output directory; nullopt without --out.
std::optional<OutputDir> begin_matrix_out(MatrixOptions& options);

/// Measures every visit of the plan into a run directory (DIR/run of --out, else a
/// temporary one), each slot within its share of the budget; with --max-bound, adds visits
/// to the pairs not yet proven within it while the budget lasts; then analyses each ordered
/// pair read back from the run directory (the same analyze_run as `analyze`) and builds the
/// matrix: live and `--from` share every step after the measuring. SIGINT or SIGTERM ends
/// the measuring after the slot under way; the run directory says interrupted and the matrix
/// holds what was measured. One CPU: nothing measured, a matrix of that CPU alone. Progress
/// on a terminal.
/// \throws UnsupportedError (a variant needs RDTSCP), RuntimeError (pinning failed),
///         IoError (the run directory cannot be written).
MatrixOutcome measure_matrix(const MatrixOptions& options, PlannedMatrix planned);

/// The matrix of `options`: rebuilt from --from's run directory, or planned and measured
/// (into --out's run directory when given). `command` names the command in messages;
/// `announce_plan` prints the variants and the plan on stderr before measuring.
MatrixOutcome obtain_matrix(const MatrixOptions& options, const char* command, bool announce_plan);

/// The evidence the check decides on (matrix/check.hpp): the matrix, why its run was cut
/// short (a signal, a manifest that says so, a visit that failed now), the losses, the
/// platform's warnings.
CheckEvidence check_evidence(const MatrixOutcome& outcome);

/// The check's settings of a command: the tolerances in ticks, with the frequency the
/// outcome knows. \throws UsageError for a tolerance in ns without a frequency.
CheckSettings check_settings(const MatrixOutcome& outcome, const Tolerance& tolerance, double drift_tolerance_ppb,
                             const Tolerance& max_bound);

}  // namespace tscaudit
