#include "estimate/k_sweep.hpp"

#include <algorithm>
#include <cmath>

namespace tscaudit {

SweepChoice choose_sweep_step(std::span<const SweepFit> steps, std::int64_t quantum_ticks) {
  const double q = static_cast<double>(quantum_ticks);
  const double offset_tolerance = std::max(q / 2, 1.0);
  auto margin_tolerance = [&](double margin) { return std::max({q / 2, 2.0, 0.1 * std::fabs(margin)}); };
  // Steps i and i + 1 agree (true for the last step: nothing after it disagrees).
  auto settled = [&](std::size_t i) {
    if (i + 1 >= steps.size()) return true;
    const SweepFit& here = steps[i];
    const SweepFit& next = steps[i + 1];
    if (!next.feasible) return false;
    return std::fabs(here.offset_ticks - next.offset_ticks) <= offset_tolerance &&
           next.margin_ticks - here.margin_ticks <= margin_tolerance(here.margin_ticks);
  };
  SweepChoice choice;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (steps[i].feasible && settled(i) && settled(i + 1)) {
      choice.stable = i;
      break;
    }
  }
  if (choice.stable && *choice.stable + 1 == steps.size() && *choice.stable > 0 && !settled(*choice.stable - 1)) {
    choice.shown = false;
  }
  for (std::size_t i = steps.size(); i-- > 0;) {
    if (steps[i].feasible) {
      choice.largest_feasible = i;
      break;
    }
  }
  return choice;
}

std::optional<std::size_t> choose_pieces_step(std::span<const SweepPieces> steps) {
  std::optional<std::size_t> chosen;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (!steps[i].resolved) continue;
    bool same = true;
    for (std::size_t j = i + 1; j < steps.size(); ++j) {
      same = same && (!steps[j].resolved || steps[j].pieces == steps[i].pieces);
    }
    if (same && (!chosen || steps[i].set_aside < steps[*chosen].set_aside)) chosen = i;
  }
  return chosen;
}

}  // namespace tscaudit
