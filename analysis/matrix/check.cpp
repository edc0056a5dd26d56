#include "matrix/check.hpp"

#include <algorithm>
#include <cmath>

#include "core/format.hpp"

namespace tscsync {
namespace {

/// How far the band [lo, hi] lies outside [−tol, tol]; 0 when they meet.
double gap_outside(double lo, double hi, double tol) {
  if (lo > tol) return lo - tol;
  if (hi < -tol) return -tol - hi;
  return 0;
}

/// Lower is more important for the one-line reason.
int severity(const std::string& kind) {
  static const std::vector<std::string> order = {
      "offset", "drift", "self_inconsistent", "no_band", "inconsistent_bands", "incomplete", "not_measured"};
  return static_cast<int>(std::find(order.begin(), order.end(), kind) - order.begin());
}

}  // namespace

CheckResult decide_check(const MatrixResult& m, const CheckSettings& s,
                         const std::vector<std::string>& platform_warnings) {
  CheckResult r;
  r.warnings = platform_warnings;
  const std::size_t n = m.size();
  const double hz = m.tsc_hz;
  double worst_offset_gap = -1;
  std::size_t worst_offset_index = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      ++r.pairs_checked;
      const PairCell& c = m.at(i, j);
      const int a = m.cpus[i], b = m.cpus[j];
      const std::string pair = "pair " + std::to_string(a) + "->" + std::to_string(b) + ": ";
      auto fail = [&](const std::string& kind, const std::string& what) {
        r.failures.push_back({a, b, kind, pair + what});
      };
      if (!c.measured) {
        fail("not_measured", "not measured");
        continue;
      }
      if (!c.incomplete.empty()) fail("incomplete", "the run is incomplete (" + c.incomplete + ")");
      if (c.self_inconsistent > 0 && variant_orders_earlier_loads(m.recv)) {
        fail("self_inconsistent", std::to_string(c.self_inconsistent) +
                                      " rounds impossible for any offset under receive variant " + m.recv.name +
                                      ", which should order the read");
      }
      if (!c.band_feasible) {
        fail("no_band", "no offset fits every round (causality violated under recv " + m.recv.name +
                            "): the offset cannot be bounded; use a receive variant that orders the read");
        continue;
      }
      const double gap = gap_outside(c.offset_lo_ticks, c.offset_hi_ticks, s.tolerance_ticks);
      if (gap > 0) {
        const std::string direction = c.offset_ticks > 0 ? " is ahead of CPU " : " is behind CPU ";
        fail("offset", "CPU " + std::to_string(b) + direction + std::to_string(a) + " by " +
                           ticks_with_ns(std::fabs(c.offset_ticks), hz) + "; the band " +
                           format_range(c.offset_lo_ticks, c.offset_hi_ticks) + " ticks misses +/-" +
                           format_sig(s.tolerance_ticks, 4) + " ticks by " + format_sig(gap, 4));
        if (gap > worst_offset_gap) {
          worst_offset_gap = gap;
          worst_offset_index = r.failures.size() - 1;
        }
      } else {
        r.widest_band_ticks = std::max(r.widest_band_ticks, c.offset_hi_ticks - c.offset_lo_ticks);
      }
      if (c.drift_detectable && std::isfinite(c.drift_lo_ppb) &&
          gap_outside(c.drift_lo_ppb, c.drift_hi_ppb, s.drift_tolerance_ppb) > 0) {
        fail("drift", "drifting by " + format_sig(c.drift_ppb, 3) + " ppb; the drift band " +
                          format_range(c.drift_lo_ppb, c.drift_hi_ppb) + " ppb misses +/-" +
                          format_sig(s.drift_tolerance_ppb, 3) + " ppb");
      }
    }
  }
  if (!m.cpu.bands_consistent) {
    r.failures.push_back({-1, -1, "inconsistent_bands",
                          "the pairs' offset bands contradict one another (a cycle of pairs admits no offsets): "
                          "an offset moved between visits, or a band is wrong"});
  }
  r.synchronized = r.failures.empty();
  if (r.synchronized) {
    r.reason =
        "synchronized: all " + std::to_string(r.pairs_checked) + " ordered pairs of " + std::to_string(n) +
        " CPUs have offset bands that " +
        (s.tolerance_ticks <= 0 ? std::string("contain 0") : "meet +/-" + format_sig(s.tolerance_ticks, 4) + " ticks") +
        " (widest band " + ticks_with_ns(r.widest_band_ticks, hz) + "), " +
        (s.drift_tolerance_ppb <= 0 ? std::string("no detectable drift")
                                    : "no drift beyond " + format_sig(s.drift_tolerance_ppb, 3) + " ppb") +
        (variant_orders_earlier_loads(m.recv) ? ", no self-inconsistent rounds" : "");
    return r;
  }
  // The reason: the largest offset failure if any, else the most important kind.
  std::size_t shown = 0;
  if (worst_offset_gap > 0) {
    shown = worst_offset_index;
  } else {
    for (std::size_t i = 1; i < r.failures.size(); ++i) {
      if (severity(r.failures[i].kind) < severity(r.failures[shown].kind)) shown = i;
    }
  }
  std::size_t failing_pairs = 0;
  for (std::size_t i = 0; i < r.failures.size(); ++i) {
    const bool new_pair = i == 0 || r.failures[i].a != r.failures[i - 1].a || r.failures[i].b != r.failures[i - 1].b;
    if (new_pair && r.failures[i].a >= 0) ++failing_pairs;
  }
  r.reason = "not synchronized: " + r.failures[shown].what + " (" + std::to_string(failing_pairs) + " of " +
             std::to_string(r.pairs_checked) + " ordered pairs fail)";
  return r;
}

}  // namespace tscsync
