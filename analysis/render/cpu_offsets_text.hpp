// The gnuplot-ready text of the per-CPU offsets of a matrix (MatrixResult::cpu, docs/machine.md
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
// The "# key: value" lines come first, in this order, always all eight. Where the offset
// groups are known (matrix/findings.hpp: CPUs whose counters agree), each row ends with its
// CPU's group (0 the reference, -1 left out: it drifts, steps or no band links it), the
// columns line names it, and lines after the eight name the groups for the legend:
//   # columns: position cpu estimate lo hi group
//   # groups: 2                   <- how many groups (the reference among them)
//   # group_0: reference: package 0 (16 CPUs)
//   # group_1: package 1 (16 CPUs), +600 ticks    <- its median estimate from the reference's
//   # left_out: left out (drifts, steps or unlinked): CPU 5
//   # y_range: -56 712             <- (only when a CPU left out lies beyond) the range of the
//                                  <-   grouped CPUs' estimates and bounds and 0, padded
//   0 0 0 0 0 0
#pragma once

#include <string>
#include <vector>

#include "matrix/findings.hpp"
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
  /// The offset group of each CPU (Diagnosis::offset_group: 0 the reference group, −1
  /// left out); empty: the groups are not known, no group column.
  std::vector<int> groups{};
  /// The legend of each group, group k's at k; and of the CPUs left out ("" when none).
  std::vector<std::string> group_names{};
  std::string left_out_name{};
  /// The y range to draw (NaN each: the script's own, over every value): set when a CPU
  /// left out of the groups lies beyond the grouped CPUs' range, so that one CPU that
  /// drifts does not squeeze the groups into a line.
  double y_lo = kNoValue;
  double y_hi = kNoValue;
};

/// The table of `m`'s per-CPU offsets (m.cpu), relative to m.cpus[0], with its package
/// and L3 groups, and with `diagnosis` (may be null; used when it has one group per CPU)
/// its offset groups: each named by the topology where a unit matches, else by its CPU
/// list when short, else by its count; the others by their median estimate's distance
/// from the reference group's (lower medians). \pre m has at least one CPU and its
/// offsets are solved.
CpuOffsetsTable cpu_offsets_table(const MatrixResult& m, const Diagnosis* diagnosis = nullptr);

/// The file text (layout above). Values round-trip exactly: integers (|v| < 2^53) print as
/// integers, others in the shortest form that reads back the same; NaN prints "NaN".
/// Locale-independent.
/// \throws std::invalid_argument when there is no CPU, the three value lists do not have
/// one value per CPU, the title, units or a group's legend hold a line break, the groups
/// are not one per CPU (when given) or lack a legend, a value is ±infinity, or the
/// groups are not as format_gnuplot_matrix requires (starts from 0, increasing inside
/// [0, N), one id per start).
std::string format_cpu_offsets(const CpuOffsetsTable& table);

}  // namespace tscaudit
