// The gnuplot-ready text of the per-CPU offsets of a matrix (MatrixResult::cpu, docs/method.md
// §10.2), the input of plots/cpu_offsets.gp. Layout:
//   # title: TSC offset per CPU against CPU 0, estimate and hard bounds (ticks)
//   # units: ticks
//   # reference: 0                <- the CPU number every offset is relative to (x = 0)
//   # columns: position cpu estimate lo hi
//   # package_starts: 0 2         <- as in the matrix files (matrix_text.hpp): positions
//   # package_ids: 0 1            <-   (0-based, in row order) where each package begins,
//   # l3_starts: 0 1 2 3          <-   and its hwloc logical index; the same for the L3
//   # l3_ids: 0 1 2 3             <-   domains; empty where the machine does not say
//   0 0 0 0 0                     <- one row per CPU in the matrix (topology) order:
//   1 1 -2 -5 1                   <-   position, CPU number, x_c − x_ref, its hard bounds
//   2 2 400 395 404
//   3 3 NaN NaN NaN               <- NaN: no chain of measured pairs reaches the CPU
// The "# key: value" lines come first, in this order, always all eight.
#pragma once

#include <string>
#include <vector>

#include "matrix/matrix.hpp"
#include "render/matrix_text.hpp"

namespace tscaudit {

/// The per-CPU offsets of one matrix, in its (topology) order.
struct CpuOffsetsTable {
  std::string title;
  std::string units;                 // "ticks"
  int reference_cpu = 0;             // the CPU number whose offset is 0 by definition
  std::vector<int> cpus;             // CPU numbers, in matrix order
  std::vector<double> offset_ticks;  // estimate, one per CPU; NaN unknown
  std::vector<double> lo_ticks;      // hard bounds, one per CPU; NaN where no chain bounds that side
  std::vector<double> hi_ticks;
  MatrixGroups packages{};
  MatrixGroups l3{};
};

/// The table of `m`'s per-CPU offsets (m.cpu), relative to m.cpus[0], with its package
/// and L3 groups. \pre m has at least one CPU and its offsets are solved.
CpuOffsetsTable cpu_offsets_table(const MatrixResult& m);

/// The file text (layout above). Values round-trip exactly: integers (|v| < 2^53) print as
/// integers, others in the shortest form that reads back the same; NaN prints "NaN".
/// Locale-independent.
/// \throws std::invalid_argument when there is no CPU, the three value lists do not have
/// one value per CPU, the title or units hold a line break, a value is ±infinity, or the
/// groups are not as format_gnuplot_matrix requires (starts from 0, increasing inside
/// [0, N), one id per start).
std::string format_cpu_offsets(const CpuOffsetsTable& table);

}  // namespace tscaudit
