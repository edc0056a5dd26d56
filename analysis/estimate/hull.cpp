#include "estimate/hull.hpp"

namespace tscaudit {

std::vector<Point> lower_hull(std::span<const Point> points) {
  LowerHullChain chain;
  for (const Point& p : points) chain.add(p);
  return chain.take();
}

std::vector<Point> upper_hull(std::span<const Point> points) {
  UpperHullChain chain;
  for (const Point& p : points) chain.add(p);
  return chain.take();
}

}  // namespace tscaudit
