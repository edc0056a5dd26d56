// Whether two stamps of different CPUs are ordered (order/order.hpp), on hand-made tables
// whose answers are worked out here: the band at any counter (the table's band, widened by
// the drift band over the distance from its moment, in either direction and across a wrap
// of 2^64), and the order of two stamps against the exact thresholds of docs/machine.md
// §10.8, with the documented outward slack (1e-6 tick and a relative 1e-12).
#include <catch2/catch.hpp>

#include "float_bits.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "order/order.hpp"

using namespace tscaudit;

namespace {

/// A band with the CPU number set, offsets in ticks, drifts in ppb.
CpuCounterBand band(int cpu, double lo, double hi, double drift_lo = 0, double drift_hi = 0) {
  return {cpu, lo, hi, drift_lo, drift_hi};
}

/// Reference CPU 0 ([0, 0]); CPU 1 100..140 ticks ahead, no drift; CPU 2 10..50 behind,
/// drifting −200..+300 ppb; CPU 3 has no band (a hole); CPU 4 exactly 0, no drift.
CounterTable table(std::int64_t quantum = 1, std::uint64_t as_of = 1'000'000) {
  CounterTable t;
  t.reference_cpu = 0;
  t.counter_hz = 1e9;
  t.quantum_ticks = quantum;
  t.as_of_counter = as_of;
  t.bands = {band(0, 0, 0), band(1, 100, 140), band(2, -50, -10, -200, 300), CpuCounterBand{}, band(4, 0, 0)};
  return t;
}

/// The outward slack of offset_at for a band of largest magnitude m, drift magnitude rho
/// and distance d0 (order.cpp): never narrower than the exact band, never wider by more.
double slack(double m, double rho, double d0) {
  const double w = (m + rho * std::abs(d0)) / (1 - rho);
  return 1e-12 * (std::abs(d0) * rho + m + w) + 1e-6;
}

using tscaudit::testing::bits;

TickBand at(const CounterTable& t, int cpu, std::uint64_t counter) {
  TickBand b{-12345, 12345};
  REQUIRE(offset_at(t, cpu, counter, b));
  return b;
}

int order(const CounterTable& t, int cpu_a, std::uint64_t a, int cpu_b, std::uint64_t b) {
  bool known = false;
  const int o = order_of(t, cpu_a, a, cpu_b, b, known);
  CHECK(known);
  return o;
}

}  // namespace

TEST_CASE("offset_at: with no drift, the table's band at any counter, widened only by the slack") {
  const CounterTable t = table();
  for (const std::uint64_t counter : {std::uint64_t{0}, std::uint64_t{1'000'000}, std::uint64_t{1'000'000'000'000},
                                      std::numeric_limits<std::uint64_t>::max()}) {
    INFO("counter " << counter);
    const TickBand b = at(t, 1, counter);
    // Never narrower than the band (the truth is inside it), wider by the slack alone.
    CHECK(b.lo_ticks <= 100);
    CHECK(b.hi_ticks >= 140);
    CHECK(b.lo_ticks == Approx(100 - slack(140, 0, 0)).margin(1e-12));
    CHECK(b.hi_ticks == Approx(140 + slack(140, 0, 0)).margin(1e-12));
    // The reference against itself: exactly 0 at every moment, no slack.
    const TickBand zero = at(t, 0, counter);
    CHECK(bits(zero.lo_ticks) == bits(0.0));
    CHECK(bits(zero.hi_ticks) == bits(0.0));
  }
}

TEST_CASE("offset_at: the drift band widens the band both ways in time, by the distance and θ itself") {
  const CounterTable t = table();
  // 10^9 ticks after the moment: θ within [−50 − 2e-7·Δ, −10 + 3e-7·Δ], Δ on the reference
  // counter within 1e9 ± w, w = (50 + 3e-7·1e9) / (1 − 3e-7) (θ itself separates CPU 2's
  // counter from the reference's). Worked out: [−250.000070000021, 290.0001050000315].
  const TickBand later = at(t, 2, 1'000'000 + 1'000'000'000);
  CHECK(later.lo_ticks <= -250.000070000021);
  CHECK(later.hi_ticks >= 290.0001050000315);
  CHECK(later.lo_ticks == Approx(-250.000070000021 - slack(50, 3e-7, 1e9)).margin(1e-9));
  CHECK(later.hi_ticks == Approx(290.0001050000315 + slack(50, 3e-7, 1e9)).margin(1e-9));
  // 10^9 ticks before it: the faster drift bound now lowers the band, the slower raises it.
  const TickBand earlier = at(t, 2, 1'000'000 - 1'000'000'000ULL);  // wraps below 0: 2^64 − 999 M
  CHECK(earlier.lo_ticks <= -350.0001050000315);
  CHECK(earlier.hi_ticks >= 190.000070000021);
  CHECK(earlier.lo_ticks == Approx(-350.0001050000315 - slack(50, 3e-7, 1e9)).margin(1e-9));
  CHECK(earlier.hi_ticks == Approx(190.000070000021 + slack(50, 3e-7, 1e9)).margin(1e-9));
  // At the moment itself only w, either way: [−50 − 3e-7·w, −10 + 3e-7·w], w = 50 / (1 − 3e-7).
  const TickBand now = at(t, 2, 1'000'000);
  CHECK(now.lo_ticks == Approx(-50 - 3e-7 * 50.000015).margin(1e-9));
  CHECK(now.hi_ticks == Approx(-10 + 3e-7 * 50.000015).margin(1e-9));
}

TEST_CASE("offset_at: counters below the moment and across a wrap of 2^64 are distances, exactly") {
  // The same distance of 1000 ticks, once across the wrap and once not: bit for bit the
  // same band, later than the moment.
  const CounterTable wrapped = table(1, std::numeric_limits<std::uint64_t>::max() - 499);  // 2^64 − 500
  const CounterTable plain = table(1, 5'000);
  const TickBand a = at(wrapped, 2, 500);
  const TickBand b = at(plain, 2, 6'000);
  CHECK(bits(a.lo_ticks) == bits(b.lo_ticks));
  CHECK(bits(a.hi_ticks) == bits(b.hi_ticks));
  // 1000 ticks before the moment, across the wrap the other way.
  const CounterTable low = table(1, 400);
  const TickBand c = at(low, 2, std::numeric_limits<std::uint64_t>::max() - 599);  // 400 − 1000 mod 2^64
  const TickBand d = at(plain, 2, 4'000);
  CHECK(bits(c.lo_ticks) == bits(d.lo_ticks));
  CHECK(bits(c.hi_ticks) == bits(d.hi_ticks));
  // And before is not after: the drift band is not symmetric, so the two bands differ.
  CHECK(b.hi_ticks > d.hi_ticks);
  CHECK(b.lo_ticks > d.lo_ticks);
}

TEST_CASE("offset_at: no band for CPUs the table does not know, and `out` untouched") {
  const CounterTable t = table();
  for (const int cpu : {-1, 3, 5, 1000}) {
    INFO("CPU " << cpu);
    TickBand b{-7, 7};
    CHECK_FALSE(offset_at(t, cpu, 1'000'000, b));
    CHECK(b.lo_ticks == Approx(-7).margin(0));
    CHECK(b.hi_ticks == Approx(7).margin(0));
  }
  // A band whose cpu field names another CPU is no band of this one.
  CounterTable moved = t;
  moved.bands[1].cpu = 2;
  TickBand b{-7, 7};
  CHECK_FALSE(offset_at(moved, 1, 1'000'000, b));
  CHECK(b.lo_ticks == Approx(-7).margin(0));
}

TEST_CASE("offset_at: bands of NaN, infinite or unordered bands, and drifts of half the rate are refused") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<CpuCounterBand> refused = {
      band(1, nan, 140),          band(1, 100, nan),         band(1, 100, 140, nan, 0),  band(1, 100, 140, 0, nan),
      band(1, -inf, 140),         band(1, 100, inf),         band(1, 100, 140, -inf, 0), band(1, 140, 100),
      band(1, 100, 140, 10, -10), band(1, 100, 140, 0, 5e8), band(1, 100, 140, -5e8, 0), band(1, 100, 140, 0, 2e9)};
  for (const CpuCounterBand& r : refused) {
    INFO(r.offset_lo_ticks << " " << r.offset_hi_ticks << " " << r.drift_lo_ppb << " " << r.drift_hi_ppb);
    CounterTable t = table();
    t.bands[1] = r;
    TickBand b{-7, 7};
    CHECK_FALSE(offset_at(t, 1, 1'000'000, b));
    CHECK(b.lo_ticks == Approx(-7).margin(0));
    bool known = true;
    CHECK(order_of(t, 0, 0, 1, 1'000'000'000, known) == 0);
    CHECK_FALSE(known);
  }
  // Just below half the rate still bounds: the distance is at most (m + ρ|Δ0|)/(1 − ρ) off.
  CounterTable t = table();
  t.bands[1] = band(1, 0, 0, 0, 4.99e8);
  const TickBand b = at(t, 1, 1'000'000 + 1000);
  CHECK(b.lo_ticks == Approx(0).margin(1e-5));
  CHECK(b.hi_ticks == Approx(0.499 * (1000 + 0.499 * 1000 / (1 - 0.499))).margin(1e-5));
}

TEST_CASE("offset_at: a band so wide that its widening overflows is infinite, never NaN") {
  // Finite bands a state file may hold (formats/state_file.hpp), whose widening passes the
  // largest double: the answer is the whole line, not NaN, which no comparison can use.
  CounterTable t = table();
  t.bands[1] = band(1, -1e308, 1e308, 0, 4.9e8);
  const TickBand b = at(t, 1, 1'000'000 + 1000);
  CHECK(bits(b.lo_ticks) == bits(-std::numeric_limits<double>::infinity()));
  CHECK(bits(b.hi_ticks) == bits(std::numeric_limits<double>::infinity()));
  CHECK(order(t, 0, 0, 1, std::numeric_limits<std::uint64_t>::max() / 2) == 0);
}

TEST_CASE("order_of: on one CPU the counter orders the stamps, and a CPU without a band orders nothing") {
  const CounterTable t = table();
  CHECK(order(t, 2, 5, 2, 6) == -1);
  CHECK(order(t, 2, 6, 2, 5) == 1);
  CHECK(order(t, 2, 6, 2, 6) == 0);
  // Whatever the bands: CPU 1's own counter, a tick apart.
  CHECK(order(t, 1, 1'000'000'000'000, 1, 1'000'000'000'001) == -1);
  for (const int unknown : {3, 7, -1}) {
    INFO("CPU " << unknown);
    bool known = true;
    CHECK(order_of(t, unknown, 5, unknown, 6, known) == 0);
    CHECK_FALSE(known);
    known = true;
    CHECK(order_of(t, unknown, 5, 0, 1'000'000'000, known) == 0);
    CHECK_FALSE(known);
    known = true;
    CHECK(order_of(t, 0, 5, unknown, 1'000'000'000, known) == 0);
    CHECK_FALSE(known);
  }
}

TEST_CASE("order_of: the exact thresholds of two CPUs, q = 1 and q = 26") {
  // Stamp a on CPU 0 (the reference) at r, stamp b on CPU 1 (100..140 ahead) at r + gap.
  // a stands for a moment in [r − 1, r + q), b for one in [r + gap − 140 − 1, r + gap − 100
  // + q): a is before b when gap >= 140 + q + 1, after when gap <= 100 − q − 1; the slack
  // (2e-6 tick) moves each threshold by one whole tick.
  for (const std::int64_t q : {std::int64_t{1}, std::int64_t{26}}) {
    INFO("q = " << q);
    const CounterTable t = table(q);
    const std::uint64_t r = 5'000'000'000;
    const auto gap_order = [&](std::int64_t gap) { return order(t, 0, r, 1, r + static_cast<std::uint64_t>(gap)); };
    const std::int64_t before = 140 + q + 1 + 1;
    const std::int64_t after = 100 - q - 1 - 1;
    CHECK(gap_order(before) == -1);
    CHECK(gap_order(before + 1000) == -1);
    CHECK(gap_order(before - 1) == 0);
    CHECK(gap_order(after + 1) == 0);
    CHECK(gap_order(after) == 1);
    CHECK(gap_order(after - 1000) == 1);
    for (std::int64_t gap = after + 1; gap < before; ++gap) CHECK(gap_order(gap) == 0);
    // The same pair with the roles turned: the answer turns too.
    CHECK(order(t, 1, r + static_cast<std::uint64_t>(before), 0, r) == 1);
    CHECK(order(t, 1, r + static_cast<std::uint64_t>(after), 0, r) == -1);
    CHECK(order(t, 1, r + static_cast<std::uint64_t>(before - 1), 0, r) == 0);
  }
  // A quantum below 1 in a hand-made table reads as 1.
  const CounterTable zero = table(0);
  CHECK(order(zero, 0, 5'000'000'000, 1, 5'000'000'000 + 143) == -1);
  CHECK(order(zero, 0, 5'000'000'000, 1, 5'000'000'000 + 142) == 0);
}

TEST_CASE("order_of: two CPUs whose counters agree exactly still need q + 1 ticks between stamps") {
  const CounterTable t = table(1);
  CHECK(order(t, 0, 1000, 4, 1002) == 0);  // q + 1 = 2 ticks, short of it by the slack
  CHECK(order(t, 0, 1000, 4, 1003) == -1);
  CHECK(order(t, 4, 1000, 0, 1003) == -1);
  CHECK(order(t, 4, 1003, 0, 1000) == 1);
  CHECK(order(t, 4, 1002, 0, 1000) == 0);
}

TEST_CASE("order_of: drift bands widen the thresholds with the distance from the moment") {
  const CounterTable t = table(1);
  // Near the moment CPU 2 is 10..50 behind: b on CPU 2 at r + gap is before a on CPU 0 at
  // r once gap <= −50 − 2 − 1 (slack), after once gap >= −10 + 2 + 1.
  const std::uint64_t r = 1'000'000;
  CHECK(order(t, 0, r, 2, r - 53) == 1);
  CHECK(order(t, 0, r, 2, r - 52) == 0);
  CHECK(order(t, 0, r, 2, r - 7) == -1);
  CHECK(order(t, 0, r, 2, r - 8) == 0);
  // 10^9 ticks later CPU 2's band is [−250.0001, 290.0002]: the same gaps order nothing,
  // and the thresholds have moved out by the drift band.
  const std::uint64_t later = r + 1'000'000'000;
  CHECK(order(t, 0, later, 2, later - 53) == 0);
  CHECK(order(t, 0, later, 2, later - 7) == 0);
  CHECK(order(t, 0, later, 2, later - 253) == 1);
  CHECK(order(t, 0, later, 2, later - 252) == 0);
  CHECK(order(t, 0, later, 2, later + 293) == -1);
  CHECK(order(t, 0, later, 2, later + 292) == 0);
}

TEST_CASE("order_of: the latest moment of a stamp is where its counter may have read last, drift included") {
  // CPU 1's counter runs at 0.6 of the reference's (θ = −0.4·(t − as_of) exactly), which a
  // table may state (a drift band below half the rate), with a coarse quantum of 1000
  // ticks. Stamp A on CPU 1 reads as_of + 1000 at the true moment as_of + 3300 (its counter
  // was as_of + 1980); stamp B on CPU 0 reads as_of + 3000 at as_of + 3000. B came first.
  // A's band at its read, [−666.7, −133.3], holds for a counter of exactly as_of + 1000;
  // its counter may have been up to q ticks more, where θ is up to 400 ticks lower.
  CounterTable t = table(1000, 1'000'000);
  t.bands[1] = band(1, 0, 0, -4e8, -4e8);
  const std::uint64_t as_of = t.as_of_counter;
  bool known = false;
  const int o = order_of(t, 1, as_of + 1000, 0, as_of + 3000, known);
  CHECK(known);
  CHECK(o != -1);  // never "A before B"
  CHECK(order_of(t, 0, as_of + 3000, 1, as_of + 1000, known) != 1);
  // Far enough apart, the order is proven the right way: A's counter was below as_of +
  // 2000, its moment before as_of + 3333.4, and the band there reaches −1333.4: B at
  // as_of + 3335 (its counter at least as_of + 3334) is proven after it, at 3334 not.
  CHECK(order(t, 1, as_of + 1000, 0, as_of + 3335) == -1);
  CHECK(order(t, 1, as_of + 1000, 0, as_of + 3334) == 0);
}
