#include "monitor/interval_pieces.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "estimate/level_shifts.hpp"

namespace tscaudit {
namespace {

std::uint64_t tick_at(std::uint64_t t_ref, double x) {
  return t_ref + static_cast<std::uint64_t>(static_cast<std::int64_t>(std::llround(x)));
}

/// One piece as the log's intervals: the first and last interval that gave its bounds.
MonitorPiece piece_of(const MonitorAnalysis& m, const std::vector<IntervalSummary>& iv, std::size_t lo_source,
                      std::size_t hi_source, const EnvelopeFit& fit, const LineEstimate& line, bool zero_drift) {
  MonitorPiece mp;
  mp.first_interval = iv[lo_source].index;
  mp.last_interval = iv[hi_source].index;
  mp.t_ref_tick = iv[lo_source].start_tick + (iv[hi_source].end_tick - iv[lo_source].start_tick) / 2;
  mp.fit = fit;
  mp.line = line;
  mp.zero_drift = zero_drift;
  const double x = static_cast<double>(x_of(mp.t_ref_tick, m.t_ref_tick));
  mp.offset_ticks = line.at(x);
  mp.margin_ticks = line.margin_ticks;
  mp.drift_ppb = line.drift * 1e9;
  mp.drift_identifiable = !fit.line.drift_at_prior_bound;
  if (fit.band.feasible) {
    mp.offset_lo_ticks = fit.band.offset_lo_at(x);
    mp.offset_hi_ticks = fit.band.offset_hi_at(x);
    mp.drift_lo_ppb = fit.band.drift_lo * 1e9;
    mp.drift_hi_ppb = fit.band.drift_hi * 1e9;
  }
  return mp;
}

/// Which piece a time belongs to. Where a change lies is known only to its window: a
/// bound inside it may belong to either piece. So an interval's picture takes the piece
/// on its side of the window's middle, and a bound counts as an early read only if it
/// lies beyond every piece it may belong to.
class PieceLookup {
 public:
  PieceLookup(const MonitorAnalysis& m, const OffsetSegmentation& seg) : m_(m), seg_(seg) {}

  /// The piece on x's side of every change's middle; none without pieces.
  [[nodiscard]] std::optional<std::size_t> piece_at(double x) const {
    if (m_.pieces.empty()) return std::nullopt;
    std::size_t j = 0;
    while (j < seg_.changes.size() && x > seg_.changes[j].at_x) ++j;
    return j;
  }

  /// An upper bound y + q below every feasible piece x may belong to (and some).
  [[nodiscard]] bool below_every_piece(double y, double x) const {
    const std::vector<std::size_t> near = pieces_near(x);
    return !near.empty() && std::all_of(near.begin(), near.end(),
                                        [&](std::size_t j) { return y + q() < m_.pieces[j].fit.band.offset_lo_at(x); });
  }

  /// A lower bound y - q above every feasible piece x may belong to (and some).
  [[nodiscard]] bool above_every_piece(double y, double x) const {
    const std::vector<std::size_t> near = pieces_near(x);
    return !near.empty() && std::all_of(near.begin(), near.end(),
                                        [&](std::size_t j) { return y - q() > m_.pieces[j].fit.band.offset_hi_at(x); });
  }

 private:
  [[nodiscard]] double q() const { return static_cast<double>(m_.quantum_ticks); }

  [[nodiscard]] std::vector<std::size_t> pieces_near(double x) const {
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<std::size_t> out;
    for (std::size_t j = 0; j < m_.pieces.size(); ++j) {
      const double from = j == 0 || !seg_.resolved ? -inf : seg_.changes[j - 1].window_lo_x;
      const double to = j + 1 == m_.pieces.size() || !seg_.resolved ? inf : seg_.changes[j].window_hi_x;
      if (x >= from && x <= to && m_.pieces[j].fit.band.feasible) out.push_back(j);
    }
    return out;
  }

  const MonitorAnalysis& m_;
  const OffsetSegmentation& seg_;
};

/// One interval's picture at the chosen k (position ki): its own band, its piece's line,
/// what contradicts the whole-run line, and the early reads it proves.
IntervalBand band_of(const IntervalSummary& s, std::size_t ki, const PieceLookup& pieces, const MonitorAnalysis& m) {
  const double qd = static_cast<double>(m.quantum_ticks);
  auto x_at = [&](std::uint64_t tick) { return static_cast<double>(x_of(tick, m.t_ref_tick)); };
  IntervalBand band;
  band.index = s.index;
  band.mid_x = x_at(s.start_tick + (s.end_tick - s.start_tick) / 2);
  const TimedTicks& fk = s.fwd_k[ki];
  const TimedTicks& rk = s.rev_k[ki];
  band.present = fk.present && rk.present;
  if (band.present) {
    band.lo_ticks = static_cast<double>(-rk.value_ticks) - qd;
    band.hi_ticks = static_cast<double>(fk.value_ticks) + qd;
    band.estimate_ticks = (static_cast<double>(fk.value_ticks) - static_cast<double>(rk.value_ticks)) / 2;
  }
  band.piece = pieces.piece_at(band.mid_x);
  if (band.piece && m.pieces[*band.piece].fit.band.feasible) {
    band.line_ticks = m.pieces[*band.piece].line.at(band.mid_x);
  }
  const LineEstimate& whole = m.fit.line;
  if (fk.present && static_cast<double>(fk.value_ticks) + qd < whole.at(x_at(fk.at_tick))) {
    band.excludes_whole_run_line = true;
  }
  if (rk.present && static_cast<double>(-rk.value_ticks) - qd > whole.at(x_at(rk.at_tick))) {
    band.excludes_whole_run_line = true;
  }
  // Early reads, proven: a k-th smallest latency (k up to the chosen one) below every
  // offset the robust band of its piece allows at its time means k rounds were.
  for (std::size_t k = 0; k <= ki; ++k) {
    const TimedTicks& f = s.fwd_k[k];
    if (f.present && pieces.below_every_piece(static_cast<double>(f.value_ticks), x_at(f.at_tick))) {
      band.fwd_violations_at_least = kIntervalKs[k];
    }
    const TimedTicks& r = s.rev_k[k];
    if (r.present && pieces.above_every_piece(static_cast<double>(-r.value_ticks), x_at(r.at_tick))) {
      band.rev_violations_at_least = kIntervalKs[k];
    }
  }
  return band;
}

}  // namespace

/// The position of the interval whose [start, end) holds `tick` (the nearest one outside).
std::size_t interval_at(const std::vector<IntervalSummary>& intervals, std::uint64_t tick) {
  const auto it = std::upper_bound(intervals.begin(), intervals.end(), tick,
                                   [](std::uint64_t t, const IntervalSummary& s) { return t < s.start_tick; });
  return it == intervals.begin() ? 0 : static_cast<std::size_t>(it - intervals.begin()) - 1;
}

/// The pieces at the chosen k. Not resolved (too many pieces to be changes of the
/// offset): one piece, the whole run, with its (crossed) fit. One piece (transients
/// aside) is the run's fit.
void add_pieces(const OffsetSegmentation& seg, const std::vector<IntervalSummary>& iv, MonitorAnalysis& m) {
  m.pieces_resolved = seg.resolved;
  if (!seg.resolved) {
    m.pieces.push_back(piece_of(m, iv, 0, iv.size() - 1, m.free_fit, m.fit.line, m.zero_drift));
    return;
  }
  for (const OffsetPiece& p : seg.pieces) {
    std::size_t lo = iv.size(), hi = 0;  // positions in the log
    for (std::size_t i = p.first; i < p.last; ++i) {
      lo = std::min(lo, seg.bounds[i].source);
      hi = std::max(hi, seg.bounds[i].source);
    }
    m.pieces.push_back(piece_of(m, iv, lo, hi, p.fit, p.line, p.zero_drift));
  }
  if (m.pieces.size() == 1 && m.pieces[0].fit.band.feasible) {
    m.free_fit = m.pieces[0].fit;
    m.fit = m.free_fit;
    m.fit.line = m.pieces[0].line;
    m.zero_drift = m.pieces[0].zero_drift;
  }
}

/// The changes between the pieces, located to their windows.
void add_steps(const OffsetSegmentation& seg, const std::vector<IntervalSummary>& iv, MonitorAnalysis& m) {
  for (const OffsetChange& c : seg.changes) {
    MonitorStep s;
    s.before_piece = c.before;
    s.at_tick = tick_at(m.t_ref_tick, c.at_x);
    s.window_lo_tick = tick_at(m.t_ref_tick, c.window_lo_x);
    s.window_hi_tick = tick_at(m.t_ref_tick, c.window_hi_x);
    s.interval = iv[interval_at(iv, s.at_tick)].index;
    s.window_first_interval = iv[c.window_lo_source].index;
    s.window_last_interval = iv[c.window_hi_source].index;
    s.at_s = monitor_seconds(m, s.at_tick);
    s.size_ticks = c.size_ticks;
    s.size_lo_ticks = c.size_lo_ticks;
    s.size_hi_ticks = c.size_hi_ticks;
    s.proven = c.proven_step;
    m.steps.push_back(s);
  }
}

/// The transients set aside; returns, per position in the log, whether one of its
/// bounds is in one.
std::vector<bool> add_transients(const OffsetSegmentation& seg, const std::vector<IntervalSummary>& iv,
                                 MonitorAnalysis& m) {
  std::vector<bool> aside(iv.size(), false);
  for (const OffsetTransient& t : seg.transients) {
    std::size_t lo = iv.size(), hi = 0;
    for (std::size_t b : t.bounds) {
      lo = std::min(lo, seg.bounds[b].source);
      hi = std::max(hi, seg.bounds[b].source);
      aside[seg.bounds[b].source] = true;
    }
    m.transients.push_back({iv[lo].index, iv[hi].index, t.bounds.size()});
  }
  return aside;
}

/// Per interval: its band (band_of), the sums of proven early reads, and the runs of
/// intervals that contradict the whole-run line.
void add_bands(const OffsetSegmentation& seg, std::size_t ki, const std::vector<bool>& aside,
               const std::vector<IntervalSummary>& iv, MonitorAnalysis& m) {
  const PieceLookup pieces(m, seg);
  for (std::size_t i = 0; i < iv.size(); ++i) {
    const IntervalSummary& s = iv[i];
    IntervalBand band = band_of(s, ki, pieces, m);
    band.set_aside = aside[i];
    m.fwd_violations_at_least += band.fwd_violations_at_least;
    m.rev_violations_at_least += band.rev_violations_at_least;
    if (band.excludes_whole_run_line) {
      if (!m.runs_excluding_line.empty() && m.runs_excluding_line.back().second + 1 == s.index) {
        m.runs_excluding_line.back().second = s.index;
      } else {
        m.runs_excluding_line.emplace_back(s.index, s.index);
      }
    }
    m.bands.push_back(band);
  }
}

/// The statistical view inside each piece: where the intervals' estimates shift while the
/// bands still admit one line (an offset step smaller than the bands, or the delays
/// changing; only the margin tells which is more likely, nothing proves either). The
/// estimates are taken about the piece's line, so that a drift is no shift.
void add_moves(const std::vector<IntervalSummary>& iv, MonitorAnalysis& m) {
  const double qd = static_cast<double>(m.quantum_ticks);
  for (std::size_t j = 0; j < m.pieces.size(); ++j) {
    std::vector<double> values, margins;
    std::vector<std::size_t> where;
    for (std::size_t i = 0; i < m.bands.size(); ++i) {
      const IntervalBand& b = m.bands[i];
      if (!b.present || b.set_aside || b.piece != j || !b.line_ticks) continue;
      values.push_back(b.estimate_ticks - *b.line_ticks);
      margins.push_back((b.hi_ticks - b.lo_ticks) / 2 - qd);
      where.push_back(i);
    }
    for (const LevelShift& shift : find_level_shifts(values, margins, qd)) {
      const IntervalSummary& s = iv[where[shift.first_after]];
      m.moves.push_back({j, s.index, s.start_tick, monitor_seconds(m, s.start_tick), shift.size, shift.residual_sd,
                         shift.margin_change, shift.offset_like});
    }
  }
}

}  // namespace tscaudit
