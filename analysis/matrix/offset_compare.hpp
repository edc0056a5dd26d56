// Whether two runs of one machine differ: each CPU's offset band against the reference CPU
// in one run, against its band in the other (docs/commands.md, "compare"). A CPU changed
// only where its two hard bands are disjoint, and then by at least the gap between them; where
// they overlap nothing is proven either way ("~", as benchstat prints no change).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "matrix/matrix.hpp"

namespace tscaudit {

/// What a comparison needs of one run: each CPU's offset against the reference CPU, in
/// ticks, with hard bounds (matrix.hpp's CpuOffsets; ±infinity where a CPU is unbounded).
struct OffsetTable {
  int reference_cpu = -1;
  std::vector<int> cpus;
  std::vector<double> estimate, lo, hi;  // parallel to cpus; estimate NaN when unknown
  double tsc_hz = 0;                     // 0: unknown
  std::string answer;                    // the run's own answer, one line; "" when not recorded
};

/// The per-CPU table of a matrix (its first CPU the reference) and the check's answer.
OffsetTable offset_table_of(const MatrixResult& m, std::string answer);

/// The table in the JSON of `matrix --format json` (matrix.json of an --out directory) or
/// `check --format json`: their `cpu_offset_ticks`, `cpu_offset_reference` and `tsc_hz`, and
/// the check's `reason`. `what` names the file in messages.
/// \throws InputError naming `what` when the JSON holds no such table, or one that is not
///         well formed (a CPU twice, a band with lo > hi, a reference that is not among them).
OffsetTable offset_table_from_json(const nlohmann::ordered_json& j, const std::string& what);

/// How one CPU's offset compares between the two runs.
enum class OffsetChange {
  overlap,      // both bands hold a common offset: no change proven ("~")
  moved,        // the bands are disjoint: the offset changed by at least the gap
  unbounded,    // a band without a bound on a side that would matter: nothing proven ("~")
  only_first,   // the CPU is in the first run only
  only_second,  // the second only
};

/// The name JSON and the text give a change: "~", "moved", "unbounded", "only in first", ...
std::string_view offset_change_name(OffsetChange c);

struct CpuOffsetChange {
  int cpu = -1;
  OffsetChange change = OffsetChange::overlap;
  double first_estimate = 0, first_lo = 0, first_hi = 0;    // ticks against the reference
  double second_estimate = 0, second_lo = 0, second_hi = 0;
  /// moved: the change of the offset (second − first), ticks, at least and at most in size,
  /// signed as it moved (both > 0, or both < 0; |at_least| <= |at_most|).
  double moved_at_least = 0, moved_at_most = 0;
};

struct OffsetComparison {
  int reference_cpu = -1;
  /// The second run's table was referred to the first's reference CPU (its own was
  /// another): its bands widened by the reference's own band in it.
  bool rebased = false;
  std::vector<CpuOffsetChange> cpus;  // the first run's CPUs in its order, then the second's others
  std::size_t compared = 0;           // CPUs in both runs, the reference included
  std::size_t moved = 0;
  double tsc_hz = 0;  // the first run's, else the second's; 0: unknown
  [[nodiscard]] bool changed() const { return moved > 0; }
};

/// Compares `second` with `first`, CPU by CPU, against `first`'s reference CPU. When the
/// second run's reference is another CPU, its table is referred to the first's reference
/// (x_i − x_r, with the bound [lo_i − hi_r, hi_i − lo_r]) where it holds that CPU; where it
/// does not, no CPU can be compared (compared == 0).
OffsetComparison compare_offsets(const OffsetTable& first, const OffsetTable& second);

}  // namespace tscaudit
