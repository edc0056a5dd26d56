#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <string>

#include "variants/read_cost_summary.hpp"

using namespace tscaudit;

namespace {

ReadCostSamples tsc_samples(std::vector<double> batches, std::vector<std::uint64_t> values) {
  ReadCostSamples s;
  s.name = "rdtsc";
  s.calls_per_batch = 256;
  s.batch_ticks_per_call = std::move(batches);
  s.values = std::move(values);
  return s;
}

/// Values that start at 1000 and then advance by each of `deltas`.
std::vector<std::uint64_t> values_from_deltas(const std::vector<std::uint64_t>& deltas) {
  std::vector<std::uint64_t> v{1000};
  for (std::uint64_t d : deltas) v.push_back(v.back() + d);
  return v;
}

/// Back-to-back reads of an AMD Zen-like counter: it advances `step` ticks at a time,
/// and a read inside the step of the previous read returns the previous value + 1. Each
/// call takes `cost` ticks of true time, jittered uniformly by +-jitter.
std::vector<std::uint64_t> plus_one_reads(std::uint64_t step, double cost, double jitter, std::size_t n) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> noise(-jitter, jitter);
  std::vector<std::uint64_t> reads;
  double t = 1e9;
  for (std::size_t i = 0; i < n; ++i) {
    t += cost + noise(rng);
    std::uint64_t r = static_cast<std::uint64_t>(t) / step * step;
    if (!reads.empty() && r <= reads.back()) r = reads.back() + 1;
    reads.push_back(r);
  }
  return reads;
}

/// The method `c` believes, and the reason it gives, to the letter.
void check_believed(const ReadCost& c, CostMethod method, const std::string& reason) {
  CHECK(c.believe == method);
  CHECK(c.believe_reason == reason);
}

}  // namespace

TEST_CASE("read cost: nearest-rank statistics of the batch averages") {
  std::vector<double> batches(1000);
  std::iota(batches.begin(), batches.end(), 1.0);  // 1, 2, ..., 1000
  std::shuffle(batches.begin(), batches.end(), std::mt19937_64(1));
  const ReadCost c = summarize_read_cost(tsc_samples(batches, {}), 2.3e9);
  REQUIRE(c.error.empty());
  CHECK(c.batch_ticks.samples == 1000);
  CHECK(c.batch_ticks.min == Approx(1).margin(0));
  CHECK(c.batch_ticks.p50 == Approx(500).margin(0));    // rank ceil(0.5 * 1000) = 500
  CHECK(c.batch_ticks.p99_9 == Approx(999).margin(0));  // rank 999, not 1000
  CHECK(c.batch_ticks.mean == Approx(500.5).epsilon(1e-15));

  // Small n: ranks ceil(p n), at least 1.
  const ReadCost small = summarize_read_cost(tsc_samples({5.5, 1.25, 3, 2, 4}, {}), 2.3e9);
  CHECK(small.batch_ticks.min == Approx(1.25).margin(0));
  CHECK(small.batch_ticks.p50 == Approx(3).margin(0));      // rank ceil(2.5) = 3
  CHECK(small.batch_ticks.p99_9 == Approx(5.5).margin(0));  // rank ceil(4.995) = 5
  CHECK(small.batch_ticks.mean == Approx(3.15).epsilon(1e-15));
  const ReadCost one = summarize_read_cost(tsc_samples({7.5}, {}), 2.3e9);
  CHECK(one.batch_ticks.min == Approx(7.5).margin(0));
  CHECK(one.batch_ticks.p50 == Approx(7.5).margin(0));
  CHECK(one.batch_ticks.p99_9 == Approx(7.5).margin(0));
}

TEST_CASE("read cost: back-to-back deltas, their quantum and their mean") {
  // Deltas 40, 40, 42, 44, 40, 46 (sorted 40 40 40 42 44 46): quantum 2.
  const auto values = values_from_deltas({40, 40, 42, 44, 40, 46});
  const ReadCost c = summarize_read_cost(tsc_samples({41.5}, values), 2.3e9);
  REQUIRE(c.error.empty());
  CHECK(c.delta_ticks.samples == 6);
  CHECK(c.delta_ticks.min == Approx(40).margin(0));
  CHECK(c.delta_ticks.p50 == Approx(40).margin(0));    // rank 3
  CHECK(c.delta_ticks.p99_9 == Approx(46).margin(0));  // rank 6
  // The mean telescopes: (last - first) / (n - 1).
  CHECK(c.delta_ticks.mean == Approx(static_cast<double>(values.back() - values.front()) / 6).epsilon(1e-15));
  CHECK(c.quantum.quantum_ticks == 2);
  CHECK(c.resolution_ticks == Approx(2).margin(0));
  CHECK(c.backward_deltas == 0);
  CHECK(c.tsc_variant);
  CHECK(c.name == "rdtsc");
}

TEST_CASE("read cost: zero deltas are kept, deltas that go down are counted and left out") {
  // 100 -> 100 (0), -> 90 (down), -> 110 (20), -> 130 (20).
  const ReadCost c = summarize_read_cost(tsc_samples({}, {100, 100, 90, 110, 130}), 2.3e9);
  REQUIRE(c.error.empty());
  CHECK(c.backward_deltas == 1);
  CHECK(c.delta_ticks.samples == 3);
  CHECK(c.delta_ticks.min == Approx(0).margin(0));
  CHECK(c.delta_ticks.p50 == Approx(20).margin(0));
  CHECK(c.delta_ticks.mean == Approx(40.0 / 3).epsilon(1e-15));
}

TEST_CASE("read cost: believe the deltas from 10 resolution steps up, the batch below") {
  const auto values = values_from_deltas({20, 20, 22, 20, 24, 20, 20});  // quantum 2: threshold 20 ticks
  SECTION("at the threshold: deltas") {
    const ReadCost c = summarize_read_cost(tsc_samples({20, 20, 20}, values), 2.3e9);
    check_believed(c, CostMethod::deltas,
                   "a call costs 20 ticks, at least 10 steps of the 2-tick counter: "
                   "single deltas resolve the cost and show its spread");
  }
  SECTION("just under it: the batch") {
    const ReadCost c = summarize_read_cost(tsc_samples({19.5, 19.9, 21}, values), 2.3e9);
    CHECK(c.batch_ticks.p50 == Approx(19.9).margin(0));
    check_believed(c, CostMethod::batch,
                   "a call costs 19.9 ticks, under 10 steps of the 2-tick counter: "
                   "single deltas are quantized, the batch average is not");
  }
  SECTION("the threshold scales with the quantum") {
    // Deltas that are multiples of 8: quantum 8, threshold 80 ticks.
    const auto coarse = values_from_deltas({40, 48, 40, 40, 56, 40});
    const ReadCost c = summarize_read_cost(tsc_samples({43, 44, 45}, coarse), 2.3e9);
    CHECK(c.quantum.quantum_ticks == 8);
    CHECK(c.believe == CostMethod::batch);
  }
}

TEST_CASE("read cost: an AMD-like coarse counter misleads the deltas, so the batch is believed") {
  // A 20 +- 8-tick call on a counter that steps 26 at a time, with +1 reads inside a
  // step: a step that holds two reads gives deltas 1 then 25; most give 26, a few 51 or
  // 52 (which also rule out a step of 27, under which 1, 25 and 26 all fit).
  const auto values = plus_one_reads(26, 20, 8, 100000);
  std::vector<double> batches;
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> noise(-0.5, 0.5);
  for (int i = 0; i < 2000; ++i) batches.push_back(20 + noise(rng));
  const ReadCost c = summarize_read_cost(tsc_samples(batches, values), 2.3e9);
  REQUIRE(c.error.empty());
  CHECK(c.quantum.quantum_ticks == 26);
  CHECK(c.quantum.plus_one_reads);
  CHECK(c.resolution_ticks == Approx(26).margin(0));
  // The small statistics of the deltas are nowhere near the cost...
  CHECK(c.delta_ticks.min == Approx(1).margin(0));
  CHECK(c.delta_ticks.p50 == Approx(26).margin(0));
  // ...while their mean telescopes to it, and the batch shows it directly.
  CHECK(c.delta_ticks.mean == Approx(20).margin(0.1));
  CHECK(c.batch_ticks.p50 == Approx(20).margin(0.5));
  CHECK(c.believe == CostMethod::batch);
  CHECK(c.believe_reason.find("under 10 steps of the 26-tick counter") != std::string::npos);
  CHECK(c.believe_reason.find("previous value + 1") != std::string::npos);
}

TEST_CASE("read cost: clock_gettime deltas are ns, converted to ticks with the TSC frequency") {
  ReadCostSamples s;
  s.name = "CLOCK_MONOTONIC";
  s.tsc_variant = false;
  s.calls_per_batch = 256;
  s.batch_ticks_per_call = {47, 48, 50};
  s.values = {1000, 1020, 1040, 1065};  // deltas 20, 20, 25 ns
  const ReadCost c = summarize_read_cost(s, 2.3e9);
  REQUIRE(c.error.empty());
  CHECK_FALSE(c.tsc_variant);
  CHECK(c.resolution_ticks == Approx(2.3).epsilon(1e-15));
  CHECK(c.quantum.quantum_ticks == 1);  // left default for clocks
  CHECK(c.quantum.deltas == 0);
  CHECK(c.delta_ticks.samples == 3);
  CHECK(c.delta_ticks.min == Approx(46).epsilon(1e-15));
  CHECK(c.delta_ticks.p50 == Approx(46).epsilon(1e-15));
  CHECK(c.delta_ticks.p99_9 == Approx(57.5).epsilon(1e-15));
  CHECK(c.delta_ticks.mean == Approx(65.0 / 3 * 2.3).epsilon(1e-15));
  CHECK(c.batch_ticks.p50 == Approx(48).margin(0));
  // 48 ticks is more than 10 ns (23 ticks): the deltas resolve it.
  check_believed(c, CostMethod::deltas,
                 "a call costs 48 ticks, at least 10 steps of the 1 ns clock (2.3 ticks): "
                 "single deltas resolve the cost and show its spread");

  SECTION("without a TSC frequency there is no conversion") {
    for (double hz : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
      const ReadCost bad = summarize_read_cost(s, hz);
      CHECK_FALSE(bad.error.empty());
      CHECK(bad.delta_ticks.samples == 0);
      CHECK(bad.batch_ticks.samples == 0);
    }
  }
  SECTION("a TSC variant needs no frequency") {
    s.tsc_variant = true;
    CHECK(summarize_read_cost(s, 0).error.empty());
  }
}

TEST_CASE("read cost: errors, empty and one-sided inputs") {
  SECTION("an error is passed on and nothing is summarized") {
    ReadCostSamples s = tsc_samples({10, 11}, {1, 2, 3});
    s.name = "rdtscp";
    s.error = "the CPU does not report RDTSCP";
    const ReadCost c = summarize_read_cost(s, 2.3e9);
    CHECK(c.error == "the CPU does not report RDTSCP");
    CHECK(c.name == "rdtscp");
    CHECK(c.batch_ticks.samples == 0);
    CHECK(c.delta_ticks.samples == 0);
  }
  SECTION("nothing recorded") {
    CHECK(summarize_read_cost(tsc_samples({}, {}), 2.3e9).error == "nothing was recorded");
    CHECK(summarize_read_cost(tsc_samples({}, {42}), 2.3e9).error == "nothing was recorded");
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK(summarize_read_cost(tsc_samples({nan}, {}), 2.3e9).error == "nothing was recorded");
    const ReadCost down = summarize_read_cost(tsc_samples({}, {5, 4, 3}), 2.3e9);
    CHECK(down.error == "every back-to-back value went down, and no batch was recorded");
    CHECK(down.backward_deltas == 2);
  }
  SECTION("only batches: the batch") {
    const ReadCost c = summarize_read_cost(tsc_samples({30, 31}, {}), 2.3e9);
    CHECK(c.error.empty());
    CHECK(c.believe == CostMethod::batch);
    CHECK(c.believe_reason == "only batches were recorded, no back-to-back deltas");
    CHECK(c.delta_ticks.samples == 0);
  }
  SECTION("only deltas: the deltas") {
    const ReadCost c = summarize_read_cost(tsc_samples({}, {10, 12, 14}), 2.3e9);
    CHECK(c.error.empty());
    CHECK(c.believe == CostMethod::deltas);
    CHECK(c.believe_reason == "only back-to-back deltas were recorded, no batches");
  }
  SECTION("non-finite batch entries are skipped, negative ones kept") {
    const double inf = std::numeric_limits<double>::infinity();
    const ReadCost c = summarize_read_cost(tsc_samples({-0.5, inf, 3, std::nan("")}, {}), 2.3e9);
    CHECK(c.batch_ticks.samples == 2);
    CHECK(c.batch_ticks.min == Approx(-0.5).margin(0));
    CHECK(c.batch_ticks.p99_9 == Approx(3).margin(0));
  }
}
