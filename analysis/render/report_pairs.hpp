// The report's per-pair file (kReportPairsFile): every ordered pair of the report's
// matrices, one tab-separated line each, so that the report itself stays a size a browser
// opens at once however many pairs there are. Plain text: any browser, spreadsheet, awk or
// grep reads it. Pure.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <utility>

#include "matrix/check.hpp"
#include "matrix/matrix.hpp"
#include "render/report_builder.hpp"

namespace tscaudit {

/// What the check fails each ordered pair on, by CPU numbers (a, b): the failure kinds'
/// names in the order of the failures, ", " between ("offset, drift"). Pairs that pass
/// are absent.
std::map<std::pair<int, int>, std::string> failing_pairs(const CheckResult& check);

/// The distance class of the pair of indexes a, b (pair_distance_name), "-" where the
/// topology does not tell.
std::string pair_distance_text(const MatrixResult& m, std::size_t a, std::size_t b);

/// The text of kReportPairsFile: two "# " lines saying what it is and what its columns
/// mean, then a header line and one line per ordered pair the plan measures (a pair not
/// measured says so, its figures "-"), first of the verdict's run (run "matrix"), then of
/// the plain one (run "matrix_plain_rdtsc" or "matrix_plain_cntvct") when there is one,
/// each by CPU number (a, then b). Columns, tab-separated: run, a, b, distance, check
/// ("passes", "fails: KINDS", "-" for the plain run, which is not checked), offset_ticks,
/// band_lo_ticks, band_hi_ticks, rtt_min_ticks, causality_violations, rounds, verdict
/// (verdict_text), details (the pair's analysis, relative to the report directory).
/// Numbers with up to 6 significant digits; "-" for none.
std::string report_pairs_text(const ReportInputs& in);

}  // namespace tscaudit
