#include "matrix/quick_design.hpp"

#include <algorithm>
#include <stdexcept>

#include "matrix/sparse_design.hpp"

namespace tscaudit {

std::vector<IndexPair> quick_design(const OrderedCpus& order) {
  const std::size_t n = order.cpus.size();
  if (n < 2) throw std::invalid_argument("quick_design: needs at least 2 CPUs");
  std::vector<std::size_t> starts = local_group_starts(order, kQuickGroupCpus);
  std::vector<IndexPair> pairs;
  const auto add = [&](std::size_t i, std::size_t j) {
    if (i == j) return;
    pairs.emplace_back(static_cast<std::uint32_t>(std::min(i, j)), static_cast<std::uint32_t>(std::max(i, j)));
  };
  const std::size_t groups = starts.size();
  const auto end_of = [&](std::size_t g) { return g + 1 < groups ? starts[g + 1] : n; };
  for (std::size_t g = 0; g < groups; ++g) {
    for (std::size_t i = starts[g] + 1; i < end_of(g); ++i) add(starts[g], i);  // the group's star
    for (std::size_t i = starts[g] + 2; i < end_of(g); ++i) add(i - 1, i);      // and its chain
    if (g > 0) add(starts[0], starts[g]);                                       // the hubs' star
  }
  if (groups >= 2) {
    for (std::size_t g = 0; g < groups; ++g) {
      const std::size_t next = (g + 1) % groups;
      const std::size_t next_size = end_of(next) - starts[next];
      for (std::size_t i = starts[g] + 1; i < end_of(g); ++i) {
        const std::size_t rank = i - starts[g];
        if (rank < next_size) add(i, starts[next] + rank);
      }
    }
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

double quick_default_budget_seconds(std::size_t cpus, std::uint64_t slots) {
  if (cpus <= kQuickGroupCpus) return kQuickDefaultBudgetSeconds;
  return std::max(kQuickDefaultBudgetSeconds, static_cast<double>(slots) * kQuickSecondsPerSlot);
}

}  // namespace tscaudit
