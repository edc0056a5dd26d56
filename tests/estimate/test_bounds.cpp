#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "estimate/bounds.hpp"
#include "estimate/fit.hpp"
#include "estimate/hull.hpp"

using namespace tscaudit;

namespace {

__extension__ using Int128 = __int128;

int reference_turn(const Point& a, const Point& b, const Point& c) {
  const Int128 cross = static_cast<Int128>(b.x - a.x) * (c.y - a.y) - static_cast<Int128>(b.y - a.y) * (c.x - a.x);
  return (cross > 0) - (cross < 0);
}

/// Rounds in time order, b's counter 150 ticks behind: one-way delays of 60-160 ticks
/// with a 2 % tail up to 5000 so that hulls and order statistics have work to do.
std::vector<Round> random_rounds(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Round> rounds;
  std::uint64_t t1 = 1'000'000'007;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t delay_fwd = 60 + rng() % 100 + (rng() % 50 == 0 ? rng() % 5000 : 0);
    const std::uint64_t turnaround = 20 + rng() % 10;
    const std::uint64_t delay_rev = 60 + rng() % 100;
    const std::uint64_t t2 = t1 + delay_fwd - 150;               // fwd = delay + offset
    const std::uint64_t t4 = t2 + turnaround + delay_rev + 150;  // rev = delay - offset
    rounds.emplace_back(i, t1, t2, t2 + turnaround, t4, 0);
    t1 = t4 + 100 + rng() % 200;  // the next round starts after this one ends
  }
  return rounds;
}

std::vector<Point> sorted_by_x(std::vector<Point> v) {
  std::sort(v.begin(), v.end(), [](const Point& p, const Point& q) { return p.x < q.x; });
  return v;
}

/// Per bin of `rounds` (by index), the k-th smallest forward and k-th largest reverse
/// bound, relative to t_ref, and the hulls over the bins: what collect_bounds promises.
/// \pre no two rounds of a bin share a forward or a reverse bound (no ties to break).
std::pair<std::vector<Point>, std::vector<Point>> brute_force_kth_hulls(const std::vector<Round>& rounds,
                                                                        std::uint64_t t_ref, std::uint64_t k,
                                                                        std::size_t bins) {
  std::vector<Point> uppers, lowers;
  for (std::size_t bin = 0; bin < bins; ++bin) {
    std::vector<Point> u, l;
    for (std::size_t i = bin * rounds.size() / bins; i < (bin + 1) * rounds.size() / bins; ++i) {
      u.push_back({diff_ticks(rounds[i].t1, t_ref), fwd_ticks(rounds[i])});
      l.push_back({diff_ticks(rounds[i].t4, t_ref), -rev_ticks(rounds[i])});
    }
    std::sort(u.begin(), u.end(), [](const Point& p, const Point& q) { return p.y < q.y; });
    std::sort(l.begin(), l.end(), [](const Point& p, const Point& q) { return p.y > q.y; });
    REQUIRE(u[k - 1].y != u[k].y);  // the precondition
    REQUIRE(l[k - 1].y != l[k].y);
    uppers.push_back(u[k - 1]);
    lowers.push_back(l[k - 1]);
  }
  return {lower_hull(sorted_by_x(uppers)), upper_hull(sorted_by_x(lowers))};
}

/// Rounds whose delays are all distinct (a shuffled sequence), in time order.
std::vector<Round> tie_free_rounds(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> fwd_delays(n), rev_delays(n);
  for (std::size_t i = 0; i < n; ++i) fwd_delays[i] = rev_delays[i] = 60 + 3 * i;
  std::shuffle(fwd_delays.begin(), fwd_delays.end(), rng);
  std::shuffle(rev_delays.begin(), rev_delays.end(), rng);
  std::vector<Round> rounds;
  std::uint64_t t1 = 1'000'000'007;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t t2 = t1 + fwd_delays[i] - 150, t3 = t2 + 25, t4 = t3 + rev_delays[i] + 150;
    rounds.emplace_back(i, t1, t2, t3, t4, 0);
    t1 = t4 + 100 + rng() % 200;
  }
  return rounds;
}

}  // namespace

TEST_CASE("turn: the 64-bit path and the 128-bit fallback agree with 128-bit arithmetic") {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 200000; ++trial) {
    // Magnitudes from 2^4 to 2^62, so that some products overflow 64 bits and some do not.
    auto coordinate = [&] {
      const int bits = 4 + static_cast<int>(rng() % 58);
      const auto magnitude = static_cast<std::int64_t>(rng() >> (64 - bits));
      return (rng() & 1) ? magnitude : -magnitude;
    };
    const Point a{coordinate() / 2, coordinate() / 2}, b{coordinate() / 2, coordinate() / 2},
        c{coordinate() / 2, coordinate() / 2};
    REQUIRE(hull_detail::turn(a, b, c) == reference_turn(a, b, c));
  }
  // Collinear with products beyond 64 bits: exactly zero.
  const std::int64_t big = std::int64_t{1} << 61;
  CHECK(hull_detail::turn({-big, -big}, {0, 0}, {big, big}) == 0);
  CHECK(hull_detail::turn({-big, -big}, {0, 0}, {big, big - 1}) == -1);
  CHECK(hull_detail::turn({-big, -big}, {0, 0}, {big, big + 1}) == 1);
}

TEST_CASE("collect_bounds: hulls and per-bin order statistics equal brute force") {
  const std::vector<Round> rounds = random_rounds(20000, 17);
  const std::vector<std::uint64_t> ks = {2, 4, 8, 16};
  const std::size_t bins = 100;
  const BoundSets b = collect_bounds(rounds, ks, bins);

  // The span and the reference time.
  CHECK(b.first_tick == rounds.front().t1);
  CHECK(b.last_tick == rounds.back().t4);
  CHECK(b.t_ref_tick == b.first_tick + (b.last_tick - b.first_tick) / 2);
  CHECK(b.in_time_order);

  std::vector<Point> upper, lower;
  for (const Round& r : rounds) {
    upper.push_back({diff_ticks(r.t1, b.t_ref_tick), fwd_ticks(r)});
    lower.push_back({diff_ticks(r.t4, b.t_ref_tick), -rev_ticks(r)});
  }
  CHECK(b.upper_hull == lower_hull(sorted_by_x(upper)));
  CHECK(b.lower_hull == upper_hull(sorted_by_x(lower)));
  CHECK(b.upper_hull.size() > 3);

  // The order statistics, on rounds without ties (so that which round is the k-th is
  // not a matter of tie-breaking), in time order and shuffled.
  std::vector<Round> distinct = tie_free_rounds(20000, 18);
  for (const bool shuffled : {false, true}) {
    if (shuffled) std::shuffle(distinct.begin(), distinct.end(), std::mt19937_64(19));
    const BoundSets d = collect_bounds(distinct, ks, bins);
    CHECK(d.in_time_order == !shuffled);
    REQUIRE(d.ks == ks);
    REQUIRE(d.kth_upper.size() == ks.size());
    REQUIRE(d.kth_lower.size() == ks.size());
    for (std::size_t j = 0; j < ks.size(); ++j) {
      const auto [want_upper, want_lower] = brute_force_kth_hulls(distinct, d.t_ref_tick, ks[j], bins);
      CHECK(d.kth_upper[j] == want_upper);
      CHECK(d.kth_lower[j] == want_lower);
      CHECK(d.kth_upper[j].size() > 2);
    }
  }
}

TEST_CASE("collect_bounds: rounds out of time order give the same hulls") {
  std::vector<Round> rounds = random_rounds(5000, 3);
  const BoundSets in_order = collect_bounds(rounds, {}, 1);
  std::mt19937_64 rng(4);
  std::shuffle(rounds.begin(), rounds.end(), rng);
  const BoundSets shuffled = collect_bounds(rounds, {}, 1);
  CHECK_FALSE(shuffled.in_time_order);
  CHECK(in_order.in_time_order);
  CHECK(shuffled.t_ref_tick == in_order.t_ref_tick);
  CHECK(shuffled.upper_hull == in_order.upper_hull);
  CHECK(shuffled.lower_hull == in_order.lower_hull);
  // The fit from the hulls equals the fit from every bound.
  std::vector<Point> upper, lower;
  for (const Round& r : rounds) {
    upper.push_back({diff_ticks(r.t1, in_order.t_ref_tick), fwd_ticks(r)});
    lower.push_back({diff_ticks(r.t4, in_order.t_ref_tick), -rev_ticks(r)});
  }
  const EnvelopeFit from_hulls = fit_hulls(in_order.upper_hull, in_order.lower_hull, 2);
  const EnvelopeFit from_all = fit_envelopes(sorted_by_x(upper), sorted_by_x(lower), 2);
  CHECK(from_hulls.line.offset_ticks == Approx(from_all.line.offset_ticks).epsilon(0).margin(0));
  CHECK(from_hulls.line.drift == Approx(from_all.line.drift).epsilon(0).margin(0));
  CHECK(from_hulls.band.offset_lo_ticks == Approx(from_all.band.offset_lo_ticks).epsilon(0).margin(0));
  CHECK(from_hulls.band.offset_hi_ticks == Approx(from_all.band.offset_hi_ticks).epsilon(0).margin(0));
  const EnvelopeFit zero_hulls = fit_zero_drift(in_order.upper_hull, in_order.lower_hull, 2);
  const EnvelopeFit zero_all = fit_zero_drift(upper, lower, 2);
  CHECK(zero_hulls.line.offset_ticks == Approx(zero_all.line.offset_ticks).epsilon(0).margin(0));
  CHECK(zero_hulls.line.margin_ticks == Approx(zero_all.line.margin_ticks).epsilon(0).margin(0));
}

TEST_CASE("collect_bounds: bounds on convex curves, where every round is a hull vertex") {
  // fwd falls and then rises along a parabola, -rev the mirror image: every forward bound
  // is a vertex of U's lower hull and every reverse bound of L's upper hull, so the
  // chunk filter must let every one of them through.
  std::vector<Round> rounds;
  const std::int64_t n = 3000;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t c = i - n / 2;
    const auto fwd = static_cast<std::uint64_t>(1000 + c * c);  // strictly convex in i
    // t1 and t4 every 10'000'000 ticks exactly, so that x is linear in i; rev = fwd.
    const std::uint64_t t1 = 5'000'000 + static_cast<std::uint64_t>(i) * 10'000'000, t4 = t1 + 5'000'000;
    rounds.emplace_back(static_cast<std::uint64_t>(i), t1, t1 + fwd, t4 - fwd, t4, 0);
  }
  const BoundSets b = collect_bounds(rounds, {}, 1);
  std::vector<Point> upper, lower;
  for (const Round& r : rounds) {
    upper.push_back({diff_ticks(r.t1, b.t_ref_tick), fwd_ticks(r)});
    lower.push_back({diff_ticks(r.t4, b.t_ref_tick), -rev_ticks(r)});
  }
  CHECK(b.in_time_order);
  CHECK(b.upper_hull == lower_hull(upper));
  CHECK(b.lower_hull == upper_hull(lower));
  CHECK(b.upper_hull.size() == static_cast<std::size_t>(n));
  CHECK(b.lower_hull.size() == static_cast<std::size_t>(n));
}
