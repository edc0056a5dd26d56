// The interval log of `tscaudit monitor` (docs/formats.md, "The interval log"): one line per
// interval, appended and flushed as each interval ends, like HdrHistogram / jHiccup logs.
//
//   # schema: tscaudit-monitor/1
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
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/interval_summary.hpp"
#include "core/run.hpp"

namespace tscaudit {

inline constexpr std::string_view kMonitorSchema = "tscaudit-monitor/1";
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

/// The columns of an interval line, in order: interval, start_tick, end_tick, rounds, lost,
/// late; fwd_kK, fwd_kK_tick for each K of kIntervalKs; rev_kK, rev_kK_tick for each K;
/// fwd_p50, fwd_max, rev_p50, rev_max, rtt_min, rtt_p50, rtt_p99, rtt_p999, rtt_max,
/// fwd_negative, rev_negative, self_inconsistent, switches_a, switches_b, stall_ms,
/// peak_rss_kib. The column header row is these names joined by ','.
inline constexpr std::size_t kIntervalLogColumnCount = 6 + 4 * kIntervalKCount + 16;
std::span<const std::string_view> interval_log_columns();

/// "# schema: tscaudit-monitor/1\n", the header metadata, and the column header row. A
/// `schema` key in `header` is not written twice (the first line is the schema line).
std::string interval_log_head(const Metadata& header);
/// One interval as one line, '\n' included. Absent order statistics are written as "-".
std::string interval_log_line(const IntervalSummary& interval);
/// The trailer metadata lines.
std::string interval_log_tail(const Metadata& trailer);

/// Parses a whole log. `source` names it in messages; COLUMN is the 1-based byte where the
/// offending field starts. The header's first entry is the schema. A last line without
/// '\n' that is not a whole, valid interval is left out and its number kept in cut_line.
/// \throws InputError "SOURCE:LINE:COLUMN: what is wrong" for an empty file, a first
///         non-empty line that is not the schema line (or names another schema), a
///         missing or different column header, a log without intervals, a wrong field
///         count, a field that is empty, not a number, beyond 64 bits (int64 in a signed
///         column) or negative in an unsigned one, '-' outside an order statistic or in
///         only one of a statistic and its tick, intervals out of order (index not 0, 1,
///         2, ..., start_tick >= end_tick, overlap with the interval before), values that
///         contradict each other (docs/formats.md, "The interval log"), an interval after the
///         trailer, or a line over kMaxLineBytes. CRLF line ends are accepted.
IntervalLog parse_interval_log(std::string_view text, std::string_view source);

/// The same from a file ("-" is standard input), read in chunks. \throws InputError when it
/// cannot be opened (missing, a directory, no permission) and as above; IoError on a read
/// error once it is open.
IntervalLog read_interval_log_file(const std::string& path);

/// The same over an open stream, `chunk_bytes` at a time (any size >= 1: lines may span
/// chunks): what read_interval_log_file does once the file is open. \throws IoError on a
/// read error, InputError as above.
IntervalLog read_interval_log_stream(std::FILE* file, std::string_view source, std::size_t chunk_bytes);

/// True when `first_line` (the first line of a file) is an interval log's schema line:
/// how `analyze` tells a log from a run.
bool is_interval_log_schema_line(std::string_view first_line);

/// Why the log does not cover the whole requested run: interrupted (by which signal),
/// aborted (with its error), cut short (no status). nullopt when complete.
std::optional<std::string> interval_log_incomplete_reason(const IntervalLog& log);

}  // namespace tscaudit
