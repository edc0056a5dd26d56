// The document of `tscaudit report`, built from what the command measured: the verdict
// first, then the evidence (offsets, latency, plain reads, the read variants, per-pair
// verdicts, the platform, how the report was made). Pure: no I/O and no clock; the
// command gathers everything into ReportInputs, and report_doc.hpp renders the result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/kernel_tsc.hpp"
#include "core/warning.hpp"
#include "matrix/check.hpp"
#include "matrix/matrix.hpp"
#include "pair/analyze.hpp"
#include "render/report_doc.hpp"
#include "render/text_wrap.hpp"
#include "render/variants_output.hpp"

namespace tscaudit {

/// The report directory's parts, relative to it.
inline constexpr std::string_view kReportMatrixDir = "matrix";      // the verdict's run
inline constexpr std::string_view kReportVariantsDir = "variants";  // the read variants on one pair
/// The plain reads' run, named after the plain read: matrix_plain_rdtsc (x86-64),
/// matrix_plain_cntvct (aarch64).
std::string report_plain_dir(std::string_view plain_read);
/// Every ordered pair's verdict, one line each (report_pairs.hpp): the report links it and
/// shows a few.
inline constexpr std::string_view kReportPairsFile = "pair_verdicts.txt";
/// The report lists at most this many pairs of a matrix inline, this many CPUs and pairs
/// in each list of the worst.
inline constexpr std::size_t kReportInlinePairs = 20;
inline constexpr std::size_t kReportWorst = 10;
/// The diagnosis lists at most this many findings, and this many failing pairs after them.
inline constexpr std::size_t kReportFindings = 10;
inline constexpr std::size_t kReportFailures = 10;

/// One all-pairs run as the report shows it.
struct ReportMatrixRun {
  MatrixResult matrix;
  std::uint64_t ordered_pairs = 0;  // in the plan
  std::uint64_t visits = 0;         // per ordered pair, in the plan
  double elapsed_seconds = 0;       // of the measuring
};

/// Where a report rebuilt from saved rounds (--from) read them, and what their manifest says.
struct ReportSource {
  std::string dir;          // the run directory of the verdict's run, as given
  std::string host;         // the machine measured ("" when not recorded)
  std::string started_utc;  // the manifest's start and end ("" when not recorded)
  std::string ended_utc;
  /// Rounds of `tscaudit simulate` (read variant "simulated"): their times are the
  /// simulation's, counted from the Unix epoch, and read as 1970 dates.
  bool simulated = false;
};

struct ReportInputs {
  std::string host;
  std::optional<ReportSource> rebuilt_from;  // set when nothing was measured now
  /// Why what the report shows is not complete (an interrupted run, pairs cut short, parts
  /// not rebuilt), one line each; they are also among `problems`, prefixed "not complete: ".
  std::vector<std::string> incomplete;
  /// Evidence the run directory's reader could not use and passed over (a damaged frame, a
  /// file cut off or missing), one line each (run_dir_loss_text): the analysis stands on
  /// the rest.
  std::vector<std::string> lost;
  ReportMatrixRun ordered;                 // with the ordering receive read: the verdict's run
  CheckResult check;                       // its verdict
  std::vector<Warning> warnings;           // what on this platform makes the answer less certain
  std::optional<ReportMatrixRun> plain;    // the same pairs with plain reads on both sides
  std::optional<VariantsResult> variants;  // the read variants on one pair
  std::string info_text;                   // `tscaudit info`'s text of this machine
  bool info_files = true;                  // info.txt and info.json are in the report directory
  /// The kernel log's TSC events of the machine measured; nullopt where its log was not
  /// read (unreadable, or a report rebuilt from one run).
  std::optional<KernelTscLog> kernel_tsc;
  std::string generated_utc;               // when the report was made (format_utc)
  std::string tool_version;
  std::string command_line;
  std::vector<std::string> problems;  // what went wrong while making it, in order
  /// The pictures that are not there, by path relative to the report directory (the .png
  /// or the .svg), with why: e.g. "gnuplot not found".
  std::map<std::string, std::string> missing_pictures;
};

/// The report: sections "Verdict", "Diagnosis" (the check's findings in sentences, the
/// per-CPU offsets by offset group, the failing pairs), "The kernel's word" (with kernel TSC
/// events only: report_kernel.hpp), "Pairs by topology distance", "Worst CPUs and pairs" (the
/// CPUs of the findings first), "Offsets", "Latency", "Plain PLAIN: ..." (with `plain`; PLAIN
/// is its read, rdtsc or cntvct), "Read variants: ..." (with `variants`), "Per-pair
/// verdicts", "Platform", "How this report was made", in that order. A matrix of two CPUs,
/// one pair measured in both roles, has "The pair" instead of the distance classes and the
/// worst CPUs: its two bands and what they say together, no median and no list of the worst.
/// The verdict (a block of kind `verdict`, the outcome in its `path`) comes after where a
/// rebuilt report's rounds come from and what is not complete. Where a plain pair's band
/// excludes 0, the plain section and the plain pairs' list say, right there, that plain
/// reads that run early make that false offset and that the ordered-read matrix decides. Its size
/// does not grow with the pairs: "Per-pair verdicts" links kReportPairsFile and lists at most
/// kReportInlinePairs pairs of each matrix, the failing ones first. A picture whose PNG or SVG
/// is in missing_pictures carries, in its `missing`, why and which .dat file holds its input
/// ("gnuplot not found; its input is matrix/offset_ticks.dat").
ReportDoc build_report_doc(const ReportInputs& in);

/// What `report` prints first: the verdict (check_reason_text), the read to use (the
/// recommended receive read with its cost; else why none is named), and where the report is
/// ("report: DIR/report.html (report.md beside it)"), each wrapped at kTextColumns
/// (wrap_columns), one line break after each.
std::string report_answer_text(const ReportInputs& in, std::string_view report_dir);

/// Each line of `text` wrapped as wrap_words (render/text_wrap.hpp) does, the continuation
/// lines indented by `indent` spaces, and each line ending with a line break.
std::string wrap_columns(std::string_view text, std::size_t columns = kTextColumns, std::size_t indent = 2);

}  // namespace tscaudit
