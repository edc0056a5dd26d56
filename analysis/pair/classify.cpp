#include "pair/classify.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace tscaudit {
namespace {

/// A min-heap on rtt of the longest rounds so far: its top is the shortest kept.
bool longer(const std::pair<std::uint64_t, std::int64_t>& x, const std::pair<std::uint64_t, std::int64_t>& y) {
  return x.second > y.second;
}

/// An interval that holds every value of a function of x over a chunk's x-range, as
/// computed per round. NaN ends make every test against them fail, which sends the
/// rounds to the full test.
struct Interval {
  double lo = 0;
  double hi = 0;
};

/// offset + drift * x for x in [x_lo, x_hi], computed in double: each rounding is
/// monotone, so the computed line is monotone in x and its extremes lie at the ends.
/// Widened by far more than the rounding (a millionth of a tick, a billionth of the
/// magnitudes), in case a build fuses the multiply-add in one place and not the other.
Interval line_over(double offset, double drift, double x_lo, double x_hi) {
  const double a = offset + drift * x_lo, b = offset + drift * x_hi;
  const double room = 1e-6 + 1e-9 * (std::fabs(offset) + std::fabs(drift) * std::max(std::fabs(x_lo), std::fabs(x_hi)));
  return {std::min(a, b) - room, std::max(a, b) + room};
}

/// The band's lowest offset (min over the bottom corners' lines) or highest (max over the
/// top corners') over [x_lo, x_hi]: between the min (max) of the lines' lows and the min
/// (max) of their highs.
Interval band_edge_over(const std::vector<std::pair<double, double>>& corners, bool lowest, double x_lo, double x_hi) {
  const double start = lowest ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
  Interval out{start, start};
  for (const auto& [drift, offset] : corners) {
    const Interval line = line_over(offset, drift, x_lo, x_hi);
    out.lo = lowest ? std::min(out.lo, line.lo) : std::max(out.lo, line.lo);
    out.hi = lowest ? std::min(out.hi, line.hi) : std::max(out.hi, line.hi);
  }
  return out;
}

}  // namespace

Evidence make_evidence(std::span<const Round> rounds, std::size_t i, std::int64_t value, double beyond) {
  Evidence e;
  e.seq = rounds[i].seq;
  e.value_ticks = value;
  e.beyond_band_ticks = beyond;
  e.since_start_ticks = rounds[i].t1 - rounds.front().t1;
  const std::size_t first = i >= kEvidenceRounds ? i - kEvidenceRounds : 0;
  const std::size_t last = std::min(rounds.size(), i + kEvidenceRounds + 1);
  e.around.assign(rounds.begin() + static_cast<std::ptrdiff_t>(first),
                  rounds.begin() + static_cast<std::ptrdiff_t>(last));
  return e;
}

RoundClassifier::RoundClassifier(PairAnalysis& p, std::span<const Round> rounds)
    : p_(p), rounds_(rounds), q_(p.quantum_ticks), worst_rtt_(-2 * p.quantum_ticks) {}

double RoundClassifier::x_at(std::uint64_t tick) const { return static_cast<double>(x_of(tick, p_.t_ref_tick)); }

double RoundClassifier::lo_at(double x) const {
  return p_.fit.band.feasible ? p_.fit.band.offset_lo_at(x) : p_.fit.line.at(x);
}

double RoundClassifier::hi_at(double x) const {
  return p_.fit.band.feasible ? p_.fit.band.offset_hi_at(x) : p_.fit.line.at(x);
}

void RoundClassifier::rank_round(std::size_t i, std::int64_t rtt) {
  std::vector<std::pair<std::uint64_t, std::int64_t>>& longest = p_.longest_rounds;
  if (longest.size() < kLongestRounds) {
    longest.emplace_back(rounds_[i].seq, rtt);
    std::push_heap(longest.begin(), longest.end(), longer);
  } else if (rtt > longest.front().second) {
    std::pop_heap(longest.begin(), longest.end(), longer);
    longest.back() = {rounds_[i].seq, rtt};
    std::push_heap(longest.begin(), longest.end(), longer);
  }
}

void RoundClassifier::check_backwards(std::size_t i) {
  const Round& r = rounds_[i];
  const std::int64_t a_span = diff_ticks(r.t4, r.t1), b_span = diff_ticks(r.t3, r.t2);
  if (a_span < 0) {
    ++p_.counter_backwards_a;
    if (a_span < worst_a_span_) {
      worst_a_span_ = a_span;
      p_.worst_backwards_a = make_evidence(rounds_, i, a_span, -static_cast<double>(a_span));
    }
  }
  if (b_span < 0) {
    ++p_.counter_backwards_b;
    if (b_span < worst_b_span_) {
      worst_b_span_ = b_span;
      p_.worst_backwards_b = make_evidence(rounds_, i, b_span, -static_cast<double>(b_span));
    }
  }
}

// Classes: a one-way latency below every offset the band allows at its time is a
// causality violation whatever its sign (with b's counter far ahead, an early t2 can
// still give a positive fwd); otherwise a non-negative one is normal and a negative
// one is explained by every offset in the band, or by some (marginal). Below the floor:
// bounds beyond the chosen free fit's supporting lines by more than the quantum (for
// k = 1 there are none).
void RoundClassifier::classify_round(std::size_t i, std::int64_t fwd, std::int64_t rev, std::int64_t rtt) {
  const EnvelopeFit& fit = p_.fit;
  const Round& r = rounds_[i];
  // A one-corner test first: lo_at(x) is the lowest bottom-corner line at x, so it is at
  // most any one bottom corner's line there (and hi_at(x) at least any top corner's):
  // only a round below that line needs the full evaluation.
  const auto [bottom_drift, bottom_offset] =
      fit.band.feasible ? fit.band.bottom_vertices.front() : std::pair{fit.line.drift, fit.line.offset_ticks};
  const auto [top_drift, top_offset] =
      fit.band.feasible ? fit.band.top_vertices.front() : std::pair{fit.line.drift, fit.line.offset_ticks};
  const LineEstimate& robust = p_.free_fit.line;
  const double top = static_cast<double>(fwd + q_);  // theta(t1) <= fwd + q
  const double x1 = x_at(r.t1);
  if (top < bottom_offset + bottom_drift * x1 && top < lo_at(x1)) {
    ++p_.fwd_classes.causality_violation;
    p_.fwd_violation_seqs.push_back(r.seq);
    const double beyond = lo_at(x1) - top;
    if (beyond > worst_fwd_) {
      worst_fwd_ = beyond;
      p_.worst_fwd = make_evidence(rounds_, i, fwd, beyond);
    }
  } else if (fwd >= 0) {
    ++p_.fwd_classes.normal;
  } else if (top >= hi_at(x1)) {
    ++p_.fwd_classes.offset_explained;
  } else {
    ++p_.fwd_classes.marginal;
  }
  const double bottom = static_cast<double>(-rev - q_);  // theta(t4) >= -rev - q
  const double x4 = x_at(r.t4);
  if (bottom > top_offset + top_drift * x4 && bottom > hi_at(x4)) {
    ++p_.rev_classes.causality_violation;
    p_.rev_violation_seqs.push_back(r.seq);
    const double beyond = bottom - hi_at(x4);
    if (beyond > worst_rev_) {
      worst_rev_ = beyond;
      p_.worst_rev = make_evidence(rounds_, i, rev, beyond);
    }
  } else if (rev >= 0) {
    ++p_.rev_classes.normal;
  } else if (bottom <= lo_at(x4)) {
    ++p_.rev_classes.offset_explained;
  } else {
    ++p_.rev_classes.marginal;
  }
  p_.below_floor_fwd += top < robust.at(x1) + robust.margin_ticks;
  p_.below_floor_rev += bottom > robust.at(x4) - robust.margin_ticks;
  if (rtt < -2 * q_) {
    ++p_.self_inconsistent;
    if (rtt < worst_rtt_) {
      worst_rtt_ = rtt;
      p_.worst_rtt = make_evidence(rounds_, i, rtt, static_cast<double>(-2 * q_ - rtt));
    }
  }
}

void RoundClassifier::add(std::size_t first, std::span<const std::int64_t> fwd, std::span<const std::int64_t> rev,
                          std::span<const std::int64_t> rtt, const ChunkExtremes& e) {
  const std::size_t n = fwd.size();
  if (e.min_a_span < 0 || e.min_b_span < 0) [[unlikely]] {
    for (std::size_t j = 0; j < n; ++j) check_backwards(first + j);
  }
  // The longest rounds: none of the chunk can enter a full list whose shortest is at
  // least as long as the chunk's longest.
  if (p_.longest_rounds.size() < kLongestRounds || e.max_rtt > p_.longest_rounds.front().second) {
    for (std::size_t j = 0; j < n; ++j) rank_round(first + j, rtt[j]);
  }
  const EnvelopeFit& fit = p_.fit;
  const auto x1_lo = static_cast<double>(e.time.min_x1), x1_hi = static_cast<double>(e.time.max_x1);
  const auto x4_lo = static_cast<double>(e.time.min_x4), x4_hi = static_cast<double>(e.time.max_x4);
  const Interval lo_at_x1 = fit.band.feasible ? band_edge_over(fit.band.bottom_vertices, true, x1_lo, x1_hi)
                                              : line_over(fit.line.offset_ticks, fit.line.drift, x1_lo, x1_hi);
  const Interval hi_at_x1 = fit.band.feasible ? band_edge_over(fit.band.top_vertices, false, x1_lo, x1_hi)
                                              : line_over(fit.line.offset_ticks, fit.line.drift, x1_lo, x1_hi);
  const Interval lo_at_x4 = fit.band.feasible ? band_edge_over(fit.band.bottom_vertices, true, x4_lo, x4_hi)
                                              : line_over(fit.line.offset_ticks, fit.line.drift, x4_lo, x4_hi);
  const Interval hi_at_x4 = fit.band.feasible ? band_edge_over(fit.band.top_vertices, false, x4_lo, x4_hi)
                                              : line_over(fit.line.offset_ticks, fit.line.drift, x4_lo, x4_hi);
  const LineEstimate& robust = p_.free_fit.line;
  const Interval robust_x1 = line_over(robust.offset_ticks, robust.drift, x1_lo, x1_hi);
  const Interval robust_x4 = line_over(robust.offset_ticks, robust.drift, x4_lo, x4_hi);
  // fl(at + margin) is monotone in at, so the floors' ends are the ends' floors.
  const Interval floor_fwd{robust_x1.lo + robust.margin_ticks, robust_x1.hi + robust.margin_ticks};
  const Interval floor_rev{robust_x4.lo - robust.margin_ticks, robust_x4.hi - robust.margin_ticks};
  std::uint64_t fwd_normal = 0, fwd_explained = 0, fwd_marginal = 0, rev_normal = 0, rev_explained = 0,
                rev_marginal = 0, below_fwd = 0, below_rev = 0;
  for (std::size_t j = 0; j < n; ++j) {
    const double top = static_cast<double>(fwd[j] + q_);
    const double bottom = static_cast<double>(-rev[j] - q_);
    // A violation needs a forward top below lo_at, a reverse bottom above hi_at, or an
    // rtt below -2q: a round that the intervals do not rule out takes every full test.
    if (!(top >= lo_at_x1.hi) || !(bottom <= hi_at_x4.lo) || rtt[j] < -2 * q_) [[unlikely]] {
      classify_round(first + j, fwd[j], rev[j], rtt[j]);
      continue;
    }
    // Each test counts its settled cases without a branch; a value inside the interval
    // (rare: at the band's edge or on the floor) takes the full test.
    const bool fwd_negative = fwd[j] < 0;
    const bool fwd_explained_now = fwd_negative && top >= hi_at_x1.hi;
    const bool fwd_marginal_now = fwd_negative && top < hi_at_x1.lo;
    fwd_normal += !fwd_negative;
    fwd_explained += fwd_explained_now;
    fwd_marginal += fwd_marginal_now;
    if (fwd_negative && !fwd_explained_now && !fwd_marginal_now) [[unlikely]] {
      (top >= hi_at(x_at(rounds_[first + j].t1)) ? fwd_explained : fwd_marginal) += 1;
    }
    const bool rev_negative = rev[j] < 0;
    const bool rev_explained_now = rev_negative && bottom <= lo_at_x4.lo;
    const bool rev_marginal_now = rev_negative && bottom > lo_at_x4.hi;
    rev_normal += !rev_negative;
    rev_explained += rev_explained_now;
    rev_marginal += rev_marginal_now;
    if (rev_negative && !rev_explained_now && !rev_marginal_now) [[unlikely]] {
      (bottom <= lo_at(x_at(rounds_[first + j].t4)) ? rev_explained : rev_marginal) += 1;
    }
    const bool below_fwd_now = top < floor_fwd.lo;
    below_fwd += below_fwd_now;
    if (!below_fwd_now && !(top >= floor_fwd.hi)) [[unlikely]] {
      below_fwd += top < robust.at(x_at(rounds_[first + j].t1)) + robust.margin_ticks;
    }
    const bool below_rev_now = bottom > floor_rev.hi;
    below_rev += below_rev_now;
    if (!below_rev_now && !(bottom <= floor_rev.lo)) [[unlikely]] {
      below_rev += bottom > robust.at(x_at(rounds_[first + j].t4)) - robust.margin_ticks;
    }
  }
  p_.fwd_classes.normal += fwd_normal;
  p_.fwd_classes.offset_explained += fwd_explained;
  p_.fwd_classes.marginal += fwd_marginal;
  p_.rev_classes.normal += rev_normal;
  p_.rev_classes.offset_explained += rev_explained;
  p_.rev_classes.marginal += rev_marginal;
  p_.below_floor_fwd += below_fwd;
  p_.below_floor_rev += below_rev;
}

void RoundClassifier::finish() {
  std::sort_heap(p_.longest_rounds.begin(), p_.longest_rounds.end(), longer);  // longest first
}

}  // namespace tscaudit
