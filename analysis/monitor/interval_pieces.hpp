// The pieces of a monitor run at the chosen k (estimate/offset_segments.hpp): the
// stretches over which one line fits, the changes between them, the bounds set aside,
// each interval's picture against its piece, and the shifts of the estimates within a
// piece. Steps of analyze_interval_log (interval_analysis.hpp), each filling its part
// of the MonitorAnalysis.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "estimate/offset_segments.hpp"
#include "monitor/interval_analysis.hpp"

namespace tscaudit {

/// The position of the interval whose [start, end) holds `tick` (the nearest one outside).
/// \pre intervals is not empty, in time order.
std::size_t interval_at(const std::vector<IntervalSummary>& intervals, std::uint64_t tick);

/// m.pieces_resolved and m.pieces; with one piece, m's fit becomes the piece's.
/// \pre m's t_ref_tick, free_fit, fit and zero_drift are final.
void add_pieces(const OffsetSegmentation& seg, const std::vector<IntervalSummary>& iv, MonitorAnalysis& m);

/// m.steps: the changes between the pieces, located to their windows.
void add_steps(const OffsetSegmentation& seg, const std::vector<IntervalSummary>& iv, MonitorAnalysis& m);

/// m.transients; returns, per position in the log, whether one of its bounds is in one.
std::vector<bool> add_transients(const OffsetSegmentation& seg, const std::vector<IntervalSummary>& iv,
                                 MonitorAnalysis& m);

/// m.bands at the chosen k (ki, index into kIntervalKs), the proven early reads and the
/// runs of intervals that contradict the whole-run line. \pre add_pieces ran.
void add_bands(const OffsetSegmentation& seg, std::size_t ki, const std::vector<bool>& aside,
               const std::vector<IntervalSummary>& iv, MonitorAnalysis& m);

/// m.moves: level shifts of the intervals' estimates within each piece. \pre add_bands ran.
void add_moves(const std::vector<IntervalSummary>& iv, MonitorAnalysis& m);

}  // namespace tscaudit
