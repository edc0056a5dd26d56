// What `matrix`, `check` and `report` share about a matrix: the options that shape one, the
// plan, and everything a measured (or rebuilt) matrix produced. Types only: the commands,
// the measuring (matrix_source.hpp), the run directory (matrix_run_dir.hpp) and the output
// directory (matrix_dir.hpp) all read them, and none of those includes another's header.
#pragma once

#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "app/output_format.hpp"
#include "app/tolerance.hpp"
#include "core/warning.hpp"
#include "formats/run_dir.hpp"
#include "matrix/matrix.hpp"
#include "matrix/matrix_plan.hpp"
#include "matrix/plan_choice.hpp"
#include "matrix/topology_order.hpp"
#include "measure/exchange.hpp"
#include "platform/platform.hpp"

namespace tscaudit {

/// Warm-up rounds before each visit's measured rounds (discarded).
inline constexpr std::uint64_t kMatrixWarmup = 2000;

/// This machine's exchange speed and fixed cost per visit, measured on a development machine
/// (docs/results/2026-11-22-intel-xeon-measurements.md, "The plan's cost model": 2 M rounds/s;
/// 6.5-9 ms per visit of 3000 rounds): what the plan's time estimate assumes. The runner
/// holds the budget whatever the real rate (measure/plan_runner.hpp).
inline constexpr PlanCosts kMeasuredCosts{2.0e6, 0.008};

struct MatrixOptions {
  std::string cpus;  // taskset syntax; empty: every CPU this process may use
  ExchangeChoice choice;
  std::uint64_t visits = 0;            // per ordered pair; 0: by the budget, else kDefaultVisits
  std::uint64_t rounds_per_visit = 0;  // 0: from the budget, or the default
  /// > 0: the design, the visits and the rounds per visit are chosen to fit
  /// (matrix/plan_choice.hpp), and the measuring ends within it; 0: every ordered pair with
  /// the default rounds, no deadline (matrix without --budget).
  double budget_seconds = 0;
  /// The budget that plans kDefaultVisits (PlanRequest::default_budget_seconds).
  double default_budget_seconds = kDefaultBudgetSeconds;
  bool all_pairs = false;  // with a budget: the full matrix whatever the size
  /// Measure a plan whose estimate exceeds budget_seconds (--over-budget), whole, past the
  /// budget; without it such a plan is refused before anything is measured (docs/commands.md,
  /// "The plan and its budget").
  bool over_budget = false;
  /// --max-bound (check, report): with a budget, the pairs not yet proven within it after
  /// the plan get more visits until they are or the budget ends (docs/machine.md §10.1); 0:
  /// none. `tolerance` and `drift_tolerance_ppb` say which pairs pass at all (a pair that
  /// fails needs no more).
  Tolerance max_bound;
  Tolerance tolerance;
  double drift_tolerance_ppb = 0;
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

/// The CPUs in topology order and the plan. With fewer than two CPUs the plan is empty (no
/// slot): there is no pair, and the check answers inconclusive.
struct PlannedMatrix {
  OrderedCpus order;
  MatrixPlan plan;
  std::string topology_xml;  // the machine's topology as hwloc XML, for the run directory
  [[nodiscard]] bool one_cpu() const { return order.cpus.size() < 2; }
};

/// The visits a run added after its plan, for pairs not yet proven within --max-bound.
struct AddedVisits {
  double max_bound_ticks = 0;        // what they were to prove; 0: none were asked for
  std::uint64_t visits = 0;          // pair visits added
  std::size_t rounds = 0;            // sweeps of added visits
  std::vector<std::string> pairs;    // the unordered pairs that got them ("0-1"), in order
  std::size_t unproven = 0;          // pairs still not proven within it when the budget ended
};

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
  /// --from: which run inside the directory named answers, when it is not that directory
  /// itself ("the run of the matrix in R", "the ordering-read matrix of the report in R").
  std::string run_dir_what;
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
  /// Visits that reached their slot's deadline (the budget held where the machine exchanged
  /// slower than the plan's model), and the rate measured, rounds per second per pair.
  std::uint64_t visits_cut = 0;
  double rounds_per_second = 0;
  AddedVisits added;
};

/// Where the analysis writes what it says of each pair, as it goes: DIR/pairs/pair_A_B.txt,
/// DIR/analysis.json, and with save_runs DIR/pairs/pair_A_B.csv (tscaudit-run/1).
struct PairOutputs {
  std::string dir;  // empty: nothing is written
  bool save_runs = false;
};

}  // namespace tscaudit
