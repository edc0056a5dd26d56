#include "estimate/quantum.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <vector>

namespace tscaudit {
namespace {

/// The divisors of n up to kMaxQuantumTicks, largest first. The cap bounds the work (a
/// delta near 2^64, from a table whose counter wrapped or ran backwards, would take 2^32
/// steps) and no counter steps by more: every divisor up to the cap is at most sqrt(n) or
/// the cofactor of one that is.
std::vector<std::uint64_t> divisors_desc(std::uint64_t n) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t d = 1; d <= kMaxQuantumTicks && d <= n / d; ++d) {
    if (n % d == 0) {
      out.push_back(d);
      if (d != n / d && n / d <= kMaxQuantumTicks) out.push_back(n / d);
    }
  }
  std::sort(out.rbegin(), out.rend());
  return out;
}

}  // namespace

QuantumEstimate estimate_quantum(std::span<const std::uint64_t> reads) {
  QuantumEstimate est;
  std::map<std::uint64_t, std::uint64_t> histogram;  // delta -> count, non-zero deltas
  // (delta + run of +1 deltas just before it) -> count, for deltas above 1: under the +1
  // pattern each such sum is a multiple of the step.
  std::map<std::uint64_t, std::uint64_t> step_sums;
  std::uint64_t ones = 0;  // deltas of exactly 1
  std::uint64_t run = 0;   // consecutive deltas of 1 just before the current one
  std::uint64_t zeros = 0;
  std::uint64_t all = 0;
  for (std::size_t i = 1; i < reads.size(); ++i) {
    if (reads[i] < reads[i - 1]) {
      run = 0;
      continue;
    }
    const std::uint64_t d = reads[i] - reads[i - 1];
    ++all;
    if (d == 0) {
      ++zeros;
      continue;
    }
    ++histogram[d];
    if (d == 1) {
      ++ones;
      ++run;
    } else {
      ++step_sums[d + run];
      run = 0;
    }
  }
  if (all == 0) return est;
  est.zero_fraction = static_cast<double>(zeros) / static_cast<double>(all);
  est.deltas = all - zeros;
  if (histogram.empty()) return est;

  auto modal = [](const std::map<std::uint64_t, std::uint64_t>& h) {
    return std::max_element(h.begin(), h.end(), [](const auto& x, const auto& y) { return x.second < y.second; })
        ->first;
  };
  est.modal_delta = modal(histogram);
  const auto needed = static_cast<double>(est.deltas) * kQuantumExplainedFraction;

  // 1. A robust gcd.
  for (std::uint64_t g : divisors_desc(est.modal_delta)) {
    std::uint64_t n = 0;
    for (const auto& [d, count] : histogram) n += d % g == 0 ? count : 0;
    if (static_cast<double>(n) >= needed) {
      est.quantum_ticks = g;
      break;
    }
  }
  if (est.quantum_ticks > 1) return est;

  // 2. The +1 pattern: deltas of exactly 1, and steps that land on a multiple of g once the
  // +1 deltas before them are added back (q - 1 after one +1 read, q - 2 after two).
  if (ones > 0 && !step_sums.empty()) {
    for (std::uint64_t g : divisors_desc(modal(step_sums))) {
      if (g < 3) break;
      std::uint64_t n = ones;
      for (const auto& [sum, count] : step_sums) n += sum % g == 0 ? count : 0;
      if (static_cast<double>(n) >= needed) {
        est.quantum_ticks = g;
        est.plus_one_reads = true;
        return est;
      }
    }
  }

  // 3. A non-integer step S (a slower counter scaled to the TSC rate): every delta is within
  // one tick of a multiple of S. S is the mean delta around the mode, divided by the number
  // of updates m it spans. Evidence that S is a step and not a steady read cost: the deltas,
  // zeros included, span at least two multiples of S.
  std::uint64_t window_sum = 0;
  std::uint64_t window_count = 0;
  for (std::uint64_t d = est.modal_delta > 1 ? est.modal_delta - 1 : 1; d <= est.modal_delta + 1; ++d) {
    const auto it = histogram.find(d);
    if (it == histogram.end()) continue;
    window_sum += d * it->second;
    window_count += it->second;
  }
  const double window_mean = static_cast<double>(window_sum) / static_cast<double>(window_count);
  for (std::uint64_t m = 1; m <= kFractionalMaxUpdates; ++m) {
    const double step = window_mean / static_cast<double>(m);
    if (step <= 2) break;
    std::uint64_t n = 0;
    std::uint64_t lowest_multiple = zeros > 0 ? 0 : std::numeric_limits<std::uint64_t>::max();
    std::uint64_t highest_multiple = 0;
    for (const auto& [d, count] : histogram) {
      const double multiple = std::round(static_cast<double>(d) / step);
      if (multiple < 1 || std::abs(static_cast<double>(d) - multiple * step) >= 1) continue;
      n += count;
      lowest_multiple = std::min(lowest_multiple, static_cast<std::uint64_t>(multiple));
      highest_multiple = std::max(highest_multiple, static_cast<std::uint64_t>(multiple));
    }
    if (static_cast<double>(n) >= needed && highest_multiple > lowest_multiple) {
      est.quantum_ticks = static_cast<std::uint64_t>(std::ceil(step));
      est.fractional_step = true;
      return est;
    }
  }
  return est;
}

}  // namespace tscaudit
