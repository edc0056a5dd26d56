#include "estimate/offset_segments.hpp"

#include <algorithm>
#include <cassert>
#include <functional>
#include <iterator>

namespace tscaudit {
namespace {

using Indices = std::vector<std::size_t>;

/// The points of the bounds named by `indices` (ascending), split by side, each side sorted
/// by x as the fits need: ascending indices are in x order already when the bounds are.
void gather(const std::vector<TimedBound>& bounds, const Indices& indices, BoundOrder order, std::vector<Point>& upper,
            std::vector<Point>& lower) {
  upper.clear();
  lower.clear();
  for (std::size_t i : indices) (bounds[i].upper ? upper : lower).push_back(bounds[i].point);
  if (order == BoundOrder::by_x) return;
  const auto by_x = [](const Point& a, const Point& b) { return a.x < b.x; };
  for (std::vector<Point>* side : {&upper, &lower}) {
    if (!std::is_sorted(side->begin(), side->end(), by_x)) std::stable_sort(side->begin(), side->end(), by_x);
  }
}

struct Segmenter {
  const std::vector<TimedBound>& bounds;
  std::int64_t q;
  BoundOrder order;
  std::vector<Point> upper_scratch, lower_scratch;

  bool admits(const Indices& indices) {
    gather(bounds, indices, order, upper_scratch, lower_scratch);
    if (upper_scratch.empty() || lower_scratch.empty()) return true;
    return fit_envelopes(upper_scratch, lower_scratch, q).band.feasible;
  }

  bool admits_range(std::size_t first, std::size_t last) {
    Indices all(last - first);
    for (std::size_t i = first; i < last; ++i) all[i - first] = i;
    return admits(all);
  }

  /// Bounds of `p` that its fit uses: [first, last) without the set-aside ones.
  [[nodiscard]] static Indices included(const OffsetPiece& p) {
    Indices out;
    out.reserve(p.last - p.first);
    auto aside = p.set_aside.begin();
    for (std::size_t i = p.first; i < p.last; ++i) {
      while (aside != p.set_aside.end() && *aside < i) ++aside;
      if (aside != p.set_aside.end() && *aside == i) continue;
      out.push_back(i);
    }
    return out;
  }

  [[nodiscard]] std::size_t sources(const Indices& indices) const {
    Indices s;
    s.reserve(indices.size());
    for (std::size_t i : indices) s.push_back(bounds[i].source);
    std::sort(s.begin(), s.end());
    return static_cast<std::size_t>(std::unique(s.begin(), s.end()) - s.begin());
  }

  /// Fits `p` on its included bounds; with no detectable drift the line is refitted with
  /// drift 0, the band staying the drift-free one (as analyze does).
  void fit(OffsetPiece& p) {
    gather(bounds, included(p), order, upper_scratch, lower_scratch);
    p.one_sided = upper_scratch.empty() || lower_scratch.empty();
    p.fit = {};
    p.line = {};
    p.zero_drift = false;
    if (p.one_sided) return;
    p.fit = fit_envelopes(upper_scratch, lower_scratch, q);
    p.line = p.fit.line;
    const HardBand& band = p.fit.band;
    p.zero_drift = band.feasible && band.drift_lo <= 0 && band.drift_hi >= 0;
    if (p.zero_drift) p.line = fit_zero_drift(upper_scratch, lower_scratch, q).line;
  }
};

/// The largest m in [lo, hi] with ok(m), given ok(lo) and that ok holds up to some m and
/// not beyond: doubling steps, then bisection. O(log(m - lo)) calls.
std::size_t gallop(std::size_t lo, std::size_t hi, const std::function<bool(std::size_t)>& ok) {
  std::size_t good = lo, step = 1;
  std::size_t bad = hi + 1;
  while (good < hi) {
    const std::size_t probe = std::min(hi, good + step);
    if (ok(probe)) {
      good = probe;
      step *= 2;
    } else {
      bad = probe;
      break;
    }
  }
  while (bad - good > 1) {
    const std::size_t mid = good + (bad - good) / 2;
    if (ok(mid))
      good = mid;
    else
      bad = mid;
  }
  return good;
}

Indices concat(const Indices& a, const Indices& b) {
  Indices out;
  out.reserve(a.size() + b.size());
  out.insert(out.end(), a.begin(), a.end());
  out.insert(out.end(), b.begin(), b.end());
  return out;
}

void add_aside(OffsetPiece& p, std::size_t first, std::size_t last) {
  for (std::size_t i = first; i < last; ++i) p.set_aside.push_back(i);
  std::sort(p.set_aside.begin(), p.set_aside.end());
}

}  // namespace

bool bounds_admit_one_line(std::span<const TimedBound> bounds, std::int64_t quantum_ticks) {
  std::vector<TimedBound> sorted(bounds.begin(), bounds.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const TimedBound& a, const TimedBound& b) { return a.point.x < b.point.x; });
  Segmenter s{sorted, quantum_ticks, BoundOrder::by_x, {}, {}};
  return s.admits_range(0, sorted.size());
}

OffsetSegmentation segment_offset(std::vector<TimedBound> bounds, std::int64_t quantum_ticks, std::size_t min_sources,
                                  std::size_t max_pieces, BoundOrder order) {
  assert(quantum_ticks >= 1 && min_sources >= 1);
  OffsetSegmentation out;
  if (order == BoundOrder::by_x) {
    std::stable_sort(bounds.begin(), bounds.end(),
                     [](const TimedBound& a, const TimedBound& b) { return a.point.x < b.point.x; });
  }
  out.bounds = std::move(bounds);
  const std::size_t n = out.bounds.size();
  if (n == 0) return out;
  Segmenter seg{out.bounds, quantum_ticks, order, {}, {}};

  // 1. Greedy pieces: [first, last) as long as one line fits.
  for (std::size_t first = 0; first < n;) {
    const std::size_t last = gallop(first + 1, n, [&](std::size_t m) { return seg.admits_range(first, m); });
    OffsetPiece p;
    p.first = first;
    p.last = last;
    out.pieces.push_back(std::move(p));
    first = last;
  }
  if (out.pieces.size() > max_pieces) {
    out.resolved = false;
    return out;
  }

  // 2. Weak pieces (too few sources to pin a line, or one-sided) are folded into their
  // neighbours while another piece remains.
  auto weak = [&](const OffsetPiece& p) {
    const Indices inc = Segmenter::included(p);
    bool has_upper = false, has_lower = false;
    for (std::size_t i : inc) (out.bounds[i].upper ? has_upper : has_lower) = true;
    return !has_upper || !has_lower || seg.sources(inc) < min_sources;
  };
  for (bool changed = true; changed && out.pieces.size() > 1;) {
    changed = false;
    for (std::size_t j = 0; j < out.pieces.size() && out.pieces.size() > 1; ++j) {
      if (!weak(out.pieces[j])) continue;
      const OffsetPiece weak_piece = out.pieces[j];
      const Indices candidates = Segmenter::included(weak_piece);
      OffsetPiece* before = j > 0 ? &out.pieces[j - 1] : nullptr;
      OffsetPiece* after = j + 1 < out.pieces.size() ? &out.pieces[j + 1] : nullptr;
      Indices left_out;
      if (before != nullptr && after != nullptr &&
          seg.admits(concat(Segmenter::included(*before), Segmenter::included(*after)))) {
        // The neighbours agree: one piece, the weak one's bounds taken back where they fit.
        OffsetPiece merged;
        merged.first = before->first;
        merged.last = after->last;
        merged.set_aside = before->set_aside;
        for (std::size_t i = weak_piece.first; i < weak_piece.last; ++i) merged.set_aside.push_back(i);
        merged.set_aside.insert(merged.set_aside.end(), after->set_aside.begin(), after->set_aside.end());
        std::sort(merged.set_aside.begin(), merged.set_aside.end());
        for (std::size_t b : candidates) {
          OffsetPiece trial = merged;
          trial.set_aside.erase(std::find(trial.set_aside.begin(), trial.set_aside.end(), b));
          if (seg.admits(Segmenter::included(trial)))
            merged = std::move(trial);
          else
            left_out.push_back(b);
        }
        out.pieces[j - 1] = std::move(merged);
        out.pieces.erase(out.pieces.begin() + static_cast<std::ptrdiff_t>(j),
                         out.pieces.begin() + static_cast<std::ptrdiff_t>(j + 2));
      } else {
        // The neighbours disagree (or there is one): the earlier one takes the weak piece's
        // bounds forward while it fits them, the later one backward; the rest lie aside,
        // inside the earlier piece's range (or the later one's, at the start).
        // Both takings are prefixes (suffixes) of the weak piece's bounds: monotone, so
        // found by galloping.
        std::size_t taken_lo = 0;  // candidates[0, taken_lo) go to `before`
        if (before != nullptr) {
          const Indices base = Segmenter::included(*before);
          taken_lo = gallop(0, candidates.size(), [&](std::size_t count) {
            Indices t = base;
            t.insert(t.end(), candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(count));
            return seg.admits(t);
          });
        }
        std::size_t taken_hi = 0;  // the last taken_hi candidates go to `after`
        if (after != nullptr) {
          const Indices base = Segmenter::included(*after);
          taken_hi = gallop(0, candidates.size() - taken_lo, [&](std::size_t count) {
            Indices t(candidates.end() - static_cast<std::ptrdiff_t>(count), candidates.end());
            t.insert(t.end(), base.begin(), base.end());
            return seg.admits(t);
          });
        }
        // Range split: [first, cut_lo) before, [cut_lo, cut_hi) aside, [cut_hi, last) after.
        const std::size_t cut_lo = taken_lo < candidates.size() ? candidates[taken_lo] : weak_piece.last;
        const std::size_t cut_hi = taken_hi > 0 ? candidates[candidates.size() - taken_hi] : weak_piece.last;
        left_out.assign(candidates.begin() + static_cast<std::ptrdiff_t>(taken_lo),
                        candidates.end() - static_cast<std::ptrdiff_t>(taken_hi));
        // The aside range goes into the earlier piece (into the later one at the start);
        // the weak piece's earlier set-aside bounds stay aside, in whichever range holds them.
        OffsetPiece& holder = before != nullptr ? *before : *after;
        const std::size_t holder_end = before != nullptr ? (after != nullptr ? cut_hi : weak_piece.last) : cut_hi;
        if (before != nullptr) before->last = holder_end;
        if (after != nullptr) after->first = before != nullptr ? cut_hi : weak_piece.first;
        add_aside(holder, cut_lo, holder_end);
        for (std::size_t b : weak_piece.set_aside) {
          OffsetPiece& to = (before != nullptr && b < holder_end) || after == nullptr ? *before : *after;
          to.set_aside.push_back(b);
        }
        for (OffsetPiece* p : {before, after}) {
          if (p == nullptr) continue;
          std::sort(p->set_aside.begin(), p->set_aside.end());
          p->set_aside.erase(std::unique(p->set_aside.begin(), p->set_aside.end()), p->set_aside.end());
        }
        out.pieces.erase(out.pieces.begin() + static_cast<std::ptrdiff_t>(j));
      }
      if (!left_out.empty()) out.transients.push_back({left_out});
      changed = true;
      break;
    }
  }
  // Neighbours that one line fits after the folding (their culprits set aside) are one.
  for (std::size_t j = 0; j + 1 < out.pieces.size();) {
    if (seg.admits(concat(Segmenter::included(out.pieces[j]), Segmenter::included(out.pieces[j + 1])))) {
      OffsetPiece& a = out.pieces[j];
      const OffsetPiece& b = out.pieces[j + 1];
      a.last = b.last;
      a.set_aside.insert(a.set_aside.end(), b.set_aside.begin(), b.set_aside.end());
      out.pieces.erase(out.pieces.begin() + static_cast<std::ptrdiff_t>(j + 1));
    } else {
      ++j;
    }
  }
  for (OffsetPiece& p : out.pieces) seg.fit(p);
  std::sort(out.transients.begin(), out.transients.end(),
            [](const OffsetTransient& a, const OffsetTransient& b) { return a.bounds.front() < b.bounds.front(); });

  // 3. The cuts. The change lies after the last bound of the earlier piece that the later
  // piece's line cannot also fit (the later piece extended backward as far as it goes) and
  // at or before the first bound of the later piece that the earlier line cannot fit.
  for (std::size_t j = 0; j + 1 < out.pieces.size(); ++j) {
    const OffsetPiece& a = out.pieces[j];
    const OffsetPiece& c = out.pieces[j + 1];
    const Indices a_inc = Segmenter::included(a), c_inc = Segmenter::included(c);
    auto a_with_c_prefix = [&](std::size_t m) {
      Indices t = a_inc;
      t.insert(t.end(), c_inc.begin(), c_inc.begin() + static_cast<std::ptrdiff_t>(m));
      return seg.admits(t);
    };
    // m bounds of c fit with all of a; m + 1 do not (m < |c|: a and c disagree).
    const std::size_t m = gallop(0, c_inc.size(), a_with_c_prefix);
    // The earlier piece's suffix from a_inc[s] fits with all of c; from a_inc[s - 1] not.
    auto c_with_a_suffix = [&](std::size_t count) {  // the last `count` bounds of a
      Indices t(a_inc.end() - static_cast<std::ptrdiff_t>(count), a_inc.end());
      t.insert(t.end(), c_inc.begin(), c_inc.end());
      return seg.admits(t);
    };
    const std::size_t suffix = gallop(0, a_inc.size(), c_with_a_suffix);
    OffsetChange ch;
    ch.before = j;
    const std::size_t lo_bound = a_inc[a_inc.size() - 1 - std::min(suffix, a_inc.size() - 1)];
    const std::size_t hi_bound = c_inc[std::min(m, c_inc.size() - 1)];
    ch.window_lo_x = static_cast<double>(out.bounds[lo_bound].point.x);
    ch.window_hi_x = static_cast<double>(out.bounds[hi_bound].point.x);
    ch.window_lo_source = out.bounds[lo_bound].source;
    ch.window_hi_source = out.bounds[hi_bound].source;
    ch.at_x = (ch.window_lo_x + ch.window_hi_x) / 2;
    ch.size_ticks = c.line.at(ch.at_x) - a.line.at(ch.at_x);
    if (a.fit.band.feasible && c.fit.band.feasible) {
      ch.size_lo_ticks = c.fit.band.offset_lo_at(ch.at_x) - a.fit.band.offset_hi_at(ch.at_x);
      ch.size_hi_ticks = c.fit.band.offset_hi_at(ch.at_x) - a.fit.band.offset_lo_at(ch.at_x);
      ch.proven_step = ch.size_lo_ticks > 0 || ch.size_hi_ticks < 0;
    }
    out.changes.push_back(ch);
  }
  return out;
}

}  // namespace tscaudit
