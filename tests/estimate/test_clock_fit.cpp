// The least-squares TSC rate on synthetic (TSC, clock, TSC) readings with known answers.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "estimate/clock_fit.hpp"

using namespace tscaudit;

TEST_CASE("a hand-worked fit: slope 2, residuals +1 -1 -1 +1") {
  // Midpoints 1, 1, 3, 7 at clock 0, 1, 2, 3: Sxx = 5, Sxy = 10, slope 2, intercept 0,
  // RSS 4, s^2 = 4 / 2, SE = sqrt(2 / 5).
  const std::vector<ClockReading> r = {{1, 0, 1}, {1, 1, 1}, {3, 2, 3}, {7, 3, 7}};
  const RateFit f = fit_tsc_rate(r);
  REQUIRE(f.valid);
  CHECK(f.readings == 4);
  CHECK(f.window_ns == Approx(3).epsilon(0));
  CHECK(f.ticks_per_ns == Approx(2.0).epsilon(1e-15));
  CHECK(f.stderr_ticks_per_ns == Approx(std::sqrt(0.4)).epsilon(1e-15));
  CHECK(f.stderr_ppm == Approx(std::sqrt(0.4) / 2 * 1e6).epsilon(1e-15));
  CHECK(f.residual_max_ticks == Approx(1.0).epsilon(1e-15));
  // Zero-width brackets: the bound is the endpoint slope (7 - 1) / 3 on both sides.
  CHECK(f.bracket_lo_ticks_per_ns == Approx(2.0).epsilon(1e-15));
  CHECK(f.bracket_hi_ticks_per_ns == Approx(2.0).epsilon(1e-15));
  CHECK(f.bracket_ppm == Approx(0).margin(0));
}

TEST_CASE("an exact line at 2.3 GHz far from zero: no precision lost, no scatter") {
  // Counter near 2^62, clock at ~30 years: differences are taken in integers first.
  const std::uint64_t tsc0 = (1ull << 62) + 12345;
  const std::int64_t ns0 = 946'080'000'000'000'000;
  std::vector<ClockReading> r;
  for (std::int64_t i = 0; i < 50; ++i) {
    const std::int64_t ns = ns0 + i * 4'000'000;                                 // every 4 ms
    const std::uint64_t mid = tsc0 + static_cast<std::uint64_t>(i) * 9'200'000;  // 2.3 ticks/ns
    r.push_back({mid - 20, ns, mid + 20});                                       // brackets 40 ticks wide
  }
  const RateFit f = fit_tsc_rate(r);
  REQUIRE(f.valid);
  CHECK(f.ticks_per_ns == Approx(2.3).epsilon(1e-14));
  CHECK(f.stderr_ppm == Approx(0).margin(1e-9));
  CHECK(f.residual_max_ticks == Approx(0).margin(1e-6));
  CHECK(f.window_ns == Approx(196e6).epsilon(0));
  // Bound: (span - 40) / window and (span + 40) / window, half-width 40 / span.
  const double span = 49.0 * 9'200'000;
  CHECK(f.bracket_lo_ticks_per_ns == Approx((span - 40) / 196e6).epsilon(1e-14));
  CHECK(f.bracket_hi_ticks_per_ns == Approx((span + 40) / 196e6).epsilon(1e-14));
  CHECK(f.bracket_ppm == Approx(40 / span * 1e6).epsilon(1e-12));
}

TEST_CASE("alternating +-3 tick noise on 6 readings: the closed form by hand") {
  // Clock x_i = 1000 i ns, midpoints y_i = 10^6 + 1000 i + e_i, e = +3 -3 +3 -3 +3 -3.
  // In units of 1000 ns: x - 2.5 = -2.5 .. 2.5, Sxx = 17.5, sum (x - 2.5) e = -9, so the
  // slope is (1000 - 9 / 17.5) ticks per 1000 ns. Residuals e_i + (9 / 17.5)(x_i - 2.5):
  // RSS = 54 - 81 / 17.5, s^2 = RSS / 4, SE = sqrt(s^2 / 17.5) per 1000 ns.
  std::vector<ClockReading> r;
  const int e[] = {3, -3, 3, -3, 3, -3};
  for (int i = 0; i < 6; ++i) {
    const auto mid = static_cast<std::uint64_t>(std::int64_t{1'000'000} + std::int64_t{1000} * i + e[i]);
    r.push_back({mid - 1, std::int64_t{1000} * i, mid + 1});
  }
  const RateFit f = fit_tsc_rate(r);
  REQUIRE(f.valid);
  const double slope = (1000 - 9 / 17.5) / 1000;
  const double se = std::sqrt((54 - 81 / 17.5) / 4 / 17.5) / 1000;
  CHECK(f.ticks_per_ns == Approx(slope).epsilon(1e-14));
  CHECK(f.stderr_ticks_per_ns == Approx(se).epsilon(1e-12));
  CHECK(f.stderr_ppm == Approx(se / slope * 1e6).epsilon(1e-12));
  CHECK(f.residual_max_ticks == Approx(3 + 9 / 17.5 * 1.5).epsilon(1e-12));  // i = 1 and 4
  // First bracket [1000002, 1000004], last [1004996, 1004998], window 5000 ns.
  CHECK(f.bracket_lo_ticks_per_ns == Approx(4992.0 / 5000).epsilon(1e-15));
  CHECK(f.bracket_hi_ticks_per_ns == Approx(4996.0 / 5000).epsilon(1e-15));
  CHECK(f.bracket_ppm == Approx(4.0 / (4992 + 4996) * 1e6).epsilon(1e-12));
}

TEST_CASE("what the fit refuses, with the reason") {
  CHECK(fit_tsc_rate({}).reason == "needs at least 3 readings, got 0");
  const std::vector<ClockReading> two = {{0, 0, 0}, {10, 5, 10}};
  CHECK(fit_tsc_rate(two).reason == "needs at least 3 readings, got 2");
  const std::vector<ClockReading> inverted = {{0, 0, 0}, {12, 5, 10}, {20, 10, 20}};
  CHECK(fit_tsc_rate(inverted).reason == "reading 1 has its TSC bracket inverted (after < before)");
  const std::vector<ClockReading> still = {{0, 7, 0}, {10, 7, 10}, {20, 7, 20}};
  CHECK(fit_tsc_rate(still).reason == "the clock did not advance from the first reading to the last");
  const std::vector<ClockReading> backwards = {{30, 0, 30}, {20, 5, 20}, {10, 10, 10}};
  CHECK_FALSE(fit_tsc_rate(backwards).valid);
  CHECK(fit_tsc_rate(backwards).reason.rfind("the TSC did not advance with the clock", 0) == 0);
}
