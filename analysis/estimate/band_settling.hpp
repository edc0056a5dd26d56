// When a pair's band has settled: the quick check's stopping rule (docs/machine.md §10.7),
// judged after every block of rounds while the pair is measured. Pure.
#pragma once

#include <cstdint>

namespace tscaudit {

/// Rounds in one block: the band is judged after each.
inline constexpr std::uint64_t kQuickBlockRounds = 256;

/// When a pair's band has settled: after at least `min_blocks` blocks, `patience` blocks in a
/// row that narrowed the drift-free band [max L, min U] by less than max(1 tick,
/// `narrow_fraction` of its width). Fed once per block with the band's width (ticks; +inf
/// while one side has no bound).
class BandSettling {
 public:
  BandSettling(std::uint64_t min_blocks = 4, std::uint64_t patience = 2, double narrow_fraction = 0.01)
      : min_blocks_(min_blocks), patience_(patience), narrow_fraction_(narrow_fraction) {}

  /// Takes the width after one more block. \returns true once settled (and from then on).
  bool add_block(double width_ticks);
  [[nodiscard]] bool settled() const { return settled_; }
  [[nodiscard]] std::uint64_t blocks() const { return blocks_; }

 private:
  std::uint64_t min_blocks_;
  std::uint64_t patience_;
  double narrow_fraction_;
  std::uint64_t blocks_ = 0;
  std::uint64_t still_ = 0;  // blocks in a row that did not narrow the band
  double last_width_ = 0;
  bool settled_ = false;
};

}  // namespace tscaudit
