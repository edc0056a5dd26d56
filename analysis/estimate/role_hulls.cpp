#include "estimate/role_hulls.hpp"

#include <algorithm>

#include "core/run.hpp"

namespace tscaudit {
namespace {

/// Coordinates beyond this leave the hulls' exact orientation test (hull.hpp: 2^62).
constexpr std::int64_t kLimit = std::int64_t{1} << 62;

bool within(std::int64_t v) { return v >= -kLimit && v <= kLimit; }

/// a + b, or nullopt when it leaves ±2^62.
std::optional<std::int64_t> add(std::int64_t a, std::int64_t b) {
  std::int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum) || !within(sum)) return std::nullopt;
  return sum;
}

bool by_x(const Point& p, const Point& q) { return p.x < q.x || (p.x == q.x && p.y < q.y); }

/// Every point (x, y) as (x + y, -y), sorted by x: the other end of each bound's message.
std::optional<std::vector<Point>> turned(const std::vector<Point>& points) {
  std::vector<Point> out;
  out.reserve(points.size());
  for (const Point& p : points) {
    const auto x = add(p.x, p.y);
    if (!x || !within(p.y)) return std::nullopt;
    out.push_back({*x, -p.y});
  }
  std::sort(out.begin(), out.end(), by_x);
  return out;
}

}  // namespace

std::optional<FrameHulls> responder_frame(const FrameHulls& h) {
  // A reverse bound of the initiator's frame (θ >= y) is a forward bound of the
  // responder's (θ' <= -y), and the other way round.
  auto from_lower = turned(h.lower);
  auto from_upper = turned(h.upper);
  if (!from_lower || !from_upper) return std::nullopt;
  FrameHulls r;
  r.t_ref_tick = h.t_ref_tick;
  r.upper = lower_hull(*from_lower);
  r.lower = upper_hull(*from_upper);
  r.quantum_ticks = h.quantum_ticks;
  return r;
}

std::optional<BothRolesFit> fit_both_roles(const FrameHulls& ab, const FrameHulls& ba) {
  if (ab.upper.empty() || ab.lower.empty() || ba.upper.empty() || ba.lower.empty()) return std::nullopt;
  const std::optional<FrameHulls> other = responder_frame(ba);
  if (!other) return std::nullopt;
  // b->a's bounds, now on a's counter, from its own reference: shifted to ab's.
  const std::int64_t shift = diff_ticks(other->t_ref_tick, ab.t_ref_tick);
  if (!within(shift)) return std::nullopt;
  std::vector<Point> upper = ab.upper, lower = ab.lower;
  for (const auto& [from, to] : {std::pair{&other->upper, &upper}, std::pair{&other->lower, &lower}}) {
    for (const Point& p : *from) {
      const auto x = add(p.x, shift);
      if (!x) return std::nullopt;
      to->push_back({*x, p.y});
    }
  }
  for (const std::vector<Point>* set : {&upper, &lower}) {
    for (const Point& p : *set) {
      if (!within(p.x) || !within(p.y)) return std::nullopt;
    }
  }
  // The reference time: the middle of every bound's time, where the band is narrowest.
  std::int64_t first = upper.front().x, last = upper.front().x;
  for (const std::vector<Point>* set : {&upper, &lower}) {
    for (const Point& p : *set) {
      first = std::min(first, p.x);
      last = std::max(last, p.x);
    }
  }
  const std::int64_t middle = first / 2 + last / 2 + (first % 2 + last % 2) / 2;
  for (std::vector<Point>* set : {&upper, &lower}) {
    for (Point& p : *set) p.x -= middle;  // both within ±2^62: the difference fits
    std::sort(set->begin(), set->end(), by_x);
  }
  BothRolesFit fit;
  fit.t_ref_tick = ab.t_ref_tick + static_cast<std::uint64_t>(middle);
  fit.quantum_ticks = std::max(ab.quantum_ticks, ba.quantum_ticks);
  std::vector<Point> u_hull = lower_hull(upper), l_hull = upper_hull(lower);
  fit.free_fit = fit_hulls(u_hull, l_hull, fit.quantum_ticks);
  const HardBand& band = fit.free_fit.band;
  fit.zero_drift = band.feasible && band.drift_lo <= 0 && band.drift_hi >= 0;
  fit.line = fit.zero_drift ? fit_zero_drift(u_hull, l_hull, fit.quantum_ticks).line : fit.free_fit.line;
  return fit;
}

}  // namespace tscaudit
