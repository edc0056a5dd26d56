// The verdict for scripts (`tscsync check`): synchronized or not, the reason in one line,
// and every failing pair. Pure: decided over a MatrixResult.
#pragma once

#include <string>
#include <vector>

#include "matrix/matrix.hpp"

namespace tscsync {

struct CheckSettings {
  /// The offsets may differ by this much: a pair passes when its hard band meets
  /// [−tolerance, +tolerance]. 0: the band must contain 0.
  double tolerance_ticks = 0;
  /// A pair passes the drift test when the analysis finds no detectable drift, or when
  /// its drift band meets [−tolerance, +tolerance].
  double drift_tolerance_ppb = 0;
};

struct CheckFailure {
  int a = -1, b = -1;  // the ordered pair; -1 for a failure of the whole matrix
  std::string kind;    // not_measured, incomplete, no_band, offset, drift, self_inconsistent, inconsistent_bands
  std::string what;    // one line, with figures
};

struct CheckResult {
  bool synchronized = false;
  std::string reason;                  // one line: the verdict and its main cause or evidence
  std::vector<CheckFailure> failures;  // every pair that fails, in matrix order
  std::vector<std::string> warnings;   // what makes the answer less trustworthy (do not fail it)
  std::size_t pairs_checked = 0;       // ordered pairs
  double widest_band_ticks = 0;        // the widest offset band among the pairs that passed
};

/// Decides. A matrix passes when every ordered pair is measured and complete, has a
/// feasible band meeting the tolerance, no drift beyond its tolerance, no self-inconsistent
/// round when the receive read waits for earlier loads (under plain reads such rounds are
/// the expected speculation, reported but not failed on: they are the variant's fault, not
/// the counters'), and the bands agree with one another.
/// \param platform_warnings  passed through to `warnings` (VM, clocksource, invariance).
CheckResult decide_check(const MatrixResult& m, const CheckSettings& settings,
                         const std::vector<std::string>& platform_warnings);

}  // namespace tscsync
