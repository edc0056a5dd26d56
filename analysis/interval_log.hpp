// The interval log of `tscsync monitor` (README "The interval log"): one line per
// interval, appended and flushed as each interval ends, like HdrHistogram / jHiccup logs.
//
//   # schema: tscsync-monitor/1
//   # key: value              header metadata (provenance, configuration)
//   interval,start_tick,...   column header (interval_log_columns())
//   0,...                     one IntervalSummary per line, comma-separated
//   ...
//   # key: value              trailer; the last is `# status: complete|interrupted|aborted`
//
// A log whose trailer has no status was cut short (the process died): every line before
// the cut is still there and still analysable.
#pragma once

#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "interval_summary.hpp"
#include "run.hpp"

namespace tscsync {

inline constexpr std::string_view kMonitorSchema = "tscsync-monitor/1";
/// Trailer `status` values besides kStatusComplete (run.hpp).
inline constexpr std::string_view kStatusInterrupted = "interrupted";  // SIGINT/SIGTERM; `signal` names it
inline constexpr std::string_view kStatusAborted = "aborted";          // a fault ended it; `error` says which

struct IntervalLog {
  Metadata header;
  std::vector<IntervalSummary> intervals;  // in index order, index 0, 1, 2, ...
  Metadata trailer;
  /// The number of the last line when the file ended in the middle of it (no newline) and
  /// what was there was left out. 0 otherwise.
  std::size_t cut_line = 0;
};

/// "# schema: tscsync-monitor/1\n", the header metadata, and the column header row.
std::string interval_log_head(const Metadata& header);
/// One interval as one line, '\n' included. Absent order statistics are written as "-".
std::string interval_log_line(const IntervalSummary& interval);
/// The trailer metadata lines.
std::string interval_log_tail(const Metadata& trailer);

/// Parses a whole log. `source` names it in messages.
/// \throws InputError "SOURCE:LINE:COLUMN: what is wrong" for an empty file, a missing
///         schema or column header, a wrong field count, a field that is not a number or
///         beyond 64 bits, intervals out of order (index not consecutive, ticks going
///         backwards), values that contradict each other (k-th statistics not ascending,
///         more negatives than rounds, a percentile outside [min, max]), a line over
///         kMaxLineBytes, or a log without intervals.
IntervalLog parse_interval_log(std::string_view text, std::string_view source);

/// The same from a file ("-" is standard input), read in chunks. \throws IoError when it
/// cannot be read, InputError as above.
IntervalLog read_interval_log_file(const std::string& path);

/// True when `first_line` (the first line of a file) is an interval log's schema line:
/// how `analyze` tells a log from a run.
bool is_interval_log_schema_line(std::string_view first_line);

/// Why the log does not cover the whole requested run: interrupted (by which signal),
/// aborted (with its error), cut short (no status). nullopt when complete.
std::optional<std::string> interval_log_incomplete_reason(const IntervalLog& log);

}  // namespace tscsync
