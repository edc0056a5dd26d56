// Every verdict in words: a pair's, a monitor run's, the check's reason and failures, the
// variants' findings. The analysis decides and hands over data (pair/verdict.hpp and its
// kin); the text, JSON and report renderers and the commands that print a verdict take
// their sentences from here, so one answer reads the same wherever it is shown.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "matrix/check.hpp"
#include "monitor/interval_analysis.hpp"
#include "pair/verdict.hpp"
#include "variants/variants.hpp"

namespace tscaudit {

/// The kind as JSON gives it ("verdict_kind"): "unsafe_reads", "offset_stepped",
/// "changed_course", "drifting", "synchronized", "offset".
std::string_view verdict_kind_name(VerdictKind kind);

/// "too few rounds to bound the offset (1 round; at least 2 needed)": the answer below
/// kMinRoundsForVerdict rounds (pair/verdict.hpp).
std::string too_few_rounds_text(std::uint64_t rounds);

/// "synchronized within the band: the offset lies in [-181, 181] ticks, which contains
/// 0; ...", "unsafe reads: causality violated under this variant (...)", ...
std::string verdict_text(const PairVerdict& v);

/// The monitor run's verdict: its parts joined by "; ".
std::string verdict_text(const MonitorVerdict& v);

/// The failure kind as JSON gives it ("kind"): "offset", "offset_stepped", "drift",
/// "self_inconsistent", "no_band", "roles_disagree", "inconsistent_bands".
std::string_view check_failure_kind_name(CheckFailureKind kind);

/// "synchronized", "not_synchronized", "inconclusive", "incomplete" (JSON's `outcome`, the
/// metrics' label).
std::string_view check_outcome_name(CheckOutcome outcome);

/// "one_cpu", "unjudged", "pairs_missing", "too_few_rounds", "max_bound" (JSON's
/// `inconclusive`, the metrics' reason); "none".
std::string_view inconclusive_why_name(InconclusiveWhy why);

/// "both_roles" or "role" (matrix.json's `band_source`).
std::string_view band_source_name(BandSource source);

/// How tight a proof is: "±461 ns (1061 ticks)", or "±1061 ticks" when the frequency is
/// unknown.
std::string bound_text(double ticks, double tsc_hz);

/// One finding in one sentence, the groups by their topology names and CPU lists:
/// "package 1 (CPUs 16-31) is ahead of package 0 (CPUs 0-15) by 95 to 1105 ticks (41 to
/// 480 ns)", "CPU 5 runs 390 to 410 ppb faster than the 30 others (CPUs 0-4,6-15,...)",
/// "CPU 7's counter jumped by 560 to 640 ticks (...) during the run, against CPUs 6,8-9
/// (6 ordered pairs; the largest jump at round 1000)".
std::string finding_text(const Finding& f, double tsc_hz);

/// One failure in one line, with figures: "pair 0->2: CPU 2 is ahead of CPU 0 by ...".
/// \param c  the result it belongs to (tolerances, frequency, receive read).
std::string check_failure_text(const CheckFailure& f, const CheckResult& c);

/// "CPU 5 is off from the rest", "CPUs 5 and 9 are off from the rest" (up to 8 by number,
/// then "and 3 more"); "" for none. `cpus`: CheckResult::cpus_off.
std::string cpus_off_text(const std::vector<int>& cpus);

/// "2 ordered pairs of 12 have no rounds (0->3, 3->0): lost from the run directory
/// (evidence lost: ...)"; "" when every planned pair has rounds.
std::string missing_pairs_text(const CheckResult& c);

/// What the check covered: "all 12 ordered pairs of 4 CPUs", or for a sparse design "the
/// 8800 ordered pairs of a sparse design over 256 CPUs (of 65280)".
std::string checked_pairs_text(const CheckResult& c);

/// The check's answer in one line, its width at the front: "synchronized to within ±461 ns
/// (1061 ticks): all ..." (a sparse design: "... the 8800 ordered pairs of a sparse design
/// over 256 CPUs (of 65280) ..."); "inconclusive: ... proven only to within ±461 ns ...,
/// wider than the maximum bound of ..." (--max-bound, max_bound_ns); or "not synchronized: " with the first finding (else the
/// main failure of a pair), how many of the checked pairs fail and how tight those that
/// pass are; or "incomplete, no verdict: " with why the run was cut short (and the first
/// finding of the part measured, if any).
std::string check_reason_text(const CheckResult& c);

/// The variants' answer, most important first, one sentence each.
std::vector<std::string> variants_findings(const VariantsVerdict& v);

/// Why a reference band is missing ("" when there is one).
std::string reference_problem_text(const ReferenceBand& band);

}  // namespace tscaudit
