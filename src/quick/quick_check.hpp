// The quick check (docs/method.md §10.7, docs/library.md): the CPUs the caller may use,
// paired by quick_design, measured a slot at a time until each pair's band settles
// (quick_exchange.hpp), analyzed and decided as `check` decides (analyze_matrix_pairs,
// decide_check). What libtscaudit's tscaudit_quick_check answers, in C++ terms; the C
// entry point (c_api.cpp) and `tscaudit check --quick` both come through here.
#pragma once

#include <optional>
#include <string>
#include <vector>

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
};

struct QuickAnswer {
  CheckOutcome outcome = CheckOutcome::inconclusive;
  std::string reason;      // one line, as `check` words it
  double bound_ticks = 0;  // CheckResult::bound_ticks; 0 when nothing was judged
  double proven_offset_ticks = 0;
  int worst_a = -1, worst_b = -1;
  std::size_t cpus = 0;                // measured
  std::size_t pairs = 0;               // ordered pairs measured
  double counter_hz = 0;               // calibrated over the call against CLOCK_MONOTONIC_RAW
  double measuring_seconds = 0;        // from the first slot's start to the last slot's end
  std::vector<int> cpu_numbers;        // the CPUs, in topology order
  std::optional<MatrixResult> matrix;  // what was decided on (absent when nothing was measured)
  std::optional<CheckResult> check;
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

/// \throws UsageError for options it cannot use (a CPU list it cannot parse, CPUs that do
///         not exist or may not be used, a budget or tolerance not finite and >= 0);
///         RuntimeError, IoError, std::bad_alloc, std::system_error when the system fails it.
/// Never changes the calling thread's affinity: only threads of its own are pinned.
QuickAnswer run_quick_check(const QuickOptions& options);

}  // namespace tscaudit
