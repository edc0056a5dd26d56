#include "hull.hpp"

namespace tscsync {
namespace {

__extension__ using Int128 = __int128;  // GCC/Clang extension, exact for 2^62 products

/// Cross product (b - a) x (c - a), exact: coordinates up to 2^62 in magnitude.
Int128 cross(const Point& a, const Point& b, const Point& c) {
  return static_cast<Int128>(b.x - a.x) * (c.y - a.y) - static_cast<Int128>(b.y - a.y) * (c.x - a.x);
}

/// `keep_turn` > 0 keeps left turns (lower hull), < 0 keeps right turns (upper hull).
std::vector<Point> chain(std::span<const Point> points, int keep_turn) {
  std::vector<Point> hull;
  for (const Point& p : points) {
    if (!hull.empty() && hull.back().x == p.x) {
      // Same abscissa: only the extreme y can be on this hull.
      const bool better = keep_turn > 0 ? p.y < hull.back().y : p.y > hull.back().y;
      if (!better) continue;
      hull.pop_back();
    }
    while (hull.size() >= 2) {
      const Int128 c = cross(hull[hull.size() - 2], hull.back(), p);
      if ((keep_turn > 0 && c > 0) || (keep_turn < 0 && c < 0)) break;
      hull.pop_back();
    }
    hull.push_back(p);
  }
  return hull;
}

}  // namespace

std::vector<Point> lower_hull(std::span<const Point> points) { return chain(points, +1); }

std::vector<Point> upper_hull(std::span<const Point> points) { return chain(points, -1); }

}  // namespace tscsync
