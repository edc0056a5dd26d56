// The quantum: the step by which the counter advances, from back-to-back reads.
#pragma once

#include <cstdint>
#include <span>

namespace tscaudit {

struct QuantumEstimate {
  std::uint64_t quantum_ticks = 1;  // the step; 1 when the counter moves by arbitrary amounts
  double zero_fraction = 0;         // share of back-to-back deltas that are 0
  std::uint64_t modal_delta = 0;    // most frequent non-zero delta
  std::uint64_t deltas = 0;         // non-zero deltas behind the estimate
  bool plus_one_reads = false;      // a read within one step returns the previous value + 1
                                    // (AMD Zen: deltas 26k, 26k - 1 or 1)
  bool fractional_step = false;     // the counter updates every S ticks, S not an integer (a
                                    // slower counter scaled to the TSC rate): steps of floor(S)
                                    // and ceil(S) ticks; quantum_ticks is ceil(S)
};

/// Share of non-zero deltas a candidate step must explain.
inline constexpr double kQuantumExplainedFraction = 0.999;

/// Most updates of a non-integer step that the mean delta around the mode may span.
inline constexpr std::uint64_t kFractionalMaxUpdates = 8;
/// The largest quantum considered, ticks: 2^20, about 0.4 ms at 2.6 GHz, far beyond any
/// counter's step (a 1 MHz counter read through a 4 GHz TSC steps by 4000).
inline constexpr std::uint64_t kMaxQuantumTicks = std::uint64_t{1} << 20;

/// Estimates the quantum from consecutive reads on one CPU (docs/method.md §2). The
/// quantum q is the largest single step, so that a read r of true value T satisfies
/// r <= T < r + q. Three rules, tried in order; each must explain 99.9 % of the non-zero
/// deltas, so that a single odd delta does not collapse it to 1:
/// 1. a robust gcd: the largest g dividing the deltas;
/// 2. the AMD pattern, in which a read inside one step returns the previous value + 1:
///    deltas of exactly 1, and deltas that become multiples of the largest g >= 3 once
///    the run of 1s just before them is added back (q - 1 after one +1 read);
/// 3. a non-integer step S > 2 (a slower counter scaled to the TSC rate, such as 24 MHz
///    seen at 2.3 GHz: 95.83 ticks, steps of 95 and 96): every delta within one tick of a
///    multiple of S, and the deltas, zeros included, spanning at least two multiples; S
///    is the mean delta within one tick of the mode divided by m = 1..kFractionalMaxUpdates,
///    and q = ceil(S). A step below the read cost (1 GHz at 2.3 GHz) leaves no mark on
///    the deltas and gives q = 1.
/// Pure. Reads that go backwards are ignored (they are not this function's to judge). An
/// empty or constant input gives quantum 1 with deltas = 0.
QuantumEstimate estimate_quantum(std::span<const std::uint64_t> reads);

}  // namespace tscaudit
