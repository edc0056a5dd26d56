// The quantum: the step by which the counter advances, from back-to-back reads.
#pragma once

#include <cstdint>
#include <span>

namespace tscsync {

struct QuantumEstimate {
  std::uint64_t quantum_ticks = 1;  // the step; 1 when the counter moves by arbitrary amounts
  double zero_fraction = 0;         // share of back-to-back deltas that are 0
  std::uint64_t modal_delta = 0;    // most frequent non-zero delta
  std::uint64_t deltas = 0;         // non-zero deltas behind the estimate
  bool plus_one_reads = false;      // a read within one step returns the previous value + 1
                                    // (AMD Zen: deltas 26k, 26k - 1 or 1)
};

/// Share of non-zero deltas a candidate step must explain.
inline constexpr double kQuantumExplainedFraction = 0.999;

/// Estimates the quantum from consecutive reads on one CPU (a robust gcd: the largest
/// step that divides at least 99.9 % of the non-zero deltas, so a single odd delta does
/// not collapse it to 1). When no step > 1 divides them, tries the AMD pattern in which
/// a second read inside one step returns the previous value + 1: the largest g >= 3
/// such that 99.9 % of the deltas are multiples of g, one less than a multiple of g, or
/// below g. Pure. Reads that go backwards are ignored (they are not this function's to
/// judge). An empty or constant input gives quantum 1 with deltas = 0.
QuantumEstimate estimate_quantum(std::span<const std::uint64_t> reads);

}  // namespace tscsync
