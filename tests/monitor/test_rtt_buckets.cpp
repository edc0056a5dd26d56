// The monitor's round-trip buckets: each value in the first bucket whose bound it does not
// exceed (Prometheus `le`), cumulative counts, the sum in seconds.
#include <catch2/catch.hpp>

#include "monitor/rtt_buckets.hpp"

using namespace tscaudit;

TEST_CASE("rtt buckets: bounds in ticks at 2 GHz, le inclusive, negatives in the first") {
  RttBuckets b(2e9);  // 50 ns = 100 ticks, 100 ns = 200 ticks
  b.record(-5);
  b.record(100);  // exactly 50 ns: in the 50 ns bucket
  b.record(101);
  b.record(200);
  b.record(40'000'000);  // 20 ms: beyond the last bound
  CHECK(b.cumulative(0) == 2);
  CHECK(b.cumulative(1) == 4);
  CHECK(b.cumulative(kRttBucketBoundsS.size() - 1) == 4);
  CHECK(b.cumulative(kRttBucketBoundsS.size()) == 5);
  CHECK(b.count() == 5);
  CHECK(b.sum_seconds() == Approx((40'000'396.0) / 2e9).epsilon(1e-15));
}

TEST_CASE("rtt buckets: the frequency must be known") { CHECK_THROWS(RttBuckets(0)); }
