// Offset and drift between two counters from the envelopes of the one-way bounds
// (docs/method.md §3): the line of maximum vertical margin between the lower
// hull of the forward bounds U and the upper hull of the reverse bounds L, and the
// feasible polygon of every line that violates no bound by more than the quantum.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "estimate/hull.hpp"

namespace tscaudit {

/// Prior bound on |drift|: counters of one machine do not differ in rate by 0.1 %.
/// It keeps the feasible polygon bounded when the data cannot pin the slope down.
inline constexpr double kMaxDrift = 1e-3;

/// A clock line theta(x) = offset_ticks + drift * x, x in ticks from the reference time.
struct LineEstimate {
  double offset_ticks = 0;            // theta at x = 0 (the run's reference time)
  double drift = 0;                   // rate difference, ticks per tick (1e-9 = 1 ppb)
  double margin_ticks = 0;            // smallest vertical distance to the nearer envelope; about
                                      // the minimum one-way latency, negative when the bounds cross
  bool drift_at_prior_bound = false;  // the optimum sits on +-kMaxDrift: the U and L
                                      // supports do not interleave in time, so the data
                                      // does not identify the drift
  [[nodiscard]] double at(double x) const { return offset_ticks + drift * x; }
};

/// Every line (drift, offset) with theta(x) <= U + q and theta(x) >= L - q for all bounds,
/// |drift| <= kMaxDrift. These bounds assume only causality, a linear offset and reads
/// off by less than one quantum; they hold with certainty under those assumptions.
struct HardBand {
  bool feasible = false;       // false: no line satisfies every bound (causality violated)
  double offset_lo_ticks = 0;  // theta at x = 0
  double offset_hi_ticks = 0;
  double drift_lo = 0;
  double drift_hi = 0;
  /// Corners of the polygon as (drift, offset): the top chain (offset = min U + q - drift x
  /// over the bounds) and the bottom chain (max L - q ...). For any time x the lowest
  /// offset lies on the bottom chain and the highest on the top chain.
  std::vector<std::pair<double, double>> top_vertices;
  std::vector<std::pair<double, double>> bottom_vertices;

  /// Bounds on theta at time x (ticks from the reference). \pre feasible.
  [[nodiscard]] double offset_lo_at(double x) const;
  [[nodiscard]] double offset_hi_at(double x) const;
};

struct EnvelopeFit {
  LineEstimate line;               // maximum vertical margin, drift free within +-kMaxDrift
  HardBand band;                   // with bounds widened by the quantum
  std::size_t upper_vertices = 0;  // vertices of the lower hull of U
  std::size_t lower_vertices = 0;  // vertices of the upper hull of L
};

/// Fits the two envelopes. O(n) for the hulls, O(h log h) after.
/// \param upper  forward bounds: theta(x) <= y. Sorted by x.
/// \param lower  reverse bounds: theta(x) >= y. Sorted by x.
/// \param quantum_ticks  reading error allowed on each bound (>= 1).
/// \pre neither span is empty.
EnvelopeFit fit_envelopes(std::span<const Point> upper, std::span<const Point> lower, std::int64_t quantum_ticks);

/// The same from the hulls already built: `u_hull` the lower hull of the forward bounds,
/// `l_hull` the upper hull of the reverse bounds (hull.hpp), both non-empty. A pass over
/// the rounds builds them without an array of every bound.
EnvelopeFit fit_hulls(std::vector<Point> u_hull, std::vector<Point> l_hull, std::int64_t quantum_ticks);

/// The same with the drift fixed at 0: offset = (min U + max L) / 2 (Jeske's MLE for
/// exponential delays), margin = (min U - max L) / 2; the band is [max L - q, min U + q].
/// The hulls of fit_hulls give the same result as every bound: the lowest U is a vertex
/// of U's lower hull, the highest L one of L's upper hull.
EnvelopeFit fit_zero_drift(std::span<const Point> upper, std::span<const Point> lower, std::int64_t quantum_ticks);

}  // namespace tscaudit
