// The gnuplot-ready text of one N x N matrix of the all-pairs run (the input of the
// plots/heatmap_*.gp scripts). Layout, gnuplot's `matrix rowheaders columnheaders`:
//   # title: TSC offset θ = TSC_b − TSC_a (ticks)
//   # units: ticks
//   # rows: initiator a (CPU number); columns: responder b (CPU number)
//   # cells: row-major values; NaN = not measured (the diagonal)
//   # boundaries: 2            <- positions (0-based, in row order) where a group starts
//   cpu 0 1 2 3               <- header: corner word "cpu", then one label per column
//   0 NaN 5 -3 7              <- one row per initiator: its label, then N values
//   ...
// The "# key: value" lines come first, in this order, always all five ("# boundaries:"
// with nothing after it when there is no boundary). For a sparse design the cells line
// names the pairs it leaves out as well:
//   # cells: row-major values; NaN = not measured (the diagonal, and the 56480 ordered
//   pairs the sparse design leaves out)     <- one line in the file
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace tscsync {

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
};

/// The file text (layout above). Values round-trip exactly: integers (|v| < 2^53) print
/// as integers ("-3"), others in the shortest form that reads back the same ("0.1",
/// "1e+300"); NaN prints "NaN". Locale-independent.
/// \throws std::invalid_argument when there is no label, values.size() != N², a label is
/// empty or holds white space, the title or units hold a line break, a boundary is not
/// in (0, N) or the boundaries are not strictly increasing, left_out > N(N−1); also on ±infinity, which
/// gnuplot cannot draw (the caller decides what an unbounded cell means).
std::string format_gnuplot_matrix(const MatrixGrid& grid);

}  // namespace tscsync
