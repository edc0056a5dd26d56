// The verdict of an analysis as data: which answer it gives, and the figures its sentence
// states. The sentences are the renderers' (render/verdict_text.hpp): the same data gives
// the text, the JSON's "verdict" and the report's words.
#pragma once

#include <cstdint>
#include <vector>

#include "core/read_variant.hpp"

namespace tscaudit {

/// The fewest rounds a run needs for any verdict (docs/method.md §3.1, "Too few rounds"):
/// one round gives one forward bound, read before its one reverse bound, and every slope
/// up to the prior's 10^-3 fits them: its band is the prior's, not the measurement's. Two
/// rounds give each direction a bound before and after one of the other's, so the rounds
/// themselves bound the drift (and each hull has an edge).
inline constexpr std::uint64_t kMinRoundsForVerdict = 2;

/// True when a run of `rounds` rounds is below kMinRoundsForVerdict: no verdict, "too few
/// rounds to bound the offset".
constexpr bool too_few_rounds(std::uint64_t rounds) { return rounds < kMinRoundsForVerdict; }

/// The kinds of answer, most serious first.
enum class VerdictKind {
  too_few_rounds,  // fewer rounds than kMinRoundsForVerdict, none impossible by itself: no verdict
  unsafe_reads,    // causality violated: reads ran early, no band to trust
  offset_stepped,  // the offset jumped during the run (proven: no one line fits both sides)
  changed_course,  // (monitor) no single line fits, but the bands meet at each change
  drifting,        // the counters run at different rates
  synchronized,    // no detectable drift, and the offset band holds 0
  offset,          // no detectable drift, and the offset band excludes 0
};

/// What one fit says of the offset (a pair's fit, a monitor piece's): drifting,
/// synchronized or offset, with the figures.
struct FitVerdict {
  VerdictKind kind = VerdictKind::synchronized;  // drifting, synchronized or offset
  double offset_ticks = 0;                       // the reported line at the reference time
  double offset_lo_ticks = 0;                    // the offset band there
  double offset_hi_ticks = 0;
  double drift_ppb = 0;     // the reported line's drift
  double drift_lo_ppb = 0;  // the drift band
  double drift_hi_ppb = 0;
};

/// Drifting when the drift is detectable; otherwise synchronized when the offset band
/// [offset_lo, offset_hi] holds 0, offset when it does not.
FitVerdict judge_fit(bool drift_detectable, double offset_ticks, double offset_lo_ticks, double offset_hi_ticks,
                     double drift_ppb, double drift_lo_ppb, double drift_hi_ppb);

/// Reads that broke causality, the evidence of an unsafe variant.
struct UnsafeReads {
  RecordedVariant send, recv;
  std::uint64_t fwd_violations = 0;  // one-way latencies below every offset the rest of the run allows
  std::uint64_t rev_violations = 0;
  bool at_least = false;  // the counts are lower bounds (a monitor log keeps order statistics, not rounds)
  std::uint64_t self_inconsistent = 0;    // rounds impossible for any offset (rtt < -2q)
  std::uint64_t counter_backwards_a = 0;  // rounds whose a's counter ran backwards (t4 < t1)
  std::uint64_t counter_backwards_b = 0;  // rounds whose b's counter ran backwards (t3 < t2)
  bool no_band = false;                   // no line fits the bounds even with k
  std::uint64_t k = 1;                    // the k of the sweep
  /// (monitor) The bounds break into more than max_pieces pieces at k: too small all
  /// over, not a few steps.
  bool unresolved_pieces = false;
  std::size_t max_pieces = 0;
};

/// Negative one-way latencies the band explains: none lies beyond it.
struct NegativeLatencies {
  std::uint64_t count = 0;
  std::uint64_t explained = 0;  // by every offset in the band
  std::uint64_t marginal = 0;   // by some
};

/// A proven step of the offset within one pair's run.
struct StepVerdict {
  double size_ticks = 0;       // the offset after minus before, at the step
  std::uint64_t round = 0;     // the first round after the step (its seq)
  std::uint64_t round_lo = 0;  // the first round after lies in [round_lo, round_hi]: the
  std::uint64_t round_hi = 0;  // rounds between fit either side as well
  double size_lo_ticks = 0;    // the smallest and largest jump the two sides' bands allow
  double size_hi_ticks = 0;    //   (docs/method.md §6.4): the band holds the true jump
};

/// The verdict of one pair's analysis.
struct PairVerdict {
  VerdictKind kind = VerdictKind::synchronized;  // too_few_rounds, unsafe_reads, offset_stepped or a fit's kind
  double tsc_hz = 0;                             // 0: unknown, no ns
  std::uint64_t rounds = 0;                      // the rounds judged (too_few_rounds says how many)
  UnsafeReads unsafe;                            // unsafe_reads
  FitVerdict fit;                                // drifting, synchronized, offset
  NegativeLatencies negatives;                   // those three
  // offset_stepped: the steps in time order, and the verdicts of the segments between
  // them (one more than the steps).
  std::vector<StepVerdict> steps;
  std::vector<PairVerdict> segments;
};

}  // namespace tscaudit
