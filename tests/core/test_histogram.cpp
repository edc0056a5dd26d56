#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "core/histogram.hpp"
#include "int_limits.hpp"

using namespace tscaudit;

namespace {

using test::kI64Max;
using test::kI64Min;
using test::kU64Max;
using H = LogLinearHistogram;
}  // namespace

TEST_CASE("counts_index follows HdrHistogram_c exactly") {
  // A value, and its index.
  const std::vector<std::pair<std::uint64_t, std::size_t>> cases = {
      // Bucket 0: 0..2047 step 1, index == value.
      {0, 0},
      {1, 1},
      {1000, 1000},
      {2047, 2047},
      // Bucket 1: 2048..4095 step 2, index (2 << 10) + (v >> 1) - 1024.
      {2048, 2048},
      {2049, 2048},
      {2050, 2049},
      {4095, 3071},
      // Bucket 2: 4096..8191 step 4.
      {4096, 3072},
      {4099, 3072},
      {4100, 3073},
      // 1e8: bit length 27 -> bucket 16; sub = 1e8 >> 16 = 1525; (17 << 10) + 501 = 17909.
      {100'000'000, 17909},
      // 2^62: bucket 52, sub 1024 -> (53 << 10) = 54272, the last stored index.
      {H::kHighestTrackableValue, 54272},
      {H::kHighestTrackableValue, H::kCountsLength - 1},
      // Defined beyond the stored range too: bucket 53, sub 2047 -> (54 << 10) + 1023.
      {kU64Max, 56319},
  };
  for (const auto& [value, index] : cases) {
    INFO("value " << value);
    CHECK(H::counts_index(value) == index);
  }
}

TEST_CASE("lowest and highest equivalent values") {
  struct Case {
    std::uint64_t value, lowest, highest;
  };
  const std::vector<Case> cases = {
      {0, 0, 0},
      {1000, 1000, 1000},
      {2047, 2047, 2047},
      {2048, 2048, 2049},
      {2049, 2048, 2049},
      {3001, 3000, 3001},
      {4095, 4094, 4095},
      {4096, 4096, 4099},
      {4097, 4096, 4099},
      // 1e8: sub-bucket width 2^16; 1525 * 65536 = 99942400, + 65535 = 100007935.
      {100'000'000, 99'942'400, 100'007'935},
      // The top bucket ends at 2^64 - 1 without wrapping.
      {kU64Max, kU64Max - ((std::uint64_t{1} << 53) - 1), kU64Max},
  };
  for (const Case& c : cases) {
    INFO("value " << c.value);
    CHECK(H::lowest_equivalent(c.value) == c.lowest);
    CHECK(H::highest_equivalent(c.value) == c.highest);
  }
}

TEST_CASE("every stored index round-trips through its value range") {
  std::uint64_t bad = 0;
  for (std::size_t i = 0; i < H::kCountsLength; ++i) {
    const std::uint64_t low = H::value_from_counts_index(i);
    const std::uint64_t high = H::highest_equivalent(low);
    bad += H::counts_index(low) != i;
    bad += H::counts_index(high) != i;
    bad += H::lowest_equivalent(high) != low;
    bad += H::counts_index(high + 1) != i + 1;  // buckets tile the line without gaps
  }
  CHECK(bad == 0);
}

TEST_CASE("relative error stays within 1e-3 over the whole range") {
  std::mt19937_64 rng(20240611);
  std::uniform_int_distribution<int> exponent(0, 63);
  std::uint64_t bad = 0;
  std::uint64_t first_bad = 0;
  for (int i = 0; i < 100000; ++i) {
    // Log-uniform: a uniform bit length, then uniform bits below the leading one.
    const int e = exponent(rng);
    const std::uint64_t below = (std::uint64_t{1} << e) - 1;
    const std::uint64_t v = (std::uint64_t{1} << e) | (rng() & below);
    const std::uint64_t low = H::lowest_equivalent(v);
    const std::uint64_t high = H::highest_equivalent(v);
    // |high - v| / v <= 1e-3 in integers: (high - v) * 1000 <= v (high - v < 2^53).
    const bool ok = low <= v && v <= high && (high - v) * 1000 <= v && (v - low) * 1000 <= v;
    if (!ok && bad++ == 0) first_bad = v;
  }
  INFO("first failing value " << first_bad);
  CHECK(bad == 0);
}

TEST_CASE("HdrHistogram's classic fixture: 10000 x 1000 and one 100000000") {
  H h;
  h.record(1000, 10000);
  h.record(100'000'000);
  REQUIRE(h.total() == 10001);
  CHECK(h.count_at_index(H::counts_index(1000)) == 10000);
  CHECK(h.min() == 1000);
  CHECK(h.max() == 100'000'000);
  CHECK(h.overflow() == 0);
  // 1000 < 2048 sits in a width-1 bucket: its highest equivalent is 1000 itself.
  CHECK(h.value_at_rank(5001) == 1000);
  CHECK(h.value_at_rank(10000) == 1000);
  CHECK(h.value_at_rank(10001) == 100'000'000);  // exact, not 100007935
  CHECK(h.value_at_rank(1) == 1000);

  SignedHistogram s;
  s.record(1000, 10000);
  s.record(100'000'000);
  // p50: rank ceil(0.5 * 10001) = 5001; p99.99: ceil(9999.9999) = 10000;
  // p99.999: ceil(10000.89999) = 10001 = total -> max.
  CHECK(s.value_at_percentile(50) == 1000);
  CHECK(s.value_at_percentile(99.99) == 1000);
  CHECK(s.value_at_percentile(99.999) == 100'000'000);
  CHECK(s.value_at_percentile(100) == 100'000'000);
  CHECK(s.value_at_percentile(0) == 1000);
  CHECK(s.min() == 1000);
  CHECK(s.max() == 100'000'000);
  CHECK(s.mean() == Approx(110'000'000.0 / 10001.0));
}

TEST_CASE("value_at_rank reports the bucket's highest equivalent inside [min, max]") {
  H h;
  h.record(99'950'000);
  h.record(99'960'000);
  h.record(200'000'000);
  CHECK(h.value_at_rank(1) == 99'950'000);   // exact min, though the bucket starts lower
  CHECK(h.value_at_rank(2) == 100'007'935);  // highest equivalent of 99960000
  CHECK(h.value_at_rank(3) == 200'000'000);
  CHECK(h.value_at_rank(0) == 99'950'000);  // clamped into [1, total]
  CHECK(h.value_at_rank(99) == 200'000'000);

  H same;
  same.record(2048);
  same.record(2048);
  same.record(2049);
  CHECK(same.value_at_rank(1) == 2048);
  CHECK(same.value_at_rank(2) == 2049);  // 2048's bucket is [2048, 2049]
  CHECK(same.value_at_rank(3) == 2049);
}

TEST_CASE("signed ranks run from the most negative value up") {
  SignedHistogram s;
  for (const std::int64_t v : {7, -3, 0, 2, -5}) s.record(v);
  REQUIRE(s.total() == 5);
  CHECK(s.negative_count() == 2);
  CHECK(s.value_at_rank(1) == -5);
  CHECK(s.value_at_rank(2) == -3);
  CHECK(s.value_at_rank(3) == 0);
  CHECK(s.value_at_rank(4) == 2);
  CHECK(s.value_at_rank(5) == 7);
  CHECK(s.min() == -5);
  CHECK(s.max() == 7);
  // rank = max(1, ceil(p / 100 * 5)).
  CHECK(s.value_at_percentile(0) == -5);
  CHECK(s.value_at_percentile(20) == -5);      // rank 1
  CHECK(s.value_at_percentile(20.001) == -3);  // rank 2
  CHECK(s.value_at_percentile(40) == -3);      // rank 2
  CHECK(s.value_at_percentile(50) == 0);       // rank 3
  CHECK(s.value_at_percentile(60) == 0);       // rank 3
  CHECK(s.value_at_percentile(61) == 2);       // rank 4
  CHECK(s.value_at_percentile(80.001) == 7);   // rank 5
  CHECK(s.value_at_percentile(100) == 7);
  CHECK(s.mean() == Approx(0.2));
}

TEST_CASE("wide buckets report their signed upper end on both sides") {
  SignedHistogram neg;
  neg.record(-5000);
  neg.record(-3001, 3);  // magnitude bucket [3000, 3001]
  neg.record(5);
  CHECK(neg.value_at_rank(1) == -5000);
  CHECK(neg.value_at_rank(2) == -3000);  // -(lowest equivalent magnitude)
  CHECK(neg.value_at_rank(4) == -3000);
  CHECK(neg.value_at_rank(5) == 5);

  SignedHistogram pos;
  pos.record(-5);
  pos.record(3000, 3);  // bucket [3000, 3001]
  pos.record(5000);
  CHECK(pos.value_at_rank(1) == -5);
  CHECK(pos.value_at_rank(2) == 3001);
  CHECK(pos.value_at_rank(4) == 3001);
  CHECK(pos.value_at_rank(5) == 5000);

  SignedHistogram clamped;  // the bucket's upper end lies above max: clamped to max
  clamped.record(-3001, 3);
  clamped.record(-2, 0);  // count 0 records nothing
  CHECK(clamped.total() == 3);
  CHECK(clamped.value_at_rank(2) == -3001);
  CHECK(clamped.max() == -3001);
}

TEST_CASE("rank_for_percentile uses integer arithmetic") {
  CHECK(rank_for_percentile(99.9, 1000) == 999);  // naive ceil(0.999 * 1000) can give 1000
  CHECK(rank_for_percentile(99.99, 10000) == 9999);
  CHECK(rank_for_percentile(99.999, 1'000'000) == 999'990);
  CHECK(rank_for_percentile(95, 20) == 19);
  CHECK(rank_for_percentile(75, 4) == 3);
  CHECK(rank_for_percentile(50, 1) == 1);
  CHECK(rank_for_percentile(0, 10) == 1);
  CHECK(rank_for_percentile(100, 10) == 10);
  CHECK(rank_for_percentile(-1, 10) == 1);
  CHECK(rank_for_percentile(150, 10) == 10);
  CHECK(rank_for_percentile(std::nan(""), 10) == 1);
  CHECK(rank_for_percentile(50, 0) == 0);
  CHECK(rank_for_percentile(50, kU64Max) == (std::uint64_t{1} << 63));  // no overflow
  CHECK(rank_for_percentile(100, kU64Max) == kU64Max);

  SignedHistogram s;
  for (std::int64_t v = 1; v <= 1000; ++v) s.record(v);
  CHECK(s.value_at_percentile(99.9) == 999);
  CHECK(s.value_at_percentile(0) == 1);
  CHECK(s.value_at_percentile(100) == 1000);
}

TEST_CASE("standard percentiles and the samples behind each tail") {
  SignedHistogram s;
  s.record(42, 1'000'000);
  const std::vector<PercentileRow> rows = standard_percentiles(s);
  REQUIRE(rows.size() == kStandardPercentiles.size());
  const std::uint64_t expected_tail[] = {500000, 250000, 150000, 50000, 10000, 1000, 100, 10};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CHECK(rows[i].percentile == Approx(kStandardPercentiles[i]));
    CHECK(rows[i].value == 42);
    CHECK(rows[i].tail_samples == expected_tail[i]);
  }
  CHECK(rows.back().tail_samples == kThinTailSamples);  // n = 1e6: p99.999 rests on 10

  SignedHistogram small;
  for (const std::int64_t v : {-5, -3, 0, 2, 7}) small.record(v);
  const std::vector<PercentileRow> r = standard_percentiles(small);
  REQUIRE(r.size() == 8);
  CHECK(r[0].value == 0);  // p50: rank 3
  CHECK(r[0].tail_samples == 2);
  CHECK(r[1].value == 2);  // p75: rank 4
  CHECK(r[1].tail_samples == 1);
  CHECK(r[2].value == 7);  // p85: rank 5
  CHECK(r[2].tail_samples == 0);
  CHECK(r[7].value == 7);
  CHECK(r[7].tail_samples == 0);
}

TEST_CASE("empty histograms answer 0") {
  H h;
  CHECK(h.total() == 0);
  CHECK(h.min() == 0);
  CHECK(h.max() == 0);
  CHECK(h.value_at_rank(1) == 0);
  CHECK(h.index_at_rank(1) == 0);

  SignedHistogram s;
  CHECK(s.total() == 0);
  CHECK(s.min() == 0);
  CHECK(s.max() == 0);
  CHECK(s.mean() == Approx(0.0).margin(0));
  CHECK(s.value_at_rank(1) == 0);
  CHECK(s.value_at_percentile(50) == 0);
  CHECK(s.value_at_percentile(100) == 0);
  CHECK(standard_percentiles(s).empty());
}

TEST_CASE("values above 2^62 are clamped and counted, never UB") {
  H h;
  h.record(H::kHighestTrackableValue);  // the last trackable value: not an overflow
  CHECK(h.overflow() == 0);
  h.record(H::kHighestTrackableValue + 1);
  h.record(kU64Max);
  CHECK(h.overflow() == 2);
  CHECK(h.total() == 3);
  CHECK(h.count_at_index(H::kCountsLength - 1) == 3);
  CHECK(h.max() == kU64Max);
  CHECK(h.value_at_rank(3) == kU64Max);
  CHECK(h.value_at_rank(2) == H::highest_equivalent(H::kHighestTrackableValue));

  SignedHistogram s;
  s.record(kI64Min, 2);
  s.record(0);
  s.record(kI64Max);
  CHECK(s.overflow() == 3);
  CHECK(s.min() == kI64Min);
  CHECK(s.max() == kI64Max);
  CHECK(s.value_at_rank(1) == kI64Min);
  CHECK(s.value_at_rank(2) == -(std::int64_t{1} << 62));  // clamped magnitude bucket
  CHECK(s.value_at_rank(3) == 0);
  CHECK(s.value_at_rank(4) == kI64Max);
}

TEST_CASE("the mean is exact on an exact sum") {
  SignedHistogram s;
  for (const std::int64_t v : {-9, -3, 2, 12}) s.record(v);
  CHECK(s.mean() == Approx(0.5).margin(0).epsilon(0));

  // A double accumulator loses these entirely; the 128-bit sum gives -2 / 4.
  SignedHistogram big;
  big.record(kI64Max, 2);
  big.record(kI64Min, 2);
  CHECK(big.mean() == Approx(-0.5).margin(0).epsilon(0));

  SignedHistogram counted;
  counted.record(-7, 3);
  counted.record(1, 5);  // (-21 + 5) / 8 = -2
  CHECK(counted.mean() == Approx(-2.0).margin(0).epsilon(0));
}

TEST_CASE("signed histogram: record_all equals one record per value") {
  std::mt19937_64 rng(8);
  auto same = [](const SignedHistogram& a, const SignedHistogram& b) {
    REQUIRE(a.total() == b.total());
    REQUIRE(a.negative_count() == b.negative_count());
    REQUIRE(a.overflow() == b.overflow());
    REQUIRE(a.min() == b.min());
    REQUIRE(a.max() == b.max());
    REQUIRE(a.mean() == Approx(b.mean()).epsilon(0).margin(0));
    for (std::uint64_t rank = 1; rank <= a.total(); rank += 1 + a.total() / 97)
      REQUIRE(a.value_at_rank(rank) == b.value_at_rank(rank));
    using Getter = std::uint64_t (LogLinearHistogram::*)() const;
    for (const Getter half :
         {Getter{&LogLinearHistogram::min}, Getter{&LogLinearHistogram::max}, Getter{&LogLinearHistogram::total}}) {
      REQUIRE((a.negative_magnitudes().*half)() == (b.negative_magnitudes().*half)());
      REQUIRE((a.non_negatives().*half)() == (b.non_negatives().*half)());
    }
    for (std::size_t i = 0; i < LogLinearHistogram::kCountsLength; ++i) {
      REQUIRE(a.negative_magnitudes().count_at_index(i) == b.negative_magnitudes().count_at_index(i));
      REQUIRE(a.non_negatives().count_at_index(i) == b.non_negatives().count_at_index(i));
    }
  };
  // Chunks around zero, all negative, all positive, huge magnitudes (the slow path),
  // INT64_MIN and INT64_MAX, a chunk longer than the fast path takes, and an empty one;
  // one-signed chunks within bucket 0 (counted by value) and just past it.
  const std::vector<std::pair<std::int64_t, std::int64_t>> ranges = {
      {-300, 300},   {-5000, -1}, {0, 100000}, {-(std::int64_t{1} << 60), std::int64_t{1} << 61},
      {-2047, 2047}, {0, 2047},   {-2047, -1}, {1, 2048},
      {-2048, -1}};
  SignedHistogram one_by_one, batched;
  for (const auto& [lo, hi] : ranges) {
    for (const std::size_t size :
         {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{512}, std::size_t{3000}}) {
      std::uniform_int_distribution<std::int64_t> dist(lo, hi);
      std::vector<std::int64_t> values(size);
      for (auto& v : values) v = dist(rng);
      for (const std::int64_t v : values) one_by_one.record(v);
      if (size % 2 == 0 && !values.empty()) {  // with the extremes handed in
        batched.record_all(values, *std::min_element(values.begin(), values.end()),
                           *std::max_element(values.begin(), values.end()));
      } else {
        batched.record_all(values);
      }
      same(one_by_one, batched);
    }
  }
  const std::vector<std::int64_t> extremes = {std::numeric_limits<std::int64_t>::min(), -1, 0,
                                              std::numeric_limits<std::int64_t>::max()};
  for (const std::int64_t v : extremes) one_by_one.record(v);
  batched.record_all(extremes);
  same(one_by_one, batched);
}

TEST_CASE("clear() leaves a histogram like a new one, overflow and negatives included") {
  std::mt19937_64 rng(17);
  const std::vector<std::int64_t> later = {-5000, -3, 0, 7, 2047, 2048, 99'999, 123'456'789};
  for (int shape = 0; shape < 3; ++shape) {
    INFO("shape " << shape);
    SignedHistogram h;
    for (int i = 0; i < 5000; ++i) {
      const auto v = static_cast<std::int64_t>(rng() % 2'000'000) - 1'000'000;
      h.record(shape == 0 ? v : shape == 1 ? std::abs(v) : -std::abs(v) - 1);
    }
    h.record(std::numeric_limits<std::int64_t>::min());  // beyond 2^62: counted at the last index
    h.record(std::numeric_limits<std::int64_t>::max());
    h.record_all(later);
    REQUIRE(h.overflow() == 2);
    h.clear();
    for (const LogLinearHistogram* half : {&h.negative_magnitudes(), &h.non_negatives()}) {
      CHECK(half->total() == 0);
      CHECK(half->overflow() == 0);
      CHECK(half->min() == 0);
      CHECK(half->max() == 0);
      std::uint64_t left = 0;
      for (std::size_t i = 0; i < LogLinearHistogram::kCountsLength; ++i) left += half->count_at_index(i);
      CHECK(left == 0);
    }
    CHECK(h.total() == 0);
    CHECK(h.min() == 0);
    CHECK(h.max() == 0);
    CHECK(h.mean() == Approx(0.0).margin(0).epsilon(0));
    // Used again, it answers what a new one does.
    SignedHistogram fresh;
    h.record_all(later);
    fresh.record_all(later);
    for (double p : {0.0, 10.0, 50.0, 75.0, 99.0, 100.0})
      CHECK(h.value_at_percentile(p) == fresh.value_at_percentile(p));
    CHECK(h.min() == fresh.min());
    CHECK(h.mean() == Approx(fresh.mean()).margin(0).epsilon(0));
  }
}
