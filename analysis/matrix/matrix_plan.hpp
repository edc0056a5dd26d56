// The all-pairs measurement plan for `tscsync matrix`: which ordered pairs run when, how
// many rounds each visit takes, and what the whole run costs in time and memory. Pure:
// no hwloc, no threads; the caller orders the CPUs (topology_order.hpp) and measures.
//
// Schedule. A round-robin tournament (circle method) over the n CPUs, with a bye added for
// odd n, gives n' - 1 tournament rounds (n' = n rounded up to even) in which every
// unordered pair meets once and no CPU plays twice. One *sweep* is those rounds with each
// pair oriented one way, then the same rounds oriented the other way: every ordered pair
// exactly once. A plan is `visits` sweeps, so visit k of every pair lies in sweep k and each
// pair's visits are spread over the whole run (drift is judged over the run's full length).
// Between sweeps every CPU moves one place around the circle (so the CPU at the fixed place
// changes too): in parallel mode a pair then shares its slot with other pairs from one sweep
// to the next (for n >= 6 only one of the n' - 1 groupings recurs in the next sweep; 4 CPUs
// have only three ways to pair up), so contention from one particular neighbour is not
// repeated on every visit, and the envelope estimates get visits with other neighbours.
// Parallel: each tournament round of a sweep is one slot (its pairs are disjoint).
// Sequential: each pair visit is its own slot, in the same order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tscsync {

/// Measured constants the caller passes (and documents where they come from).
struct PlanCosts {
  double rounds_per_second = 2e6;  // one pair's exchange speed, rounds per second
  double seconds_per_visit =
      0.05;  // fixed cost of one visit: threads, pinning, pre-faulting, quantum reads, warm-up start
};

struct PlanSpec {
  std::vector<int> cpus;               // OS numbers, already in topology order, >= 2, distinct
  std::uint64_t visits = 4;            // visits per ordered pair, spread over the whole run
  std::uint64_t rounds_per_visit = 0;  // measured rounds per visit
  std::uint64_t warmup_per_visit = 0;  // discarded rounds before the measured ones, per visit
  bool parallel = false;               // run disjoint pairs at once
};

/// One visit of an ordered pair: `a` initiates, `b` responds; `visit` counts this pair's
/// visits from 0 (and equals the sweep it lies in).
struct PairVisit {
  int a = 0;
  int b = 0;
  std::uint64_t visit = 0;
  friend constexpr bool operator==(const PairVisit&, const PairVisit&) = default;
};

/// Pairs that run together: disjoint CPUs; exactly one pair unless the plan is parallel.
struct PlanSlot {
  std::vector<PairVisit> pairs;
};

struct MatrixPlan {
  PlanSpec spec;
  PlanCosts costs;
  std::uint64_t unordered_pairs = 0;  // n(n-1)/2
  std::uint64_t ordered_pairs = 0;    // n(n-1): each pair in both roles
  std::uint64_t pair_visits = 0;      // ordered_pairs × visits
  std::uint64_t total_rounds = 0;     // measured rounds over the run (warm-up not counted)
  std::size_t pairs_at_once = 0;      // largest slot: floor(n/2) in parallel, else 1
  std::uint64_t slots_per_sweep = 0;  // 2(n'-1) in parallel, n(n-1) sequential
  std::vector<PlanSlot> slots;        // execution order; visits × slots_per_sweep of them
  /// slots × (seconds_per_visit + (rounds + warm-up) / rounds_per_second): a parallel slot
  /// is assumed to take as long as one visit (contention slowing it is not modelled).
  double estimated_seconds = 0;
  /// kRoundBytes per measured round kept (every round of the run is kept for the analysis)
  /// + kRawBytesPerRound per (rounds + warm-up) per pair at once (the two threads' raw
  /// buffers: t1, t4 on one side, t2, t3 on the other).
  std::uint64_t memory_bytes = 0;
};

/// Bytes the analysis keeps per measured round (sizeof(Round), analysis/core/run.hpp).
inline constexpr std::uint64_t kRoundBytes = 40;
/// Bytes of raw buffer per round per pair during a visit: four 8-byte time stamps.
inline constexpr std::uint64_t kRawBytesPerRound = 32;
/// The most pair visits a plan holds: the slot list takes about 50 bytes per visit, and at
/// 20 million visits the fixed cost per visit alone is days.
inline constexpr std::uint64_t kMaxPairVisits = 20'000'000;

/// How many slots a plan of `cpu_count` CPUs and `visits` sweeps has.
/// \pre cpu_count >= 2
std::uint64_t plan_slot_count(std::size_t cpu_count, std::uint64_t visits, bool parallel);

/// Builds the plan (see the schedule at the top of this file).
/// \throws UsageError for fewer than 2 CPUs, a CPU listed twice, 0 visits, 0 rounds per
///         visit, or a plan beyond kMaxPairVisits or 64-bit round counts.
/// \throws std::invalid_argument for costs that are not positive and finite (seconds per
///         visit may be 0).
MatrixPlan make_plan(const PlanSpec& spec, const PlanCosts& costs);

/// Rounds per visit so that the plan's estimate fits `budget_seconds` (for `--budget`):
/// the largest r with slots × (seconds_per_visit + (r + warmup) / rounds_per_second) <=
/// budget, but at least `min_rounds` (then the estimate exceeds the budget; the caller
/// compares make_plan's estimate with the budget and says so).
/// \throws UsageError for fewer than 2 CPUs, 0 visits, or a budget that is not a positive
///         finite number of seconds.
std::uint64_t rounds_for_budget(std::size_t cpu_count, std::uint64_t visits, bool parallel, double budget_seconds,
                                const PlanCosts& costs, std::uint64_t warmup, std::uint64_t min_rounds);

/// Default measured rounds per visit:
///   per_pair = min(1'000'000, max(2000, 40'000'000 / ordered_pairs))   (integer division)
///   result   = per_pair / visits, rounded to nearest, at least 1.
/// 40 M rounds kept × 40 B = 1.6 GB: up to 20'000 ordered pairs (141 CPUs) the run keeps at
/// most that. Above, the floor of 2000 rounds per ordered pair wins (fewer leave the
/// envelopes of a pair too few chances at its minimum latency), so memory grows with
/// n(n-1): 256 CPUs keep 65'280 × 2000 × 40 B = 5.2 GB. Below 7 CPUs the cap of 1 M rounds
/// per ordered pair wins.
/// \throws UsageError for fewer than 2 CPUs or 0 visits.
std::uint64_t default_rounds_per_visit(std::size_t cpu_count, std::uint64_t visits);

}  // namespace tscsync
