#include "estimate/bounds.hpp"

#include <algorithm>
#include <optional>

namespace tscaudit {
namespace {

Point upper_bound_of(const Round& r, std::uint64_t t_ref) { return {x_of(r.t1, t_ref), fwd_ticks(r)}; }
Point lower_bound_of(const Round& r, std::uint64_t t_ref) { return {x_of(r.t4, t_ref), -rev_ticks(r)}; }

/// The `capacity` points of a bin that come first under `Before` (smallest y for the
/// forward bounds, largest for the reverse ones): a bounded heap whose top is the last
/// point kept, so that most points cost one comparison.
template <class Before>
class FirstPoints {
 public:
  explicit FirstPoints(std::size_t capacity) : capacity_(capacity) { heap_.reserve(capacity); }

  /// The usual case, a point that does not come before the last one kept, costs one
  /// comparison here, with the last one kept held aside (not behind the vector's
  /// pointers); the heap work is kept out of line so that this inlines.
  void offer(const Point& p) {
    if (full_ && !before_(p, last_kept_)) return;
    insert(p);
  }

  /// The points kept, first first; the heap is empty afterwards.
  std::vector<Point>& drain() {
    std::sort_heap(heap_.begin(), heap_.end(), before_);
    return heap_;
  }
  void clear() {
    heap_.clear();
    full_ = false;
  }

 private:
  [[gnu::noinline]] void insert(const Point& p) {
    if (heap_.size() < capacity_) {
      heap_.push_back(p);
      std::push_heap(heap_.begin(), heap_.end(), before_);
    } else {
      std::pop_heap(heap_.begin(), heap_.end(), before_);
      heap_.back() = p;
      std::push_heap(heap_.begin(), heap_.end(), before_);
    }
    full_ = heap_.size() == capacity_;
    last_kept_ = heap_.front();
  }

  std::size_t capacity_;
  Before before_;
  std::vector<Point> heap_;
  bool full_ = false;  // heap_ holds capacity_ points
  Point last_kept_;    // heap_.front()
};

struct SmallerY {
  bool operator()(const Point& p, const Point& q) const { return p.y < q.y; }
};
struct LargerY {
  bool operator()(const Point& p, const Point& q) const { return p.y > q.y; }
};

/// Rounds per chunk of the hull filter.
constexpr std::size_t kChunkRounds = 512;

/// The lowest forward bound and the highest reverse bound of a chunk of rounds, and
/// where in the chunk they are (the first of equal ones).
struct Extremes {
  Point lowest_upper;
  Point highest_lower;
  std::size_t lowest_upper_at = 0;
  std::size_t highest_lower_at = 0;
};

/// The k = 1 hulls of rounds in time order, fed a chunk at a time, one chunk behind.
///
/// Most rounds cannot be hull vertices, and testing them is cheap when the test nearly
/// always gives the same answer: a chunk's rounds go to the hull chains (whose pop-or-keep
/// decisions are unpredictable branches) only if they lie strictly below the lower hull of
/// the lowest forward bounds of the chunk and its two neighbours (for U; strictly above
/// the upper hull of the highest reverse bounds for L), and the chunk's own extreme goes
/// too. This is exact. Those extremes are some of the points, so the hull of all points
/// lies on or below their hull H wherever H is defined. A point strictly above H is
/// strictly above the hull of all, so not a vertex of it. A point on H is either one of
/// H's vertices, which each go to the chain from their own chunk (a point equal to one
/// adds nothing), or lies inside an edge of H: if it were on the hull of all, that hull,
/// convex and below H at the edge's ends, would follow the edge, and the point would be a
/// collinear middle point, which the chain drops. Points outside the x-range of the three
/// are kept. With a quantum many rounds share the chunk's lowest bound, and they lie on
/// H: keeping only those strictly beyond spares the chains most of them.
class HullFilter {
 public:
  LowerHullChain upper;  // the lower hull of U
  UpperHullChain lower;  // the upper hull of L

  /// \pre chunks arrive in time order, each with its extremes.
  void add_chunk(std::span<const Round> chunk, const Extremes& extremes, std::uint64_t origin) {
    if (!pending_.empty()) filter(pending_, before_, &pending_extremes_, &extremes, origin);
    before_ = pending_.empty() ? std::optional<Extremes>() : std::optional<Extremes>(pending_extremes_);
    pending_ = chunk;
    pending_extremes_ = extremes;
  }
  /// Feeds the last chunk.
  void finish(std::uint64_t origin) {
    if (!pending_.empty()) filter(pending_, before_, &pending_extremes_, nullptr, origin);
    pending_ = {};
  }

 private:
  /// The hull of a chunk's extremes and its neighbours', for the test of one side.
  struct Envelope {
    std::vector<Point> hull;    // at most three vertices, distinct x ascending
    std::int64_t beyond_y = 0;  // the highest vertex y (U), lowest (L): a point in the
                                // x-range this far out or farther is on or beyond
  };

  void filter(std::span<const Round> chunk, const std::optional<Extremes>& before, const Extremes* self,
              const Extremes* after, std::uint64_t origin) {
    LowerHullChain low_chain;
    UpperHullChain high_chain;
    for (const Extremes* e : {before ? &*before : nullptr, self, after}) {
      if (e == nullptr) continue;
      low_chain.add(e->lowest_upper);
      high_chain.add(e->highest_lower);
    }
    Envelope low{low_chain.take(), 0}, high{high_chain.take(), 0};
    if (!low.hull.empty()) low.beyond_y = std::max_element(low.hull.begin(), low.hull.end(), by_y)->y;
    if (!high.hull.empty()) high.beyond_y = std::min_element(high.hull.begin(), high.hull.end(), by_y)->y;
    for (std::size_t j = 0; j < chunk.size(); ++j) {
      const Round& r = chunk[j];
      const Point u = upper_bound_of(r, origin);
      if (j == self->lowest_upper_at || !on_or_beyond(low, u, +1)) upper.add(u);
      const Point l = lower_bound_of(r, origin);
      if (j == self->highest_lower_at || !on_or_beyond(high, l, -1)) lower.add(l);
    }
  }

  static bool by_y(const Point& p, const Point& q) { return p.y < q.y; }

  /// Whether p lies on or above (side +1) or on or below (side -1) the envelope; false
  /// outside its x-range, or when it has fewer than two vertices.
  static bool on_or_beyond(const Envelope& e, const Point& p, int side) {
    const std::vector<Point>& hull = e.hull;
    if (hull.size() < 2 || p.x < hull.front().x || p.x > hull.back().x) return false;
    // Between its ends the hull lies between its lowest and highest vertex: the usual
    // case needs no orientation test.
    if (side > 0 ? p.y >= e.beyond_y : p.y <= e.beyond_y) return true;
    const std::size_t i = hull.size() == 3 && p.x > hull[1].x ? 1 : 0;
    return hull_detail::turn(hull[i], hull[i + 1], p) * side >= 0;
  }

  std::span<const Round> pending_;  // the chunk waiting for its right neighbour
  Extremes pending_extremes_;
  std::optional<Extremes> before_;  // the extremes of the chunk before it
};

/// A bin is complete: hands its k-th smallest forward and k-th largest reverse bound to
/// `take(j, upper, lower)` for each ks[j], and empties the selections for the next bin.
template <class Take>
void finish_bin(FirstPoints<SmallerY>& up, FirstPoints<LargerY>& low, std::span<const std::uint64_t> ks, Take take) {
  const std::vector<Point>& smallest = up.drain();
  const std::vector<Point>& largest = low.drain();
  for (std::size_t j = 0; j < ks.size(); ++j) {
    take(j, smallest[static_cast<std::size_t>(ks[j] - 1)], largest[static_cast<std::size_t>(ks[j] - 1)]);
  }
  up.clear();
  low.clear();
}

void sort_by_x(std::vector<Point>& v) {
  const auto by_x = [](const Point& p, const Point& q) { return p.x < q.x; };
  if (!std::is_sorted(v.begin(), v.end(), by_x)) std::sort(v.begin(), v.end(), by_x);
}

/// Every bin's k-th bounds, bin by bin: `take(bin, j, upper, lower)` for each ks[j].
/// Bin i holds the rounds [i n / bins, (i + 1) n / bins) by index, as in collect_bounds.
template <class Take>
void for_each_bin_kth(std::span<const Round> rounds, std::uint64_t t_ref_tick, std::span<const std::uint64_t> ks,
                      std::size_t bins, Take take) {
  if (ks.empty()) return;
  const auto k_max = static_cast<std::size_t>(ks.back());
  FirstPoints<SmallerY> up(k_max);
  FirstPoints<LargerY> low(k_max);
  const std::size_t n = rounds.size();
  for (std::size_t bin = 0; bin < bins; ++bin) {
    for (std::size_t i = bin * n / bins; i < (bin + 1) * n / bins; ++i) {
      up.offer(upper_bound_of(rounds[i], t_ref_tick));
      low.offer(lower_bound_of(rounds[i], t_ref_tick));
    }
    finish_bin(up, low, ks, [&](std::size_t j, const Point& upper, const Point& lower) { take(bin, j, upper, lower); });
  }
}

/// The k-th bounds of every bin as collect_bounds finds them, kept, sorted by x and then
/// hulled: for rounds out of time order, whose bins' points do not come in x order.
void kth_hulls_out_of_order(std::span<const Round> rounds, std::uint64_t t_ref_tick, std::span<const std::uint64_t> ks,
                            std::size_t bins, BoundSets& out) {
  std::vector<std::vector<Point>> uppers(ks.size()), lowers(ks.size());
  for_each_bin_kth(rounds, t_ref_tick, ks, bins,
                   [&](std::size_t /*bin*/, std::size_t j, const Point& upper, const Point& lower) {
                     uppers[j].push_back(upper);
                     lowers[j].push_back(lower);
                   });
  for (std::size_t j = 0; j < ks.size(); ++j) {
    sort_by_x(uppers[j]);
    sort_by_x(lowers[j]);
    out.kth_upper.push_back(lower_hull(uppers[j]));
    out.kth_lower.push_back(upper_hull(lowers[j]));
  }
}

}  // namespace

BoundSets collect_bounds(std::span<const Round> rounds, std::span<const std::uint64_t> ks, std::size_t bins) {
  BoundSets out;
  out.ks.assign(ks.begin(), ks.end());
  // One point per bin and k, in bin order: in time order, so the hulls grow as they come.
  std::vector<LowerHullChain> kth_upper(ks.size());
  std::vector<UpperHullChain> kth_lower(ks.size());
  const std::size_t k_max = ks.empty() ? 0 : static_cast<std::size_t>(ks.back());
  FirstPoints<SmallerY> up(k_max);
  FirstPoints<LargerY> low(k_max);
  HullFilter hulls;
  const std::size_t n = rounds.size();
  // x is first taken from the first round's t1 (the reference time is not known before
  // the end of the pass), then moved: hulls and order statistics do not change shape
  // under a shift of x.
  const std::uint64_t origin = rounds.front().t1;
  std::uint64_t first_tick = origin, last_tick = rounds.front().t4;
  std::int64_t last_x1 = 0, last_x4 = x_of(rounds.front().t4, origin);
  bool in_time_order = true;  // locals: out's fields would be stored every round
  std::size_t reversals = 0;
  std::size_t bin = 0;
  std::size_t bin_last = n / bins;  // one past the current bin's last round
  for (std::size_t chunk_first = 0; chunk_first < n; chunk_first += kChunkRounds) {
    const std::size_t chunk_last = std::min(n, chunk_first + kChunkRounds);
    Extremes extremes{upper_bound_of(rounds[chunk_first], origin), lower_bound_of(rounds[chunk_first], origin), 0, 0};
    for (std::size_t i = chunk_first; i < chunk_last; ++i) {
      const Round& r = rounds[i];
      prefetch_ahead(rounds.data(), i, n);
      first_tick = std::min(first_tick, r.t1);
      last_tick = std::max(last_tick, r.t4);
      const Point u = upper_bound_of(r, origin);
      const Point l = lower_bound_of(r, origin);
      const bool reversed = u.x < last_x1 || l.x < last_x4;
      reversals += reversed ? 1U : 0U;
      in_time_order = in_time_order && !reversed;
      last_x1 = u.x;
      last_x4 = l.x;
      if (u.y < extremes.lowest_upper.y) {
        extremes.lowest_upper = u;
        extremes.lowest_upper_at = i - chunk_first;
      }
      if (l.y > extremes.highest_lower.y) {
        extremes.highest_lower = l;
        extremes.highest_lower_at = i - chunk_first;
      }
      if (k_max == 0) continue;
      up.offer(u);
      low.offer(l);
      if (i + 1 == bin_last) {  // the bin is complete: its k-th bounds
        finish_bin(up, low, ks, [&](std::size_t j, const Point& upper, const Point& lower) {
          if (!in_time_order) return;  // the hulls are made again from sorted points
          kth_upper[j].add(upper);
          kth_lower[j].add(lower);
        });
        ++bin;
        bin_last = (bin + 1) * n / bins;
      }
    }
    if (in_time_order) hulls.add_chunk(rounds.subspan(chunk_first, chunk_last - chunk_first), extremes, origin);
  }
  out.in_time_order = in_time_order;
  out.time_reversals = reversals;
  if (in_time_order) hulls.finish(origin);
  // Rounds whose t4 precede their t1 (a's counter ran backwards) can leave every t4
  // before the first t1: the span is then empty, not a wrap of 2^64 (a run across a wrap
  // of the counter keeps its span, a small positive difference modulo 2^64).
  if (diff_ticks(last_tick, first_tick) < 0) last_tick = first_tick;
  out.first_tick = first_tick;
  out.last_tick = last_tick;
  out.t_ref_tick = first_tick + (last_tick - first_tick) / 2;
  const std::int64_t shift = x_of(out.t_ref_tick, origin);
  auto move_x = [shift](std::vector<Point>& points) {
    for (Point& p : points) p.x -= shift;
  };
  const std::uint64_t t_ref_tick = out.t_ref_tick;
  if (out.in_time_order) {
    out.upper_hull = hulls.upper.take();
    out.lower_hull = hulls.lower.take();
    move_x(out.upper_hull);
    move_x(out.lower_hull);
    for (std::size_t j = 0; j < ks.size(); ++j) {
      out.kth_upper.push_back(kth_upper[j].take());
      out.kth_lower.push_back(kth_lower[j].take());
      move_x(out.kth_upper.back());
      move_x(out.kth_lower.back());
    }
    return out;
  }
  // Out of time order: every bin's order statistics and every bound, sorted, then the
  // hulls.
  kth_hulls_out_of_order(rounds, t_ref_tick, ks, bins, out);
  std::vector<Point> all;
  all.reserve(n);
  for (const Round& r : rounds) all.push_back(upper_bound_of(r, t_ref_tick));
  sort_by_x(all);
  out.upper_hull = lower_hull(all);
  all.clear();
  for (const Round& r : rounds) all.push_back(lower_bound_of(r, t_ref_tick));
  sort_by_x(all);
  out.lower_hull = upper_hull(all);
  return out;
}

std::vector<std::vector<TimedBound>> bin_bounds(std::span<const Round> rounds, std::uint64_t t_ref_tick,
                                                std::span<const std::uint64_t> ks, std::size_t bins) {
  std::vector<std::vector<TimedBound>> out(ks.size());
  for (auto& bounds : out) bounds.reserve(2 * bins);
  for_each_bin_kth(rounds, t_ref_tick, ks, bins,
                   [&](std::size_t bin, std::size_t j, const Point& upper, const Point& lower) {
                     out[j].push_back({upper, true, bin});
                     out[j].push_back({lower, false, bin});
                   });
  return out;
}

}  // namespace tscaudit
