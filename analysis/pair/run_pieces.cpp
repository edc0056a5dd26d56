#include "pair/run_pieces.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <cmath>
#include <optional>
#include <tuple>

#include "estimate/bounds.hpp"
#include "estimate/offset_segments.hpp"

namespace tscaudit {
namespace {

/// The change between two sides: each side's band and line, the jump of the offset (the
/// line after minus the line before) and how far either way the two bands let it be.
struct Change {
  const ChangeSide& before;
  const ChangeSide& after;
  double size_ticks = 0;
  double slack_ticks = 0;  // half the range of jumps the two bands allow
};

/// x of a's tick on a side's own time axis.
double x_on(const ChangeSide& side, std::uint64_t tick) { return static_cast<double>(x_of(tick, side.t_ref_tick)); }

/// A side's bounds on the offset and its line at x (its own axis).
double lo_at(const ChangeSide& side, double x) { return side.band.offset_lo_at(x) + side.drift * x; }
double hi_at(const ChangeSide& side, double x) { return side.band.offset_hi_at(x) + side.drift * x; }
double line_at(const ChangeSide& side, double x) { return side.line.at(x) + side.drift * x; }

/// What one round says of the two pieces.
struct RoundFit {
  bool before = false;        // both bounds fit the band before
  bool after = false;         // both fit the band after
  bool in_flight = false;     // the round straddles the change (RoundSplit::in_flight)
  bool shows_before = false;  // a bound lies on the side before of the lines' middle
  bool shows_after = false;   // a bound lies on the side after of it
};

RoundFit fit_of(const Round& r, double q, const Change& c) {
  const double b1 = x_on(c.before, r.t1), b4 = x_on(c.before, r.t4);
  const double a1 = x_on(c.after, r.t1), a4 = x_on(c.after, r.t4);
  const auto upper = static_cast<double>(fwd_ticks(r));   // theta(t1) <= upper + q
  const auto lower = static_cast<double>(-rev_ticks(r));  // theta(t4) >= lower - q
  const bool upper_before = upper + q >= lo_at(c.before, b1);
  const bool lower_before = lower - q <= hi_at(c.before, b4);
  const bool upper_after = upper + q >= lo_at(c.after, a1);
  const bool lower_after = lower - q <= hi_at(c.after, a4);
  RoundFit f;
  f.before = upper_before && lower_before;
  f.after = upper_after && lower_after;
  // A counter jumped inside the round, b's between its reads t2 and t3 or a's between t1
  // and t4: the forward bound is the old offset's, the reverse bound the new one's, and
  // that counter's span holds the jump (b's by +size, a's by -size: theta = TSC_b -
  // TSC_a). Either no one band fits the round, or the round is impossible for any offset
  // (rtt < -2q, t3 < t2 or t4 < t1) and possible once the jump is taken out of the span.
  const auto rtt = static_cast<double>(rtt_ticks(r));
  const auto a_span = static_cast<double>(diff_ticks(r.t4, r.t1));
  const auto b_span = static_cast<double>(diff_ticks(r.t3, r.t2));
  const double size = c.size_ticks;
  const double slack = q + c.slack_ticks;
  const bool impossible = rtt < -2 * q || a_span < 0 || b_span < 0;
  const bool b_jumped = b_span - size >= -slack && a_span >= -q;
  const bool a_jumped = a_span + size >= -slack && b_span >= -q;
  const bool jump_explains = rtt + size >= -q - slack && (b_jumped || a_jumped);
  f.in_flight = (!f.before && !f.after && upper_before && lower_after) || (impossible && jump_explains);
  // Against the middle of the two lines: an offset that rose shows in the reverse bounds
  // (they rise above the middle) and the forward bounds of the rounds before (below it);
  // one that fell, the other way round.
  const double mid1 = (line_at(c.before, b1) + line_at(c.after, a1)) / 2;
  const double mid4 = (line_at(c.before, b4) + line_at(c.after, a4)) / 2;
  const bool rose = size > 0;
  f.shows_after = rose ? lower > mid4 : upper < mid1;
  f.shows_before = rose ? upper < mid1 : lower > mid4;
  return f;
}

/// The first split in [lo, hi] with the fewest rounds against it by `against(i, after)`
/// (round i on the side after, or before), and the stretch of splits that tie with it.
template <class Against>
std::pair<std::size_t, std::size_t> best_splits(std::size_t w0, std::size_t w1, std::size_t lo, std::size_t hi,
                                                Against against) {
  std::size_t cost = 0;  // the split at w0: every round on the side after
  for (std::size_t i = w0; i < w1; ++i) cost += against(i, true) ? 1U : 0U;
  std::size_t best = std::numeric_limits<std::size_t>::max(), best_lo = lo, best_hi = lo;
  for (std::size_t s = w0; s <= w1; ++s) {
    if (s > w0) {  // round s - 1 moves to the side before
      cost += against(s - 1, false) ? 1U : 0U;
      cost -= against(s - 1, true) ? 1U : 0U;
    }
    if (s < lo || s > hi) continue;
    if (cost < best) {
      best = cost;
      best_lo = best_hi = s;
    } else if (cost == best) {
      best_hi = s;
    }
  }
  return {best_lo, best_hi};
}

/// locate_change (run_pieces.hpp) on the change's sides.
RoundSplit locate(std::span<const Round> rounds, std::size_t w0, std::size_t w1, double q, const Change& change) {
  std::vector<RoundFit> fits;
  fits.reserve(w1 - w0);
  for (std::size_t i = w0; i < w1; ++i) fits.push_back(fit_of(rounds[i], q, change));
  const auto contradicts = [&](std::size_t i, bool after) {
    const RoundFit& f = fits[i - w0];
    return !f.in_flight && !(after ? f.after : f.before);
  };
  const auto [lo, hi] = best_splits(w0, w1, w0, w1, contradicts);
  const auto wrong_side = [&](std::size_t i, bool after) {
    const RoundFit& f = fits[i - w0];
    return after ? f.shows_before : f.shows_after;
  };
  const auto [near_lo, near_hi] = best_splits(w0, w1, lo, hi, wrong_side);
  RoundSplit split;
  split.first_after_lo = lo;
  split.first_after_hi = hi;
  split.first_after = near_lo + (near_hi - near_lo) / 2;
  // A round in flight next to the stretch of best splits (its own index j, or j + 1, in
  // it): the one nearest the split.
  std::optional<std::size_t> in_flight;
  const auto distance = [&](std::size_t j) {
    return std::llabs(static_cast<long long>(j + 1) - static_cast<long long>(split.first_after));
  };
  for (std::size_t j = lo > w0 ? lo - 1 : w0; j <= hi && j < w1; ++j) {
    if (fits[j - w0].in_flight && (!in_flight || distance(j) < distance(*in_flight))) in_flight = j;
  }
  if (in_flight) {  // the change happened inside that round: located exactly
    split.first_after = split.first_after_lo = split.first_after_hi = *in_flight + 1;
    split.in_flight = true;
  }
  return split;
}

/// A change between two pieces (indices into the segmentation's pieces), and the bins
/// [lo_bin, hi_bin] and rounds [w0, w1) searched for it.
struct Candidate {
  std::size_t before_piece = 0;
  std::size_t after_piece = 0;
  std::size_t lo_bin = 0;
  std::size_t hi_bin = 0;
  std::size_t w0 = 0;
  std::size_t w1 = 0;
};

/// A side as the level of one piece of levels_of's bounds: the zero-drift band and midpoint
/// of its bounds.
struct FlatSide {
  HardBand band;
  LineEstimate line;
};

/// Bins of a level taken on each side of a change: near enough that the drift left in the
/// levels (within the longest piece's drift band) moves them by a few ticks at most.
constexpr std::size_t kSideBins = 8;

/// The level of `piece` in bins [from_bin, to_bin]; in all of its bins when that leaves one
/// side of the bounds without any. Infeasible when they cross.
FlatSide flat_side(const OffsetSegmentation& seg, const OffsetPiece& piece, std::size_t from_bin, std::size_t to_bin,
                   double q) {
  const auto level = [&](bool near_only) {
    double min_u = std::numeric_limits<double>::infinity();
    double max_l = -std::numeric_limits<double>::infinity();
    std::size_t aside = 0;
    for (std::size_t i = piece.first; i < piece.last; ++i) {
      while (aside < piece.set_aside.size() && piece.set_aside[aside] < i) ++aside;
      if (aside < piece.set_aside.size() && piece.set_aside[aside] == i) continue;
      const TimedBound& b = seg.bounds[i];
      if (near_only && (b.source < from_bin || b.source > to_bin)) continue;
      const auto y = static_cast<double>(b.point.y);
      if (b.upper) min_u = std::min(min_u, y);
      if (!b.upper) max_l = std::max(max_l, y);
    }
    return std::pair{min_u, max_l};
  };
  auto [min_u, max_l] = level(true);
  if (!std::isfinite(min_u) || !std::isfinite(max_l)) std::tie(min_u, max_l) = level(false);
  FlatSide side;
  side.line.offset_ticks = (min_u + max_l) / 2;
  side.line.margin_ticks = (min_u - max_l) / 2;
  side.band.feasible = max_l - q <= min_u + q;
  side.band.offset_lo_ticks = max_l - q;
  side.band.offset_hi_ticks = min_u + q;
  side.band.top_vertices = {{0.0, min_u + q}};
  side.band.bottom_vertices = {{0.0, max_l - q}};
  return side;
}

/// Where c's change splits the rounds, against the levels of its two pieces (`seg` cut
/// levels_of's bounds under `drift`): a step moves the offset, not the rate, so the two
/// sides run parallel. Each level is taken from its kSideBins bins next to the bins
/// searched, which may hold the other side's rounds. None when a level's bounds cross.
std::optional<RoundSplit> locate_between(std::span<const Round> rounds, std::uint64_t t_ref_tick,
                                         std::int64_t quantum_ticks, const OffsetSegmentation& seg, double drift,
                                         const Candidate& c) {
  const auto q = static_cast<double>(quantum_ticks);
  // No bin before the first: an empty range, so all of the piece's bins.
  const std::size_t before_from = c.lo_bin == 0 ? 1 : c.lo_bin > kSideBins ? c.lo_bin - kSideBins : 0;
  const std::size_t before_to = c.lo_bin == 0 ? 0 : c.lo_bin - 1;
  const FlatSide before = flat_side(seg, seg.pieces[c.before_piece], before_from, before_to, q);
  const FlatSide after = flat_side(seg, seg.pieces[c.after_piece], c.hi_bin + 1, c.hi_bin + kSideBins, q);
  if (!before.band.feasible || !after.band.feasible) return std::nullopt;
  return locate_change(rounds, c.w0, c.w1, quantum_ticks, {before.band, before.line, t_ref_tick, drift},
                       {after.band, after.line, t_ref_tick, drift});
}

/// The bounds as levels: each bin's bounds with `drift` * x taken out (to the tick), at x' =
/// the bin's number times a scale that lets a line through them drift by no more than
/// `slack` (ticks per tick) under the drift prior (kMaxDrift per unit of x'). A piece of
/// few bins fitted on the ticks of a's counter admits a line as steep as the drift prior
/// allows, steep enough to run from one level to the next through the bin that holds a
/// step (greedy pieces end where nothing fits any more, not where the offset changed); a
/// level cannot, and still follows any drift the longest piece's band allows.
std::vector<TimedBound> levels_of(const std::vector<TimedBound>& bounds, double drift, double slack, std::size_t bins) {
  std::int64_t min_x = std::numeric_limits<std::int64_t>::max(), max_x = std::numeric_limits<std::int64_t>::min();
  for (const TimedBound& b : bounds) {
    min_x = std::min(min_x, b.point.x);
    max_x = std::max(max_x, b.point.x);
  }
  const double ticks_per_bin = static_cast<double>(max_x - min_x) / static_cast<double>(bins);
  const double scale = std::max(1.0, slack * ticks_per_bin / kMaxDrift);
  std::vector<TimedBound> out;
  out.reserve(bounds.size());
  for (const TimedBound& b : bounds) {
    const double level = static_cast<double>(b.point.y) - drift * static_cast<double>(b.point.x);
    const auto x = std::llround(static_cast<double>(b.source) * scale);
    out.push_back({{static_cast<std::int64_t>(x), std::llround(level)}, b.upper, b.source});
  }
  return out;
}

/// The piece with the most bins: the best known rate of the two counters. None when no
/// piece has a band.
const OffsetPiece* longest_piece(const OffsetSegmentation& seg) {
  const OffsetPiece* longest = nullptr;
  std::size_t most = 0;
  for (const OffsetPiece& piece : seg.pieces) {
    const std::size_t bins = seg.bounds[piece.last - 1].source - seg.bounds[piece.first].source + 1;
    if (bins > most && piece.fit.band.feasible) {
      most = bins;
      longest = &piece;
    }
  }
  return longest;
}

}  // namespace

RoundSplit locate_change(std::span<const Round> rounds, std::size_t w0, std::size_t w1, std::int64_t quantum_ticks,
                         const ChangeSide& before, const ChangeSide& after) {
  // The jump and its slack at the middle of the rounds searched.
  const std::uint64_t mid_tick =
      rounds[w0].t1 + static_cast<std::uint64_t>(diff_ticks(rounds[w1 - 1].t1, rounds[w0].t1) / 2);
  const double b = x_on(before, mid_tick), a = x_on(after, mid_tick);
  const double lo = lo_at(after, a) - hi_at(before, b);
  const double hi = hi_at(after, a) - lo_at(before, b);
  const Change change{before, after, line_at(after, a) - line_at(before, b), (hi - lo) / 2};
  return locate(rounds, w0, w1, static_cast<double>(quantum_ticks), change);
}

RunPieces find_run_pieces(std::span<const Round> rounds, std::uint64_t t_ref_tick, std::int64_t quantum_ticks,
                          std::span<const std::uint64_t> ks, std::size_t bins) {
  RunPieces out;
  out.ks.assign(ks.begin(), ks.end());
  std::vector<std::vector<TimedBound>> per_k = bin_bounds(rounds, t_ref_tick, ks, bins);
  std::vector<OffsetSegmentation> cut;
  std::vector<double> drifts;
  for (std::vector<TimedBound>& bounds : per_k) {
    drifts.push_back(0);
    // The rate: the drift of the longest piece of the bins' bounds (each bin a source, in
    // round order, which is time order even where a's counter was set back).
    const OffsetSegmentation pieces =
        segment_offset(bounds, quantum_ticks, kMinPieceSources, kMaxPieces, BoundOrder::given);
    const OffsetPiece* longest = pieces.resolved ? longest_piece(pieces) : nullptr;
    if (longest != nullptr) {
      const HardBand& band = longest->fit.band;
      drifts.back() = longest->fit.line.drift;
      const double slack = std::max(drifts.back() - band.drift_lo, band.drift_hi - drifts.back());
      cut.push_back(segment_offset(levels_of(bounds, drifts.back(), slack, bins), quantum_ticks));
    } else {
      cut.push_back(pieces);
    }
    const OffsetSegmentation& seg = cut.back();
    SweepPieces step{seg.resolved, seg.pieces.size(), 0};
    for (const OffsetTransient& t : seg.transients) step.set_aside += t.bounds.size();
    out.sweep.push_back(step);
  }
  const std::optional<std::size_t> chosen = choose_pieces_step(out.sweep);
  if (!chosen) return out;
  out.chosen = true;
  out.k = ks[*chosen];
  const OffsetSegmentation& seg = cut[*chosen];
  out.drift = drifts[*chosen];
  const std::size_t n = rounds.size();
  // One change between each two neighbouring levels: it lies in the bins of its window
  // (estimate/offset_segments.hpp), searched with a bin more either side so that the best
  // split is never at the edge of the rounds searched.
  for (const OffsetChange& change : seg.changes) {
    const std::size_t lo_bin = std::min(change.window_lo_source, change.window_hi_source);
    const std::size_t hi_bin = std::max(change.window_lo_source, change.window_hi_source);
    const std::size_t first_bin = lo_bin > 0 ? lo_bin - 1 : 0;
    const std::size_t last_bin = std::min(bins - 1, hi_bin + 1);
    const Candidate c{change.before, change.before + 1, first_bin, last_bin, first_bin * n / bins,
                      (last_bin + 1) * n / bins};
    if (c.w0 >= c.w1) continue;
    const std::optional<RoundSplit> split = locate_between(rounds, t_ref_tick, quantum_ticks, seg, out.drift, c);
    if (!split) continue;
    // Each side keeps rounds of its own (a round in flight aside).
    const std::size_t previous = out.splits.empty() ? 0 : out.splits.back().first_after;
    const std::size_t own_start = split->first_after - (split->in_flight ? 1 : 0);
    if (own_start <= previous || split->first_after >= n) continue;
    out.splits.push_back(*split);
  }
  return out;
}

}  // namespace tscaudit
