// The plan `report` and `check` run by default, and `matrix --budget`: a design (all pairs
// or sparse) and rounds per visit that fit a time budget and a data budget (docs/method.md,
// "Sparse designs"; docs/performance.md, "The default plan"). Pure.
//
// The rule, for n CPUs and V visits per ordered pair:
//  - floor = kMinRoundsPerPair (2000) rounds per ordered pair over its visits:
//    ceil(2000 / V) per visit.
//  - All pairs when every one of the n(n-1) ordered pairs can get the floor within both
//    budgets: n(n-1) × 2000 <= kDefaultPlanRounds (40 M rounds, so n <= 141), and the
//    all-pairs plan at the floor fits the time budget under the cost model. Or when
//    asked (--all-pairs).
//  - Else sparse (sparse_design.hpp): the listed pairs in both roles.
//  - Rounds per visit, unless given: the default rule for the design's ordered pairs
//    (default_rounds_per_visit_for_pairs: 40 M rounds in all, between 2000 and 1 M per
//    ordered pair), fewer where the time budget needs, never below the floor. At the floor
//    a plan may exceed the time budget (a sequential run of many CPUs); the plan says so.
// Why the data budget binds before the time budget when pairs run in parallel: at 1024 CPUs
// the all-pairs tournament could give every ordered pair 4000 rounds within 90 s under the
// cost model, but that is 4.2 G rounds to store and analyze; docs/performance.md gives the
// analysis cost measured per round and per pair.
#pragma once

#include <cstdint>

#include "matrix/matrix_plan.hpp"
#include "matrix/topology_order.hpp"

namespace tscaudit {

/// The measuring time `report` and `check` plan for by default, seconds.
inline constexpr double kDefaultBudgetSeconds = 90;

struct PlanRequest {
  std::uint64_t visits = 4;
  std::uint64_t warmup_per_visit = 0;
  bool parallel = true;
  double budget_seconds = kDefaultBudgetSeconds;  // > 0
  std::uint64_t rounds_per_visit = 0;             // 0: chosen by the rule above
  bool all_pairs = false;                         // force the full matrix
};

/// The fewest measured rounds per visit the rule gives: ceil(kMinRoundsPerPair / visits).
std::uint64_t floor_rounds_per_visit(std::uint64_t visits);

/// The plan by the rule above, with its design, the reason (one sentence) and the budget
/// recorded in its spec.
/// \throws UsageError for fewer than 2 CPUs, 0 visits, a budget that is not a positive
///         finite number of seconds, or what make_plan throws.
MatrixPlan choose_plan(const OrderedCpus& order, const PlanRequest& request, const PlanCosts& costs);

}  // namespace tscaudit
