// The all-pairs measurement plan for `tscaudit matrix`: which ordered pairs run when, how
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
//
// A sparse plan (design sparse: the unordered pairs are listed, see sparse_design.hpp) is
// scheduled the same way with an edge colouring in place of the tournament: each sweep
// colours the listed pairs greedily (the smallest colour neither CPU has yet), so one colour
// is a set of disjoint pairs; the sweep runs the colours with each pair oriented one way,
// then the same colours the other way. Each sweep colours the pairs in an order rotated by
// sweep × pairs / visits, so parallel pairs meet other neighbours from one sweep to the next
// and the sweeps can differ by a few slots.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tscaudit {

/// Measured constants the caller passes (and documents where they come from).
struct PlanCosts {
  double rounds_per_second = 2e6;  // one pair's exchange speed, rounds per second
  double seconds_per_visit =
      0.05;  // fixed cost of one visit: threads, pinning, pre-faulting, quantum reads, warm-up start
};

/// Which ordered pairs a plan measures (docs/machine.md, "Sparse designs").
enum class PlanDesign {
  all_pairs,  // every ordered pair: the full matrix
  sparse,     // the listed unordered pairs, each in both roles
};

/// "all pairs" or "sparse".
const char* design_name(PlanDesign design);

/// Two CPUs of a plan by their index in PlanSpec::cpus, first < second.
using IndexPair = std::pair<std::uint32_t, std::uint32_t>;

struct PlanSpec {
  std::vector<int> cpus;               // OS numbers, already in topology order, >= 2, distinct
  std::uint64_t visits = 4;            // visits per ordered pair, spread over the whole run
  std::uint64_t rounds_per_visit = 0;  // measured rounds per visit
  std::uint64_t warmup_per_visit = 0;  // discarded rounds before the measured ones, per visit
  bool parallel = false;               // run disjoint pairs at once
  PlanDesign design = PlanDesign::all_pairs;
  std::vector<IndexPair> pairs;  // sparse: the unordered pairs measured (both roles), distinct
  std::string design_reason;     // why this design, one sentence (empty: not said)
  double budget_seconds = 0;     // the time budget the plan was made for; 0: none
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
  std::uint64_t unordered_pairs = 0;  // measured: n(n-1)/2 for all pairs
  std::uint64_t ordered_pairs = 0;    // measured, each pair in both roles: n(n-1) for all pairs
  std::uint64_t pair_visits = 0;      // ordered_pairs × visits
  std::uint64_t total_rounds = 0;     // measured rounds over the run (warm-up not counted)
  std::size_t pairs_at_once = 0;      // largest slot: floor(n/2) for all pairs in parallel, 1 sequential
  /// All pairs: 2(n'-1) in parallel, n(n-1) sequential; sparse: the largest sweep's count.
  std::uint64_t slots_per_sweep = 0;
  std::vector<PlanSlot> slots;  // execution order; visits × slots_per_sweep of them for all pairs
  /// slots × (seconds_per_visit + (rounds + warm-up) / rounds_per_second): a parallel slot
  /// is assumed to take as long as one visit (contention slowing it is not modelled).
  double estimated_seconds = 0;
  /// kRoundBytes per measured round kept (every round of the run is kept for the analysis)
  /// + kRawBytesPerRound per (rounds + warm-up) per pair at once (the two threads' raw
  /// buffers: t1, t4 on one side, t2, t3 on the other).
  std::uint64_t memory_bytes = 0;
  /// What a run keeps when it streams its rounds to disk and analyzes the pairs one at a
  /// time (docs/performance.md, "Memory"):
  ///   pairs_at_once × ((rounds + warm-up) × kRawBytesPerRound + rounds × kRoundBytes)
  ///       the raw buffers of the pairs measured at once and their visit's rounds;
  /// + visits × rounds × kRoundBytes      one ordered pair's rounds, for its analysis;
  /// + n² × (kCellIndexBytes + kSolverBytesPerCell)   the N×N index of the cells and the
  ///       solver's arrays;
  /// + ordered_pairs × sizeof(PairCell)   the cells of the pairs measured (PairCells).
  std::uint64_t memory_bytes_streaming = 0;

  std::vector<IndexPair> sorted_pairs;  // sparse: spec.pairs sorted, for measures()

  /// True when the plan measures cpus[i] -> cpus[j] (indexes into spec.cpus).
  [[nodiscard]] bool measures(std::size_t i, std::size_t j) const;
};

/// Bytes the analysis keeps per measured round (sizeof(Round), analysis/core/run.hpp).
inline constexpr std::uint64_t kRoundBytes = 40;
/// Bytes of raw buffer per round per pair during a visit: four 8-byte time stamps.
inline constexpr std::uint64_t kRawBytesPerRound = 32;
/// Bytes per N×N cell of the matrix's cells besides the measured ones: PairCells' index.
inline constexpr std::uint64_t kCellIndexBytes = sizeof(std::uint32_t);
/// Bytes per N×N cell of the per-CPU solution besides the cell itself: seven doubles (the
/// bounds' shortest paths, the least-squares normal matrix and its factor, the residuals,
/// the antisymmetry, the role-averaged offsets, one output grid at a time).
inline constexpr std::uint64_t kSolverBytesPerCell = 56;
/// The most pair visits a plan holds: the slot list takes about 50 bytes per visit, and at
/// 20 million visits the fixed cost per visit alone is days.
inline constexpr std::uint64_t kMaxPairVisits = 20'000'000;

/// How many slots an all-pairs plan of `cpu_count` CPUs and `visits` sweeps has.
/// \pre cpu_count >= 2
std::uint64_t plan_slot_count(std::size_t cpu_count, std::uint64_t visits, bool parallel);

/// How many slots the plan of `spec` has (its rounds do not matter; a sparse plan is
/// coloured to count them). \throws as make_plan for a bad CPU list, pair list or visits.
std::uint64_t plan_slot_count(const PlanSpec& spec);

/// The time estimate of `slots` slots of `rounds_and_warmup` rounds each (see MatrixPlan).
double estimate_plan_seconds(std::uint64_t slots, std::uint64_t rounds_and_warmup, const PlanCosts& costs);

/// Builds the plan (see the schedule at the top of this file).
/// \throws UsageError for fewer than 2 CPUs or more than kMaxMatrixCpus (core/cpu_list.hpp),
///         a CPU listed twice, 0 visits, 0 rounds per visit, or a plan beyond kMaxPairVisits
///         or 64-bit round counts.
/// \throws std::invalid_argument for a sparse plan with no pairs, a pair out of range, not
///         ordered (first < second) or listed twice.
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

/// The same for a plan of `slots` slots (any design). \throws UsageError for 0 slots or a
/// budget that is not a positive finite number of seconds.
std::uint64_t rounds_for_slots_budget(std::uint64_t slots, double budget_seconds, const PlanCosts& costs,
                                      std::uint64_t warmup, std::uint64_t min_rounds);

/// Default measured rounds per visit of an all-pairs plan:
///   per_pair = min(1'000'000, max(2000, 40'000'000 / ordered_pairs))   (integer division)
///   result   = per_pair / visits, rounded to nearest, at least 1.
/// 40 M rounds kept × 40 B = 1.6 GB: up to 20'000 ordered pairs (141 CPUs) the run keeps at
/// most that. Above, the floor of 2000 rounds per ordered pair wins (fewer leave the
/// envelopes of a pair too few chances at its minimum latency), so memory grows with
/// n(n-1): 256 CPUs keep 65'280 × 2000 × 40 B = 5.2 GB. Below 7 CPUs the cap of 1 M rounds
/// per ordered pair wins.
/// \throws UsageError for fewer than 2 CPUs or 0 visits.
std::uint64_t default_rounds_per_visit(std::size_t cpu_count, std::uint64_t visits);

/// The same rule for any number of measured ordered pairs (a sparse plan's):
/// min(kMaxRoundsPerPair, max(kMinRoundsPerPair, kDefaultPlanRounds / ordered_pairs)) / visits,
/// rounded to nearest, at least 1. \throws UsageError for 0 ordered pairs or 0 visits.
std::uint64_t default_rounds_per_visit_for_pairs(std::uint64_t ordered_pairs, std::uint64_t visits);

/// The default rule's constants: the fewest rounds an ordered pair gets over its visits
/// (fewer leave the envelopes too few chances at the pair's minimum latency), the most it
/// gets, and the measured rounds a default plan aims at in all.
inline constexpr std::uint64_t kMinRoundsPerPair = 2000;
inline constexpr std::uint64_t kMaxRoundsPerPair = 1'000'000;
inline constexpr std::uint64_t kDefaultPlanRounds = 40'000'000;

}  // namespace tscaudit
