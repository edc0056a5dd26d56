// The plan `report` and `check` run by default, and `matrix --budget`: a design (all pairs
// or sparse), the visits and the rounds per visit that fit a time budget and a data budget
// (docs/machine.md §10.1, "Sparse designs"; docs/performance.md, "The default plan"). Pure.
//
// The rule, for n CPUs and a budget B (the command's default share D: 90 s for check):
//  - visits V: 4 per D of budget, at least 4, at most kMaxBudgetVisits (--visits instead when
//    given). More time buys more visits spread over a longer run: more chances at a host's
//    fast regime, a longer span for the drift. The data budgets grow with them: the rounds
//    a plan aims at, 40 M × V/4 (at most 160 M), and the most per ordered pair, 1 M × V/4
//    (at most 8 M: one pair's rounds are held for its analysis, 40 bytes each).
//  - floor = kMinRoundsPerPair (2000) rounds per ordered pair over its visits:
//    ceil(2000 / V) per visit.
//  - All pairs when every one of the n(n-1) ordered pairs can get the floor within both
//    budgets: n(n-1) × 2000 <= kDefaultPlanRounds (40 M rounds, so n <= 141), and the
//    all-pairs plan at the floor fits the time budget under the cost model. Or when
//    asked (--all-pairs).
//  - Else sparse (sparse_design.hpp): the listed pairs in both roles.
//  - Rounds per visit, unless given: the data budgets shared by the design's ordered pairs
//    (between 2000 and the most per pair), fewer where the time budget needs, never below
//    the floor. At the floor a plan may exceed the time budget (a sequential run of many
//    CPUs); the plan says so.
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
/// Visits per ordered pair of a plan within the default budget.
inline constexpr std::uint64_t kDefaultVisits = 4;
/// The most visits a budget plans per ordered pair (--visits may give more).
inline constexpr std::uint64_t kMaxBudgetVisits = 256;
/// The data budgets grow with the visits up to these multiples of the default's.
inline constexpr std::uint64_t kMaxPlanRoundsScale = 4;
inline constexpr std::uint64_t kMaxPairRoundsScale = 8;

struct PlanRequest {
  std::uint64_t visits = 0;  // 0: by the budget (budget_visits)
  std::uint64_t warmup_per_visit = 0;
  bool parallel = true;
  double budget_seconds = kDefaultBudgetSeconds;  // > 0
  /// The budget that plans kDefaultVisits: the command's share of the default budget (check
  /// 90 s; each of report's two matrices a third of it).
  double default_budget_seconds = kDefaultBudgetSeconds;
  std::uint64_t rounds_per_visit = 0;  // 0: chosen by the rule above
  bool all_pairs = false;              // force the full matrix
};

/// The visits a budget plans: kDefaultVisits per `default_budget_seconds`, rounded, at least
/// kDefaultVisits, at most kMaxBudgetVisits. \pre both budgets positive and finite.
std::uint64_t budget_visits(double budget_seconds, double default_budget_seconds);

/// The fewest measured rounds per visit the rule gives: ceil(kMinRoundsPerPair / visits).
std::uint64_t floor_rounds_per_visit(std::uint64_t visits);

/// The plan by the rule above, with its design, the reason (one sentence) and the budget
/// recorded in its spec.
/// \throws UsageError for fewer than 2 CPUs, 0 visits, a budget that is not a positive
///         finite number of seconds, or what make_plan throws.
MatrixPlan choose_plan(const OrderedCpus& order, const PlanRequest& request, const PlanCosts& costs);

}  // namespace tscaudit
