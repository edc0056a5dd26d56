// The CPUs and pairs of a matrix a reader looks at first: the CPUs the diagnosis singles
// out and those farthest from the rest, the pairs with the largest offsets and the most
// causality violations. A short list for the top of the report, whatever the size of the
// machine. Pure.
#pragma once

#include <cstddef>
#include <vector>

#include "matrix/findings.hpp"
#include "matrix/matrix.hpp"

namespace tscaudit {

/// An ordered pair by its indexes into MatrixResult::cpus (a initiates, b responds).
struct CellIndex {
  std::size_t a = 0, b = 0;
  friend constexpr bool operator==(const CellIndex&, const CellIndex&) = default;
};

struct MatrixWorst {
  /// What a CPU's distance is measured from: the median per-CPU offset
  /// (CpuOffsets::offset_ticks) of the reference group (the diagnosis' offset group 0)
  /// where a diagnosis is given and one CPU of that group has a finite offset, else of all
  /// CPUs. The lower median of an even count (always one CPU's offset: two halves apart
  /// leave the lower half at distance 0, not both at half the gap). NaN when none is
  /// finite. The per-CPU offsets are relative to the first CPU, which may itself be the
  /// one off: the distance from the median names the CPUs off from most of the others
  /// whichever CPU is the reference.
  double reference_offset_ticks = kNoValue;
  /// The reference is the median of the diagnosis' offset group 0, of this many CPUs (0:
  /// of all CPUs with a finite offset).
  std::size_t reference_group_cpus = 0;
  /// Indexes into cpus, at most `count`: first the CPUs of the diagnosis' findings, taken
  /// in turn from each finding in its order (each finding's CPUs in matrix order: one
  /// group, one difference), so that a large group does not crowd out a small one; then
  /// the other CPUs with the largest |offset − reference|, largest first, ties in matrix
  /// order. A CPU of no finding with no finite offset is left out.
  std::vector<std::size_t> cpus;
  /// One per entry of `cpus`: the index into Diagnosis::findings of the first finding
  /// holding that CPU, −1 for none.
  std::vector<int> cpu_findings;
  /// The measured pairs with the largest |offset_ticks|, largest first, ties in matrix
  /// order; pairs with no finite offset are left out.
  std::vector<CellIndex> offset_pairs;
  /// The measured pairs with causality violations, the most first, ties in matrix order.
  std::vector<CellIndex> violation_pairs;
};

/// At most `count` of each list. `diagnosis` (may be null): the structure the CPU list
/// follows (matrix/findings.hpp); without it the CPUs are ranked by their distance from
/// the median of all.
MatrixWorst worst_of(const MatrixResult& m, std::size_t count, const Diagnosis* diagnosis = nullptr);

/// The lower median of the finite values (the smaller middle value of an even count); NaN
/// when none is finite.
double lower_median(std::vector<double> values);

}  // namespace tscaudit
