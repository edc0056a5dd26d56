// The analysis of one run (one ordered pair): offset and drift with the hard band,
// negative one-way latencies classified, distributions, and a verdict.
// Pure: the same Run gives the same PairAnalysis, in-process or from a saved file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/histogram.hpp"
#include "core/read_variant.hpp"
#include "core/run.hpp"
#include "estimate/blocks.hpp"
#include "estimate/fit.hpp"
#include "estimate/role_hulls.hpp"
#include "pair/run_pieces.hpp"
#include "pair/verdict.hpp"

namespace tscaudit {

/// How many of the longest rounds (by rtt) an analysis lists.
inline constexpr std::size_t kLongestRounds = 10;

/// Counts of one direction's one-way latencies by class (docs/method.md §5.3).
struct DirectionClasses {
  std::uint64_t normal = 0;               // >= 0
  std::uint64_t offset_explained = 0;     // < 0, but consistent with every offset in the band
  std::uint64_t marginal = 0;             // inside the band: feasible, below the envelope
  std::uint64_t causality_violation = 0;  // below every offset the band allows: an early read
};

/// The worst case of a kind, with the raw rounds around it.
struct Evidence {
  std::uint64_t seq = 0;                // the round
  std::int64_t value_ticks = 0;         // its one-way latency (or rtt)
  double beyond_band_ticks = 0;         // how far past the band's edge (violations)
  std::uint64_t since_start_ticks = 0;  // a's ticks from the first round's t1
  std::vector<Round> around;            // up to 3 rounds either side, and the round itself
};

/// A step of the offset within a run, proven: the segments before and after it, each
/// analyzed alone, have hard bands that are disjoint at the step (docs/method.md §6.4).
struct OffsetStep {
  std::uint64_t first_round_after = 0;  // seq of the first round of the segment after
  std::uint64_t first_round_lo = 0;     // that round lies in [first_round_lo, first_round_hi]
  std::uint64_t first_round_hi = 0;     // (seqs): every round between fits either side
  std::uint64_t t1_tick = 0;            // t1 of first_round_after (a's counter)
  double since_start_ticks = 0;         // a's ticks from the run's first t1 to t1_tick
  double size_ticks = 0;                // the line after minus the line before, at t1_tick
  double size_lo_ticks = 0;             // the smallest and largest jump the two bands allow there
  double size_hi_ticks = 0;
  /// The round in flight at the step, left out of both segments (run_pieces.hpp), with
  /// the rounds around it: value_ticks its rtt.
  std::optional<Evidence> in_flight;
};

/// One step of the k-sweep: the fit on the k-th smallest forward bound and k-th largest
/// reverse bound per time bin (k = 1: every round).
struct SweepStep {
  std::uint64_t k = 1;
  bool feasible = false;
  double offset_ticks = 0;
  double margin_ticks = 0;
};

/// The analysis of one run; its PairIdentity (a, b, send, recv) from the run's metadata.
struct PairAnalysis : PairIdentity {
  std::string source;  // file name
  std::uint64_t rounds = 0;
  std::optional<std::string> incomplete;  // why the run is not complete
  std::int64_t quantum_ticks = 1;
  std::string quantum_source;    // "metadata" or "inferred"
  double tsc_hz = 0;             // 0: unknown, no ns figures
  std::uint64_t t_ref_tick = 0;  // the reference time: middle of the run on a's counter
  double span_ticks = 0;

  std::vector<SweepStep> sweep;  // every k tried
  std::uint64_t k = 1;           // the k chosen: the fit is stable from there on
  std::size_t bins = 0;          // time bins of the k-th order statistics (k > 1)
  EnvelopeFit free_fit;          // drift free, on the chosen constraint set
  EnvelopeFit fit;               // the reported fit: free_fit's band, and its line or,
                                 // with no detectable drift, the zero-drift refit's line
  bool zero_drift = false;       // no detectable drift: 0 lies in the drift band
  /// The constraint set free_fit was made on (the chosen k's hulls), in this role's frame:
  /// what the matrix joins with the other role's into the pair's band (estimate/role_hulls.hpp).
  FrameHulls hulls;

  DirectionClasses fwd_classes;
  DirectionClasses rev_classes;
  std::uint64_t self_inconsistent = 0;            // rounds with rtt < -2q: impossible for any offset
  std::uint64_t below_floor_fwd = 0;              // forward bounds below the chosen robust envelope
  std::uint64_t below_floor_rev = 0;              // (by more than q): what the k-sweep set aside
  std::vector<std::uint64_t> fwd_violation_seqs;  // every round with a forward violation
  std::vector<std::uint64_t> rev_violation_seqs;  // every round with a reverse violation
  std::optional<Evidence> worst_fwd;              // most negative forward latency beyond the band
  std::optional<Evidence> worst_rev;
  std::optional<Evidence> worst_rtt;  // most negative rtt when self-inconsistent
  /// Rounds in which one counter ran backwards, a's (t4 < t1) or b's (t3 < t2), as
  /// differences modulo 2^64. Impossible for any offset (a counter's reads within a round
  /// never go down): an early read by more than the round trip, a moved vCPU, a counter
  /// that jumped. Their one-way latencies are classified like any other's.
  std::uint64_t counter_backwards_a = 0;
  std::uint64_t counter_backwards_b = 0;
  /// The round whose counter went furthest back: value_ticks = t4 - t1 (t3 - t2), < 0;
  /// beyond_band_ticks = how far back, > 0.
  std::optional<Evidence> worst_backwards_a;
  std::optional<Evidence> worst_backwards_b;

  /// The longest rounds by rtt, longest first: (seq, rtt ticks), at most kLongestRounds.
  std::vector<std::pair<std::uint64_t, std::int64_t>> longest_rounds;

  SignedHistogram fwd_ticks;
  SignedHistogram rev_ticks;
  SignedHistogram rtt_ticks;

  BlockFit blocks;  // statistical CI from time blocks, the runs test, a step if any
  /// When no line fits the run at any k: the pieces of its bins' bounds and where the rounds
  /// split between them (the candidates; docs/method.md §6.4). Absent otherwise.
  std::optional<RunPieces> pieces;
  /// The proven steps, in time order. With steps, each segment between them is analyzed on
  /// its own (rounds keep their seq), and the counts of this analysis are the segments'
  /// sums. A change the bands cannot prove (they meet there: a step smaller than the bands,
  /// which two-way timing cannot tell from an equal and opposite change of the two delays,
  /// or a change of drift) does not split the run.
  std::vector<OffsetStep> steps;
  std::vector<PairAnalysis> segments;

  PairVerdict verdict;  // what the analysis concludes (render/verdict_text.hpp words it)
};

/// Analyzes one run. \throws InputError when the run has no rounds.
PairAnalysis analyze_run(const Run& run, const std::string& source);

/// A step of the offset as the verdict and the matrix keep it.
StepVerdict step_verdict(const OffsetStep& s);

/// Ticks to nanoseconds with the run's frequency; NaN when the frequency is unknown.
double ticks_to_ns(double ticks, double tsc_hz);

}  // namespace tscaudit
