// Log-linear latency histograms (HdrHistogram_c's bucket layout, 3 significant figures)
// and the percentile table that reporters print from them.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace tscaudit {

/// HdrHistogram_c's layout for unsigned magnitudes, implemented in-house (Debian packages
/// only the Java and Go ports). Lowest discernible value 1 (unit_magnitude 0), highest
/// trackable value 2^62, 3 significant figures: every value is kept to within a relative
/// error of 10^-3, and values below kSubBucketCount (2048) are kept exactly.
///
/// Layout: bucket 0 holds 0..2047 in steps of 1; bucket b >= 1 holds
/// [2^(b+10), 2^(b+11)) in 1024 sub-buckets of width 2^b. The index math is exactly
/// HdrHistogram_c's (get_bucket_index, get_sub_bucket_index, counts_index), so indices
/// agree with any other HdrHistogram port configured the same way.
class LogLinearHistogram {
 public:
  static constexpr int kUnitMagnitude = 0;  // floor(log2(lowest discernible value 1))
  /// sub_bucket_count = 2^ceil(log2(2 * 10^3)) = 2^11: two sub-buckets per unit of the
  /// third significant figure, so the half-width error stays below 10^-3.
  static constexpr int kSubBucketCountMagnitude = 11;
  static constexpr int kSubBucketHalfCountMagnitude = kSubBucketCountMagnitude - 1;
  static constexpr std::uint64_t kSubBucketCount = std::uint64_t{1} << kSubBucketCountMagnitude;
  static constexpr std::uint64_t kSubBucketHalfCount = kSubBucketCount / 2;
  static constexpr std::uint64_t kSubBucketMask = (kSubBucketCount - 1) << kUnitMagnitude;
  /// Larger values are recorded into the bucket of this value and counted in overflow().
  /// 2^62 ticks is decades at any TSC frequency; only garbage or wrapped differences
  /// get there.
  static constexpr std::uint64_t kHighestTrackableValue = std::uint64_t{1} << 62;
  /// counts_index(kHighestTrackableValue) + 1: bucket 52, sub-bucket 1024 is index
  /// (53 << 10) + 0 = 54272. About 424 KiB of counts.
  static constexpr std::size_t kCountsLength = 54273;

  LogLinearHistogram();

  /// Adds `count` samples of `value`. Values above kHighestTrackableValue land in that
  /// value's bucket and are counted in overflow(); min() and max() stay exact anyway.
  /// count 0 records nothing. Counters are unsigned and wrap only past 2^64 samples.
  /// Inline: the analysis records three values per round.
  void record(std::uint64_t value, std::uint64_t count = 1) {
    if (count == 0) return;
    std::size_t index = kCountsLength - 1;
    if (value > kHighestTrackableValue) [[unlikely]] {
      overflow_ += count;
    } else {
      index = counts_index(value);
    }
    counts_[index] += count;
    total_ += count;
    min_ = std::min(min_, value);
    max_ = std::max(max_, value);
  }

  /// Forgets every sample and keeps the memory (an interval's histogram is reused for the
  /// next one). Only the buckets from min() to max() can hold counts, so only they are
  /// zeroed: a narrow distribution clears in a few hundred bytes, the widest in the whole
  /// 424 KiB. Allocates nothing. (A histogram whose total wrapped past 2^64 samples is
  /// not cleared reliably; no interval gets near that.)
  void clear();

  [[nodiscard]] std::uint64_t total() const { return total_; }
  /// Samples above kHighestTrackableValue (their percentiles are only lower bounds).
  [[nodiscard]] std::uint64_t overflow() const { return overflow_; }
  /// Exact smallest / largest recorded value; 0 when empty.
  [[nodiscard]] std::uint64_t min() const { return total_ == 0 ? 0 : min_; }
  [[nodiscard]] std::uint64_t max() const { return max_; }
  /// Samples in the bucket at `index`; 0 for an index past kCountsLength.
  [[nodiscard]] std::uint64_t count_at_index(std::size_t index) const;

  /// The counts index of the bucket holding the rank-th smallest sample (rank 1-based,
  /// clamped into [1, total()]). 0 when empty.
  [[nodiscard]] std::size_t index_at_rank(std::uint64_t rank) const;

  /// The highest value equivalent to the rank-th smallest sample (rank 1-based, clamped
  /// into [1, total()]), clamped into [min(), max()]. The two ends are exact: rank 1 is
  /// min() and rank total() is max(), even when a wider bucket holds them. 0 when empty.
  [[nodiscard]] std::uint64_t value_at_rank(std::uint64_t rank) const;

  /// HdrHistogram_c's counts_index(value). Defined for every uint64 value; indices of
  /// values above kHighestTrackableValue lie past kCountsLength (record() clamps them).
  [[nodiscard]] static std::size_t counts_index(std::uint64_t value) {
    const int bucket = bucket_index(value);
    const std::uint64_t sub = sub_bucket_index(value, bucket);
    // Bucket 0 uses all kSubBucketCount sub-buckets, every later bucket only its upper
    // half (its lower half would repeat the previous bucket at a coarser step).
    const std::uint64_t bucket_base = static_cast<std::uint64_t>(bucket + 1) << kSubBucketHalfCountMagnitude;
    return static_cast<std::size_t>(bucket_base + sub - kSubBucketHalfCount);
  }
  /// HdrHistogram_c get_bucket_index: 0 for values below kSubBucketCount, then one more
  /// per doubling. OR-ing the mask in keeps values below it in bucket 0 (and makes 0 valid).
  [[nodiscard]] static int bucket_index(std::uint64_t value) {
    return 64 - std::countl_zero(value | kSubBucketMask) - kUnitMagnitude - (kSubBucketHalfCountMagnitude + 1);
  }
  /// HdrHistogram_c get_sub_bucket_index: in [kSubBucketHalfCount, kSubBucketCount) for
  /// bucket >= 1, in [0, kSubBucketCount) for bucket 0.
  [[nodiscard]] static std::uint64_t sub_bucket_index(std::uint64_t value, int bucket) {
    return value >> (bucket + kUnitMagnitude);
  }
  /// The lowest value of the bucket at `index` (HdrHistogram_c's value_from_index).
  /// \pre index < kCountsLength (larger indices work up to 55295, the end of bucket 52).
  [[nodiscard]] static std::uint64_t value_from_counts_index(std::size_t index);
  /// The lowest value that shares `value`'s bucket.
  [[nodiscard]] static std::uint64_t lowest_equivalent(std::uint64_t value);
  /// The highest value that shares `value`'s bucket (next non-equivalent value - 1).
  /// Never wraps: the top bucket ends at 2^64 - 1.
  [[nodiscard]] static std::uint64_t highest_equivalent(std::uint64_t value);

 private:
  friend class SignedHistogram;  // its batch records count values and then add their summary

  std::vector<std::uint64_t> counts_;
  std::uint64_t total_ = 0;
  std::uint64_t overflow_ = 0;
  std::uint64_t min_ = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t max_ = 0;
};

/// Signed values (one-way latencies are negative when the offset exceeds the delay): a
/// LogLinearHistogram of magnitudes for the negatives and one for the values >= 0, so the
/// relative error is 10^-3 on both sides of zero and values in (-2048, 2048) are exact.
/// Empty: total() 0, and min(), max(), mean() and every rank or percentile give 0.
class SignedHistogram {
 public:
  /// Adds `count` samples of `value`. Magnitudes above 2^62 are clamped (see overflow());
  /// min, max, count and mean stay exact for every int64 value.
  void record(std::int64_t value, std::uint64_t count = 1) {
    if (count == 0) return;
    // Without a branch on the sign, which one-way latencies near zero would mispredict:
    // the half is chosen by index and the magnitude by a mask. Two's-complement negation
    // in unsigned arithmetic: exact for INT64_MIN too (2^63).
    const auto v = static_cast<std::uint64_t>(value);
    const std::uint64_t negative_mask = 0 - (v >> 63);  // all ones for value < 0
    halves_[v >> 63].record((v ^ negative_mask) - negative_mask, count);
    min_ = std::min(min_, value);
    max_ = std::max(max_, value);
    sum_ += static_cast<Int128>(value) * static_cast<Int128>(count);
  }

  /// The same as record(v) for every v in values, in fewer instructions: the extremes,
  /// counts and sum in loops the compiler can vectorize, then one counter per value.
  /// For chunks of up to a few thousand values (the sum is kept in 64 bits per chunk
  /// when every magnitude is below 2^52).
  void record_all(std::span<const std::int64_t> values);
  /// The same, for a caller that already has the values' extremes (analyze gathers them
  /// with the values). \pre lo and hi are the smallest and the largest of `values`.
  void record_all(std::span<const std::int64_t> values, std::int64_t lo, std::int64_t hi);

  /// Forgets every sample, keeping the memory (LogLinearHistogram::clear on both halves).
  void clear();

  [[nodiscard]] std::uint64_t total() const { return halves_[kNegative].total() + halves_[kNonNegative].total(); }
  [[nodiscard]] std::uint64_t negative_count() const { return halves_[kNegative].total(); }
  /// Samples whose magnitude exceeded LogLinearHistogram::kHighestTrackableValue.
  [[nodiscard]] std::uint64_t overflow() const {
    return halves_[kNegative].overflow() + halves_[kNonNegative].overflow();
  }
  /// Exact extremes; 0 when empty.
  [[nodiscard]] std::int64_t min() const { return total() == 0 ? 0 : min_; }
  [[nodiscard]] std::int64_t max() const { return total() == 0 ? 0 : max_; }
  /// The sum is kept exactly in a 128-bit integer (__int128: |sum| <= 2^63 per sample,
  /// so it cannot overflow below 2^64 samples); the mean divides it by the count in long
  /// double and rounds to double, within an ulp or so of the true mean. 0 when empty.
  [[nodiscard]] double mean() const;

  /// The rank-th smallest sample in signed order (rank 1-based, clamped into
  /// [1, total()]): ranks 1..negative_count() are the negatives from the most negative
  /// up, then the values >= 0 ascending. The result is the largest value equivalent to
  /// that sample: the bucket's signed upper end (highest_equivalent for values >= 0,
  /// -lowest_equivalent(magnitude) for negatives), clamped into [min(), max()]. Rank 1
  /// gives min() and rank total() gives max() exactly. 0 when empty.
  [[nodiscard]] std::int64_t value_at_rank(std::uint64_t rank) const;

  /// value_at_rank(rank_for_percentile(percentile, total())): 0 gives min(), 100 max().
  [[nodiscard]] std::int64_t value_at_percentile(double percentile) const;

  [[nodiscard]] const LogLinearHistogram& negative_magnitudes() const { return halves_[kNegative]; }
  [[nodiscard]] const LogLinearHistogram& non_negatives() const { return halves_[kNonNegative]; }

 private:
  __extension__ using Int128 = __int128;  // GCC/Clang; __extension__ silences -Wpedantic

  static constexpr std::size_t kNonNegative = 0;  // the values v >= 0
  static constexpr std::size_t kNegative = 1;     // magnitudes |v| of the values v < 0
  std::array<LogLinearHistogram, 2> halves_;
  std::int64_t min_ = std::numeric_limits<std::int64_t>::max();
  std::int64_t max_ = std::numeric_limits<std::int64_t>::min();
  Int128 sum_ = 0;
};

/// The 1-based rank of the percentile: max(1, ceil(percentile / 100 * total)), computed
/// in integers so that 99.9 % of 1000 is rank 999, not 1000 by rounding. The percentile
/// is first rounded to a millionth of a percent (an integer in [0, 10^8]); values
/// outside [0, 100] are clamped and NaN counts as 0. Gives 0 only when total is 0.
[[nodiscard]] std::uint64_t rank_for_percentile(double percentile, std::uint64_t total);

struct PercentileRow {
  double percentile = 0;           // in percent, e.g. 99.9
  std::int64_t value = 0;          // SignedHistogram::value_at_percentile(percentile), ticks
  std::uint64_t tail_samples = 0;  // samples above this rank: total - rank = floor(n (1 - p))
};

/// The percentiles reported for every distribution (fwd, rev, rtt, ...).
inline constexpr std::array<double, 8> kStandardPercentiles = {50, 75, 85, 95, 99, 99.9, 99.99, 99.999};

/// A tail value with fewer than this many samples beyond it rests on a handful of
/// rounds (one interrupt can move it); reporters should flag such rows. For n = 10^6,
/// p99.999 has exactly 10 and is the last row that passes.
inline constexpr std::uint64_t kThinTailSamples = 10;

/// One row per kStandardPercentiles entry, in that order. Empty histogram: no rows.
[[nodiscard]] std::vector<PercentileRow> standard_percentiles(const SignedHistogram& histogram);

}  // namespace tscaudit
