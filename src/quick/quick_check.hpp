// The quick check (docs/machine.md §10.7, docs/library.md): the CPUs the caller may use,
// paired by quick_design, measured a slot at a time until each pair's band settles
// (quick_exchange.hpp), analyzed and decided as `check` decides (analyze_matrix_pairs,
// decide_check). What libtscaudit's tscaudit_quick_check answers, in C++ terms; the C
// entry point (c_api.cpp) and `tscaudit check --quick` both come through here.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/warning.hpp"
#include "matrix/check.hpp"
#include "matrix/matrix.hpp"
#include "matrix/matrix_analysis.hpp"
#include "matrix/matrix_plan.hpp"
#include "matrix/topology_order.hpp"

namespace tscaudit {

struct QuickOptions {
  std::optional<std::string> cpus;  // taskset syntax; none: the calling thread's CPUs
  double budget_seconds = 0;        // 0: quick_default_budget_seconds
  double tolerance_ns = 0;
  double max_bound_ns = 0;  // 0: no limit
  /// The platform's warnings, for the answer (those that weaken it are kept); the library
  /// gives none (it does not probe the platform).
  std::vector<Warning> warnings;
  /// Asked once the pairs are measured: why the check was cut short (a signal `check
  /// --quick` caught), or "" when it was not. Unset: never.
  std::function<std::string()> cut_short;
};

/// What the quick check answers: the decision (decide_check, the same as `check`'s) on the
/// matrix of the pairs it measured.
struct QuickAnswer {
  CheckResult check;                // outcome, bound, failures, findings, the reason's data
  MatrixResult matrix;              // the CPUs chosen and the pairs measured (none when nothing was)
  std::string reason;               // check_reason_text(check): one line, as `check` words it
  double proven_offset_ticks = 0;   // the smallest offset the worst pair's band proves; 0 if none
  int worst_a = -1, worst_b = -1;   // the pair behind it, else the bound's
  std::size_t pairs = 0;            // ordered pairs measured
  double counter_hz = 0;            // calibrated over the call against CLOCK_MONOTONIC_RAW
  double measuring_seconds = 0;     // from the first slot's start to the last slot's end
  std::vector<int> cpu_numbers;     // the CPUs, in topology order
};

/// What the quick check measures: the CPUs in topology order, the plan of quick_design's
/// pairs (one visit, each pair in both roles, disjoint pairs at once), the budget and each
/// visit's most rounds.
struct QuickPlan {
  OrderedCpus order;
  MatrixPlan plan;
  double budget_seconds = 0;
  std::uint64_t max_rounds = 0;
};

/// The plan for `places` (the CPUs to measure, in topology order) and `budget_seconds`
/// (0: quick_default_budget_seconds). Pure. \pre at least 2 CPUs
QuickPlan plan_quick(const std::vector<CpuPlace>& places, double budget_seconds);

/// The decision over the measured pairs, as `check` makes it: every ordered pair of the
/// plan read from `source`, analyzed (analyze_matrix_pairs), decided (decide_check) with the
/// tolerances converted with `counter_hz`; the reason, bound and worst pair filled. Pure.
QuickAnswer decide_quick(const QuickPlan& plan, const PairRunSource& source, double counter_hz,
                         const QuickOptions& options);

/// The answer when no pair is measured: the decision on the CPUs chosen alone (one CPU), or
/// with `unjudged` saying why none could be (a counter user space may not read, a pair
/// that failed). Pure.
QuickAnswer decide_unmeasured(const std::vector<int>& cpus, const std::string& unjudged, const QuickOptions& options);

/// What a call may take beyond its budget when another thread of the process is checking:
/// it waits for that check at most its budget and this, then takes that check's answer
/// when it asked the same (the CPUs, the budget, the tolerances), else measures itself when
/// that check ended within half this, else answers inconclusive, "busy"
/// (docs/library.md, "What it promises").
inline constexpr double kQuickSlackSeconds = 0.050;

/// \throws UsageError for options it cannot use (a CPU list it cannot parse, CPUs that do
///         not exist or may not be used, a budget or tolerance not finite and >= 0);
///         RuntimeError, IoError, std::bad_alloc, std::system_error when the system fails it.
/// Never changes the calling thread's affinity: only threads of its own are pinned.
/// One check measures at a time in a process: see kQuickSlackSeconds for a call that finds
/// another under way.
QuickAnswer run_quick_check(const QuickOptions& options);

}  // namespace tscaudit
