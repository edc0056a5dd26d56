// Convex hulls of (time, bound) points, with exact integer orientation tests.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace tscsync {

/// A constraint point: x in ticks of a's counter relative to the run's reference time,
/// y a bound on the offset in ticks (a forward bound U = t2 - t1, or a reverse bound
/// L = t3 - t4 = -rev).
struct Point {
  std::int64_t x = 0;
  std::int64_t y = 0;
  friend bool operator==(const Point&, const Point&) = default;
};

/// Lower convex hull, left to right (Andrew's monotone chain, O(n)). A line lies on or
/// below every point iff it lies on or below every vertex returned. Collinear middle
/// points are dropped; for equal x only the lowest y can be a vertex.
/// \pre points sorted by x ascending (ties in any order).
std::vector<Point> lower_hull(std::span<const Point> points);

/// Upper convex hull, left to right: a line lies on or above every point iff it lies on
/// or above every vertex returned. \pre points sorted by x ascending.
std::vector<Point> upper_hull(std::span<const Point> points);

}  // namespace tscsync
