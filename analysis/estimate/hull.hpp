// Convex hulls of (time, bound) points, with exact integer orientation tests.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace tscaudit {

/// A constraint point: x in ticks of a's counter relative to the run's reference time,
/// y a bound on the offset in ticks (a forward bound U = t2 - t1, or a reverse bound
/// L = t3 - t4 = -rev).
struct Point {
  std::int64_t x = 0;
  std::int64_t y = 0;
  friend bool operator==(const Point&, const Point&) = default;
};

namespace hull_detail {

__extension__ using Int128 = __int128;  // GCC/Clang extension, exact for 2^62 products

/// The sign of the cross product (b - a) x (c - a): > 0 a left turn, < 0 a right turn.
/// Exact for coordinates up to 2^62 in magnitude: the two products are compared in 64
/// bits when neither overflows (the usual case: x spans up to ~2^40 ticks, y differences
/// a few thousand), and in 128 bits otherwise.
inline int turn(const Point& a, const Point& b, const Point& c) {
  const std::int64_t dx1 = b.x - a.x, dy1 = b.y - a.y, dx2 = c.x - a.x, dy2 = c.y - a.y;
  std::int64_t p = 0, r = 0;
  if (!__builtin_mul_overflow(dx1, dy2, &p) && !__builtin_mul_overflow(dy1, dx2, &r)) {
    return (p > r) - (p < r);
  }
  const Int128 p128 = static_cast<Int128>(dx1) * dy2, r128 = static_cast<Int128>(dy1) * dx2;
  return (p128 > r128) - (p128 < r128);
}

}  // namespace hull_detail

/// A hull built one point at a time (Andrew's monotone chain, O(1) amortized per point),
/// so that a pass over the rounds needs no array of all their points.
/// KeepTurn > 0 builds the lower hull (a line lies on or below every point iff it lies on
/// or below every vertex), < 0 the upper hull. Collinear middle points are dropped; for
/// equal x only the extreme y can be a vertex.
/// \pre points are added sorted by x ascending (ties in any order).
template <int KeepTurn>
class HullChain {
 public:
  void add(const Point& p) {
    if (!hull_.empty() && hull_.back().x == p.x) {
      const bool better = KeepTurn > 0 ? p.y < hull_.back().y : p.y > hull_.back().y;
      if (!better) return;
      hull_.pop_back();
    }
    while (hull_.size() >= 2) {
      const int t = hull_detail::turn(hull_[hull_.size() - 2], hull_.back(), p);
      if (KeepTurn > 0 ? t > 0 : t < 0) break;
      hull_.pop_back();
    }
    hull_.push_back(p);
  }
  /// The vertices so far, left to right.
  [[nodiscard]] const std::vector<Point>& vertices() const { return hull_; }
  [[nodiscard]] std::vector<Point> take() { return std::move(hull_); }

 private:
  std::vector<Point> hull_;
};

using LowerHullChain = HullChain<+1>;
using UpperHullChain = HullChain<-1>;

/// Lower convex hull, left to right. \pre points sorted by x ascending (ties in any order).
std::vector<Point> lower_hull(std::span<const Point> points);

/// Upper convex hull, left to right. \pre points sorted by x ascending.
std::vector<Point> upper_hull(std::span<const Point> points);

}  // namespace tscaudit
