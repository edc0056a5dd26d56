// The gnuplot-ready text of one N x N matrix of the all-pairs run (the input of the
// plots/heatmap_*.gp scripts). Layout, gnuplot's `matrix rowheaders columnheaders`:
//   # title: TSC offset θ = TSC_b − TSC_a (ticks)
//   # units: ticks
//   # rows: initiator a (CPU number); columns: responder b (CPU number)
//   # cells: row-major values; NaN = not measured (the diagonal)
//   # boundaries: 2            <- positions (0-based, in row order) where a group starts
//   # package_starts: 0 2      <- where each package begins (position, the first 0) ...
//   # package_ids: 0 1         <- ... and its hwloc logical index, one per start
//   # l3_starts: 0 1 2 3       <- the same for the L3 domains
//   # l3_ids: 0 1 2 3
//   cpu 0 1 2 3               <- header: corner word "cpu", then one label per column
//   0 NaN 5 -3 7              <- one row per initiator: its label, then N values
//   ...
// The "# key: value" lines come first, in this order, always all nine (a key with nothing
// after it when there is no boundary, or when the machine does not say where its packages
// or L3 domains are). A signed offset heatmap's file adds two after them:
//   # colour_limit: 920        <- its colours end at -920 and +920 (cells beyond in the end colours)
//   # note: white: the pair's hard band contains 0; ...   <- one line under the title "# boundaries:" is the one level
//   of lines drawn before the group
// lines existed (the L3 starts when there are several, else the package starts, without 0);
// the heatmap scripts draw the package and L3 lines from the group lines when they are
// there. For a sparse design the cells line names the pairs it leaves out as well:
//   # cells: row-major values; NaN = not measured (the diagonal, and the 56480 ordered
//   pairs the sparse design leaves out)     <- one line in the file
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "core/cpu_place.hpp"

namespace tscaudit {

/// The runs of one topology level (packages or L3 domains) along the matrix order.
struct MatrixGroups {
  std::vector<std::size_t> starts;  // index where each run begins: the first is 0, increasing
  std::vector<int> ids;             // the level's hwloc logical index of each run; −1 unknown
};

/// One N×N matrix of the all-pairs run, ready for gnuplot. Row = initiator a, column =
/// responder b.
struct MatrixGrid {
  std::string name;                     // file stem, e.g. "offset_ticks"
  std::string title;                    // e.g. "TSC offset θ = TSC_b − TSC_a (ticks)"
  std::string units;                    // "ticks", "ns", "count", "ppb"
  std::vector<std::string> labels;      // one per CPU, in topology order: the CPU number ("12")
  std::vector<std::size_t> boundaries;  // indexes where a new topology group starts, excluding 0
  std::vector<double> values;           // row-major N×N; NaN = not measured (the diagonal)
  /// Ordered pairs a sparse design leaves out (NaN as well; MatrixResult::planned); 0: the
  /// plan measures every ordered pair.
  std::size_t left_out = 0;
  /// Where each package and each L3 domain begins; empty where the machine does not say.
  MatrixGroups packages{};
  MatrixGroups l3{};
  /// A signed heatmap's colours end at ±colour_limit; NaN: its script scales them to the
  /// values (no "# colour_limit:" line).
  double colour_limit = std::numeric_limits<double>::quiet_NaN();
  /// What the colours mean, a line under the title ("" : no "# note:" line).
  std::string note{};
};

/// The runs of `level` (&CpuPlace::package, &CpuPlace::l3, ...) along `places`, in the
/// matrix order: a new run wherever the level's index changes. Empty where no CPU knows the
/// level (every index −1), as a plain directory of run files without topology.
MatrixGroups matrix_groups(const std::vector<CpuPlace>& places, int CpuPlace::*level);

/// The file text (layout above). Values round-trip exactly: integers (|v| < 2^53) print
/// as integers ("-3"), others in the shortest form that reads back the same ("0.1",
/// "1e+300"); NaN prints "NaN". Locale-independent.
/// \throws std::invalid_argument when there is no label, values.size() != N², a label is
/// empty or holds white space, the title or units hold a line break, a boundary is not
/// in (0, N) or the boundaries are not strictly increasing, the note holds a line break, the
/// colour limit is not NaN and not a positive finite number, left_out > N(N−1), the group starts
/// do not begin at 0 or do not increase inside [0, N), or a group has not one id per start;
/// also on ±infinity, which gnuplot cannot draw (the caller decides what an unbounded cell
/// means).
std::string format_gnuplot_matrix(const MatrixGrid& grid);

}  // namespace tscaudit
