// How far apart the two CPUs of a pair sit in the machine (SMT siblings, same L3, same
// package, other package), and the matrix summarised by that distance: how many pairs of
// each class were measured, and the ranges of their one-way latency bound and offset.
// Latency and the width of the offset bands grow with the distance (docs/machine.md §10),
// so a reader compares each pair with its own class. Pure.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "core/cpu_place.hpp"
#include "matrix/matrix.hpp"

namespace tscaudit {

/// Closest first; `unknown` where the places do not tell (a level -1 on either side).
enum class PairDistance { smt, l3, package, cross_package, unknown };

/// The closest level two CPUs share: the same core (SMT siblings), else the same L3, else
/// the same package; two known, different packages are `cross_package`; anything else
/// (a plain directory of run files: every level -1) is `unknown`.
PairDistance pair_distance(const CpuPlace& a, const CpuPlace& b);

/// "SMT siblings", "same L3", "same package", "cross-package", "topology unknown".
std::string_view pair_distance_name(PairDistance d);

/// Smallest, median and largest of some values; NaN each when there are none.
struct ValueRange {
  double min = kNoValue;
  double median = kNoValue;  // the upper median of an even count: always one of the values
  double max = kNoValue;
};

/// \returns the range of the finite values among `values` (NaNs are left out).
ValueRange value_range(std::vector<double> values);

/// One class of pairs of a matrix.
struct DistanceClass {
  PairDistance distance = PairDistance::unknown;
  std::size_t pairs = 0;     // measured ordered pairs
  ValueRange one_way_ticks;  // rtt_min / 2 per pair, ticks (see summarize_by_distance)
  ValueRange offset_ticks;   // θ = TSC_b − TSC_a per ordered pair, ticks
};

/// The measured ordered pairs of `m` grouped by pair_distance of their CPUs' places, one
/// entry per class present, closest first. `one_way_ticks` is the range over the pairs of
/// rtt_min / 2: the half round trip bounds the shorter of the two one-way latencies from
/// above, the latency floor of that distance. With no places (MatrixResult::places empty or
/// of another size) every pair is `unknown`.
std::vector<DistanceClass> summarize_by_distance(const MatrixResult& m);

}  // namespace tscaudit
