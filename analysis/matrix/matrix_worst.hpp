// The CPUs and pairs of a matrix a reader looks at first: the CPUs farthest from the rest
// and the pairs with the largest offsets and the most causality violations. A short list
// for the top of the report, whatever the size of the machine. Pure.
#pragma once

#include <cstddef>
#include <vector>

#include "matrix/matrix.hpp"

namespace tscaudit {

/// An ordered pair by its indexes into MatrixResult::cpus (a initiates, b responds).
struct CellIndex {
  std::size_t a = 0, b = 0;
  friend constexpr bool operator==(const CellIndex&, const CellIndex&) = default;
};

struct MatrixWorst {
  /// The median of the finite per-CPU offsets (CpuOffsets::offset_ticks, the upper median
  /// of an even count); NaN when none is finite. The per-CPU offsets are relative to the
  /// first CPU, which may itself be the one off: the distance from the median names the
  /// CPUs off from most of the others whichever CPU is the reference.
  double median_cpu_offset_ticks = kNoValue;
  /// Indexes into cpus of the CPUs with the largest |offset − median|, largest first, ties
  /// in matrix order; CPUs with no finite offset are left out.
  std::vector<std::size_t> cpus;
  /// The measured pairs with the largest |offset_ticks|, largest first, ties in matrix
  /// order; pairs with no finite offset are left out.
  std::vector<CellIndex> offset_pairs;
  /// The measured pairs with causality violations, the most first, ties in matrix order.
  std::vector<CellIndex> violation_pairs;
};

/// At most `count` of each list.
MatrixWorst worst_of(const MatrixResult& m, std::size_t count);

}  // namespace tscaudit
