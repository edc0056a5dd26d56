#include "core/histogram.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace tscaudit {

namespace {

using H = LogLinearHistogram;

// Rounding a percentile to this many units per percent keeps every percentile anyone
// prints (99.9999 is 99'999'900) and leaves the rank computation in 64-bit integers.
constexpr double kUnitsPerPercent = 1'000'000;
constexpr std::uint64_t kUnitsHundredPercent = 100'000'000;

}  // namespace

static_assert(LogLinearHistogram::kSubBucketCount == 2048);
static_assert(LogLinearHistogram::kSubBucketMask == 2047);

LogLinearHistogram::LogLinearHistogram() : counts_(kCountsLength, 0) {}

std::uint64_t LogLinearHistogram::value_from_counts_index(std::size_t index) {
  int bucket = static_cast<int>(index >> kSubBucketHalfCountMagnitude) - 1;
  std::uint64_t sub = (index & (kSubBucketHalfCount - 1)) + kSubBucketHalfCount;
  if (bucket < 0) {  // the lower half of bucket 0
    sub -= kSubBucketHalfCount;
    bucket = 0;
  }
  return sub << (bucket + kUnitMagnitude);
}

std::uint64_t LogLinearHistogram::lowest_equivalent(std::uint64_t value) {
  const int bucket = H::bucket_index(value);
  return H::sub_bucket_index(value, bucket) << (bucket + kUnitMagnitude);
}

std::uint64_t LogLinearHistogram::highest_equivalent(std::uint64_t value) {
  // The sub-bucket width is 2^(bucket + unit_magnitude). The top bucket (53, for values
  // >= 2^63) ends exactly at 2^64 - 1, so the sum cannot wrap.
  const std::uint64_t width = std::uint64_t{1} << (H::bucket_index(value) + kUnitMagnitude);
  return lowest_equivalent(value) + (width - 1);
}

void LogLinearHistogram::clear() {
  if (total_ != 0) {
    // Every recorded value's index lies in [counts_index(min_), counts_index(max_)]
    // (counts_index is monotonic); values above kHighestTrackableValue were counted at
    // the last index, where the clamp of `last` puts the range's end.
    const std::size_t last = std::min(counts_index(max_), kCountsLength - 1);
    const std::size_t first = std::min(counts_index(min_), last);
    std::fill(counts_.begin() + static_cast<std::ptrdiff_t>(first),
              counts_.begin() + static_cast<std::ptrdiff_t>(last) + 1, std::uint64_t{0});
  }
  total_ = 0;
  overflow_ = 0;
  min_ = std::numeric_limits<std::uint64_t>::max();
  max_ = 0;
}

std::uint64_t LogLinearHistogram::count_at_index(std::size_t index) const {
  return index < counts_.size() ? counts_[index] : 0;
}

std::size_t LogLinearHistogram::index_at_rank(std::uint64_t rank) const {
  if (total_ == 0) return 0;
  rank = std::clamp<std::uint64_t>(rank, 1, total_);
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < counts_.size(); ++i) {
    seen += counts_[i];
    if (seen >= rank) return i;
  }
  return counts_.size() - 1;  // only if the counters wrapped past 2^64 samples
}

std::uint64_t LogLinearHistogram::value_at_rank(std::uint64_t rank) const {
  if (total_ == 0) return 0;
  rank = std::clamp<std::uint64_t>(rank, 1, total_);
  // The extremes are known exactly; a bucket would only widen them.
  if (rank == 1) return min_;
  if (rank == total_) return max_;
  const std::uint64_t high = highest_equivalent(value_from_counts_index(index_at_rank(rank)));
  return std::clamp(high, min_, max_);
}

void SignedHistogram::record_all(std::span<const std::int64_t> values) {
  if (values.empty()) return;
  std::int64_t lo = values[0], hi = values[0];
  for (const std::int64_t v : values) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  record_all(values, lo, hi);
}

void SignedHistogram::record_all(std::span<const std::int64_t> values, std::int64_t lo, std::int64_t hi) {
  if (values.empty()) return;
  constexpr std::int64_t kFast = std::int64_t{1} << 52;  // |v| below: no overflow, 64-bit sums
  constexpr std::size_t kFastChunk = 2048;               // 2048 * 2^52 = 2^63: the sum fits
  if (lo <= -kFast || hi >= kFast || values.size() > kFastChunk) {
    for (const std::int64_t v : values) record(v);
    return;
  }
  // Unsigned, so that the loop vectorizes without overflow questions; exact here.
  std::uint64_t sum_bits = 0;
  for (const std::int64_t v : values) sum_bits += static_cast<std::uint64_t>(v);
  auto add = [](LogLinearHistogram& h, std::uint64_t samples, std::uint64_t low, std::uint64_t high) {
    if (samples == 0) return;
    h.total_ += samples;
    h.min_ = std::min(h.min_, low);
    h.max_ = std::max(h.max_, high);
  };
  // The counters through local pointers: a counter's increment is a uint64 store, which
  // could alias the halves' totals and extremes, but not these.
  std::uint64_t* const non_negative_counts = halves_[kNonNegative].counts_.data();
  std::uint64_t* const negative_counts = halves_[kNegative].counts_.data();
  // Magnitudes below kSubBucketCount are their own counts index (bucket 0 steps by 1):
  // a batch that lies within them needs no index arithmetic.
  constexpr auto kExact = static_cast<std::int64_t>(LogLinearHistogram::kSubBucketCount);
  if (lo >= 0) {  // one half only, its extremes known: the usual chunk of rtt or rev
    if (hi < kExact) {
      for (const std::int64_t v : values) ++non_negative_counts[static_cast<std::size_t>(v)];
    } else {
      for (const std::int64_t v : values)
        ++non_negative_counts[LogLinearHistogram::counts_index(static_cast<std::uint64_t>(v))];
    }
    add(halves_[kNonNegative], values.size(), static_cast<std::uint64_t>(lo), static_cast<std::uint64_t>(hi));
  } else if (hi < 0) {
    if (lo > -kExact) {
      for (const std::int64_t v : values) ++negative_counts[static_cast<std::size_t>(-v)];
    } else {
      for (const std::int64_t v : values)
        ++negative_counts[LogLinearHistogram::counts_index(static_cast<std::uint64_t>(-v))];
    }
    add(halves_[kNegative], values.size(), static_cast<std::uint64_t>(-hi), static_cast<std::uint64_t>(-lo));
  } else {
    // Both halves: per half, samples and extremes of the magnitudes (the negatives'
    // smallest magnitude is the largest negative value). Branch-free selections.
    std::uint64_t negatives = 0;
    std::int64_t non_negative_min = std::numeric_limits<std::int64_t>::max();
    std::int64_t negative_max = std::numeric_limits<std::int64_t>::min();  // closest to zero
    for (const std::int64_t v : values) {
      negatives += static_cast<std::uint64_t>(v < 0);
      non_negative_min = std::min(non_negative_min, v < 0 ? std::numeric_limits<std::int64_t>::max() : v);
      negative_max = std::max(negative_max, v < 0 ? v : std::numeric_limits<std::int64_t>::min());
    }
    std::uint64_t* const counts[2] = {non_negative_counts, negative_counts};
    for (const std::int64_t v : values) {
      const auto u = static_cast<std::uint64_t>(v);
      const std::uint64_t negative_mask = 0 - (u >> 63);
      ++counts[u >> 63][LogLinearHistogram::counts_index((u ^ negative_mask) - negative_mask)];
    }
    add(halves_[kNonNegative], values.size() - negatives, static_cast<std::uint64_t>(non_negative_min),
        static_cast<std::uint64_t>(hi));
    add(halves_[kNegative], negatives, static_cast<std::uint64_t>(-negative_max), static_cast<std::uint64_t>(-lo));
  }
  min_ = std::min(min_, lo);
  max_ = std::max(max_, hi);
  sum_ += static_cast<std::int64_t>(sum_bits);  // |sum| < 2048 * 2^52 = 2^63
}

void SignedHistogram::clear() {
  for (LogLinearHistogram& half : halves_) half.clear();
  min_ = std::numeric_limits<std::int64_t>::max();
  max_ = std::numeric_limits<std::int64_t>::min();
  sum_ = 0;
}

double SignedHistogram::mean() const {
  const std::uint64_t n = total();
  if (n == 0) return 0;
  return static_cast<double>(static_cast<long double>(sum_) / static_cast<long double>(n));
}

std::int64_t SignedHistogram::value_at_rank(std::uint64_t rank) const {
  const std::uint64_t n = total();
  if (n == 0) return 0;
  rank = std::clamp<std::uint64_t>(rank, 1, n);
  if (rank == 1) return min_;
  if (rank == n) return max_;
  const std::uint64_t n_negative = halves_[kNegative].total();
  std::int64_t value = 0;
  if (rank <= n_negative) {
    // Signed rank r among the negatives is magnitude rank n_negative - r + 1. The
    // bucket's signed upper end is minus its lowest magnitude (at most 2^62: record()
    // clamps larger magnitudes into that bucket), so the negation cannot overflow.
    const std::uint64_t magnitude_rank = n_negative - rank + 1;
    const std::uint64_t low = H::value_from_counts_index(halves_[kNegative].index_at_rank(magnitude_rank));
    value = -static_cast<std::int64_t>(low);
  } else {
    // At most 2^62 + 2^52 - 1, the end of the clamped top bucket: fits in int64.
    const std::uint64_t low = H::value_from_counts_index(halves_[kNonNegative].index_at_rank(rank - n_negative));
    value = static_cast<std::int64_t>(H::highest_equivalent(low));
  }
  return std::clamp(value, min_, max_);
}

std::int64_t SignedHistogram::value_at_percentile(double percentile) const {
  return value_at_rank(rank_for_percentile(percentile, total()));
}

std::uint64_t rank_for_percentile(double percentile, std::uint64_t total) {
  if (total == 0) return 0;
  std::uint64_t units = 0;  // the percentile in millionths of a percent, [0, 10^8]
  if (!(percentile > 0)) {  // also NaN
    units = 0;
  } else if (!(percentile < 100)) {
    units = kUnitsHundredPercent;
  } else {
    units = static_cast<std::uint64_t>(std::llround(percentile * kUnitsPerPercent));
    units = std::min(units, kUnitsHundredPercent);
  }
  // ceil(units * total / 10^8) without a 128-bit product: split total = q * 10^8 + r.
  // units * q <= total and units * r < 10^16, so nothing overflows.
  const std::uint64_t q = total / kUnitsHundredPercent;
  const std::uint64_t r = total % kUnitsHundredPercent;
  const std::uint64_t rank = units * q + (units * r + kUnitsHundredPercent - 1) / kUnitsHundredPercent;
  return std::max<std::uint64_t>(rank, 1);
}

std::vector<PercentileRow> standard_percentiles(const SignedHistogram& histogram) {
  std::vector<PercentileRow> rows;
  const std::uint64_t n = histogram.total();
  if (n == 0) return rows;
  rows.reserve(kStandardPercentiles.size());
  for (const double p : kStandardPercentiles) {
    const std::uint64_t rank = rank_for_percentile(p, n);
    rows.push_back({p, histogram.value_at_rank(rank), n - rank});
  }
  return rows;
}

}  // namespace tscaudit
