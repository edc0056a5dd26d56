#include "bounds.hpp"

#include <algorithm>

namespace tscsync {
namespace {

std::int64_t x_of(std::uint64_t tick, std::uint64_t t_ref) { return diff_ticks(tick, t_ref); }

Point upper_bound_of(const Round& r, std::uint64_t t_ref) { return {x_of(r.t1, t_ref), fwd_ticks(r)}; }
Point lower_bound_of(const Round& r, std::uint64_t t_ref) { return {x_of(r.t4, t_ref), -rev_ticks(r)}; }

/// The `capacity` points of a bin that come first under `Before` (smallest y for the
/// forward bounds, largest for the reverse ones): a bounded heap whose top is the last
/// point kept, so that most points cost one comparison.
template <class Before>
class FirstPoints {
 public:
  explicit FirstPoints(std::size_t capacity) : capacity_(capacity) { heap_.reserve(capacity); }

  void offer(const Point& p) {
    if (heap_.size() < capacity_) {
      heap_.push_back(p);
      std::push_heap(heap_.begin(), heap_.end(), before_);
    } else if (before_(p, heap_.front())) {
      std::pop_heap(heap_.begin(), heap_.end(), before_);
      heap_.back() = p;
      std::push_heap(heap_.begin(), heap_.end(), before_);
    }
  }

  /// The points kept, first first; the heap is empty afterwards.
  std::vector<Point>& drain() {
    std::sort_heap(heap_.begin(), heap_.end(), before_);
    return heap_;
  }
  void clear() { heap_.clear(); }

 private:
  std::size_t capacity_;
  Before before_;
  std::vector<Point> heap_;
};

struct SmallerY {
  bool operator()(const Point& p, const Point& q) const { return p.y < q.y; }
};
struct LargerY {
  bool operator()(const Point& p, const Point& q) const { return p.y > q.y; }
};

void sort_by_x(std::vector<Point>& v) {
  const auto by_x = [](const Point& p, const Point& q) { return p.x < q.x; };
  if (!std::is_sorted(v.begin(), v.end(), by_x)) std::sort(v.begin(), v.end(), by_x);
}

}  // namespace

BoundSets collect_bounds(std::span<const Round> rounds, std::span<const std::uint64_t> ks, std::size_t bins) {
  BoundSets out;
  out.ks.assign(ks.begin(), ks.end());
  out.kth_upper.resize(ks.size());
  out.kth_lower.resize(ks.size());
  for (std::size_t j = 0; j < ks.size(); ++j) {
    out.kth_upper[j].reserve(bins);
    out.kth_lower[j].reserve(bins);
  }
  const std::size_t k_max = ks.empty() ? 0 : static_cast<std::size_t>(ks.back());
  FirstPoints<SmallerY> up(k_max);
  FirstPoints<LargerY> low(k_max);
  LowerHullChain upper_chain;
  UpperHullChain lower_chain;
  const std::size_t n = rounds.size();
  // x is first taken from the first round's t1 (the reference time is not known before
  // the end of the pass), then moved: hulls and order statistics do not change shape
  // under a shift of x.
  const std::uint64_t origin = rounds.front().t1;
  std::uint64_t first_tick = origin, last_tick = rounds.front().t4;
  std::int64_t last_x1 = 0, last_x4 = x_of(rounds.front().t4, origin);
  for (std::size_t bin = 0; bin < bins; ++bin) {
    const std::size_t first = bin * n / bins, last = (bin + 1) * n / bins;
    for (std::size_t i = first; i < last; ++i) {
      const Round& r = rounds[i];
      first_tick = std::min(first_tick, r.t1);
      last_tick = std::max(last_tick, r.t4);
      const Point u = upper_bound_of(r, origin);
      const Point l = lower_bound_of(r, origin);
      if (out.in_time_order) {
        if (u.x < last_x1 || l.x < last_x4) {
          out.in_time_order = false;
        } else {
          upper_chain.add(u);
          lower_chain.add(l);
          last_x1 = u.x;
          last_x4 = l.x;
        }
      }
      if (k_max > 0) {
        up.offer(u);
        low.offer(l);
      }
    }
    if (k_max == 0) continue;
    const std::vector<Point>& smallest = up.drain();
    const std::vector<Point>& largest = low.drain();
    for (std::size_t j = 0; j < ks.size(); ++j) {
      out.kth_upper[j].push_back(smallest[static_cast<std::size_t>(ks[j] - 1)]);
      out.kth_lower[j].push_back(largest[static_cast<std::size_t>(ks[j] - 1)]);
    }
    up.clear();
    low.clear();
  }
  out.first_tick = first_tick;
  out.last_tick = last_tick;
  out.t_ref_tick = first_tick + (last_tick - first_tick) / 2;
  const std::int64_t shift = x_of(out.t_ref_tick, origin);
  auto move_x = [shift](std::vector<Point>& points) {
    for (Point& p : points) p.x -= shift;
  };
  for (std::size_t j = 0; j < ks.size(); ++j) {
    move_x(out.kth_upper[j]);
    move_x(out.kth_lower[j]);
    sort_by_x(out.kth_upper[j]);
    sort_by_x(out.kth_lower[j]);
  }
  const std::uint64_t t_ref_tick = out.t_ref_tick;
  if (out.in_time_order) {
    out.upper_hull = upper_chain.take();
    out.lower_hull = lower_chain.take();
    move_x(out.upper_hull);
    move_x(out.lower_hull);
    return out;
  }
  // Out of time order: every bound, sorted, then the hulls.
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

}  // namespace tscsync
