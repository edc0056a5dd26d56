#include "estimate/role_hulls.hpp"

#include <algorithm>
#include <cmath>

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
  for (std::vector<Point>* set : {&upper, &lower}) std::sort(set->begin(), set->end(), by_x);
  const std::int64_t quantum = std::max(ab.quantum_ticks, ba.quantum_ticks);
  // The reference time: where the band is narrowest. The two roles' bounds need not span
  // the same time (a role in a slow regime takes longer), and away from a role's own rounds
  // its bounds allow more drift; the width of the band, hi(x) − lo(x), is convex in x (a
  // maximum of lines minus a minimum of lines), so a ternary search over the bounds' time
  // finds its least.
  std::int64_t first = upper.front().x, last = upper.front().x;
  for (const std::vector<Point>* set : {&upper, &lower}) {
    first = std::min(first, set->front().x);
    last = std::max(last, set->back().x);
  }
  std::int64_t at = first / 2 + last / 2 + (first % 2 + last % 2) / 2;
  {
    const EnvelopeFit probe = fit_hulls(lower_hull(upper), upper_hull(lower), quantum);
    if (probe.band.feasible) {
      const auto width = [&](double x) { return probe.band.offset_hi_at(x) - probe.band.offset_lo_at(x); };
      double lo = static_cast<double>(first), hi = static_cast<double>(last);
      for (int i = 0; i < 200 && hi - lo > 1; ++i) {
        const double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        if (width(m1) <= width(m2)) {
          hi = m2;
        } else {
          lo = m1;
        }
      }
      at = std::clamp(static_cast<std::int64_t>(std::llround((lo + hi) / 2)), first, last);
    }
  }
  for (std::vector<Point>* set : {&upper, &lower}) {
    for (Point& p : *set) p.x -= at;  // both within ±2^62: the difference fits
  }
  BothRolesFit fit;
  fit.t_ref_tick = ab.t_ref_tick + static_cast<std::uint64_t>(at);
  fit.quantum_ticks = quantum;
  std::vector<Point> u_hull = lower_hull(upper), l_hull = upper_hull(lower);
  fit.free_fit = fit_hulls(u_hull, l_hull, fit.quantum_ticks);
  const HardBand& band = fit.free_fit.band;
  fit.zero_drift = band.feasible && band.drift_lo <= 0 && band.drift_hi >= 0;
  fit.line = fit.zero_drift ? fit_zero_drift(u_hull, l_hull, fit.quantum_ticks).line : fit.free_fit.line;
  return fit;
}

}  // namespace tscaudit
