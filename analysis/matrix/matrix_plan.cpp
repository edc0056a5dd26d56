#include "matrix/matrix_plan.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/cpu_list.hpp"
#include "core/errors.hpp"
#include "core/format.hpp"
#include "core/run.hpp"
#include "matrix/matrix.hpp"

namespace tscaudit {

static_assert(sizeof(Round) == kRoundBytes, "the plan's memory figure counts Round's size");

namespace {

void check_cpu_count(std::size_t cpu_count) {
  if (cpu_count < 2) {
    throw UsageError("a matrix needs at least 2 CPUs, got " + std::to_string(cpu_count));
  }
  // Its cells grow with the square of the CPUs, the per-CPU offsets' paths with the cube.
  if (cpu_count > static_cast<std::size_t>(kMaxMatrixCpus)) {
    throw UsageError("a matrix of " + std::to_string(cpu_count) + " CPUs is more than the " +
                     std::to_string(kMaxMatrixCpus) + " it may have (select fewer CPUs)");
  }
}

void check_visits(std::uint64_t visits) {
  if (visits == 0) throw UsageError("visits per ordered pair must be at least 1, got 0");
}

void check_costs(const PlanCosts& c) {
  if (!std::isfinite(c.rounds_per_second) || c.rounds_per_second <= 0) {
    throw std::invalid_argument("PlanCosts: rounds_per_second must be positive and finite");
  }
  if (!std::isfinite(c.seconds_per_visit) || c.seconds_per_visit < 0) {
    throw std::invalid_argument("PlanCosts: seconds_per_visit must be finite and not negative");
  }
}

/// a × b, or UsageError naming `what` where it does not fit 64 bits.
std::uint64_t checked_product(std::uint64_t a, std::uint64_t b, const char* what) {
  std::uint64_t out = 0;
  if (__builtin_mul_overflow(a, b, &out))
    throw UsageError(std::string("the plan is too large: ") + what + " overflows 64 bits");
  return out;
}

std::uint64_t checked_sum(std::uint64_t a, std::uint64_t b, const char* what) {
  std::uint64_t out = 0;
  if (__builtin_add_overflow(a, b, &out))
    throw UsageError(std::string("the plan is too large: ") + what + " overflows 64 bits");
  return out;
}

double estimate_seconds(std::uint64_t slots, std::uint64_t rounds_and_warmup, const PlanCosts& c) {
  return static_cast<double>(slots) *
         (c.seconds_per_visit + static_cast<double>(rounds_and_warmup) / c.rounds_per_second);
}

void check_cpus(const std::vector<int>& cpus) {
  const std::size_t n = cpus.size();
  check_cpu_count(n);
  std::vector<int> sorted = cpus;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> repeated;
  for (std::size_t i = 1; i < n; ++i) {
    if (sorted[i] == sorted[i - 1] && (repeated.empty() || repeated.back() != sorted[i])) repeated.push_back(sorted[i]);
  }
  if (!repeated.empty()) {
    throw UsageError((repeated.size() == 1 ? "CPU " + std::to_string(repeated[0]) + " appears"
                                           : "CPUs " + format_cpu_list(repeated) + " appear") +
                     " more than once in the matrix's CPU list");
  }
}

void check_pairs(const PlanSpec& spec) {
  if (spec.design != PlanDesign::sparse) return;
  if (spec.pairs.empty()) throw std::invalid_argument("PlanSpec: a sparse plan lists no pairs");
  std::vector<IndexPair> sorted = spec.pairs;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t k = 0; k < sorted.size(); ++k) {
    const IndexPair& p = sorted[k];
    if (p.first >= p.second || p.second >= spec.cpus.size()) {
      throw std::invalid_argument("PlanSpec: pair (" + std::to_string(p.first) + ", " + std::to_string(p.second) +
                                  ") is out of range or not ordered");
    }
    if (k > 0 && sorted[k - 1] == p) {
      throw std::invalid_argument("PlanSpec: pair (" + std::to_string(p.first) + ", " + std::to_string(p.second) +
                                  ") is listed twice");
    }
  }
}

/// One sweep's greedy edge colouring of `pairs`, taken from `first` on (wrapping round):
/// colour classes in order, each a set of disjoint pairs.
std::vector<std::vector<IndexPair>> colour_sweep(std::size_t n, const std::vector<IndexPair>& pairs,
                                                 std::size_t first) {
  std::vector<std::vector<IndexPair>> colours;
  std::vector<std::vector<bool>> used(n);  // used[cpu][colour]
  const auto taken = [&](std::uint32_t cpu, std::size_t c) { return c < used[cpu].size() && used[cpu][c]; };
  const auto take = [&](std::uint32_t cpu, std::size_t c) {
    if (used[cpu].size() <= c) used[cpu].resize(c + 1, false);
    used[cpu][c] = true;
  };
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const IndexPair& p = pairs[(first + k) % pairs.size()];
    std::size_t c = 0;
    while (taken(p.first, c) || taken(p.second, c)) ++c;
    take(p.first, c);
    take(p.second, c);
    if (colours.size() <= c) colours.resize(c + 1);
    colours[c].push_back(p);
  }
  return colours;
}

/// Calls slot(pairs) for each slot of a sparse plan, in run order; `pairs` are ordered
/// (a, b) index pairs with the sweep's number. Sequential plans get one pair per slot.
template <typename Slot>
void sparse_schedule(const PlanSpec& spec, Slot&& slot) {
  const std::size_t n = spec.cpus.size();
  const std::size_t count = spec.pairs.size();
  for (std::uint64_t sweep = 0; sweep < spec.visits; ++sweep) {
    const std::size_t first = static_cast<std::size_t>((sweep * count) / spec.visits);
    const auto colours = colour_sweep(n, spec.pairs, first);
    for (int half = 0; half < 2; ++half) {
      for (const std::vector<IndexPair>& colour : colours) {
        std::vector<IndexPair> oriented;
        oriented.reserve(colour.size());
        for (const IndexPair& p : colour) {
          oriented.push_back(half == 0 ? p : IndexPair{p.second, p.first});
        }
        if (spec.parallel) {
          slot(oriented, sweep);
        } else {
          for (const IndexPair& p : oriented) slot(std::vector<IndexPair>{p}, sweep);
        }
      }
    }
  }
}

/// The circle method with n' positions (n' even): position 0 stays, the others turn by one
/// place per tournament round. Calls pair(x, y) with positions for each table of round r.
template <typename Pair>
void tournament_round(std::size_t positions, std::size_t r, Pair&& pair) {
  const std::size_t turning = positions - 1;
  const auto at = [&](std::size_t k) { return k == 0 ? std::size_t{0} : 1 + (k - 1 + r) % turning; };
  for (std::size_t i = 0; i < positions / 2; ++i) pair(at(i), at(positions - 1 - i));
}

}  // namespace

const char* design_name(PlanDesign design) { return design == PlanDesign::sparse ? "sparse" : "all pairs"; }

bool MatrixPlan::measures(std::size_t i, std::size_t j) const {
  if (i == j || i >= spec.cpus.size() || j >= spec.cpus.size()) return false;
  if (spec.design == PlanDesign::all_pairs) return true;
  const IndexPair key{static_cast<std::uint32_t>(std::min(i, j)), static_cast<std::uint32_t>(std::max(i, j))};
  return std::binary_search(sorted_pairs.begin(), sorted_pairs.end(), key);
}

std::uint64_t plan_slot_count(std::size_t cpu_count, std::uint64_t visits, bool parallel) {
  const std::uint64_t n = cpu_count;
  const std::uint64_t per_sweep = parallel ? 2 * (n + n % 2 - 1) : n * (n - 1);
  return checked_product(per_sweep, visits, "the slot count");
}

std::uint64_t plan_slot_count(const PlanSpec& spec) {
  check_cpus(spec.cpus);
  check_visits(spec.visits);
  if (spec.design == PlanDesign::all_pairs) return plan_slot_count(spec.cpus.size(), spec.visits, spec.parallel);
  check_pairs(spec);
  if (!spec.parallel) return checked_product(2 * spec.pairs.size(), spec.visits, "the slot count");
  std::uint64_t slots = 0;
  for (std::uint64_t sweep = 0; sweep < spec.visits; ++sweep) {
    const std::size_t first = static_cast<std::size_t>((sweep * spec.pairs.size()) / spec.visits);
    slots += 2 * colour_sweep(spec.cpus.size(), spec.pairs, first).size();
  }
  return slots;
}

double estimate_plan_seconds(std::uint64_t slots, std::uint64_t rounds_and_warmup, const PlanCosts& costs) {
  check_costs(costs);
  return estimate_seconds(slots, rounds_and_warmup, costs);
}

MatrixPlan make_plan(const PlanSpec& spec, const PlanCosts& costs) {
  check_costs(costs);
  const std::size_t n = spec.cpus.size();
  check_cpus(spec.cpus);
  check_visits(spec.visits);
  if (spec.rounds_per_visit == 0) throw UsageError("rounds per visit must be at least 1, got 0");
  check_pairs(spec);
  const bool sparse = spec.design == PlanDesign::sparse;

  MatrixPlan plan;
  plan.spec = spec;
  plan.costs = costs;
  plan.unordered_pairs = sparse ? spec.pairs.size() : std::uint64_t{n} * (n - 1) / 2;
  plan.ordered_pairs = 2 * plan.unordered_pairs;
  plan.pair_visits = checked_product(plan.ordered_pairs, spec.visits, "ordered pairs × visits");
  if (plan.pair_visits > kMaxPairVisits) {
    throw UsageError("the plan has " + std::to_string(plan.pair_visits) + " pair visits, more than " +
                     std::to_string(kMaxPairVisits) + " (select fewer CPUs or fewer visits)");
  }
  plan.total_rounds = checked_product(plan.pair_visits, spec.rounds_per_visit, "the total round count");
  const std::uint64_t per_visit =
      checked_sum(spec.rounds_per_visit, spec.warmup_per_visit, "rounds + warm-up per visit");

  if (sparse) {
    plan.sorted_pairs = spec.pairs;
    std::sort(plan.sorted_pairs.begin(), plan.sorted_pairs.end());
    std::vector<std::uint64_t> per_sweep(spec.visits, 0);
    sparse_schedule(spec, [&](const std::vector<IndexPair>& pairs, std::uint64_t sweep) {
      PlanSlot slot;
      slot.pairs.reserve(pairs.size());
      for (const IndexPair& p : pairs) slot.pairs.push_back(PairVisit{spec.cpus[p.first], spec.cpus[p.second], sweep});
      plan.pairs_at_once = std::max(plan.pairs_at_once, slot.pairs.size());
      plan.slots.push_back(std::move(slot));
      ++per_sweep[sweep];
    });
    plan.slots_per_sweep = *std::max_element(per_sweep.begin(), per_sweep.end());
  } else {
    plan.pairs_at_once = spec.parallel ? n / 2 : 1;
    plan.slots_per_sweep = plan_slot_count(n, 1, spec.parallel);
    // Positions 0..n'-1; index n (odd n only) is the bye.
    const std::size_t positions = n + n % 2;
    plan.slots.reserve(plan_slot_count(n, spec.visits, spec.parallel));
    for (std::uint64_t sweep = 0; sweep < spec.visits; ++sweep) {
      // This sweep's place around the circle for each CPU: one step further each sweep.
      const auto cpu_at = [&](std::size_t position) { return (position + sweep) % positions; };
      for (std::uint64_t half = 0; half < 2; ++half) {
        const bool forward = half == 0;
        for (std::size_t r = 0; r + 1 < positions; ++r) {
          PlanSlot slot;
          tournament_round(positions, r, [&](std::size_t x, std::size_t y) {
            const std::size_t i = cpu_at(forward ? x : y);
            const std::size_t j = cpu_at(forward ? y : x);
            if (i == n || j == n) return;  // the bye: this CPU sits out this round
            const PairVisit visit{spec.cpus[i], spec.cpus[j], sweep};
            if (spec.parallel) {
              slot.pairs.push_back(visit);
            } else {
              plan.slots.push_back(PlanSlot{{visit}});
            }
          });
          if (spec.parallel) plan.slots.push_back(std::move(slot));
        }
      }
    }
  }

  const auto memory = [](std::uint64_t a, std::uint64_t b) { return checked_product(a, b, "the memory figure"); };
  const auto add = [](std::uint64_t a, std::uint64_t b) { return checked_sum(a, b, "the memory figure"); };
  const std::uint64_t raw_at_once = memory(memory(per_visit, kRawBytesPerRound), plan.pairs_at_once);
  plan.memory_bytes = add(memory(plan.total_rounds, kRoundBytes), raw_at_once);
  const std::uint64_t visit_rounds_at_once = memory(memory(spec.rounds_per_visit, kRoundBytes), plan.pairs_at_once);
  const std::uint64_t one_pair = memory(memory(spec.rounds_per_visit, spec.visits), kRoundBytes);
  const std::uint64_t cells =
      add(memory(memory(n, n), kCellIndexBytes + kSolverBytesPerCell), memory(plan.ordered_pairs, sizeof(PairCell)));
  plan.memory_bytes_streaming = add(add(add(raw_at_once, visit_rounds_at_once), one_pair), cells);
  plan.estimated_seconds = estimate_seconds(plan.slots.size(), per_visit, costs);
  return plan;
}

std::uint64_t rounds_for_slots_budget(std::uint64_t slots, double budget_seconds, const PlanCosts& costs,
                                      std::uint64_t warmup, std::uint64_t min_rounds) {
  check_costs(costs);
  if (slots == 0) throw UsageError("a plan of 0 slots has no time to budget");
  if (!std::isfinite(budget_seconds) || budget_seconds <= 0) {
    throw UsageError("the time budget must be a positive number of seconds, got " + format_sig(budget_seconds));
  }
  const double per_slot_seconds = budget_seconds / static_cast<double>(slots) - costs.seconds_per_visit;
  // Rounds + warm-up one visit can take; capped far below 2^64 so the conversion is defined.
  const double fit = std::floor(std::min(per_slot_seconds * costs.rounds_per_second, 1e18));
  if (!(fit > static_cast<double>(warmup))) return min_rounds;
  std::uint64_t rounds = static_cast<std::uint64_t>(fit) - warmup;
  // Floating-point rounding in the division above can leave the estimate a hair over.
  while (rounds > min_rounds && estimate_seconds(slots, rounds + warmup, costs) > budget_seconds) --rounds;
  return std::max(rounds, min_rounds);
}

std::uint64_t rounds_for_budget(std::size_t cpu_count, std::uint64_t visits, bool parallel, double budget_seconds,
                                const PlanCosts& costs, std::uint64_t warmup, std::uint64_t min_rounds) {
  check_costs(costs);
  check_cpu_count(cpu_count);
  check_visits(visits);
  if (!std::isfinite(budget_seconds) || budget_seconds <= 0) {
    throw UsageError("the time budget must be a positive number of seconds, got " + format_sig(budget_seconds));
  }
  return rounds_for_slots_budget(plan_slot_count(cpu_count, visits, parallel), budget_seconds, costs, warmup,
                                 min_rounds);
}

std::uint64_t default_rounds_per_visit(std::size_t cpu_count, std::uint64_t visits) {
  check_cpu_count(cpu_count);
  check_visits(visits);
  return default_rounds_per_visit_for_pairs(std::uint64_t{cpu_count} * (cpu_count - 1), visits);
}

std::uint64_t default_rounds_per_visit_for_pairs(std::uint64_t ordered_pairs, std::uint64_t visits) {
  check_visits(visits);
  if (ordered_pairs == 0) throw UsageError("a plan needs at least one ordered pair");
  const std::uint64_t per_pair =
      std::min(kMaxRoundsPerPair, std::max(kMinRoundsPerPair, kDefaultPlanRounds / ordered_pairs));
  return std::max<std::uint64_t>(1, (per_pair + visits / 2) / visits);
}

}  // namespace tscaudit
