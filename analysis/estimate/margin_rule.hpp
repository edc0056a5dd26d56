// Whether a move of the offset estimate is what an offset change would look like
// (docs/method.md §6.3, §6.4, §9.4). A step of the offset moves the forward and the reverse
// delay floors together, so the margin (half their gap: about the minimum one-way latency)
// stays where it was. A change of the delays (a vCPU placed elsewhere, a busier link), or
// early reads on one side only, move the margin with the estimate. On the development
// machines shifts of tens of ticks in the delays came with margins moving by as much.
#pragma once

#include <algorithm>
#include <cmath>

namespace tscaudit {

/// The margin may move by the larger of these (quanta; share of the move's size).
inline constexpr double kMarginMoveQuanta = 2;
inline constexpr double kMarginMoveShare = 0.25;

/// The margin moved by at most max(2 q, |size| / 4) across a move of the estimate by
/// `size_ticks`: the floors moved together. \pre quantum_ticks >= 1.
inline bool margin_kept(double margin_change_ticks, double size_ticks, double quantum_ticks) {
  return std::fabs(margin_change_ticks) <=
         std::max(kMarginMoveQuanta * quantum_ticks, kMarginMoveShare * std::fabs(size_ticks));
}

}  // namespace tscaudit
