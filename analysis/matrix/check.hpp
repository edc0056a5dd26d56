// The one decision (docs/machine.md §10.3): the evidence of a check (the pairs' cells, and
// what surrounds them: a run cut short, pairs without rounds, nothing measurable, the
// platform's warnings) becomes synchronized, not synchronized, inconclusive or incomplete,
// with how tight, why (the findings of matrix/findings.hpp) and every failing pair, as data.
// `check` (live, --from, --quick), `matrix`, `report`, `analyze` (per pair) and libtscaudit
// all ask this function; render/verdict_text.hpp words its result, and exit_code_of turns
// it into the exit code. Pure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/warning.hpp"
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

/// The four answers of a check (docs/machine.md §10.3), the same in text, JSON, metrics,
/// the report and the library; exit codes 0, 1, 5 and 3.
enum class CheckOutcome {
  synchronized,      // every pair passes, each proven within the bound (and --max-bound)
  not_synchronized,  // a pair fails: proof of a difference, or of a run that cannot be judged
  inconclusive,      // no proof either way: see InconclusiveWhy
  incomplete,        // the run was cut short (a signal, an error, a writer that died): no verdict
};

/// Why a check is inconclusive, in the order the decision asks.
enum class InconclusiveWhy {
  none,
  one_cpu,         // one CPU only: no other counter to compare with
  unjudged,        // nothing could be measured: CheckEvidence::unjudged says why
  pairs_missing,   // planned pairs without rounds that the verdict needs (CheckResult::missing)
  too_few_rounds,  // a measured pair below kMinRoundsForVerdict
  max_bound,       // every pair passes, but the bound is wider than --max-bound
};

/// Why a pair (or the whole matrix) fails, most important first: the one-line reason
/// names the largest offset failure if any, else the most important kind.
enum class CheckFailureKind {
  offset,              // the offset band misses the tolerance
  offset_stepped,      // the offset stepped during the run (proven)
  drift,               // the drift band misses its tolerance
  self_inconsistent,   // rounds impossible for any offset under a receive read that orders loads
  no_band,             // no offset fits every round: the offset cannot be bounded
  roles_disagree,      // no one offset line fits both roles of the pair: it moved between them
  inconsistent_bands,  // (the matrix) the pairs' bands contradict one another
};

struct CheckFailure {
  int a = -1, b = -1;  // the ordered pair; -1 for a failure of the whole matrix
  CheckFailureKind kind = CheckFailureKind::offset;
  std::uint64_t self_inconsistent = 0;  // self_inconsistent: rounds
  double offset_ticks = 0;              // offset: the estimate and its band
  double offset_lo_ticks = 0;
  double offset_hi_ticks = 0;
  double gap_ticks = 0;          // offset: how far the band misses the tolerance
  std::size_t steps = 0;         // offset_stepped: how many, and the largest one
  double step_ticks = 0;         //   its size
  std::uint64_t step_round = 0;  //   the first round after it
  double drift_ppb = 0;          // drift: the estimate and its band
  double drift_lo_ppb = 0;
  double drift_hi_ppb = 0;
};

/// What a check decides on: the pairs, and what surrounds them.
struct CheckEvidence {
  explicit CheckEvidence(const MatrixResult& m) : matrix(m) {}
  /// The measured pairs (cells with the pair bands of both roles), the plan's pairs
  /// (MatrixResult::planned), the CPUs chosen, the receive read, the frequency.
  const MatrixResult& matrix;
  /// Why the measuring stopped early: a signal, a visit that failed, a run directory whose
  /// manifest says interrupted, aborted or running. Empty: it did not.
  std::string cut_short;
  /// Why no pair could be measured at all (pinning refused, a counter user space may not
  /// read, a partner that never answered); empty when pairs were measured.
  std::string unjudged;
  /// Evidence the run directory lost (damaged frames, missing files), one line each, for
  /// the reason of the pairs it leaves without rounds.
  std::vector<std::string> lost;
  /// The platform's warnings, all of them: the check keeps those that weaken it.
  std::vector<Warning> warnings;
};

struct CheckResult {
  CheckOutcome outcome = CheckOutcome::not_synchronized;
  bool synchronized = false;  // outcome == synchronized
  InconclusiveWhy inconclusive = InconclusiveWhy::none;  // outcome == inconclusive: why
  std::string unjudged;                                  // InconclusiveWhy::unjudged: CheckEvidence's
  /// incomplete: why the run was cut short, in the run's words ("interrupted by SIGINT after
  /// 3 of 12 slots ..."); what the rest of the result says is what the part measured shows.
  std::string cut_short;
  std::vector<CheckFailure> failures;  // every pair that fails, in matrix order
  std::optional<std::size_t> shown;    // the failure the reason names when no finding is proven (none when it passes)
  std::size_t failing_pairs = 0;       // ordered pairs among the failures
  std::vector<Warning> warnings;       // what makes the answer less trustworthy (do not fail it): weakening()
  /// CPUs off from the rest: Diagnosis::cpus_off, every CPU of a finding's group (never of
  /// the reference group): one CPU off, drifting or stepping, one package of two off
  /// (docs/machine.md §10.3, §10.6). In matrix order.
  std::vector<int> cpus_off;
  std::size_t cpus = 0;
  int only_cpu = -1;              // InconclusiveWhy::one_cpu: that CPU (-1: none chosen)
  std::size_t pairs_checked = 0;  // ordered pairs the plan measures
  /// The plan leaves some ordered pairs out (a sparse design, MatrixResult::planned):
  /// pairs_checked is fewer than the cpus × (cpus − 1) ordered pairs.
  bool sparse = false;
  /// Planned ordered pairs with no rounds ("3->5"): lost from the run directory, missing
  /// from it, or never measured; and whether the pairs that have rounds still link every CPU
  /// to every other (then the verdict stands on them, as a sparse design's does).
  std::vector<std::string> missing;
  bool missing_needed = false;
  std::vector<std::string> lost;  // CheckEvidence::lost
  /// Measured ordered pairs below kMinRoundsForVerdict, and the fewest rounds among them.
  std::size_t too_few_pairs = 0;
  std::uint64_t fewest_rounds = 0;
  double widest_band_ticks = 0;  // the widest offset band among the pairs that passed
  /// What the passing pairs prove: every one's offset lies within ±bound_ticks, the largest
  /// |lo| or |hi| of their bands, each the pair's band over both roles and every visit
  /// (docs/method.md §3.7). 0 when none passed.
  double bound_ticks = 0;
  /// The structure of what is wrong (matrix/findings.hpp); no finding when synchronized.
  Diagnosis diagnosis;
  // What the sentences need besides: the tolerances, the frequency, the receive read.
  CheckSettings settings;
  double tsc_hz = 0;
  RecordedVariant recv;
};

/// Decides (docs/machine.md §10.3), asking in this order:
///  1. one CPU only: inconclusive;
///  2. nothing measured (CheckEvidence::unjudged): inconclusive;
///  3. cut short (CheckEvidence::cut_short, or a measured pair whose run is not complete):
///     incomplete, whatever the part shows (its findings are kept);
///  4. a failure of a measured pair (offset, step, drift, no band, roles that disagree, a
///     self-inconsistent round under a receive read that orders loads), or bands that
///     contradict one another: not synchronized;
///  5. planned pairs without rounds that the verdict needs (the pairs with rounds no longer
///     link every CPU): inconclusive;
///  6. a measured pair below kMinRoundsForVerdict: inconclusive;
///  7. a bound wider than settings.max_bound_ticks: inconclusive;
///  8. else synchronized.
/// A pair below kMinRoundsForVerdict takes no part in 4 or in the bound. The failure `shown`
/// (the reason's when no finding is proven) is the largest offset step, else the largest
/// offset failure (one of a CPU in cpus_off when there is one), else the most important kind.
CheckResult decide_check(const CheckEvidence& evidence, const CheckSettings& settings);

/// Where one measured ordered pair stands under decide_check's rules (the same rules, one
/// pair): below kMinRoundsForVerdict; failing; passing and proven within
/// settings.max_bound_ticks (or with no limit); passing, but reaching beyond it.
enum class PairStanding { too_few_rounds, fails, proven, loose };
PairStanding pair_standing(const PairCell& cell, const CheckSettings& settings, const RecordedVariant& recv);

/// The decision on one ordered pair's run alone (`analyze`): the same rules, on a matrix of
/// that one ordered pair (its a and b as CPU numbers where they are numbers, else 0 and 1),
/// no tolerance: a pair whose band misses 0 is not synchronized, one below
/// kMinRoundsForVerdict inconclusive, one whose run is not complete incomplete.
CheckResult decide_pair(const PairAnalysis& pair);

/// The exit code of an outcome (docs/commands.md, "Exit codes"): 0 synchronized, 1 not
/// synchronized, 5 inconclusive, 3 incomplete. Every command that decides returns it.
int exit_code_of(CheckOutcome outcome);

/// The outcome that answers for several (analyze of several runs): not synchronized when
/// any is, else incomplete when any is, else inconclusive when any is, else synchronized
/// (and synchronized for none).
CheckOutcome most_serious(const std::vector<CheckOutcome>& outcomes);

}  // namespace tscaudit
