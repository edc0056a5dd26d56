// The document of `tscsync report`, built from what the command measured: the verdict
// first, then the evidence (offsets, latency, plain rdtsc, the read variants, per-pair
// verdicts, the platform, how the report was made). Pure: no I/O and no clock; the
// command gathers everything into ReportInputs, and report_doc.hpp renders the result.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "matrix/check.hpp"
#include "matrix/matrix.hpp"
#include "pair/analyze.hpp"
#include "render/report_doc.hpp"
#include "render/variants_output.hpp"

namespace tscsync {

/// The report directory's parts, relative to it.
inline constexpr std::string_view kReportMatrixDir = "matrix";             // the verdict's run
inline constexpr std::string_view kReportPlainDir = "matrix_plain_rdtsc";  // plain rdtsc on both sides
inline constexpr std::string_view kReportVariantsDir = "variants";         // the read variants on one pair

/// One all-pairs run as the report shows it.
struct ReportMatrixRun {
  MatrixResult matrix;
  std::uint64_t ordered_pairs = 0;  // in the plan
  std::uint64_t visits = 0;         // per ordered pair, in the plan
  double elapsed_seconds = 0;       // of the measuring
};

/// A platform warning (platform_warnings.hpp's Warning, as plain text).
struct ReportWarning {
  std::string code, message, advice;
};

struct ReportInputs {
  std::string host;
  ReportMatrixRun ordered;                 // with the ordering receive read: the verdict's run
  CheckResult check;                       // its verdict
  std::vector<ReportWarning> warnings;     // what on this platform makes the answer less certain
  std::optional<ReportMatrixRun> plain;    // the same pairs with plain rdtsc on both sides
  std::optional<VariantsResult> variants;  // the read variants on one pair
  std::string info_text;                   // `tscsync info`'s text of this machine
  std::string generated_utc;               // when the report was made (format_utc)
  std::string tool_version;
  std::string command_line;
  std::vector<std::string> problems;  // what went wrong while making it, in order
  /// The pictures that are not there, by path relative to the report directory (the .png
  /// or the .svg), with why: e.g. "gnuplot not found".
  std::map<std::string, std::string> missing_pictures;
};

/// The report: sections "Verdict", "Offsets", "Latency", "Plain rdtsc: ..." (with `plain`),
/// "Read variants: ..." (with `variants`), "Per-pair verdicts", "Platform", "How this
/// report was made", in that order. A picture whose PNG or SVG is in missing_pictures
/// carries, in its `missing`, why and which .dat file holds its input ("gnuplot not
/// found; its input is matrix/offset_ticks.dat").
ReportDoc build_report_doc(const ReportInputs& in);

}  // namespace tscsync
