#include "estimate/quantum.hpp"

#include <algorithm>
#include <map>
#include <vector>

namespace tscsync {
namespace {

std::vector<std::uint64_t> divisors_desc(std::uint64_t n) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t d = 1; d * d <= n; ++d) {
    if (n % d == 0) {
      out.push_back(d);
      if (d != n / d) out.push_back(n / d);
    }
  }
  std::sort(out.rbegin(), out.rend());
  return out;
}

}  // namespace

QuantumEstimate estimate_quantum(std::span<const std::uint64_t> reads) {
  QuantumEstimate est;
  std::map<std::uint64_t, std::uint64_t> histogram;  // delta -> count, non-zero deltas
  std::uint64_t zeros = 0;
  std::uint64_t all = 0;
  for (std::size_t i = 1; i < reads.size(); ++i) {
    if (reads[i] < reads[i - 1]) continue;
    const std::uint64_t d = reads[i] - reads[i - 1];
    ++all;
    if (d == 0) {
      ++zeros;
    } else {
      ++histogram[d];
    }
  }
  if (all == 0) return est;
  est.zero_fraction = static_cast<double>(zeros) / static_cast<double>(all);
  est.deltas = all - zeros;
  if (histogram.empty()) return est;

  est.modal_delta = std::max_element(histogram.begin(), histogram.end(), [](const auto& x, const auto& y) {
                      return x.second < y.second;
                    })->first;
  const auto needed = static_cast<double>(est.deltas) * kQuantumExplainedFraction;
  auto explained = [&](std::uint64_t g, bool plus_one) {
    std::uint64_t n = 0;
    for (const auto& [d, count] : histogram) {
      const std::uint64_t r = d % g;
      if (r == 0 || (plus_one && (r == g - 1 || d < g))) n += count;
    }
    return static_cast<double>(n) >= needed;
  };

  for (std::uint64_t g : divisors_desc(est.modal_delta)) {
    if (explained(g, false)) {
      est.quantum_ticks = g;
      break;
    }
  }
  if (est.quantum_ticks > 1) return est;

  // The +1 pattern: the modal delta is a multiple of the step, or one less than one.
  std::vector<std::uint64_t> candidates = divisors_desc(est.modal_delta);
  const std::vector<std::uint64_t> more = divisors_desc(est.modal_delta + 1);
  candidates.insert(candidates.end(), more.begin(), more.end());
  std::sort(candidates.rbegin(), candidates.rend());
  for (std::uint64_t g : candidates) {
    if (g < 3) break;
    if (explained(g, true)) {
      est.quantum_ticks = g;
      est.plus_one_reads = true;
      break;
    }
  }
  return est;
}

}  // namespace tscsync
