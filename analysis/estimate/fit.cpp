#include "estimate/fit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tscaudit {
namespace {

using Real = long double;

/// Differences of m at consecutive candidates below this count as equal (a plateau).
constexpr Real kTieTicks = 1e-7L;

/// g(rho) = min over U-hull vertices of (y - rho x): the highest offset at x = 0 of a
/// line of slope rho below every forward bound. Concave in rho.
Real g_of(const std::vector<Point>& u_hull, Real rho) {
  Real best = std::numeric_limits<Real>::infinity();
  for (const Point& p : u_hull) best = std::min(best, static_cast<Real>(p.y) - rho * static_cast<Real>(p.x));
  return best;
}

/// h(rho) = max over L-hull vertices of (y - rho x): the lowest offset at x = 0 of a line
/// of slope rho above every reverse bound. Convex in rho.
Real h_of(const std::vector<Point>& l_hull, Real rho) {
  Real best = -std::numeric_limits<Real>::infinity();
  for (const Point& p : l_hull) best = std::max(best, static_cast<Real>(p.y) - rho * static_cast<Real>(p.x));
  return best;
}

/// Slopes of the hull's edges that lie strictly inside the prior box: the breakpoints of
/// g (lower hull of U) or h (upper hull of L).
void add_edge_slopes(const std::vector<Point>& hull, std::vector<Real>& out) {
  for (std::size_t i = 1; i < hull.size(); ++i) {
    const Real s = static_cast<Real>(hull[i].y - hull[i - 1].y) / static_cast<Real>(hull[i].x - hull[i - 1].x);
    if (s > -kMaxDrift && s < kMaxDrift) out.push_back(s);
  }
}

struct Problem {
  std::vector<Point> u_hull;
  std::vector<Point> l_hull;
  std::vector<Real> candidates;  // sorted breakpoints of m = (g - h) / 2, plus the box edges

  [[nodiscard]] Real margin(Real rho) const { return (g_of(u_hull, rho) - h_of(l_hull, rho)) / 2; }
};

Problem make_problem(std::vector<Point> u_hull, std::vector<Point> l_hull) {
  Problem p;
  p.u_hull = std::move(u_hull);
  p.l_hull = std::move(l_hull);
  p.candidates = {-static_cast<Real>(kMaxDrift), static_cast<Real>(kMaxDrift)};
  add_edge_slopes(p.u_hull, p.candidates);
  add_edge_slopes(p.l_hull, p.candidates);
  std::sort(p.candidates.begin(), p.candidates.end());
  p.candidates.erase(std::unique(p.candidates.begin(), p.candidates.end()), p.candidates.end());
  return p;
}

LineEstimate max_margin(const Problem& p) {
  const std::vector<Real>& c = p.candidates;
  // m is concave and linear between candidates: its maximum is at a candidate. The
  // increments m(c[k+1]) - m(c[k]) do not increase with k; find where they stop being
  // positive (the plateau's start) and where they turn negative (its end).
  auto rising = [&](std::size_t k) { return p.margin(c[k + 1]) - p.margin(c[k]) > kTieTicks; };
  auto falling = [&](std::size_t k) { return p.margin(c[k + 1]) - p.margin(c[k]) < -kTieTicks; };
  std::size_t lo = 0, hi = c.size() - 1;  // first k in [0, n-1) that is not rising
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (rising(mid))
      lo = mid + 1;
    else
      hi = mid;
  }
  const std::size_t start = lo;
  lo = start;
  hi = c.size() - 1;  // first k >= start that is falling
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (falling(mid))
      hi = mid;
    else
      lo = mid + 1;
  }
  const std::size_t end = lo;
  const Real rho = (c[start] + c[end]) / 2;  // the middle of a plateau
  LineEstimate line;
  const Real g = g_of(p.u_hull, rho);
  const Real h = h_of(p.l_hull, rho);
  line.drift = static_cast<double>(rho);
  line.offset_ticks = static_cast<double>((g + h) / 2);
  line.margin_ticks = static_cast<double>((g - h) / 2);
  line.drift_at_prior_bound = start == 0 || end == c.size() - 1;
  return line;
}

/// The drift between a and b where m crosses `level`, m(a) and m(b) lying on either side
/// of it; m is linear between consecutive candidates.
Real crossing(const Problem& p, Real a, Real b, Real level) {
  const Real ma = p.margin(a);
  const Real mb = p.margin(b);
  if (std::fabs(mb - ma) < kTieTicks) return a;  // not reached: ma and mb straddle level
  return a + (b - a) * (level - ma) / (mb - ma);
}

HardBand hard_band(const Problem& p, double best_drift, std::int64_t q) {
  HardBand band;
  const Real level = -static_cast<Real>(q);  // feasible iff m(rho) >= -q
  const Real best = best_drift;
  if (p.margin(best) < level) return band;
  band.feasible = true;
  const std::vector<Real>& c = p.candidates;
  // m is concave: {rho : m(rho) >= -q} is one interval around the optimum. Left of the
  // optimum m does not decrease, right of it m does not increase, so each end is found
  // by bisection over the candidates and then, m being linear between candidates, by
  // interpolation.
  const auto split = static_cast<std::size_t>(std::lower_bound(c.begin(), c.end(), best) - c.begin());
  std::size_t lo = 0, hi = split;  // first k < split with m(c[k]) >= level, else split
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (p.margin(c[mid]) >= level)
      hi = mid;
    else
      lo = mid + 1;
  }
  const Real rho_lo = lo == 0 ? c.front() : crossing(p, c[lo - 1], lo < split ? c[lo] : best, level);
  lo = split;
  hi = c.size();  // first k >= split with m(c[k]) < level, else n
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (p.margin(c[mid]) < level)
      hi = mid;
    else
      lo = mid + 1;
  }
  const Real rho_hi = lo == c.size() ? c.back() : crossing(p, lo > split ? c[lo - 1] : best, c[lo], level);
  band.drift_lo = static_cast<double>(rho_lo);
  band.drift_hi = static_cast<double>(rho_hi);
  // Corners: the upper chain G = g + q and the lower chain H = h - q at both ends and at
  // every breakpoint between them.
  std::vector<Real> corners = {rho_lo, rho_hi};
  for (Real r : c) {
    if (r > rho_lo && r < rho_hi) corners.push_back(r);
  }
  band.offset_lo_ticks = std::numeric_limits<double>::infinity();
  band.offset_hi_ticks = -std::numeric_limits<double>::infinity();
  for (Real r : corners) {
    const double top = static_cast<double>(g_of(p.u_hull, r) + static_cast<Real>(q));
    const double bottom = static_cast<double>(h_of(p.l_hull, r) - static_cast<Real>(q));
    band.top_vertices.emplace_back(static_cast<double>(r), top);
    band.bottom_vertices.emplace_back(static_cast<double>(r), bottom);
    band.offset_hi_ticks = std::max(band.offset_hi_ticks, top);
    band.offset_lo_ticks = std::min(band.offset_lo_ticks, bottom);
  }
  return band;
}

}  // namespace

double HardBand::offset_lo_at(double x) const {
  double lo = std::numeric_limits<double>::infinity();
  for (const auto& [drift, offset] : bottom_vertices) lo = std::min(lo, offset + drift * x);
  return lo;
}

double HardBand::offset_hi_at(double x) const {
  double hi = -std::numeric_limits<double>::infinity();
  for (const auto& [drift, offset] : top_vertices) hi = std::max(hi, offset + drift * x);
  return hi;
}

EnvelopeFit fit_envelopes(std::span<const Point> upper, std::span<const Point> lower, std::int64_t quantum_ticks) {
  return fit_hulls(lower_hull(upper), upper_hull(lower), quantum_ticks);
}

EnvelopeFit fit_hulls(std::vector<Point> u_hull, std::vector<Point> l_hull, std::int64_t quantum_ticks) {
  const Problem p = make_problem(std::move(u_hull), std::move(l_hull));
  EnvelopeFit fit;
  fit.upper_vertices = p.u_hull.size();
  fit.lower_vertices = p.l_hull.size();
  fit.line = max_margin(p);
  fit.band = hard_band(p, fit.line.drift, quantum_ticks);
  return fit;
}

EnvelopeFit fit_zero_drift(std::span<const Point> upper, std::span<const Point> lower, std::int64_t quantum_ticks) {
  std::int64_t min_u = std::numeric_limits<std::int64_t>::max();
  std::int64_t max_l = std::numeric_limits<std::int64_t>::min();
  for (const Point& p : upper) min_u = std::min(min_u, p.y);
  for (const Point& p : lower) max_l = std::max(max_l, p.y);
  EnvelopeFit fit;
  fit.line.offset_ticks = (static_cast<double>(min_u) + static_cast<double>(max_l)) / 2;
  fit.line.margin_ticks = (static_cast<double>(min_u) - static_cast<double>(max_l)) / 2;
  const double lo = static_cast<double>(max_l - quantum_ticks);
  const double hi = static_cast<double>(min_u + quantum_ticks);
  fit.band.feasible = lo <= hi;
  if (fit.band.feasible) {
    fit.band.offset_lo_ticks = lo;
    fit.band.offset_hi_ticks = hi;
    fit.band.top_vertices = {{0.0, hi}};
    fit.band.bottom_vertices = {{0.0, lo}};
  }
  return fit;
}

}  // namespace tscaudit
