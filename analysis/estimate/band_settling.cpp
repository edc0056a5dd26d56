#include "estimate/band_settling.hpp"

#include <algorithm>
#include <cmath>

namespace tscaudit {

bool BandSettling::add_block(double width_ticks) {
  ++blocks_;
  if (settled_) return true;
  if (blocks_ > 1 && std::isfinite(last_width_) && std::isfinite(width_ticks)) {
    const double narrowed = last_width_ - width_ticks;
    still_ = narrowed < std::max(1.0, narrow_fraction_ * last_width_) ? still_ + 1 : 0;
  } else {
    still_ = 0;
  }
  last_width_ = width_ticks;
  settled_ = blocks_ >= min_blocks_ && still_ >= patience_;
  return settled_;
}

}  // namespace tscaudit
