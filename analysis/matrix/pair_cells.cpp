#include "matrix/pair_cells.hpp"

#include <stdexcept>

namespace tscaudit {

PairCells::PairCells(const std::vector<PairCell>& dense) : index_(dense.size()), written_(dense.begin(), dense.end()) {
  if (dense.size() >= kUnwritten) throw std::length_error("PairCells: too many cells");
  for (std::size_t k = 0; k < dense.size(); ++k) index_[k] = static_cast<std::uint32_t>(k);
}

void PairCells::assign(std::size_t count, const PairCell& fill) {
  if (count >= kUnwritten) throw std::length_error("PairCells: too many cells");
  index_.assign(count, kUnwritten);
  written_.clear();
  fill_ = fill;
}

void PairCells::resize(std::size_t count) {
  if (count >= kUnwritten) throw std::length_error("PairCells: too many cells");
  if (count < index_.size()) {
    // Keep only the written cells that remain, renumbered in their order.
    std::deque<PairCell> kept;
    std::vector<std::uint32_t> renumbered(written_.size(), kUnwritten);
    for (std::size_t k = 0; k < count; ++k) {
      if (index_[k] != kUnwritten) renumbered[index_[k]] = 0;
    }
    for (std::size_t i = 0; i < written_.size(); ++i) {
      if (renumbered[i] == kUnwritten) continue;
      renumbered[i] = static_cast<std::uint32_t>(kept.size());
      kept.push_back(std::move(written_[i]));
    }
    index_.resize(count);
    for (std::uint32_t& i : index_) {
      if (i != kUnwritten) i = renumbered[i];
    }
    written_ = std::move(kept);
    return;
  }
  index_.resize(count, kUnwritten);
}

PairCell& PairCells::operator[](std::size_t k) {
  std::uint32_t& i = index_[k];
  if (i == kUnwritten) {
    i = static_cast<std::uint32_t>(written_.size());
    written_.push_back(fill_);
  }
  return written_[i];
}

}  // namespace tscaudit
