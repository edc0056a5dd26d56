#include "matrix/sparse_design.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>

namespace tscaudit {
namespace {

/// [begin, end) of group g of `starts` over n CPUs.
std::pair<std::size_t, std::size_t> group_range(const std::vector<std::size_t>& starts, std::size_t g, std::size_t n) {
  return {starts[g], g + 1 < starts.size() ? starts[g + 1] : n};
}

/// Cuts [begin, end) into ceil(size / max_cpus) near-equal parts, each boundary moved
/// forward to the next core boundary where cores are known; appends the parts' starts.
void cut_group(const OrderedCpus& order, std::size_t begin, std::size_t end, std::size_t max_cpus,
               std::vector<std::size_t>& starts) {
  const std::size_t size = end - begin;
  const std::size_t parts = (size + max_cpus - 1) / max_cpus;
  starts.push_back(begin);
  for (std::size_t k = 1; k < parts; ++k) {
    std::size_t at = begin + (k * size + parts / 2) / parts;
    while (at < end && order.cpus[at].core >= 0 && order.cpus[at].core == order.cpus[at - 1].core) ++at;
    if (at < end && at > starts.back()) starts.push_back(at);
  }
}

}  // namespace

std::vector<std::size_t> local_group_starts(const OrderedCpus& order, std::size_t max_cpus) {
  if (max_cpus == 0) throw std::invalid_argument("local_group_starts: max_cpus must be at least 1");
  const std::size_t n = order.cpus.size();
  std::vector<std::size_t> coarse = !order.l3_starts.empty()        ? order.l3_starts
                                    : !order.package_starts.empty() ? order.package_starts
                                                                    : std::vector<std::size_t>{0};
  if (n == 0) return {};
  if (coarse.empty() || coarse.front() != 0) coarse.insert(coarse.begin(), 0);
  std::vector<std::size_t> starts;
  for (std::size_t g = 0; g < coarse.size(); ++g) {
    const auto [begin, end] = group_range(coarse, g, n);
    if (end > begin) cut_group(order, begin, end, max_cpus, starts);
  }
  return starts;
}

SparseDesign sparse_design(const OrderedCpus& order) {
  const std::size_t n = order.cpus.size();
  if (n < 2) throw std::invalid_argument("sparse_design: needs at least 2 CPUs");
  SparseDesign d;
  d.group_starts = local_group_starts(order);
  d.package_starts = order.package_starts.empty() ? std::vector<std::size_t>{0} : order.package_starts;
  std::vector<IndexPair>& pairs = d.pairs;
  const auto add = [&](std::size_t i, std::size_t j) {
    if (i == j) return;
    pairs.emplace_back(static_cast<std::uint32_t>(std::min(i, j)), static_cast<std::uint32_t>(std::max(i, j)));
  };

  // 1. Every pair inside each local group.
  const std::size_t groups = d.group_starts.size();
  for (std::size_t g = 0; g < groups; ++g) {
    const auto [begin, end] = group_range(d.group_starts, g, n);
    for (std::size_t i = begin; i < end; ++i) {
      for (std::size_t j = i + 1; j < end; ++j) add(i, j);
    }
  }

  // 2. Partners in other local groups, spread over the partner group.
  if (groups >= 2) {
    const std::size_t others = groups - 1;
    const bool every_group = others <= kSparseCrossGroups;
    const std::size_t per_group =
        every_group ? std::max<std::size_t>(2, (kSparseCrossPartners + others - 1) / others) : 2;
    for (std::size_t g = 0; g < groups; ++g) {
      const auto [begin, end] = group_range(d.group_starts, g, n);
      for (std::size_t i = begin; i < end; ++i) {
        const std::size_t rank = i - begin;
        const std::size_t reached = every_group ? others : kSparseCrossGroups;
        for (std::size_t u = 0; u < reached; ++u) {
          const std::size_t t = every_group ? 1 + u : 1 + (rank * kSparseCrossGroups + u) % others;
          const auto [h_begin, h_end] = group_range(d.group_starts, (g + t) % groups, n);
          const std::size_t s = h_end - h_begin;
          const std::size_t k = std::min(per_group, s);
          for (std::size_t j = 0; j < k; ++j) add(i, h_begin + (rank + t + j * s / k) % s);
        }
      }
    }
  }

  // 3. Partners in every other package: the same rank there, and half a package further.
  const std::size_t packages = d.package_starts.size();
  for (std::size_t p = 0; p < packages; ++p) {
    const auto [begin, end] = group_range(d.package_starts, p, n);
    for (std::size_t i = begin; i < end; ++i) {
      for (std::size_t q = 0; q < packages; ++q) {
        if (q == p) continue;
        const auto [q_begin, q_end] = group_range(d.package_starts, q, n);
        const std::size_t s = q_end - q_begin;
        if (s == 0) continue;
        const std::size_t k = std::min(kSparsePackagePartners, s);
        for (std::size_t j = 0; j < k; ++j) add(i, q_begin + (i - begin + j * s / k) % s);
      }
    }
  }

  // 4. Chords from a fixed seed (the raw generator's output: the same on every platform).
  std::mt19937_64 random(kSparseSeed);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t c = 0; c < kSparseChordsPerCpu; ++c) {
      std::size_t j = static_cast<std::size_t>(random() % n);
      if (j == i) j = (j + 1) % n;
      add(i, j);
    }
  }

  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return d;
}

}  // namespace tscaudit
