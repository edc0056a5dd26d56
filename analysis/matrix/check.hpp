// The verdict for scripts (`tscaudit check`): synchronized, not or inconclusive, how tight,
// why (the findings of matrix/findings.hpp), and every failing pair, as data;
// render/verdict_text.hpp words the reason and each failure. Pure: decided over a MatrixResult.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "matrix/findings.hpp"
#include "matrix/matrix.hpp"

namespace tscaudit {

struct CheckSettings {
  /// The offsets may differ by this much: a pair passes when its hard band meets
  /// [−tolerance, +tolerance]. 0: the band must contain 0.
  double tolerance_ticks = 0;
  /// A pair passes the drift test when the analysis finds no detectable drift, or when
  /// its drift band meets [−tolerance, +tolerance].
  double drift_tolerance_ppb = 0;
  /// The widest proof accepted (--max-bound): a run that would pass, but whose pairs prove
  /// |offset| only within more than this, is inconclusive. 0: no limit.
  double max_bound_ticks = 0;
};

/// The three answers of a check (docs/method.md §10.3), the same in text, JSON, metrics,
/// the report and the library.
enum class CheckOutcome {
  synchronized,      // every pair passes, each proven within the bound (and --max-bound)
  not_synchronized,  // a pair fails: proof of a difference, or of a run that cannot be judged
  inconclusive,      // every pair passes, but the bound is wider than --max-bound
  incomplete,        // the run was cut short (a signal, an error, a writer that died): no verdict
};

/// Why a pair (or the whole matrix) fails, most important first: the one-line reason
/// names the largest offset failure if any, else the most important kind.
enum class CheckFailureKind {
  offset,              // the offset band misses the tolerance
  offset_stepped,      // the offset stepped during the run (proven)
  drift,               // the drift band misses its tolerance
  self_inconsistent,   // rounds impossible for any offset under a receive read that orders loads
  no_band,             // no offset fits every round: the offset cannot be bounded
  inconsistent_bands,  // (the matrix) the pairs' bands contradict one another
  incomplete,          // the run is incomplete
  not_measured,
};

struct CheckFailure {
  int a = -1, b = -1;  // the ordered pair; -1 for a failure of the whole matrix
  CheckFailureKind kind = CheckFailureKind::not_measured;
  std::string incomplete;               // incomplete: why, in the run's words
  std::uint64_t self_inconsistent = 0;  // self_inconsistent: rounds
  double offset_ticks = 0;              // offset: the estimate and its band
  double offset_lo_ticks = 0;
  double offset_hi_ticks = 0;
  double gap_ticks = 0;  // offset: how far the band misses the tolerance
  std::size_t steps = 0;              // offset_stepped: how many, and the largest one
  double step_ticks = 0;              //   its size
  std::uint64_t step_round = 0;       //   the first round after it
  double drift_ppb = 0;  // drift: the estimate and its band
  double drift_lo_ppb = 0;
  double drift_hi_ppb = 0;
};

struct CheckResult {
  CheckOutcome outcome = CheckOutcome::not_synchronized;
  bool synchronized = false;  // outcome == synchronized
  /// incomplete: why the run was cut short, in the run's words ("interrupted by SIGINT after
  /// 3 of 12 slots ..."); what the rest of the result says is what the part measured shows.
  std::string cut_short;
  std::vector<CheckFailure> failures;  // every pair that fails, in matrix order
  std::optional<std::size_t> shown;    // the failure the reason names when no finding is proven (none when it passes)
  std::size_t failing_pairs = 0;       // ordered pairs among the failures
  std::vector<std::string> warnings;   // what makes the answer less trustworthy (do not fail it)
  /// CPUs off from the rest: Diagnosis::cpus_off, those of every finding whose group is
  /// smaller than the group it is compared with (docs/method.md §10.3, §10.6): one CPU off,
  /// drifting or stepping is named; one package of two off names neither. In matrix order.
  std::vector<int> cpus_off;
  std::size_t cpus = 0;
  std::size_t pairs_checked = 0;  // ordered pairs: every one the plan measures
  /// The plan leaves some ordered pairs out (a sparse design, MatrixResult::planned):
  /// pairs_checked is fewer than the cpus × (cpus − 1) ordered pairs.
  bool sparse = false;
  double widest_band_ticks = 0;  // the widest offset band among the pairs that passed
  /// What the passing pairs prove: every one's offset lies within ±bound_ticks, the largest
  /// |lo| or |hi| of their bands (the verdict's width). 0 when none passed.
  double bound_ticks = 0;
  /// The structure of what is wrong (matrix/findings.hpp); no finding when synchronized.
  Diagnosis diagnosis;
  // What the sentences need besides: the tolerances, the frequency, the receive read.
  CheckSettings settings;
  double tsc_hz = 0;
  RecordedVariant recv;
};

/// Decides. A matrix passes when every ordered pair the plan measures (all of them unless
/// MatrixResult::planned says otherwise) is measured and complete, has a
/// feasible band meeting the tolerance, no drift beyond its tolerance, no self-inconsistent
/// round when the receive read waits for earlier loads (under plain reads such rounds are
/// the expected speculation, reported but not failed on: they are the variant's fault, not
/// the counters'), and the bands agree with one another; a pass whose bound exceeds
/// settings.max_bound_ticks is inconclusive instead. The failure `shown` (the reason's when
/// no finding is proven) is the largest offset step, else the largest offset failure (one
/// of a CPU in cpus_off when there is one), else the most important kind.
/// \param platform_warnings  passed through to `warnings` (VM, clocksource, invariance).
CheckResult decide_check(const MatrixResult& m, const CheckSettings& settings,
                         const std::vector<std::string>& platform_warnings);

/// A run cut short is never a verdict (docs/method.md §10.3): the outcome becomes
/// incomplete, with `why`; the findings and failures stay, as what the measured part shows.
/// \pre why is not empty.
void mark_cut_short(CheckResult& result, std::string why);

}  // namespace tscaudit
