#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "estimate/fit.hpp"
#include "estimate/hull.hpp"

using namespace tscaudit;

namespace {

/// Brute force over the (drift, offset) plane: every intersection of two constraint
/// lines (theta0 + rho x = U + q, theta0 + rho x = L - q, rho = +-kMaxDrift) that
/// satisfies all constraints is a corner of the feasible polygon.
struct Oracle {
  double offset_lo = std::numeric_limits<double>::infinity();
  double offset_hi = -std::numeric_limits<double>::infinity();
  double drift_lo = std::numeric_limits<double>::infinity();
  double drift_hi = -std::numeric_limits<double>::infinity();
  double best_margin = -std::numeric_limits<double>::infinity();
};

Oracle brute_force(const std::vector<Point>& upper, const std::vector<Point>& lower, std::int64_t q) {
  // Constraint lines in (rho, theta0): theta0 = c - rho x, kind +1 (theta0 <= ...) or -1.
  struct Line {
    double x, c;
  };
  std::vector<Line> lines;
  for (const Point& p : upper) lines.push_back({static_cast<double>(p.x), static_cast<double>(p.y + q)});
  for (const Point& p : lower) lines.push_back({static_cast<double>(p.x), static_cast<double>(p.y - q)});
  auto margin = [&](double rho) {
    double g = std::numeric_limits<double>::infinity(), h = -std::numeric_limits<double>::infinity();
    for (const Point& p : upper) g = std::min(g, static_cast<double>(p.y) - rho * static_cast<double>(p.x));
    for (const Point& p : lower) h = std::max(h, static_cast<double>(p.y) - rho * static_cast<double>(p.x));
    return std::make_pair((g - h) / 2, std::make_pair(g, h));
  };
  std::vector<double> rhos = {-kMaxDrift, kMaxDrift};
  for (std::size_t i = 0; i < lines.size(); ++i) {
    for (std::size_t j = i + 1; j < lines.size(); ++j) {
      if (std::fabs(lines[i].x - lines[j].x) < 0.5) continue;  // parallel in the (rho, theta0) plane
      const double rho = (lines[i].c - lines[j].c) / (lines[i].x - lines[j].x);
      if (std::fabs(rho) <= kMaxDrift) rhos.push_back(rho);
    }
  }
  // The same breakpoints without q (q shifts both families equally: m's kinks are the
  // slopes between points of one family).
  for (const auto* family : {&upper, &lower}) {
    for (std::size_t i = 0; i < family->size(); ++i) {
      for (std::size_t j = i + 1; j < family->size(); ++j) {
        const Point& a = (*family)[i];
        const Point& b = (*family)[j];
        if (a.x == b.x) continue;
        const double rho = static_cast<double>(b.y - a.y) / static_cast<double>(b.x - a.x);
        if (std::fabs(rho) <= kMaxDrift) rhos.push_back(rho);
      }
    }
  }
  Oracle o;
  for (double rho : rhos) {
    const auto [m, gh] = margin(rho);
    o.best_margin = std::max(o.best_margin, m);
    const double top = gh.first + static_cast<double>(q);
    const double bottom = gh.second - static_cast<double>(q);
    if (bottom <= top + 1e-9) {
      o.offset_hi = std::max(o.offset_hi, top);
      o.offset_lo = std::min(o.offset_lo, bottom);
      o.drift_lo = std::min(o.drift_lo, rho);
      o.drift_hi = std::max(o.drift_hi, rho);
    }
  }
  return o;
}

std::vector<Point> sorted(std::vector<Point> v) {
  std::sort(v.begin(), v.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
  return v;
}

}  // namespace

TEST_CASE("hulls: exact vertices") {
  const std::vector<Point> pts = {{0, 5}, {1, 1}, {2, 3}, {3, 0}, {4, 4}, {4, 2}, {6, 6}};
  CHECK(lower_hull(pts) == std::vector<Point>{{0, 5}, {1, 1}, {3, 0}, {6, 6}});
  CHECK(upper_hull(pts) == std::vector<Point>{{0, 5}, {6, 6}});
  const std::vector<Point> collinear = {{0, 0}, {1, 1}, {2, 2}, {3, 3}};
  CHECK(lower_hull(collinear) == std::vector<Point>{{0, 0}, {3, 3}});
  CHECK(lower_hull(std::vector<Point>{{7, 7}}) == std::vector<Point>{{7, 7}});
  CHECK(lower_hull(std::vector<Point>{}).empty());
  // Coordinates near 2^62 (raw TSC-sized differences) stay exact.
  const std::int64_t big = std::int64_t{1} << 61;
  CHECK(lower_hull(std::vector<Point>{{-big, big}, {0, -big}, {big, big}}).size() == 3);
  CHECK(lower_hull(std::vector<Point>{{-big, big}, {0, big - 1}, {big, big - 2}}) ==
        std::vector<Point>{{-big, big}, {big, big - 2}});
}

TEST_CASE("hulls: every point on the right side of every hull edge") {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<Point> pts;
    for (int i = 0; i < 200; ++i)
      pts.push_back({static_cast<std::int64_t>(rng() % 1000), static_cast<std::int64_t>(rng() % 1000)});
    pts = sorted(pts);
    const auto lo = lower_hull(pts);
    const auto up = upper_hull(pts);
    for (const Point& p : pts) {
      for (std::size_t i = 1; i < lo.size(); ++i) {
        const auto cross =
            (lo[i].x - lo[i - 1].x) * (p.y - lo[i - 1].y) - (lo[i].y - lo[i - 1].y) * (p.x - lo[i - 1].x);
        if (p.x >= lo[i - 1].x && p.x <= lo[i].x) REQUIRE(cross >= 0);
      }
      for (std::size_t i = 1; i < up.size(); ++i) {
        const auto cross =
            (up[i].x - up[i - 1].x) * (p.y - up[i - 1].y) - (up[i].y - up[i - 1].y) * (p.x - up[i - 1].x);
        if (p.x >= up[i - 1].x && p.x <= up[i].x) REQUIRE(cross <= 0);
      }
    }
  }
}

TEST_CASE("max margin and hard band: a case solved by hand") {
  // U = {(-10,5), (0,3), (10,5)}, L = {(-5,-1), (5,-1)}: m(rho) = 2 - 2.5 |rho| in the box.
  const std::vector<Point> upper = {{-10, 5}, {0, 3}, {10, 5}};
  const std::vector<Point> lower = {{-5, -1}, {5, -1}};
  const EnvelopeFit fit = fit_envelopes(upper, lower, 1);
  CHECK(fit.line.drift == Approx(0).margin(1e-15));
  CHECK(fit.line.offset_ticks == Approx(1));
  CHECK(fit.line.margin_ticks == Approx(2));
  CHECK_FALSE(fit.line.drift_at_prior_bound);
  REQUIRE(fit.band.feasible);
  CHECK(fit.band.offset_lo_ticks == Approx(-2));   // max L - q
  CHECK(fit.band.offset_hi_ticks == Approx(4));    // min U + q
  CHECK(fit.band.drift_lo == Approx(-kMaxDrift));  // the data allows |rho| up to 1.2
  CHECK(fit.band.drift_hi == Approx(kMaxDrift));
  CHECK(fit.upper_vertices == 3);
  CHECK(fit.lower_vertices == 2);
  const EnvelopeFit zero = fit_zero_drift(upper, lower, 1);
  CHECK(zero.line.offset_ticks == Approx(1));
  CHECK(zero.line.margin_ticks == Approx(2));
  CHECK(zero.band.offset_lo_ticks == Approx(-2));
  CHECK(zero.band.offset_hi_ticks == Approx(4));
}

TEST_CASE("drift is not identifiable when the supports do not interleave") {
  // All forward bounds early, all reverse bounds late: tilting always helps.
  const std::vector<Point> upper = {{-100, 10}, {-90, 10}};
  const std::vector<Point> lower = {{90, -10}, {100, -10}};
  const EnvelopeFit fit = fit_envelopes(upper, lower, 1);
  CHECK(fit.line.drift_at_prior_bound);
}

TEST_CASE("crossed bounds: no feasible line, negative margin") {
  const std::vector<Point> upper = {{0, -5}, {10, -5}};
  const std::vector<Point> lower = {{5, 5}};
  const EnvelopeFit fit = fit_envelopes(upper, lower, 2);
  CHECK_FALSE(fit.band.feasible);
  CHECK(fit.line.margin_ticks == Approx(-5));
  CHECK(fit.line.offset_ticks == Approx(0));
  CHECK_FALSE(fit_zero_drift(upper, lower, 2).band.feasible);
  // Within the quantum the same bounds are feasible: -5 + q >= 5 - q for q = 5.
  CHECK(fit_envelopes(upper, lower, 5).band.feasible);
}

TEST_CASE("max margin and hard band agree with the brute-force oracle") {
  std::mt19937_64 rng(2024);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 3 + static_cast<int>(rng() % 40);
    const double true_drift = (static_cast<double>(rng() % 2001) - 1000.0) * 1e-7;  // up to 100 ppm
    const double true_offset = static_cast<double>(rng() % 401) - 200.0;
    const std::int64_t q = trial % 3 == 0 ? 26 : 1;
    std::vector<Point> upper, lower;
    for (int i = 0; i < n; ++i) {
      const auto x = static_cast<std::int64_t>(rng() % 2000001) - 1000000;
      const double theta = true_offset + true_drift * static_cast<double>(x);
      const auto delay_f = static_cast<double>(50 + rng() % 200);
      const auto delay_r = static_cast<double>(50 + rng() % 200);
      upper.push_back({x, static_cast<std::int64_t>(std::floor(theta + delay_f))});
      lower.push_back(
          {x + static_cast<std::int64_t>(rng() % 500), static_cast<std::int64_t>(std::ceil(theta - delay_r))});
    }
    upper = sorted(upper);
    lower = sorted(lower);
    const EnvelopeFit fit = fit_envelopes(upper, lower, q);
    const Oracle o = brute_force(upper, lower, q);
    INFO("trial " << trial << " n " << n);
    CHECK(fit.line.margin_ticks == Approx(o.best_margin).margin(1e-6));
    // The line keeps its margin against every bound.
    for (const Point& p : upper)
      REQUIRE(static_cast<double>(p.y) - fit.line.at(static_cast<double>(p.x)) >= fit.line.margin_ticks - 1e-6);
    for (const Point& p : lower)
      REQUIRE(fit.line.at(static_cast<double>(p.x)) - static_cast<double>(p.y) >= fit.line.margin_ticks - 1e-6);
    REQUIRE(fit.band.feasible);  // the truth is feasible by construction
    CHECK(fit.band.offset_lo_ticks == Approx(o.offset_lo).margin(1e-6));
    CHECK(fit.band.offset_hi_ticks == Approx(o.offset_hi).margin(1e-6));
    CHECK(fit.band.drift_lo == Approx(o.drift_lo).margin(1e-12));
    CHECK(fit.band.drift_hi == Approx(o.drift_hi).margin(1e-12));
    // The hard band holds the truth.
    CHECK(fit.band.offset_lo_ticks <= true_offset + 1e-9);
    CHECK(fit.band.offset_hi_ticks >= true_offset - 1e-9);
    CHECK(fit.band.drift_lo <= true_drift + 1e-15);
    CHECK(fit.band.drift_hi >= true_drift - 1e-15);
    for (double x : {-1e6, 0.0, 1e6}) {
      const double truth = true_offset + true_drift * x;
      CHECK(fit.band.offset_lo_at(x) <= truth + 1e-6);
      CHECK(fit.band.offset_hi_at(x) >= truth - 1e-6);
    }
  }
}
