// `tscaudit matrix`: every ordered pair of the selected CPUs, visited several times over the
// whole run; the per-pair analyses become matrices, per-CPU offsets and heatmaps. The
// measuring and the directory writing are shared with `check` and `report`.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "app/pictures.hpp"
#include "core/format.hpp"
#include "formats/run_dir.hpp"
#include "matrix/check.hpp"
#include "matrix/matrix.hpp"
#include "matrix/matrix_analysis.hpp"
#include "matrix/matrix_plan.hpp"
#include "matrix/plan_choice.hpp"
#include "matrix/topology_order.hpp"
#include "measure/exchange.hpp"
#include "pair/analyze.hpp"
#include "platform/platform.hpp"
#include "platform/platform_warnings.hpp"

namespace tscaudit {

/// Warm-up rounds before each visit's measured rounds (discarded).
inline constexpr std::uint64_t kMatrixWarmup = 2000;

/// This machine's exchange speed and fixed cost per visit, measured on a development machine
/// (docs/results/2026-11-22-intel-xeon-measurements.md, "The plan's cost model": 2 M rounds/s;
/// 6.5-9 ms per visit of 3000 rounds): what the plan's time estimate assumes.
inline constexpr PlanCosts kMeasuredCosts{2.0e6, 0.008};

struct MatrixOptions {
  std::string cpus;  // taskset syntax; empty: every CPU this process may use
  ExchangeChoice choice;
  std::uint64_t visits = 4;            // per ordered pair
  std::uint64_t rounds_per_visit = 0;  // 0: from the budget, or the default
  /// > 0: the design and the rounds per visit are chosen to fit (matrix/plan_choice.hpp);
  /// 0: every ordered pair with the default rounds (matrix without --budget).
  double budget_seconds = 0;
  bool all_pairs = false;  // with a budget: the full matrix whatever the size
  /// Measure a plan whose estimate exceeds budget_seconds (--over-budget); without it such a
  /// plan is refused before anything is measured (docs/commands.md, "The plan and its budget").
  bool over_budget = false;
  std::uint64_t warmup = kMatrixWarmup;
  std::chrono::milliseconds timeout{2000};
  bool parallel = false;
  bool dry_run = false;
  std::string topology;  // --topology; empty: this machine
  OutputFormat format = OutputFormat::text;
  std::string out_dir;     // empty: print only, write no files
  std::string from;        // --from: a run directory to rebuild from; nothing is measured
  bool save_runs = false;  // also keep every pair's rounds (tscaudit-run/1)
  std::string command_line;
};

/// The CPUs in topology order and the plan. Validates the options against the topology
/// and, unless a topology file stands in for it, against this machine's usable CPUs.
/// \throws UsageError (bad CPU list, bad topology, fewer than two CPUs, a plan that does
///         not fit in memory, a measured plan whose estimate exceeds its budget without
///         over_budget).
struct PlannedMatrix {
  OrderedCpus order;
  MatrixPlan plan;
  std::string topology_xml;  // the machine's topology as hwloc XML, for the run directory
};
PlannedMatrix plan_matrix(const MatrixOptions& options);

/// Everything a measured matrix produced.
struct MatrixOutcome {
  PlannedMatrix planned;
  PlatformFacts platform;
  std::vector<Warning> warnings;
  MatrixResult matrix;
  std::vector<std::string> problems;  // visits that failed, pairs left unmeasured
  double elapsed_seconds = 0;         // of the measuring (--from: the manifest's end minus start, to the ms)
  /// When the measuring ended, Unix seconds (--from: the manifest's end); NaN when unknown.
  double ended_unix_s = std::numeric_limits<double>::quiet_NaN();
  /// The run directory the analysis read: DIR/run of --out, a `--from` directory, or ""
  /// (a temporary one, removed).
  std::string run_dir;
  bool offline = false;     // rebuilt from a run directory (--from), not measured now
  std::string started_utc;  // offline: the manifest's start and end ("" when not recorded)
  std::string ended_utc;
  bool has_plan = true;     // false for a plain directory of run files: no plan was run
  /// Why measuring stopped early (a signal; --from: the manifest's interrupted, aborted or
  /// running status); empty when it did not. The check answers incomplete.
  std::string interrupted;
  /// Why the runs read are not complete (the run directory's status, pairs cut short or
  /// aborted), one line each: evidence to analyze and to flag, not a failure of this command.
  std::vector<std::string> incomplete;
  /// Evidence the run directory's reader could not use (damaged or malformed frames, files
  /// cut off or missing), each passed over: the analysis stands on the rest. Not the same as
  /// incomplete: the run says it completed, but part of what it wrote is gone.
  std::vector<RunDirLoss> lost;
};

/// The outcome's losses as JSON (run_dir_loss_json each), for the `lost` key of the outputs.
nlohmann::ordered_json lost_json(const std::vector<RunDirLoss>& lost);

/// Measures every visit of the plan into a run directory (DIR/run of --out, else a
/// temporary one), then analyses each ordered pair read back from it (the same analyze_run
/// as `analyze`) and builds the matrix: live and `--from` share every step after the
/// measuring. SIGINT or SIGTERM ends the measuring after the slot under way; the run
/// directory says interrupted and the matrix holds what was measured. Progress on a terminal.
/// \throws UnsupportedError (a variant needs RDTSCP), RuntimeError (pinning failed),
///         IoError (the run directory cannot be written).
MatrixOutcome measure_matrix(const MatrixOptions& options, PlannedMatrix planned);

/// Where the analysis writes what it says of each pair, as it goes: DIR/pairs/pair_A_B.txt,
/// DIR/analysis.json, and with save_runs DIR/pairs/pair_A_B.csv (tscaudit-run/1).
struct PairOutputs {
  std::string dir;  // empty: nothing is written
  bool save_runs = false;
};

/// The analysis half of a matrix (analyze_matrix_pairs, matrix/matrix_analysis.hpp): every
/// ordered pair `outcome.planned` measures, read from `source` one at a time, analyzed,
/// written to `outputs` and forgotten but for its cell (memory: the cells, and one pair's
/// rounds and analysis at a time). A pair with no rounds is left unmeasured (a problem when
/// measured now, a note when read). The TSC frequency is `outcome.platform`'s, else the
/// runs'; the variants are the runs', else `choice`'s.
/// \throws IoError when an output cannot be written.
void analyze_matrix(MatrixOutcome& outcome, const ExchangeChoice& choice, const PairRunSource& source,
                    const PairOutputs& outputs);

/// The outputs `options` asks for (--out, --save-runs).
PairOutputs pair_outputs(const MatrixOptions& options);

/// Writes matrix.json, matrix.txt, the gnuplot-ready matrices and the heatmaps (PNG and
/// SVG; none where gnuplot is not installed); analysis.json and pairs/ were written by the
/// analysis (analyze_matrix). `check` (when given) goes into check.json.
/// \param pictures  when not null, receives what became of each heatmap.
/// \returns the problems that did not stop the writing: a heatmap that gnuplot failed to
///          draw (not one left out because gnuplot is not installed).
/// \throws IoError when a file cannot be written.
std::vector<std::string> write_matrix_dir(const std::string& dir, const MatrixOutcome& outcome,
                                          const CheckResult* check, const CheckSettings* settings,
                                          PictureReport* pictures = nullptr);

/// Creates DIR and DIR/pairs before a run, so a directory that cannot be made fails in a
/// moment, not after the measuring. \throws IoError naming the directory and the reason.
/// The first line of a matrix's text when its run was cut short (with a blank line after
/// it); "" when it was not.
std::string cut_short_line(const MatrixOutcome& o);

void prepare_out_dir(const std::string& dir);

/// The matrix of `options`: rebuilt from --from's run directory, or planned and measured
/// (into --out's run directory when given). `command` names the command in messages;
/// `announce_plan` prints the variants and the plan on stderr before measuring.
MatrixOutcome obtain_matrix(const MatrixOptions& options, const char* command, bool announce_plan);

/// \returns 0, 3 when a visit failed (the matrix is still written, the failure named).
int run_matrix(const MatrixOptions& options);

}  // namespace tscaudit
