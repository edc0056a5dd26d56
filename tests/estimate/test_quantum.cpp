#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <random>
#include <vector>

#include "estimate/quantum.hpp"

using namespace tscaudit;

namespace {

/// Back-to-back reads of a counter that advances `step` ticks per update, read every
/// `read_cost` ticks of true time (uniformly jittered by +-jitter), starting at `phase`.
std::vector<std::uint64_t> stepped_reads(std::uint64_t step, double read_cost, double jitter, bool plus_one,
                                         std::uint64_t seed, std::size_t n = 100000) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> noise(-jitter, jitter);
  std::vector<std::uint64_t> reads;
  double t = 1e9 + static_cast<double>(seed % 97);
  std::uint64_t last = 0;
  for (std::size_t i = 0; i < n; ++i) {
    t += read_cost + noise(rng);
    std::uint64_t r = static_cast<std::uint64_t>(t) / step * step;
    if (plus_one && !reads.empty() && r <= last) r = last + 1;  // AMD: same step -> previous + 1
    reads.push_back(r);
    last = r;
  }
  return reads;
}

}  // namespace

TEST_CASE("quantum 1: arbitrary deltas") {
  const auto est = estimate_quantum(stepped_reads(1, 35, 5, false, 1));
  CHECK(est.quantum_ticks == 1);
  CHECK_FALSE(est.plus_one_reads);
  CHECK(est.zero_fraction == Approx(0).margin(0));
}

TEST_CASE("quantum 2: every delta even, as on the Intel KVM development machines") {
  const auto est = estimate_quantum(stepped_reads(2, 33, 6, false, 2));
  CHECK(est.quantum_ticks == 2);
  CHECK(est.deltas == 99999);
}

TEST_CASE("quantum 26 with zero deltas: a counter slower than the reads") {
  const auto est = estimate_quantum(stepped_reads(26, 9, 2, false, 3));
  CHECK(est.quantum_ticks == 26);
  CHECK(est.zero_fraction > 0.5);
  CHECK(est.modal_delta == 26);
}

TEST_CASE("quantum 26 with +1 reads inside a step (AMD Zen)") {
  const auto est = estimate_quantum(stepped_reads(26, 30, 8, true, 4));
  CHECK(est.quantum_ticks == 26);
  CHECK(est.plus_one_reads);
}

TEST_CASE("one odd delta in a thousand does not collapse the robust gcd") {
  auto reads = stepped_reads(26, 40, 10, false, 5, 20000);
  reads[5000] += 1;  // one glitch: two odd deltas out of 20000
  CHECK(estimate_quantum(reads).quantum_ticks == 26);
}

TEST_CASE("degenerate inputs give quantum 1") {
  CHECK(estimate_quantum(std::vector<std::uint64_t>{}).quantum_ticks == 1);
  CHECK(estimate_quantum(std::vector<std::uint64_t>{7}).quantum_ticks == 1);
  const auto est = estimate_quantum(std::vector<std::uint64_t>{5, 5, 5});
  CHECK(est.quantum_ticks == 1);
  CHECK(est.zero_fraction == Approx(1).margin(0));
  CHECK(est.deltas == 0);
  // Exact small case: deltas 4, 8, 12 -> modal 4 (first of equal counts), gcd 4.
  CHECK(estimate_quantum(std::vector<std::uint64_t>{0, 4, 12, 24}).quantum_ticks == 4);
}

namespace {

/// A uniform double in [lo, hi) from the 53 high bits of mt19937_64, which the standard
/// fixes exactly (std::uniform_real_distribution is not portable across libraries).
double uniform(std::mt19937_64& rng, double lo, double hi) {
  return lo + (hi - lo) * static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

/// Back-to-back reads, in TSC ticks, of a counter that updates every `step_ticks` TSC ticks
/// (not necessarily an integer: a slower counter scaled to the TSC rate) and then shows
/// floor(updates * step_ticks). Reads are `cost_lo`..`cost_hi` ticks of true time apart.
/// With `plus_one`, a read inside the step of the previous read returns the previous value + 1
/// (AMD Zen).
std::vector<std::uint64_t> counter_reads(double step_ticks, double cost_lo, double cost_hi, bool plus_one,
                                         std::uint64_t seed, std::size_t n = 100000) {
  std::mt19937_64 rng(seed);
  double t = 1e9 + uniform(rng, 0, 1000);
  std::vector<std::uint64_t> reads;
  reads.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    t += uniform(rng, cost_lo, cost_hi);
    const double updates = std::floor(t / step_ticks);
    auto r = static_cast<std::uint64_t>(std::floor(updates * step_ticks));
    if (plus_one && !reads.empty() && r <= reads.back()) r = reads.back() + 1;
    reads.push_back(r);
  }
  return reads;
}

/// Share of non-zero back-to-back deltas equal to `delta`.
double share_of(const std::vector<std::uint64_t>& reads, std::uint64_t delta) {
  std::size_t hits = 0;
  std::size_t nonzero = 0;
  for (std::size_t i = 1; i < reads.size(); ++i) {
    const std::uint64_t d = reads[i] - reads[i - 1];
    nonzero += d != 0;
    hits += d == delta;
  }
  return static_cast<double>(hits) / static_cast<double>(nonzero);
}

/// True when every back-to-back delta is in `allowed`.
bool deltas_within(const std::vector<std::uint64_t>& reads, std::initializer_list<std::uint64_t> allowed) {
  for (std::size_t i = 1; i < reads.size(); ++i) {
    const std::uint64_t d = reads[i] - reads[i - 1];
    if (std::find(allowed.begin(), allowed.end(), d) == allowed.end()) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("AMD +1 reads, q = 26, reads cheaper than one step: 0 %, 1 % and 50 % of deltas at 1") {
  SECTION("0 %: every read lands in a new step") {
    const auto reads = counter_reads(26, 26, 26, true, 11);
    REQUIRE(deltas_within(reads, {26}));
    const auto est = estimate_quantum(reads);
    CHECK(est.quantum_ticks == 26);
    CHECK_FALSE(est.plus_one_reads);
  }
  SECTION("1 %") {
    const auto reads = counter_reads(26, 25.48, 26, true, 12);
    REQUIRE(deltas_within(reads, {1, 25, 26}));
    REQUIRE(share_of(reads, 1) > 0.005);
    REQUIRE(share_of(reads, 1) < 0.02);
    const auto est = estimate_quantum(reads);
    CHECK(est.quantum_ticks == 26);
    CHECK(est.plus_one_reads);
    CHECK(est.modal_delta == 26);
  }
  SECTION("50 %") {
    const auto reads = counter_reads(26, 13, 13.5, true, 13);
    REQUIRE(deltas_within(reads, {1, 25, 26}));
    REQUIRE(share_of(reads, 1) > 0.45);
    REQUIRE(share_of(reads, 1) < 0.52);
    const auto est = estimate_quantum(reads);
    CHECK(est.quantum_ticks == 26);
    CHECK(est.plus_one_reads);
  }
  SECTION("several reads inside one step: deltas 1, 1, q - 2") {
    const auto reads = counter_reads(26, 7, 9, true, 14);
    REQUIRE(share_of(reads, 24) > 0.01);
    const auto est = estimate_quantum(reads);
    CHECK(est.quantum_ticks == 26);
    CHECK(est.plus_one_reads);
  }
}

TEST_CASE("steps of q = 2, 25, 26, 40 and 100, read faster and slower than one step") {
  for (const std::uint64_t q :
       {std::uint64_t{2}, std::uint64_t{25}, std::uint64_t{26}, std::uint64_t{40}, std::uint64_t{100}}) {
    const auto step = static_cast<double>(q);
    CAPTURE(q);
    // Plain counter: zero deltas when reads are cheaper than one step.
    const auto fast = estimate_quantum(counter_reads(step, 0.3 * step, 0.7 * step, false, 20 + q));
    CHECK(fast.quantum_ticks == q);
    CHECK(fast.zero_fraction > 0.3);
    CHECK_FALSE(fast.plus_one_reads);
    const auto slow = estimate_quantum(counter_reads(step, 1.2 * step, 3.7 * step, false, 30 + q));
    CHECK(slow.quantum_ticks == q);
    CHECK(slow.zero_fraction == Approx(0).margin(0));
    // +1 reads (q >= 3: with q = 2 a +1 read cannot be told from a step of 1).
    if (q >= 3) {
      const auto amd_fast = estimate_quantum(counter_reads(step, 0.5 * step, 0.95 * step, true, 40 + q));
      CHECK(amd_fast.quantum_ticks == q);
      CHECK(amd_fast.plus_one_reads);
      const auto amd_mixed = estimate_quantum(counter_reads(step, 0.6 * step, 2.5 * step, true, 50 + q));
      CHECK(amd_mixed.quantum_ticks == q);
      CHECK(amd_mixed.plus_one_reads);
    }
  }
}

TEST_CASE("slower counters scaled to a 2.3 GHz TSC (docs/method.md section 2)") {
  constexpr double kTscHz = 2.3e9;
  SECTION("25 MHz: exactly 92 ticks per update") {
    const auto reads = counter_reads(kTscHz / 25e6, 30, 40, false, 61);
    REQUIRE(deltas_within(reads, {0, 92}));
    const auto est = estimate_quantum(reads);
    CHECK(est.quantum_ticks == 92);
    CHECK_FALSE(est.plus_one_reads);
    CHECK_FALSE(est.fractional_step);
  }
  SECTION("24 MHz: 95.83 ticks per update, steps of 95 and 96; the quantum is the larger") {
    const auto reads = counter_reads(kTscHz / 24e6, 30, 40, false, 62);
    REQUIRE(deltas_within(reads, {0, 95, 96}));
    REQUIRE(share_of(reads, 95) > 0.1);
    const auto est = estimate_quantum(reads);
    CHECK(est.quantum_ticks == 96);
    CHECK_FALSE(est.plus_one_reads);
    CHECK(est.fractional_step);
    CHECK(est.modal_delta == 96);
  }
  SECTION("24 MHz read more slowly than one update: deltas near multiples of 95.83") {
    const auto reads = counter_reads(kTscHz / 24e6, 100, 300, false, 63);
    REQUIRE(share_of(reads, 95) + share_of(reads, 96) > 0.01);
    const auto est = estimate_quantum(reads);
    CHECK(est.quantum_ticks == 96);
    CHECK_FALSE(est.plus_one_reads);
    CHECK(est.fractional_step);
    CHECK(est.zero_fraction == Approx(0).margin(0));
  }
  SECTION("1 GHz: 2.3 ticks per update, below any read cost; deltas are arbitrary, q = 1") {
    const auto est = estimate_quantum(counter_reads(kTscHz / 1e9, 25, 45, false, 64));
    CHECK(est.quantum_ticks == 1);
    CHECK_FALSE(est.plus_one_reads);
    CHECK_FALSE(est.fractional_step);
    CHECK(est.zero_fraction == Approx(0).margin(0));
  }
  SECTION("1 GHz read faster than one update (synthetic): steps of 2 and 3 give q = 3") {
    const auto est = estimate_quantum(counter_reads(kTscHz / 1e9, 0.5, 1.5, false, 65));
    CHECK(est.quantum_ticks == 3);
    CHECK(est.fractional_step);
  }
}

TEST_CASE("a delta near 2^64 (a wrapped or backwards table) is estimated at once, within the cap") {
  // Before the cap, the divisor search of 2^64 - 1 overflowed d * d and never ended.
  const std::vector<std::uint64_t> reads = {0, std::numeric_limits<std::uint64_t>::max()};
  const QuantumEstimate e = estimate_quantum(reads);
  CHECK(e.quantum_ticks <= kMaxQuantumTicks);
  // 2^64 - 1 = 3 * 5 * 17 * 257 * 641 * 65537 * 6700417: its largest divisor up to 2^20.
  CHECK(e.quantum_ticks == 983055);  // 3 * 5 * 65537
}
