// What is wrong with a whole machine, as its structure (docs/machine.md §10.6): the groups of
// CPUs whose counters agree, and for each group that differs from the largest one, its
// difference as a hard band, named by the topology where a unit of it matches. Offsets,
// drifts and steps alike. Pure: decided over a MatrixResult's pair bands.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "matrix/matrix.hpp"

namespace tscaudit {

enum class FindingKind {
  offset,  // the group's counters are ahead of (or behind) the reference group's
  drift,   // the group's counters run at another rate
  step,    // the CPU's counter jumped during the run
};

/// "offset", "drift", "step" (JSON's `kind`, the metrics' label).
std::string_view finding_kind_name(FindingKind kind);

/// The unit of a finding's band: "ticks" (offset, step) or "ppb" (drift).
std::string_view finding_unit(FindingKind kind);

/// One proven difference.
struct Finding {
  FindingKind kind = FindingKind::offset;
  std::vector<int> cpus;     // the group that differs, CPU numbers increasing
  std::vector<int> against;  // the group it is compared with, CPU numbers increasing
  /// The hard band of (cpus − against): ticks for offset and step, ppb for drift. Both
  /// finite, lo <= hi, and the band misses [−tolerance, +tolerance] (never a finding
  /// without proof).
  double lo = 0;
  double hi = 0;
  /// The least-squares estimate of the difference (mean over the group of the per-CPU
  /// estimates, minus the reference's), in the band's unit.
  double estimate = 0;
  /// The topology's word for `cpus` where a unit matches exactly ("package 1", "die 2",
  /// "L3 3", "core 12"); "" where none does (then CPU lists are the name).
  std::string name;
  std::string against_name;  // the same for `against`
  /// The measured ordered pairs the band rests on (a step: those that show the jump).
  std::size_t pairs = 0;
  /// step: the first round after the largest jump among its pairs.
  std::uint64_t step_round = 0;
  /// `against` is every other CPU of the matrix ("the rest").
  bool against_rest = false;
  /// The two groups' sizes with the CPUs of their topology units that other findings left
  /// out: what decides the reference, and which side a finding singles out.
  std::size_t group_size = 0;
  std::size_t against_size = 0;
};

/// The whole machine's structure.
struct Diagnosis {
  /// Most important first: larger groups first, then offset, step, drift, then the
  /// larger |estimate|.
  std::vector<Finding> findings;
  /// Per CPU, in matrix order: the offset group it belongs to, 0 the reference (the
  /// largest group; on a tie the one holding the first CPU of the matrix); groups are
  /// numbered by their place in the estimates' order. -1 for a CPU left out of the offset
  /// structure: one that drifts or steps (its offset is not one number), or one no
  /// feasible band links to the others.
  std::vector<int> offset_group;
  /// The offset groups' count, the reference included (0 when the matrix is empty).
  int offset_groups = 0;
  /// CPUs the findings single out, in matrix order: those of every offset and drift
  /// finding (its group is never the reference; of two packages apart, the one without the
  /// matrix's first CPU), and of every step a CPU explains. A step of one pair that no CPU
  /// explains names neither of its CPUs.
  std::vector<int> cpus_off;
};

/// The tolerances a finding must beat (CheckSettings' own).
struct DiagnosisSettings {
  double tolerance_ticks = 0;
  double drift_tolerance_ppb = 0;
};

/// Finds the structure. Groups rest on the pairs' hard bands only: two CPUs whose direct
/// band misses the tolerance are never in one group, and a group is reported only where
/// the band of its difference misses the tolerance. The least-squares estimates only
/// order the CPUs and place the cuts between groups.
Diagnosis diagnose(const MatrixResult& m, const DiagnosisSettings& settings);

/// The topology's word for a set of two or more CPUs of `m` (CPU numbers): "package 1",
/// "die 2", "L3 3", "core 12" where the set is the CPUs of `m` in that unit (the largest
/// such unit), but for CPUs `left_out` (of another finding: a package one of whose CPUs
/// drifts is still named); "" where none matches, the topology is unknown, or for one CPU
/// (named by its number).
std::string topology_name(const MatrixResult& m, const std::vector<int>& cpus, const std::vector<int>& left_out = {});

}  // namespace tscaudit
