// The statistical side of the offset estimate (docs/method.md §6, §3.5, §5.2):
// the run cut into K contiguous time blocks, one robust zero-drift envelope estimate per
// block, least squares over the K block values for offset, drift and their confidence
// intervals, a runs test on the residual signs, and a search for an offset step (a TSC
// write, a migration, a resume) when the residuals are structured.
//
// The hard band (fit.hpp) says what is certain; this says how stable the estimate is.
// Its confidence intervals are usually far smaller than the quantum and the band: they
// measure the scatter of the envelopes from block to block, not the delay asymmetry,
// which no two-way timing can see.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/kth_of_stream.hpp"
#include "core/run.hpp"

namespace tscaudit {

/// Fewest blocks fit_blocks accepts: a line and one degree of freedom for its scatter.
inline constexpr std::size_t kMinBlocks = 3;

/// One block's envelope estimate, with the global drift removed inside the block.
struct BlockEstimate {
  double tau_ticks = 0;         // block mid time: (first t1 + last t4) / 2 - t_ref, a's ticks
  double theta_ticks = 0;       // offset at tau: (k-th smallest U' + k-th largest L') / 2
  double margin_ticks = 0;      // (k-th smallest U' - k-th largest L') / 2: about the minimum
                                // one-way latency; negative when the block's bounds cross
  std::size_t first_round = 0;  // index into the rounds passed in
  std::size_t last_round = 0;   // one past the block's last round
};

/// Wald-Wolfowitz runs test on the signs of the line fit's residuals, as chrony's
/// RGR_FindBestRegression uses it: too few runs means neighbouring blocks agree in sign
/// more than chance allows, i.e. the offset is not a line (a step, a curve).
struct RunsTest {
  std::size_t runs = 0;     // maximal sequences of equal sign (zero residuals skipped)
  std::size_t n_plus = 0;   // positive residuals
  std::size_t n_minus = 0;  // negative residuals
  double expected = 0;      // 1 + 2 n+ n- / n under independent signs
  double z = 0;             // (runs - expected) / sd; 0 when one sign is missing
  bool structured = false;  // z < -1.96: fewer runs than chance at the 2.5 % level
};

/// An offset step found between the blocks.
struct Step {
  std::size_t after_block = 0;        // the first block wholly after the step (its first
                                      // round is first_round_after or later)
  std::size_t first_round_after = 0;  // refined: the first round whose bounds follow the
                                      // new offset (to a round: the round in flight at the
                                      // step may show either); otherwise after_block's
                                      // first round, and the step lies in block
                                      // after_block - 1
  std::uint64_t t1_tick = 0;          // t1 of first_round_after (a's counter)
  double size_ticks = 0;              // offset after minus offset before
  bool refined_to_round = false;      // false: known only to within one block
};

struct BlockFit {
  bool valid = false;
  std::string reason;                    // why not valid: too few rounds, bad parameters
  std::size_t blocks = 0;                // K actually used
  std::vector<BlockEstimate> per_block;  // K entries, in time order

  // theta_b = offset + drift * tau_b by ordinary least squares over the K blocks. The
  // intervals are statistical: the block-to-block scatter of the envelopes. They do not
  // hold the delay asymmetry, nor the quantization lattice: block values are midpoints
  // of readings on the q-lattice, and when nothing dithers them (zero drift) they can all
  // agree, giving SE 0 while the truth lies up to q/2 away. Report them beside the band.
  double offset_ticks = 0;     // at x = 0, i.e. at t_ref
  double offset_se_ticks = 0;  // from s^2 (A^T A)^-1, s^2 = RSS / (K - 2)
  double offset_ci_ticks = 0;  // 95 % half-width: t_{K-2, 0.975} * SE
  double drift = 0;            // ticks per tick (1e-9 = 1 ppb)
  double drift_se = 0;
  double drift_ci = 0;

  // The rho = 0 model: the mean of the block values, at the mean block time (t_ref when
  // the blocks are spread evenly). Meaningful when the drift passed in was 0.
  double zero_drift_offset_ticks = 0;
  double zero_drift_se_ticks = 0;  // s / sqrt(K), s the block values' standard deviation
  double zero_drift_ci_ticks = 0;  // t_{K-1, 0.975} * SE

  RunsTest runs;
  // Only looked for when runs.structured and K >= 4. The boundary s (2 <= s <= K - 2)
  // minimising the residual sum of squares of two offsets and one shared slope; then the
  // round, from the bounds of blocks s - 1 and s; then the two offsets again without the
  // block that holds the step. Reported when |size| > max(4 q, 4 s_res), s_res the
  // residual standard deviation of that last fit, and when the blocks' margin moves by
  // at most max(2 q, |size| / 4) across it (an offset step moves both floors together).
  std::optional<Step> step;
  double split_margin_change_ticks = 0;  // the margin after the best split minus before it
  bool delays_changed = false;           // a split large enough for a step, but the margin moved
                                         // with it: the delays changed, not the offset
};

/// Whether fit_blocks must check that t1 never decreases (a pass over the rounds), or
/// the caller already knows it does not.
enum class TimeOrder { check, known };

/// Block estimates, their least-squares line and the step search.
/// \param rounds  in time order (as a run stores them).
/// \param t_ref_tick  the reference time on a's counter (analyze's t_ref_tick).
/// \param quantum_ticks  the counter step q (>= 1): steps smaller than 4q are not reported.
/// \param drift  ticks per tick, removed inside each block before its order statistics
///               (the chosen envelope fit's drift; 0 when there is no detectable drift).
/// \param k  order statistic per block (>= 1): the k-th smallest U and k-th largest L, so
///           that k - 1 too-small values per block cannot cut into its envelope.
/// \param blocks  K wanted; fewer when the rounds do not give every block 2k rounds.
/// \param order  TimeOrder::known skips the check that t1 never decreases.
/// The result is not valid when fewer than kMinBlocks blocks of 2k rounds each can be
/// made, or k or quantum_ticks is 0. O(n).
BlockFit fit_blocks(std::span<const Round> rounds, std::uint64_t t_ref_tick, std::int64_t quantum_ticks, double drift,
                    std::uint64_t k, std::size_t blocks = 16, TimeOrder order = TimeOrder::check);

/// Where some rounds lie in time: the extremes of t1 and of t4 relative to the reference
/// time (x = t - t_ref, a's ticks).
struct TimeRange {
  std::int64_t min_x1 = 0;
  std::int64_t max_x1 = 0;
  std::int64_t min_x4 = 0;
  std::int64_t max_x4 = 0;
};

/// The same, gathered while the caller walks the rounds a range at a time, so that one
/// pass over them can serve other work too (analyze's classification pass carries it):
/// fit_blocks is the constructor, add(0, n) and finish().
class BlockEstimator {
 public:
  /// The parameters of fit_blocks. Keeps a view of `rounds`: they must outlive it.
  BlockEstimator(std::span<const Round> rounds, std::uint64_t t_ref_tick, std::int64_t quantum_ticks, double drift,
                 std::uint64_t k, std::size_t blocks = 16, TimeOrder order = TimeOrder::check);
  /// Takes rounds [first, last). \pre the calls cover 0..n in order, without gaps.
  void add(std::size_t first, std::size_t last);
  /// The same, for rounds whose t1 and t4 lie within `range`: the same result, faster.
  /// Once a block's selections have a threshold, a bound can only be taken if it comes
  /// before it; over a short time range the drift moves the bounds by a fraction of a
  /// tick, so a whole number of ticks bounds the raw one-way latencies that can, and the
  /// other rounds (nearly all) cost one integer comparison instead of their drift-free
  /// bounds. Meant for a few hundred rounds at a time.
  void add(std::size_t first, std::size_t last, const TimeRange& range);
  /// The fit, as fit_blocks gives it. \pre every round was added.
  [[nodiscard]] BlockFit finish() const;

 private:
  void open_block(std::size_t b);
  void close_block();
  /// Rounds [first, last) of the current block; with `range`, only those whose raw bounds
  /// can pass the selections' thresholds reach them.
  void offer(std::size_t first, std::size_t last, const TimeRange* range);

  std::span<const Round> rounds_;
  std::uint64_t t_ref_tick_;
  std::int64_t quantum_ticks_;
  double drift_;
  std::uint64_t k_;
  std::string reason_;  // not empty: the fit is not valid, and why
  std::size_t n_blocks_ = 0;
  std::int64_t shift_ = 0;  // an integer near the offset, taken out of every bound
  std::vector<BlockEstimate> per_block_;
  BlockEstimate current_;                // the block being gathered (theta and margin not yet known)
  KthOfStream<std::less<>> smallest_;    // the block's k-th smallest U'
  KthOfStream<std::greater<>> largest_;  // the block's k-th largest L'
};

/// Student's t quantile t_{df, 0.975}: a table for df 1..30 (3 decimals); beyond it the
/// Cornish-Fisher expansion z + 2.372 / df + 2.823 / df^2 around the normal z = 1.96
/// (within 0.001 of the exact value); infinity for df 0.
double student_t_975(std::size_t df);

}  // namespace tscaudit
