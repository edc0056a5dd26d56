#include "estimate/blocks.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>

#include <Eigen/Dense>

#include "estimate/margin_rule.hpp"

namespace tscaudit {
namespace {

/// t_{df, 0.975} for df = 1..30.
constexpr std::array<double, 30> kT975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                          2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                          2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
constexpr double kZ975 = 1.959963984540054;
/// Runs test: structured below this z (one-sided, 2.5 %).
constexpr double kRunsCriticalZ = -1.96;
/// A step is reported when it exceeds both kStepQuanta quanta and kStepSigmas residual
/// standard deviations of the two-offset model.
constexpr double kStepQuanta = 4;
constexpr double kStepSigmas = 4;
/// The step's round is accepted when the best splits span at most this many rounds.
constexpr std::size_t kMaxTieRounds = 8;
/// Residuals within this fraction of the block values' size are zeros: rounding, not sign.
constexpr double kZeroResidual = 1e-9;

using Vector = Eigen::VectorXd;
template <int Cols>
using Design = Eigen::Matrix<double, Eigen::Dynamic, Cols>;

template <int Cols>
struct LeastSquares {
  Eigen::Matrix<double, Cols, 1> beta;
  Eigen::Matrix<double, Cols, Cols> unscaled_cov;  // (A^T A)^-1: times s^2 for Cov(beta)
  double rss = 0;
};

/// Ordinary least squares by Householder QR (the design's columns are centred and
/// scaled, so no pivoting is needed). (A^T A)^-1 = R^-1 R^-T from the triangular factor.
/// \pre a has full column rank.
template <int Cols>
LeastSquares<Cols> least_squares(const Design<Cols>& a, const Vector& y) {
  const Eigen::HouseholderQR<Design<Cols>> qr(a);
  LeastSquares<Cols> out;
  out.beta = qr.solve(y);
  const Eigen::Matrix<double, Cols, Cols> r = qr.matrixQR().template topLeftCorner<Cols, Cols>();
  const Eigen::Matrix<double, Cols, Cols> r_inv =
      r.template triangularView<Eigen::Upper>().solve(Eigen::Matrix<double, Cols, Cols>::Identity());
  out.unscaled_cov = r_inv * r_inv.transpose();
  out.rss = (y - a * out.beta).squaredNorm();
  return out;
}

Eigen::Index idx(std::size_t i) { return static_cast<Eigen::Index>(i); }
double as_double(std::size_t n) { return static_cast<double>(n); }

/// A bound (forward U or reverse L, raw ticks) at time x, minus `shift` (an integer near
/// the offset, so that doubles keep every fraction of a tick) and minus the drift line
/// through `tau`. Computed so, it is monotone in the bound (each rounding is), and in x
/// (non-increasing for drift >= 0, non-decreasing otherwise).
double drift_free_bound(std::int64_t bound, double x, std::int64_t shift, double drift, double tau) {
  return static_cast<double>(bound - shift) - drift * (x - tau);
}

/// Forward and reverse bounds of one round, drift-free.
struct Bounds {
  double upper, lower;
};
Bounds drift_free(const Round& r, std::uint64_t t_ref, std::int64_t shift, double drift, double tau) {
  return {drift_free_bound(fwd_ticks(r), static_cast<double>(x_of(r.t1, t_ref)), shift, drift, tau),
          drift_free_bound(-rev_ticks(r), static_cast<double>(x_of(r.t4, t_ref)), shift, drift, tau)};
}

/// Room kept between a cut's drift-free bound and the threshold: far more than rounding,
/// in case a build fuses the multiply-add in one place and not the other.
double cut_room(double threshold) { return 1e-6 + 1e-9 * std::fabs(threshold); }

/// The smallest whole `bound` at which drift_free_bound, at the time that makes it
/// lowest (x_low), is at least `threshold` (plus room): a bound from it up, at any time
/// of the range, does not come before the threshold. nullopt when none is found near.
std::optional<std::int64_t> cut_from_below(double threshold, double x_low, std::int64_t shift, double drift,
                                           double tau) {
  const double guess = std::ceil(threshold + drift * (x_low - tau)) + static_cast<double>(shift);
  if (!(std::fabs(guess) < 0x1p52)) return std::nullopt;  // also NaN
  for (auto cut = static_cast<std::int64_t>(guess) - 1, end = cut + 4; cut < end; ++cut) {
    if (drift_free_bound(cut, x_low, shift, drift, tau) >= threshold + cut_room(threshold)) return cut;
  }
  return std::nullopt;
}

/// The largest whole `bound` at which drift_free_bound, at the time that makes it
/// highest (x_high), is at most `threshold` (minus room): a bound from it down does not
/// come before the threshold of a k-th largest.
std::optional<std::int64_t> cut_from_above(double threshold, double x_high, std::int64_t shift, double drift,
                                           double tau) {
  const double guess = std::floor(threshold + drift * (x_high - tau)) + static_cast<double>(shift);
  if (!(std::fabs(guess) < 0x1p52)) return std::nullopt;
  for (auto cut = static_cast<std::int64_t>(guess) + 1, end = cut - 4; cut > end; --cut) {
    if (drift_free_bound(cut, x_high, shift, drift, tau) <= threshold - cut_room(threshold)) return cut;
  }
  return std::nullopt;
}

RunsTest runs_test(const Vector& residuals, double zero) {
  RunsTest t;
  int previous = 0;
  for (Eigen::Index i = 0; i < residuals.size(); ++i) {
    const double r = residuals[i];
    if (std::fabs(r) <= zero) continue;
    const int sign = r > 0 ? 1 : -1;
    (sign > 0 ? t.n_plus : t.n_minus) += 1;
    if (sign != previous) ++t.runs;
    previous = sign;
  }
  const double np = as_double(t.n_plus), nm = as_double(t.n_minus), n = np + nm;
  if (t.n_plus == 0 || t.n_minus == 0) {
    t.expected = as_double(t.runs);
    return t;
  }
  t.expected = 1 + 2 * np * nm / n;
  const double variance = 2 * np * nm * (2 * np * nm - n) / (n * n * (n - 1));
  if (variance > 0) t.z = (as_double(t.runs) - t.expected) / std::sqrt(variance);
  t.structured = t.z < kRunsCriticalZ;
  return t;
}

/// One offset before the step, one after, a shared slope: fitted over the blocks whose
/// `side` is -1 (before) or +1 (after); blocks with side 0 are left out.
struct SplitFit {
  bool ok = false;
  double before = 0, after = 0;  // intercepts at z = 0 (shifted ticks)
  double slope = 0;              // per unit of z
  double rss = 0;
  std::size_t used = 0;
};
SplitFit fit_split(const Vector& y, const Vector& z, const std::vector<int>& side) {
  SplitFit f;
  std::size_t n_before = 0, n_after = 0;
  for (int s : side) {
    n_before += static_cast<std::size_t>(s < 0);
    n_after += static_cast<std::size_t>(s > 0);
  }
  f.used = n_before + n_after;
  if (n_before == 0 || n_after == 0 || f.used < 4) return f;  // one residual degree of freedom at least
  Design<3> a(idx(f.used), 3);
  Vector v(idx(f.used));
  Eigen::Index row = 0;
  for (std::size_t b = 0; b < side.size(); ++b) {
    if (side[b] == 0) continue;
    a.row(row) << (side[b] < 0 ? 1.0 : 0.0), (side[b] > 0 ? 1.0 : 0.0), z[idx(b)];
    v[row++] = y[idx(b)];
  }
  const LeastSquares<3> ls = least_squares<3>(a, v);
  f.ok = true;
  f.before = ls.beta[0];
  f.after = ls.beta[1];
  f.slope = ls.beta[2];
  f.rss = ls.rss;
  return f;
}

/// The first round after the step, within rounds [w0, w1). With the two fitted offset
/// lines and m their midpoint (drift removed), a round shows the *after* offset when a
/// bound lies on the far side of m from where the before offset allows it: for an upward
/// step L' > m (the reverse bound needs theta > m), for a downward one U' < m; the
/// mirror image shows the *before* offset. The split r minimises the rounds that
/// contradict it (after-evidence before r plus before-evidence from r on). It is accepted
/// when the minimisers span at most kMaxTieRounds rounds and at least k rounds of
/// evidence lie on each side; evidence needs |step| / 2 above the one-way latency floor,
/// so small steps stay unrefined.
std::optional<std::size_t> refine_step(std::span<const Round> rounds, std::size_t w0, std::size_t w1,
                                       std::uint64_t t_ref, std::int64_t shift, double rho, double before_ticks,
                                       double after_ticks, std::uint64_t k) {
  const double mid = 0.5 * (before_ticks + after_ticks);
  const bool up = after_ticks > before_ticks;
  std::vector<std::uint8_t> shows_after(w1 - w0), shows_before(w1 - w0);
  std::size_t cost = 0;
  for (std::size_t i = w0; i < w1; ++i) {
    const Bounds b = drift_free(rounds[i], t_ref, shift, rho, 0.0);
    shows_after[i - w0] = up ? b.lower > mid : b.upper < mid;
    shows_before[i - w0] = up ? b.upper < mid : b.lower > mid;
    cost += shows_before[i - w0];  // the split r = w0: every round counted as after
  }
  std::size_t best = cost, r_lo = w0, r_hi = w0;
  for (std::size_t r = w0 + 1; r <= w1; ++r) {
    cost += shows_after[r - 1 - w0];  // round r - 1 moves from after to before
    cost -= shows_before[r - 1 - w0];
    if (cost < best) {
      best = cost;
      r_lo = r_hi = r;
    } else if (cost == best) {
      r_hi = r;
    }
  }
  const std::size_t r = r_lo + (r_hi - r_lo) / 2;
  std::size_t before_evidence = 0, after_evidence = 0;
  for (std::size_t i = w0; i < r; ++i) before_evidence += shows_before[i - w0];
  for (std::size_t i = r; i < w1; ++i) after_evidence += shows_after[i - w0];
  if (r_hi - r_lo > kMaxTieRounds || before_evidence < k || after_evidence < k) return std::nullopt;
  return r;
}

/// Which side of a step each block lies on: -1 when it ends by `before_end`, +1 when it
/// starts at `after_begin` or later, 0 (left out) otherwise.
std::vector<int> sides(const std::vector<BlockEstimate>& blocks, std::size_t before_end, std::size_t after_begin) {
  std::vector<int> side;
  side.reserve(blocks.size());
  for (const BlockEstimate& b : blocks)
    side.push_back(b.last_round <= before_end ? -1 : b.first_round >= after_begin ? 1 : 0);
  return side;
}

BlockFit invalid(std::string reason) {
  BlockFit f;
  f.reason = std::move(reason);
  return f;
}

}  // namespace

double student_t_975(std::size_t df) {
  if (df == 0) return std::numeric_limits<double>::infinity();
  if (df <= kT975.size()) return kT975[df - 1];
  const double d = as_double(df);
  return kZ975 + 2.3722712 / d + 2.8224986 / (d * d);
}

BlockEstimator::BlockEstimator(std::span<const Round> rounds, std::uint64_t t_ref_tick, std::int64_t quantum_ticks,
                               double drift, std::uint64_t k, std::size_t blocks, TimeOrder order)
    : rounds_(rounds), t_ref_tick_(t_ref_tick), quantum_ticks_(quantum_ticks), drift_(drift), k_(k) {
  const std::size_t n = rounds.size();
  if (k == 0) {
    reason_ = "k = 0: the order statistic counts from 1";
    return;
  }
  if (quantum_ticks < 1) {
    reason_ = "quantum_ticks = " + std::to_string(quantum_ticks) + ": must be >= 1";
    return;
  }
  if (blocks < kMinBlocks) {
    reason_ = std::to_string(blocks) + " blocks asked: at least 3 are needed";
    return;
  }
  for (std::size_t i = 1; i < n && order == TimeOrder::check; ++i) {
    if (diff_ticks(rounds[i].t1, rounds[i - 1].t1) < 0) {
      reason_ = "rounds are not in time order (t1)";
      return;
    }
  }
  const std::size_t per_block = 2 * static_cast<std::size_t>(k);
  n_blocks_ = std::min(blocks, n / per_block);
  if (n_blocks_ < kMinBlocks) {
    reason_ = std::to_string(n) + (n == 1 ? " round" : " rounds") + ": too few for 3 blocks of 2k = " +
              std::to_string(per_block) + " rounds";
    return;
  }
  // Work relative to an integer near the offset: bounds then stay small in double.
  shift_ = (fwd_ticks(rounds[0]) - rev_ticks(rounds[0])) / 2;
  per_block_.reserve(n_blocks_);
  open_block(0);
}

void BlockEstimator::open_block(std::size_t b) {
  const std::size_t n = rounds_.size();
  BlockEstimate e;
  e.first_round = b * n / n_blocks_;
  e.last_round = (b + 1) * n / n_blocks_;
  e.tau_ticks = 0.5 * (static_cast<double>(x_of(rounds_[e.first_round].t1, t_ref_tick_)) +
                       static_cast<double>(x_of(rounds_[e.last_round - 1].t4, t_ref_tick_)));
  current_ = e;
  smallest_.reset(k_);
  largest_.reset(k_);
}

void BlockEstimator::close_block() {
  const double upper = smallest_.kth(), lower = largest_.kth();
  current_.theta_ticks = 0.5 * (upper + lower);
  current_.margin_ticks = 0.5 * (upper - lower);
  per_block_.push_back(current_);
}

void BlockEstimator::add(std::size_t first, std::size_t last) {
  if (!reason_.empty()) return;
  for (std::size_t i = first; i < last; ++i) {
    if (i == current_.last_round) {
      close_block();
      open_block(per_block_.size());
    }
    const Bounds v = drift_free(rounds_[i], t_ref_tick_, shift_, drift_, current_.tau_ticks);
    smallest_.offer(v.upper);
    largest_.offer(v.lower);
  }
  if (last == rounds_.size() && per_block_.size() < n_blocks_) close_block();
}

void BlockEstimator::add(std::size_t first, std::size_t last, const TimeRange& range) {
  if (!reason_.empty()) return;
  while (first < last) {
    if (first == current_.last_round) {
      close_block();
      open_block(per_block_.size());
    }
    const std::size_t end = std::min(last, current_.last_round);
    offer(first, end, &range);
    first = end;
  }
  if (last == rounds_.size() && per_block_.size() < n_blocks_) close_block();
}

void BlockEstimator::offer(std::size_t first, std::size_t last, const TimeRange* range) {
  const double tau = current_.tau_ticks;
  // The times at which a bound's drift-free value is lowest (U) and highest (L).
  std::optional<std::int64_t> upper_cut, lower_cut;
  if (range != nullptr && smallest_.has_threshold()) {
    const auto x_low = static_cast<double>(drift_ >= 0 ? range->max_x1 : range->min_x1);
    upper_cut = cut_from_below(smallest_.threshold(), x_low, shift_, drift_, tau);
  }
  if (range != nullptr && largest_.has_threshold()) {
    const auto x_high = static_cast<double>(drift_ >= 0 ? range->min_x4 : range->max_x4);
    lower_cut = cut_from_above(largest_.threshold(), x_high, shift_, drift_, tau);
  }
  const std::int64_t below = upper_cut.value_or(std::numeric_limits<std::int64_t>::max());
  const std::int64_t above = lower_cut.value_or(std::numeric_limits<std::int64_t>::min());
  const bool all_upper = !upper_cut, all_lower = !lower_cut;
  for (std::size_t i = first; i < last; ++i) {
    const Round& r = rounds_[i];
    const std::int64_t upper = fwd_ticks(r), lower = -rev_ticks(r);
    if (all_upper || upper < below) [[unlikely]] {
      smallest_.offer(drift_free_bound(upper, static_cast<double>(x_of(r.t1, t_ref_tick_)), shift_, drift_, tau));
    }
    if (all_lower || lower > above) [[unlikely]] {
      largest_.offer(drift_free_bound(lower, static_cast<double>(x_of(r.t4, t_ref_tick_)), shift_, drift_, tau));
    }
  }
}

BlockFit fit_blocks(std::span<const Round> rounds, std::uint64_t t_ref_tick, std::int64_t quantum_ticks, double drift,
                    std::uint64_t k, std::size_t blocks, TimeOrder order) {
  BlockEstimator estimator(rounds, t_ref_tick, quantum_ticks, drift, k, blocks, order);
  estimator.add(0, rounds.size());
  return estimator.finish();
}

BlockFit BlockEstimator::finish() const {
  if (!reason_.empty()) return invalid(reason_);
  const std::span<const Round> rounds = rounds_;
  const std::size_t n_blocks = n_blocks_;
  const std::int64_t shift = shift_;
  const std::int64_t quantum_ticks = quantum_ticks_;
  const std::uint64_t t_ref_tick = t_ref_tick_;
  const std::uint64_t k = k_;
  BlockFit fit;
  fit.blocks = n_blocks;
  fit.per_block = per_block_;
  Vector y(idx(n_blocks)), tau(idx(n_blocks));
  for (std::size_t b = 0; b < n_blocks; ++b) {
    y[idx(b)] = fit.per_block[b].theta_ticks;
    tau[idx(b)] = fit.per_block[b].tau_ticks;
    fit.per_block[b].theta_ticks += static_cast<double>(shift);
  }

  // Centre and scale the times: tau reaches 1e12 ticks, z stays in [-1, 1].
  const double centre = tau.mean();
  const double half_span = (tau.array() - centre).abs().maxCoeff();
  if (!(half_span > 0)) return invalid("the blocks do not span any time");
  const Vector z = (tau.array() - centre) / half_span;

  Design<2> a(idx(n_blocks), 2);
  a.col(0).setOnes();
  a.col(1) = z;
  const LeastSquares<2> line = least_squares<2>(a, y);
  const double df = as_double(n_blocks - 2);
  const double s2 = line.rss / df;
  // theta(x) = beta0 + beta1 (x - centre) / half_span: at x = 0 the offset is g . beta with
  // g = (1, -centre / half_span), so Var = s^2 g^T C g; the drift is beta1 / half_span.
  const Eigen::Vector2d g(1.0, -centre / half_span);
  fit.drift = line.beta[1] / half_span;
  fit.offset_ticks = g.dot(line.beta) + static_cast<double>(shift);
  fit.offset_se_ticks = std::sqrt(s2 * g.dot(line.unscaled_cov * g));
  fit.drift_se = std::sqrt(s2 * line.unscaled_cov(1, 1)) / half_span;
  fit.offset_ci_ticks = student_t_975(n_blocks - 2) * fit.offset_se_ticks;
  fit.drift_ci = student_t_975(n_blocks - 2) * fit.drift_se;

  const double mean = y.mean();
  const double sd = std::sqrt((y.array() - mean).square().sum() / as_double(n_blocks - 1));
  fit.zero_drift_offset_ticks = mean + static_cast<double>(shift);
  fit.zero_drift_se_ticks = sd / std::sqrt(as_double(n_blocks));
  fit.zero_drift_ci_ticks = student_t_975(n_blocks - 1) * fit.zero_drift_se_ticks;

  const Vector residuals = y - a * line.beta;
  fit.runs = runs_test(residuals, kZeroResidual * (1 + y.cwiseAbs().maxCoeff()));
  fit.valid = true;
  if (!fit.runs.structured || n_blocks < 4) return fit;

  // Step search: the boundary s (blocks [0, s) before, [s, n_blocks) after, two each at least)
  // whose two-offset, one-slope fit leaves the least squared residual.
  SplitFit best;
  std::size_t best_s = 0;
  for (std::size_t s = 2; s + 2 <= n_blocks; ++s) {
    const SplitFit f =
        fit_split(y, z, sides(fit.per_block, fit.per_block[s].first_round, fit.per_block[s].first_round));
    if (f.ok && (!best.ok || f.rss < best.rss)) {
      best = f;
      best_s = s;
    }
  }
  if (!best.ok) return fit;

  // The step lies in block s - 1 or s (the block holding it has a value near the
  // midpoint of the two offsets, so it joins either side). Look for its round there.
  const double rho = best.slope / half_span;
  const auto at_x0 = [&](double intercept) { return intercept - best.slope * centre / half_span; };
  const std::vector<BlockEstimate>& pb = fit.per_block;
  Step step;
  SplitFit final_fit;
  if (const auto r = refine_step(rounds, pb[best_s - 1].first_round, pb[best_s].last_round, t_ref_tick, shift, rho,
                                 at_x0(best.before), at_x0(best.after), k)) {
    step.first_round_after = *r;
    step.refined_to_round = true;
    final_fit = fit_split(y, z, sides(pb, *r, *r));  // without the block that holds the step
  } else {
    // Only the block is known: the one whose removal fits the two offsets better (the
    // block holding the step mixes both offsets; its value would bias either side).
    const SplitFit drop_before = fit_split(y, z, sides(pb, pb[best_s - 1].first_round, pb[best_s].first_round));
    const SplitFit drop_after = fit_split(y, z, sides(pb, pb[best_s].first_round, pb[best_s].last_round));
    const auto per_df = [](const SplitFit& f) { return f.rss / as_double(f.used - 3); };
    const bool after = drop_after.ok && (!drop_before.ok || per_df(drop_after) < per_df(drop_before));
    final_fit = after ? drop_after : drop_before;
    step.first_round_after = pb[after ? best_s + 1 : best_s].first_round;
  }
  if (!final_fit.ok) final_fit = best;
  while (step.after_block < n_blocks && pb[step.after_block].first_round < step.first_round_after) ++step.after_block;
  step.t1_tick = rounds[step.first_round_after].t1;
  step.size_ticks = final_fit.after - final_fit.before;
  const double sigma = std::sqrt(final_fit.rss / as_double(final_fit.used - 3));
  if (std::fabs(step.size_ticks) <= std::max(kStepQuanta * static_cast<double>(quantum_ticks), kStepSigmas * sigma)) {
    return fit;
  }
  // An offset step keeps each block's margin where it was (estimate/margin_rule.hpp). When
  // the margin moves as much as the estimate, the delays changed instead, not the counters:
  // the change is reported as such.
  double before_sum = 0, after_sum = 0;
  std::size_t before_n = 0, after_n = 0;
  for (const BlockEstimate& b : pb) {
    if (b.last_round <= step.first_round_after && b.first_round < step.first_round_after) {
      before_sum += b.margin_ticks;
      ++before_n;
    } else if (b.first_round >= step.first_round_after) {
      after_sum += b.margin_ticks;
      ++after_n;
    }
  }
  if (before_n > 0 && after_n > 0) {
    fit.split_margin_change_ticks = after_sum / as_double(after_n) - before_sum / as_double(before_n);
  }
  if (!margin_kept(fit.split_margin_change_ticks, step.size_ticks, static_cast<double>(quantum_ticks))) {
    fit.delays_changed = true;
    return fit;
  }
  fit.step = step;
  return fit;
}

}  // namespace tscaudit
