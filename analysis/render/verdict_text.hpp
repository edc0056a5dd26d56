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

/// "synchronized within the band: the offset lies in [-181, 181] ticks, which contains
/// 0; ...", "unsafe reads: causality violated under this variant (...)", ...
std::string verdict_text(const PairVerdict& v);

/// The monitor run's verdict: its parts joined by "; ".
std::string verdict_text(const MonitorVerdict& v);

/// The failure kind as JSON gives it ("kind"): "offset", "drift", "self_inconsistent",
/// "no_band", "inconsistent_bands", "incomplete", "not_measured".
std::string_view check_failure_kind_name(CheckFailureKind kind);

/// One failure in one line, with figures: "pair 0->2: CPU 2 is ahead of CPU 0 by ...".
/// \param c  the result it belongs to (tolerances, frequency, receive read).
std::string check_failure_text(const CheckFailure& f, const CheckResult& c);

/// "CPU 5 is off from the rest", "CPUs 5 and 9 are off from the rest" (up to 8 by number,
/// then "and 3 more"); "" for none. `cpus`: CheckResult::cpus_off.
std::string cpus_off_text(const std::vector<int>& cpus);

/// What the check covered: "all 12 ordered pairs of 4 CPUs", or for a sparse design "the
/// 8800 ordered pairs of a sparse design over 256 CPUs (of 65280)".
std::string checked_pairs_text(const CheckResult& c);

/// The check's answer in one line: "synchronized: all ..." (a sparse design: "synchronized:
/// the 8800 ordered pairs of a sparse design over 256 CPUs (of 65280) ...") or "not
/// synchronized: " with the CPUs off from the rest if any ("CPU 5 is off from the rest: ")
/// and its main cause, then how many of the checked pairs fail.
std::string check_reason_text(const CheckResult& c);

/// The variants' answer, most important first, one sentence each.
std::vector<std::string> variants_findings(const VariantsVerdict& v);

/// Why a reference band is missing ("" when there is one).
std::string reference_problem_text(const ReferenceBand& band);

}  // namespace tscaudit
