#include <catch2/catch.hpp>

#include <random>

#include "estimate/quantum.hpp"

using namespace tscsync;

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
