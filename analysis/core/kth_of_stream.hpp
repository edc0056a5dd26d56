// The k-th value of a stream without keeping the stream: batch selection.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace tscaudit {

/// The k-th value under `Before` of the values offered: the k-th smallest with
/// std::less<>, the k-th largest with std::greater<>. Values that come before the current
/// threshold are appended; when 2k are held, the k first are kept (nth_element) and the
/// threshold becomes the k-th of them. A value that does not come before the threshold
/// cannot be among the k first of everything, so most values cost one comparison, and
/// the selections cost O(1) per value kept, amortized. At most 2k values are held.
template <class Before>
class KthOfStream {
 public:
  /// Starts over, for the k-th value (k >= 1).
  void reset(std::size_t k) {
    k_ = k;
    held_.clear();
    has_threshold_ = false;
  }

  void offer(double value) {
    if (has_threshold_ && !before_(value, threshold_)) return;
    held_.push_back(value);
    if (held_.size() == 2 * k_) shrink();
  }

  /// Whether a value offered now would be taken: only if it comes before the threshold
  /// (once there is one). The threshold only moves forward (to values that come before
  /// it), so a value not taken now would not be taken later.
  [[nodiscard]] bool has_threshold() const { return has_threshold_; }
  [[nodiscard]] double threshold() const { return threshold_; }

  /// The k-th value offered so far. \pre at least k values were offered since reset.
  [[nodiscard]] double kth() {
    const auto kth = static_cast<std::ptrdiff_t>(k_ - 1);
    std::nth_element(held_.begin(), held_.begin() + kth, held_.end(), before_);
    return held_[k_ - 1];
  }

 private:
  void shrink() {
    threshold_ = kth();
    held_.resize(k_);
    has_threshold_ = true;
  }

  Before before_;
  std::size_t k_ = 1;
  std::vector<double> held_;
  double threshold_ = 0;  // the k-th of the values held at the last shrink
  bool has_threshold_ = false;
};

}  // namespace tscaudit
