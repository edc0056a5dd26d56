// A simulated whole machine (`tscaudit simulate --topology`): every ordered pair of its CPUs
// is a one-pair simulation (simulate/simulate.hpp) whose offset, drift, delays, early reads
// and step follow from per-CPU truth and from where the two CPUs sit (docs/machine.md,
// "Simulated machines").
//
// The model (ticks; true time T as in the one-pair model):
//
//   CPU c       x_c(T) = cpu_offset_ticks[c] + package_offset_ticks[package of c]
//                        + cpu_drift_ppb[c] * 1e-9 * (T - start_tick)
//               (absent entries are 0). Its receive reads are early at early_reads[c].
//   Pair a->b   exactly simulate() of machine_pair_spec(): offset x_b - x_a at the pair's
//               T_ref (so the drift is referred to the machine's start_tick, and every
//               pair sees the same per-CPU lines), drift d_b - d_a, both one-way delays
//               from the distance of a and b (latency), spec_a = early_reads[a] (a's t4),
//               spec_b = early_reads[b] (b's t2), the step of the stepping CPU with the
//               sign it has in b's counter minus a's, and a seed derived from
//               (seed, a, b, visit) by splitmix64. Visit v starts at
//               start_tick + v * visit_spacing_ticks: every pair's visit v runs over the same
//               stretch of true time, as if all pairs were measured at once.
//   Distance    smt (same core) < l3 (same L3) < package (same package) < cross_package,
//               each with its own delay distribution (floor, spread, tail).
//
// To first order in the drifts: a pair's time axis is a's true ticks, as in the one-pair
// model, whatever a's own drift.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/cpu_place.hpp"
#include "core/run.hpp"
#include "simulate/simulate.hpp"

namespace tscaudit {

inline constexpr std::string_view kMachineTruthSchema = "tscaudit-machine-truth/1";

/// How far apart two CPUs sit, nearest first.
enum class CpuDistance { smt, l3, package, cross_package };

/// "smt", "l3", "package", "cross_package".
std::string_view distance_name(CpuDistance d);

/// The distance of two different CPUs: same core (both have one) -> smt; else same L3 ->
/// l3; else same package (or neither has a package) -> package; else cross_package.
CpuDistance cpu_distance(const CpuPlace& a, const CpuPlace& b);

/// One-way delay per distance, both directions alike. The defaults keep the one-pair
/// model's shape (floor + Exp(spread) + 1 % of delays with a Pareto(1.5, 500) tail) and
/// its default pair (floor 180, spread 15: 78 ns at 2.3 GHz) as the same-L3 pair, with
/// floors of 60 (SMT siblings), 300 (same package) and 500 ticks (another package), the
/// usual order of cache-line transfer times.
struct MachineLatency {
  DelaySpec smt{60, 5, 0.01, 500};
  DelaySpec l3{180, 15, 0.01, 500};
  DelaySpec package{300, 25, 0.01, 500};
  DelaySpec cross_package{500, 40, 0.01, 500};
  /// Added to the floor of every one-way delay from a CPU of a lower-numbered package to
  /// one of a higher-numbered package: paths slower one way than the other, which shift
  /// the pairs' estimates across packages by half of it while the counters agree.
  double cross_package_skew_ticks = 0;
  /// Every one-way delay of a pair's second role (the CPU later in topology order
  /// initiates) has its floor and spread multiplied by this (>= 1): the visits of one role
  /// in a host's slow regime, the other's in its fast one. 1: both roles alike.
  double second_role_slowdown = 1;

  [[nodiscard]] const DelaySpec& at(CpuDistance d) const;
};

/// A step of one CPU's counter, at a fraction of each run of its pairs.
struct MachineStep {
  int cpu = 0;
  double ticks = 0;          // the jump of x_cpu
  double at_fraction = 0.5;  // where in each of the CPU's runs, [0, 1]
};

struct MachineSpec {
  std::vector<CpuPlace> cpus;                          // the machine, in topology order; CPU numbers unique
  std::uint64_t seed = 1;                              // the machine's seed; each pair's is derived from it
  std::uint64_t rounds_per_pair = 2000;                // rounds of each pair's visit
  std::uint64_t visit_spacing_ticks = 10'000'000'000;  // start of visit v+1 minus visit v's
  /// The per-pair parameters the machine does not set: quantum, turnaround, gap,
  /// start_tick (visit 0's), tsc_hz, include_quantum_metadata. Its rounds, seed, offset,
  /// drift, delays, early reads and step are replaced per pair.
  SimulationSpec base;
  MachineLatency latency;
  std::map<int, double> cpu_offset_ticks;      // by CPU number
  std::map<int, double> package_offset_ticks;  // by package (CpuPlace::package)
  std::map<int, double> cpu_drift_ppb;         // by CPU number
  std::map<int, SpeculationSpec> early_reads;  // by CPU number: its receive reads (t2 as b, t4 as a)
  std::optional<MachineStep> step;
};

/// The seed of pair a->b's visit: splitmix64 over (seed, a, b, visit).
std::uint64_t machine_pair_seed(std::uint64_t machine_seed, int a, int b, std::uint64_t visit);

/// The truth of one pair's visit, without the per-round early flags.
struct MachinePairTruth {
  int a = 0, b = 0;
  std::uint64_t visit = 0;
  CpuDistance distance = CpuDistance::package;
  std::uint64_t seed = 0;
  SimulationTruth truth;  // early_t2 and early_t4 left empty (their counts stay)
};

struct MachinePairRun {
  Run run;  // header: a, b (CPU numbers), distance, visit, machine_seed besides simulate()'s
  MachinePairTruth truth;
};

/// A validated machine, ready to simulate any pair's visit in any order: each pair's run
/// depends on the spec and (a, b, visit) alone.
class SimulatedMachine {
 public:
  /// Checks what the one-pair spec cannot: at least two CPUs, unique CPU numbers, every
  /// CPU and package named in the maps present in `cpus`, finite values, the step on a
  /// CPU of the machine. Ranges of the per-pair values are checked by simulate() itself.
  /// \throws UsageError "simulate: FIELD: what is wrong".
  explicit SimulatedMachine(MachineSpec spec);

  [[nodiscard]] const MachineSpec& spec() const { return spec_; }

  /// Where `cpu` sits. \throws UsageError when the machine has no such CPU.
  [[nodiscard]] const CpuPlace& place(int cpu) const;

  /// x_c at start_tick (cpu_offset_ticks + package_offset_ticks), before any step.
  /// \throws UsageError when the machine has no such CPU.
  [[nodiscard]] double cpu_offset_ticks(int cpu) const;

  /// The one-pair spec of a->b's visit (see the model).
  /// \throws UsageError for a == b, a CPU not in the machine, a visit starting past 1e15.
  [[nodiscard]] SimulationSpec pair_spec(int a, int b, std::uint64_t visit) const;

  /// simulate(pair_spec(a, b, visit)), with the run's a and b set to the CPU numbers.
  /// \throws UsageError as pair_spec() and simulate().
  [[nodiscard]] MachinePairRun simulate_pair(int a, int b, std::uint64_t visit = 0) const;

  /// Every ordered pair (a != b) in topology order: row by row, a's then b's.
  [[nodiscard]] std::vector<std::pair<int, int>> ordered_pairs() const;

  /// {"schema": kMachineTruthSchema, "model": {...}, "cpus": [per CPU], "pairs": [`pairs`]}
  /// (docs/json.md, "Machine truth").
  [[nodiscard]] nlohmann::ordered_json truth_json(const std::vector<MachinePairTruth>& pairs) const;

 private:
  MachineSpec spec_;
  std::map<int, std::size_t> index_;  // CPU number -> index in spec_.cpus
};

/// truth.json's text: `truth` (truth_json()'s object) indented, except that each element of
/// its top-level arrays ("cpus", "pairs") is one line: a machine of 1024 CPUs has ~150,000
/// pair visits, and one indented field per line would more than double the file.
/// Ends with a newline.
std::string truth_json_text(const nlohmann::ordered_json& truth);

}  // namespace tscaudit
