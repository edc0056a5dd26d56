// Each round of a run against the chosen fit (docs/method.md §5.3): the classes of
// its one-way latencies, violations with their evidence, the bounds the robust envelope set
// aside, rounds impossible for any offset, and the longest rounds.
//
// A chunk of rounds at a time, with the chunk's extremes: they skip the longest-rounds
// list for whole chunks (no rtt long enough to enter it), and narrow the band's edges and
// the floors over the chunk's time range to intervals, so that one comparison per test
// settles a round (not a violation, explained, below the floor, ...) unless its value
// falls inside the interval. Only then is the round tested on its own, with the same
// arithmetic as without the chunks: the results are exactly those of testing every round.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "core/run.hpp"
#include "estimate/blocks.hpp"
#include "pair/analyze.hpp"

namespace tscaudit {

/// The extremes of a chunk of rounds: its latencies' (the histograms take them too) and
/// its time range, which tell which tests its rounds can need.
struct ChunkExtremes {
  std::int64_t min_fwd = 0;  // one-way latencies
  std::int64_t max_fwd = 0;
  std::int64_t min_rev = 0;
  std::int64_t max_rev = 0;
  std::int64_t min_rtt = 0;
  std::int64_t max_rtt = 0;
  std::int64_t min_a_span = 0;  // t4 - t1: below 0 when a's counter ran backwards in a round
  std::int64_t min_b_span = 0;  // t3 - t2: below 0 when b's did
  TimeRange time;               // t1 and t4 relative to the reference time
};

/// Rounds either side of a worst case kept as evidence.
inline constexpr std::size_t kEvidenceRounds = 3;

/// Round i of `rounds` as evidence: its value and how far beyond the band (the caller's
/// meaning), its time from the first round's t1, and up to kEvidenceRounds rounds either
/// side. \pre i < rounds.size().
Evidence make_evidence(std::span<const Round> rounds, std::size_t i, std::int64_t value, double beyond);

/// Fills a PairAnalysis's per-round results: fwd_classes, rev_classes, self_inconsistent,
/// below_floor_fwd/rev, the violation seqs, worst_fwd/rev/rtt, counter_backwards_a/b with
/// their worst rounds, and longest_rounds.
class RoundClassifier {
 public:
  /// \pre p's quantum_ticks, t_ref_tick, free_fit and fit are final. Keeps references to
  ///      p and rounds: both must outlive it.
  RoundClassifier(PairAnalysis& p, std::span<const Round> rounds);

  /// Rounds [first, first + fwd.size()), their latencies (fwd_ticks, rev_ticks and
  /// rtt_ticks of each) and their extremes. \pre chunks come in order, without gaps.
  void add(std::size_t first, std::span<const std::int64_t> fwd, std::span<const std::int64_t> rev,
           std::span<const std::int64_t> rtt, const ChunkExtremes& extremes);

  /// Puts the longest rounds in order, longest first. \pre every round was added.
  void finish();

 private:
  /// The full tests of round i, as they read without chunks.
  void classify_round(std::size_t i, std::int64_t fwd, std::int64_t rev, std::int64_t rtt);
  void rank_round(std::size_t i, std::int64_t rtt);
  /// Counts round i under counter_backwards_a/b when a counter ran backwards in it.
  void check_backwards(std::size_t i);
  [[nodiscard]] double lo_at(double x) const;
  [[nodiscard]] double hi_at(double x) const;
  [[nodiscard]] double x_at(std::uint64_t tick) const;  // x_of(tick, t_ref), as a double

  PairAnalysis& p_;
  std::span<const Round> rounds_;
  std::int64_t q_;
  double worst_fwd_ = 0;
  double worst_rev_ = 0;
  std::int64_t worst_rtt_;
  std::int64_t worst_a_span_ = 0;
  std::int64_t worst_b_span_ = 0;
};

}  // namespace tscaudit
