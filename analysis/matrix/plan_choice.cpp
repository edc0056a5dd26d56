#include "matrix/plan_choice.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/errors.hpp"
#include "core/format.hpp"
#include "core/human_units.hpp"
#include "matrix/sparse_design.hpp"

namespace tscaudit {
namespace {

std::string rounds_text(double rounds) {
  if (rounds >= 1e9) return format_sig(rounds / 1e9, 3) + " G";
  if (rounds >= 1e6) return format_sig(rounds / 1e6, 3) + " M";
  return format_sig(rounds, 6);
}

/// Rounds per visit for `ordered_pairs` measured pairs in `slots` slots of `visits` sweeps:
/// the data budgets (grown with the visits beyond kDefaultVisits) shared by the pairs,
/// fewer where the time budget needs, at least the floor.
std::uint64_t chosen_rounds(std::uint64_t ordered_pairs, std::uint64_t slots, std::uint64_t visits,
                            const PlanRequest& r, const PlanCosts& costs) {
  const std::uint64_t floor = floor_rounds_per_visit(visits);
  // visits / kDefaultVisits as a whole-number ratio of the budgets, capped.
  const auto scaled = [&](std::uint64_t base, std::uint64_t most) {
    const std::uint64_t grown = visits <= kDefaultVisits ? base : base / kDefaultVisits * visits;
    return std::min(grown, base * most);
  };
  const std::uint64_t plan_rounds = scaled(kDefaultPlanRounds, kMaxPlanRoundsScale);
  const std::uint64_t pair_rounds = scaled(kMaxRoundsPerPair, kMaxPairRoundsScale);
  const std::uint64_t per_pair = std::min(pair_rounds, std::max(kMinRoundsPerPair, plan_rounds / ordered_pairs));
  const std::uint64_t by_data = std::max<std::uint64_t>(1, (per_pair + visits / 2) / visits);
  const std::uint64_t by_time = rounds_for_slots_budget(slots, r.budget_seconds, costs, r.warmup_per_visit, 1);
  return std::max(floor, std::min(by_data, by_time));
}

}  // namespace

std::uint64_t budget_visits(double budget_seconds, double default_budget_seconds) {
  const double ratio = budget_seconds / default_budget_seconds;
  const double visits = std::round(static_cast<double>(kDefaultVisits) * ratio);
  return static_cast<std::uint64_t>(
      std::clamp(visits, static_cast<double>(kDefaultVisits), static_cast<double>(kMaxBudgetVisits)));
}

std::uint64_t floor_rounds_per_visit(std::uint64_t visits) {
  if (visits == 0) throw UsageError("visits per ordered pair must be at least 1, got 0");
  return std::max<std::uint64_t>(1, (kMinRoundsPerPair + visits - 1) / visits);
}

MatrixPlan choose_plan(const OrderedCpus& order, const PlanRequest& r, const PlanCosts& costs) {
  const std::size_t n = order.cpus.size();
  if (n < 2) throw UsageError("a matrix needs at least 2 CPUs, got " + std::to_string(n));
  if (!std::isfinite(r.budget_seconds) || r.budget_seconds <= 0) {
    throw UsageError("the time budget must be a positive number of seconds, got " + format_sig(r.budget_seconds));
  }
  if (!std::isfinite(r.default_budget_seconds) || r.default_budget_seconds <= 0) {
    throw UsageError("the default budget must be a positive number of seconds, got " +
                     format_sig(r.default_budget_seconds));
  }
  const std::uint64_t visits = r.visits > 0 ? r.visits : budget_visits(r.budget_seconds, r.default_budget_seconds);
  const std::uint64_t floor = floor_rounds_per_visit(visits);

  PlanSpec spec;
  spec.cpus = order.cpu_numbers();
  spec.visits = visits;
  spec.warmup_per_visit = r.warmup_per_visit;
  spec.parallel = r.parallel;
  spec.budget_seconds = r.budget_seconds;

  // All pairs at the floor: what it would hold and take.
  const std::uint64_t all_ordered = std::uint64_t{n} * (n - 1);
  const std::uint64_t all_slots = plan_slot_count(n, visits, r.parallel);
  const double floor_rounds = static_cast<double>(all_ordered) * static_cast<double>(floor * visits);
  const double floor_seconds = estimate_plan_seconds(all_slots, floor + r.warmup_per_visit, costs);
  const bool rounds_fit = floor_rounds <= static_cast<double>(kDefaultPlanRounds);
  const bool time_fits = floor_seconds <= r.budget_seconds;
  const std::string budget = format_sig(r.budget_seconds, 3) + " s budget";

  if (r.all_pairs || (rounds_fit && time_fits)) {
    spec.design = PlanDesign::all_pairs;
    spec.rounds_per_visit =
        r.rounds_per_visit > 0 ? r.rounds_per_visit : chosen_rounds(all_ordered, all_slots, visits, r, costs);
    spec.design_reason = r.all_pairs
                             ? "the full matrix was asked for (--all-pairs)"
                             : "every one of the " + std::to_string(all_ordered) + " ordered pairs gets at least " +
                                   std::to_string(kMinRoundsPerPair) + " rounds within the " + budget + " and " +
                                   rounds_text(static_cast<double>(kDefaultPlanRounds)) + " rounds in all";
    return make_plan(spec, costs);
  }

  const SparseDesign design = sparse_design(order);
  spec.design = PlanDesign::sparse;
  spec.pairs = design.pairs;
  const std::uint64_t ordered = 2 * spec.pairs.size();
  spec.rounds_per_visit =
      r.rounds_per_visit > 0 ? r.rounds_per_visit : chosen_rounds(ordered, plan_slot_count(spec), visits, r, costs);
  std::string why = "all " + std::to_string(all_ordered) + " ordered pairs at " + std::to_string(kMinRoundsPerPair) +
                    " rounds each would take ";
  if (!rounds_fit) {
    why += rounds_text(floor_rounds) + " rounds, more than the " +
           rounds_text(static_cast<double>(kDefaultPlanRounds)) + " a plan aims at";
  } else {
    why += human_duration(floor_seconds) + ", more than the " + budget;
  }
  why += "; these " + std::to_string(ordered) + " ordered pairs (every pair within each of " +
         std::to_string(design.group_starts.size()) +
         " local groups, partners in other groups and packages, random chords) link every CPU to the rest";
  spec.design_reason = std::move(why);
  return make_plan(spec, costs);
}

}  // namespace tscaudit
