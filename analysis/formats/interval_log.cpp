#include "formats/interval_log.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include "core/errors.hpp"
#include "core/files.hpp"
#include "core/format.hpp"
#include "core/schema_name.hpp"
#include "formats/text_fields.hpp"
#include "formats/text_lines.hpp"

namespace tscaudit {
namespace {

constexpr std::size_t kK = kIntervalKCount;

// Column positions (0-based) in the order of interval_log_columns(). The order statistic
// of kIntervalKs[j] sits at k_col + 2 j, its tick right after it.
constexpr std::size_t kColIndex = 0;
constexpr std::size_t kColStart = 1;
constexpr std::size_t kColEnd = 2;
constexpr std::size_t kColRounds = 3;
constexpr std::size_t kColLost = 4;
constexpr std::size_t kColLate = 5;
constexpr std::size_t kColFwdK = 6;
constexpr std::size_t kColRevK = kColFwdK + 2 * kK;
constexpr std::size_t kColFwdP50 = kColRevK + 2 * kK;
constexpr std::size_t kColFwdMax = kColFwdP50 + 1;
constexpr std::size_t kColRevP50 = kColFwdP50 + 2;
constexpr std::size_t kColRevMax = kColFwdP50 + 3;
constexpr std::size_t kColRttMin = kColFwdP50 + 4;
constexpr std::size_t kColRttP50 = kColFwdP50 + 5;
constexpr std::size_t kColRttP99 = kColFwdP50 + 6;
constexpr std::size_t kColRttP999 = kColFwdP50 + 7;
constexpr std::size_t kColRttMax = kColFwdP50 + 8;
constexpr std::size_t kColFwdNegative = kColFwdP50 + 9;
constexpr std::size_t kColRevNegative = kColFwdP50 + 10;
constexpr std::size_t kColSelfInconsistent = kColFwdP50 + 11;
constexpr std::size_t kColSwitchesA = kColFwdP50 + 12;
constexpr std::size_t kColSwitchesB = kColFwdP50 + 13;
constexpr std::size_t kColStallMs = kColFwdP50 + 14;
constexpr std::size_t kColPeakRssKib = kColFwdP50 + 15;
static_assert(kColPeakRssKib + 1 == kIntervalLogColumnCount);

/// The names after the order statistics, from kColFwdP50 on.
constexpr std::array<std::string_view, 16> kTailColumns = {
    "fwd_p50",    "fwd_max",    "rev_p50",  "rev_max",      "rtt_min",      "rtt_p50",
    "rtt_p99",    "rtt_p999",   "rtt_max",  "fwd_negative", "rev_negative", "self_inconsistent",
    "switches_a", "switches_b", "stall_ms", "peak_rss_kib"};
static_assert(kColFwdP50 + kTailColumns.size() == kIntervalLogColumnCount);

/// The column names, built once from kIntervalKs (the names of the k columns follow k).
struct ColumnNames {
  std::array<std::string, kIntervalLogColumnCount> names;
  std::array<std::string_view, kIntervalLogColumnCount> views;

  ColumnNames() {
    const std::array<std::string_view, 6> head = {"interval", "start_tick", "end_tick", "rounds", "lost", "late"};
    for (std::size_t i = 0; i < head.size(); ++i) names[i] = head[i];
    for (std::size_t j = 0; j < kK; ++j) {
      const std::string k = std::to_string(kIntervalKs[j]);
      names[kColFwdK + 2 * j] = "fwd_k" + k;
      names[kColFwdK + 2 * j + 1] = "fwd_k" + k + "_tick";
      names[kColRevK + 2 * j] = "rev_k" + k;
      names[kColRevK + 2 * j + 1] = "rev_k" + k + "_tick";
    }
    for (std::size_t i = 0; i < kTailColumns.size(); ++i) names[kColFwdP50 + i] = kTailColumns[i];
    for (std::size_t i = 0; i < names.size(); ++i) views[i] = names[i];
  }
};

const ColumnNames& column_names() {
  static const ColumnNames names;
  return names;
}

std::string_view name_of(std::size_t column) { return column_names().views[column]; }

/// Columns that hold a signed latency (ticks): every fwd_*, rev_* and rtt_* value.
bool is_signed_column(std::size_t column) {
  if (column >= kColFwdK && column < kColFwdP50) return (column - kColFwdK) % 2 == 0;  // not the _tick ones
  return column >= kColFwdP50 && column <= kColRttMax;
}

/// Columns that may be "-": the order statistics and their ticks.
bool may_be_absent(std::size_t column) { return column >= kColFwdK && column < kColFwdP50; }

/// One parsed field: absent ("-"), or its value in the member for the column's sign.
struct Field {
  bool absent = false;
  std::uint64_t u = 0;
  std::int64_t i = 0;
};

/// Takes a log line by line (from a string or a file read in chunks), refuses what is
/// malformed or contradictory, and builds the IntervalLog. Follows the run reader
/// (run_format.cpp): same line splitter, same field parser, same cut-line rule.
class IntervalLogParser {
 public:
  explicit IntervalLogParser(std::string_view source) : source_(printable_text(source)) {}

  /// One line, without its line end (for_each_line). `terminated` is false only for a
  /// last line that the input ended in the middle of: if that one is not a whole, valid
  /// interval it is left out and recorded in cut_line (a crash mid-write).
  void line(std::string_view line, std::size_t line_no, bool terminated) {
    line_no_ = line_no;
    if (line.empty()) return;
    if (stage_ == Stage::schema) {
      check_schema_line(line);
      stage_ = Stage::columns;
      return;
    }
    if (line.front() == '#') {
      if (auto kv = parse_metadata_line(line)) {
        Metadata& meta = log_.intervals.empty() ? log_.header : log_.trailer;
        meta.set(std::move(kv->first), std::move(kv->second));
      }
      return;  // other '#' lines are comments
    }
    if (!log_.trailer.entries().empty()) {
      fail(1, "an interval after the trailer metadata (intervals must come before the closing '# key: value' lines)");
    }
    if (stage_ == Stage::columns) {
      check_column_header(line);
      column_header_line_ = line_no;
      stage_ = Stage::intervals;
      return;
    }
    if (!terminated) {
      try {
        log_.intervals.push_back(parse_interval(line));
      } catch (const InputError&) {
        log_.cut_line = line_no;
      }
      return;
    }
    log_.intervals.push_back(parse_interval(line));
  }

  IntervalLog finish() {
    switch (stage_) {
      case Stage::schema:
        line_no_ = 1;
        fail(1, "no schema line: the input holds only empty lines (expected '# schema: " + std::string(kMonitorSchema) +
                    "' first)");
      case Stage::columns:
        fail(1, "the log ends before its column header row (expected '" + std::string(name_of(0)) + "," +
                    std::string(name_of(1)) + ",...')");
      case Stage::intervals: break;
    }
    if (log_.intervals.empty()) {
      line_no_ = column_header_line_;
      fail(1, "no intervals after the column header row");
    }
    return std::move(log_);
  }

 private:
  enum class Stage { schema, columns, intervals };

  [[noreturn]] void fail(std::size_t column, const std::string& what) const {
    throw InputError(std::string(source_) + ":" + std::to_string(line_no_) + ":" + std::to_string(column) + ": " +
                     what);
  }

  /// The first non-empty line: "# schema: tscaudit-monitor/1" and nothing else.
  void check_schema_line(std::string_view line) {
    if (auto kv = parse_metadata_line(line); kv && kv->first == "schema") {
      if (current_schema_name(kv->second) == kMonitorSchema) {
        log_.header.set(std::move(kv->first), std::move(kv->second));
        return;
      }
      std::size_t value_at = line.find(':') + 1;
      while (value_at < line.size() && line[value_at] == ' ') ++value_at;
      fail(value_at + 1,
           "unknown schema '" + printable(kv->second) + "' (this version reads " + std::string(kMonitorSchema) + ")");
    }
    fail(1, "not an interval log: the first line is '" + printable(line) +
                "', not '# schema: " + std::string(kMonitorSchema) + "'");
  }

  /// The column header must name exactly interval_log_columns(), in order.
  void check_column_header(std::string_view line) {
    const auto expected = interval_log_columns();
    std::size_t start = 0;
    std::size_t i = 0;
    while (true) {
      const std::size_t end = std::min(line.find(',', start), line.size());
      const std::string_view name = trim(line.substr(start, end - start), " ");
      if (i == 0 && !name.empty() && name.find_first_not_of("0123456789") == std::string_view::npos) {
        fail(1, "no column header row before the first interval (expected '" + std::string(expected[0]) + "," +
                    std::string(expected[1]) + ",...')");
      }
      if (i >= expected.size()) {
        fail(start + 1, "column " + std::to_string(i + 1) + " '" + printable(name) + "' is beyond the " +
                            std::to_string(expected.size()) + " columns of " + std::string(kMonitorSchema));
      }
      if (name != expected[i]) {
        fail(start + 1, "column " + std::to_string(i + 1) + " of the header is '" + printable(name) + "', expected '" +
                            std::string(expected[i]) + "' (the columns of " + std::string(kMonitorSchema) +
                            " are fixed)");
      }
      ++i;
      if (end == line.size()) break;
      start = end + 1;
    }
    if (i < expected.size()) {
      fail(line.size() + 1, "the column header ends after " + std::to_string(i) + " columns, expected '" +
                                std::string(expected[i]) + "' next (" + std::string(kMonitorSchema) + " has " +
                                std::to_string(expected.size()) + ")");
    }
  }

  /// One field of `column` at byte `at` (0-based) of the line.
  Field parse_field(std::string_view text, std::size_t column, std::size_t at) const {
    const std::string_view field = trim(text, " ");
    const std::string name(name_of(column));
    Field f;
    if (field == "-") {
      if (!may_be_absent(column)) {
        fail(at + 1, name +
                         ": '-' where a value is required (only the order statistics fwd_kK, rev_kK and their "
                         "ticks may be absent)");
      }
      f.absent = true;
      return f;
    }
    if (is_signed_column(column)) {
      const FieldProblem problem = parse_i64_field(field, f.i);
      if (problem == FieldProblem::out_of_range) {
        fail(at + 1, name + ": '" + printable(field) + "' is beyond the signed 64-bit range");
      }
      if (problem != FieldProblem::ok) {
        fail(at + 1, name + ": " + field_problem_message(problem, field, "a signed decimal number"));
      }
      return f;
    }
    const FieldProblem problem = parse_u64_field(field, f.u);
    if (problem == FieldProblem::not_a_number && field.size() > 1 && field[0] == '-') {
      std::uint64_t magnitude = 0;
      if (parse_u64_field(field.substr(1), magnitude) != FieldProblem::not_a_number) {
        fail(at + 1, name + ": '" + printable(field) + "' is negative (an unsigned column)");
      }
    }
    if (problem != FieldProblem::ok) {
      fail(at + 1, name + ": " + field_problem_message(problem, field, "an unsigned decimal number"));
    }
    return f;
  }

  IntervalSummary parse_interval(std::string_view line) const {
    std::array<Field, kIntervalLogColumnCount> fields{};
    std::array<std::size_t, kIntervalLogColumnCount> at{};  // 1-based byte column of each field
    std::size_t start = 0;
    std::size_t n = 0;
    while (true) {
      const std::size_t end = std::min(line.find(',', start), line.size());
      if (n >= kIntervalLogColumnCount) {
        fail(start + 1, "more fields than the " + std::to_string(kIntervalLogColumnCount) + " columns of the header");
      }
      fields[n] = parse_field(line.substr(start, end - start), n, start);
      at[n] = start + 1;
      ++n;
      if (end == line.size()) break;
      start = end + 1;
    }
    if (n != kIntervalLogColumnCount) {
      fail(line.size() + 1,
           "found " + std::to_string(n) + " fields, the header has " + std::to_string(kIntervalLogColumnCount));
    }

    IntervalSummary s;
    s.index = fields[kColIndex].u;
    s.start_tick = fields[kColStart].u;
    s.end_tick = fields[kColEnd].u;
    s.rounds = fields[kColRounds].u;
    s.lost = fields[kColLost].u;
    s.late = fields[kColLate].u;
    for (std::size_t j = 0; j < kK; ++j) {
      s.fwd_k[j] = timed(fields, at, kColFwdK + 2 * j);
      s.rev_k[j] = timed(fields, at, kColRevK + 2 * j);
    }
    s.fwd_p50 = fields[kColFwdP50].i;
    s.fwd_max = fields[kColFwdMax].i;
    s.rev_p50 = fields[kColRevP50].i;
    s.rev_max = fields[kColRevMax].i;
    s.rtt_min = fields[kColRttMin].i;
    s.rtt_p50 = fields[kColRttP50].i;
    s.rtt_p99 = fields[kColRttP99].i;
    s.rtt_p999 = fields[kColRttP999].i;
    s.rtt_max = fields[kColRttMax].i;
    s.fwd_negative = fields[kColFwdNegative].u;
    s.rev_negative = fields[kColRevNegative].u;
    s.self_inconsistent = fields[kColSelfInconsistent].u;
    s.switches_a = fields[kColSwitchesA].u;
    s.switches_b = fields[kColSwitchesB].u;
    s.stall_ms = fields[kColStallMs].u;
    s.peak_rss_kib = fields[kColPeakRssKib].u;
    check_interval(s, at);
    return s;
  }

  /// An order statistic and its tick: both present or both "-".
  TimedTicks timed(const std::array<Field, kIntervalLogColumnCount>& fields,
                   const std::array<std::size_t, kIntervalLogColumnCount>& at, std::size_t value_column) const {
    const Field& value = fields[value_column];
    const Field& tick = fields[value_column + 1];
    if (value.absent != tick.absent) {
      const std::string tick_text = tick.absent ? std::string("-") : std::to_string(tick.u);
      fail(at[value_column + 1], std::string(name_of(value_column + 1)) + ": '" + tick_text + "' where " +
                                     std::string(name_of(value_column)) + (value.absent ? " is '-'" : " has a value") +
                                     " (a statistic and its tick are absent together)");
    }
    if (value.absent) return TimedTicks{};
    return TimedTicks{true, value.i, tick.u};
  }

  /// What one line says must agree with itself and with the line before it.
  void check_interval(const IntervalSummary& s, const std::array<std::size_t, kIntervalLogColumnCount>& at) const {
    const std::uint64_t expected_index = log_.intervals.size();
    if (s.index != expected_index) {
      fail(at[kColIndex], "interval " + std::to_string(s.index) + " where " + std::to_string(expected_index) +
                              " is expected (intervals are numbered 0, 1, 2, ... in order, without gaps)");
    }
    if (s.end_tick <= s.start_tick) {
      fail(at[kColEnd], "end_tick " + std::to_string(s.end_tick) + " is not after start_tick " +
                            std::to_string(s.start_tick) + " (an interval is t1 in [start_tick, end_tick))");
    }
    if (!log_.intervals.empty() && s.start_tick < log_.intervals.back().end_tick) {
      fail(at[kColStart], "start_tick " + std::to_string(s.start_tick) + " is before the end_tick " +
                              std::to_string(log_.intervals.back().end_tick) +
                              " of the interval before (intervals follow each other without overlap)");
    }
    for (const auto& [column, count] :
         {std::pair{kColLate, s.late}, std::pair{kColFwdNegative, s.fwd_negative},
          std::pair{kColRevNegative, s.rev_negative}, std::pair{kColSelfInconsistent, s.self_inconsistent}}) {
      if (count > s.rounds) {
        fail(at[column], std::string(name_of(column)) + " " + std::to_string(count) + " exceeds rounds " +
                             std::to_string(s.rounds) + " (it counts some of the interval's rounds)");
      }
    }
    check_order_statistics(s.fwd_k, s.fwd_negative, kColFwdK, s.rounds, at);
    check_order_statistics(s.rev_k, s.rev_negative, kColRevK, s.rounds, at);
    if (s.rounds == 0) {
      for (std::size_t column = kColFwdP50; column <= kColRttMax; ++column) {
        const std::int64_t v = latency_at(s, column);
        if (v != 0) {
          fail(at[column],
               std::string(name_of(column)) + " " + std::to_string(v) + " in an interval without rounds (0 expected)");
        }
      }
      return;
    }
    // Each chain must not decrease: min (the k = 1 statistic) <= p50 <= max; every
    // k-th smallest <= max; the rtt percentiles in order.
    const std::size_t last_fwd = kColFwdK + 2 * (present_count(s.fwd_k) - 1);
    const std::size_t last_rev = kColRevK + 2 * (present_count(s.rev_k) - 1);
    for (const auto& [lower, upper] :
         std::initializer_list<std::pair<std::size_t, std::size_t>>{{kColFwdK, kColFwdP50},
                                                                    {kColFwdP50, kColFwdMax},
                                                                    {last_fwd, kColFwdMax},
                                                                    {kColRevK, kColRevP50},
                                                                    {kColRevP50, kColRevMax},
                                                                    {last_rev, kColRevMax},
                                                                    {kColRttMin, kColRttP50},
                                                                    {kColRttP50, kColRttP99},
                                                                    {kColRttP99, kColRttP999},
                                                                    {kColRttP999, kColRttMax}}) {
      const std::int64_t lo = latency_at(s, lower);
      const std::int64_t hi = latency_at(s, upper);
      if (hi < lo) {
        fail(at[upper], std::string(name_of(upper)) + " " + std::to_string(hi) + " is below " +
                            std::string(name_of(lower)) + " " + std::to_string(lo) + " (they cannot decrease)");
      }
    }
  }

  /// Present exactly when rounds >= k; ascending in k; negative exactly when at least k
  /// of the direction's latencies are.
  void check_order_statistics(const std::array<TimedTicks, kK>& stats, std::uint64_t negatives,
                              std::size_t first_column, std::uint64_t rounds,
                              const std::array<std::size_t, kIntervalLogColumnCount>& at) const {
    for (std::size_t j = 0; j < kK; ++j) {
      const std::size_t column = first_column + 2 * j;
      const std::string name(name_of(column));
      const std::uint64_t k = kIntervalKs[j];
      if (stats[j].present && rounds < k) {
        fail(at[column], name + " has a value but the interval has " + std::to_string(rounds) + " rounds ('-' below " +
                             std::to_string(k) + ")");
      }
      if (!stats[j].present && rounds >= k) {
        fail(at[column], name + " is '-' but the interval has " + std::to_string(rounds) + " rounds (present from " +
                             std::to_string(k) + " on)");
      }
      if (!stats[j].present) continue;
      if (j > 0 && stats[j].value_ticks < stats[j - 1].value_ticks) {
        fail(at[column], name + " " + std::to_string(stats[j].value_ticks) + " is below " +
                             std::string(name_of(column - 2)) + " " + std::to_string(stats[j - 1].value_ticks) +
                             " (the k-th smallest cannot decrease with k)");
      }
      if ((stats[j].value_ticks < 0) != (negatives >= k)) {
        fail(at[column], name + " " + std::to_string(stats[j].value_ticks) + " contradicts " +
                             std::string(name_of(first_column == kColFwdK ? kColFwdNegative : kColRevNegative)) + " " +
                             std::to_string(negatives) +
                             " (the k-th smallest is negative exactly when at least k are)");
      }
    }
  }

  static std::size_t present_count(const std::array<TimedTicks, kK>& stats) {
    return static_cast<std::size_t>(
        std::count_if(stats.begin(), stats.end(), [](const TimedTicks& t) { return t.present; }));
  }

  /// The signed value of a latency column of `s`. \pre is_signed_column(column).
  static std::int64_t latency_at(const IntervalSummary& s, std::size_t column) {
    if (column >= kColFwdK && column < kColRevK) return s.fwd_k[(column - kColFwdK) / 2].value_ticks;
    if (column >= kColRevK && column < kColFwdP50) return s.rev_k[(column - kColRevK) / 2].value_ticks;
    switch (column) {
      case kColFwdP50: return s.fwd_p50;
      case kColFwdMax: return s.fwd_max;
      case kColRevP50: return s.rev_p50;
      case kColRevMax: return s.rev_max;
      case kColRttMin: return s.rtt_min;
      case kColRttP50: return s.rtt_p50;
      case kColRttP99: return s.rtt_p99;
      case kColRttP999: return s.rtt_p999;
      default: return s.rtt_max;
    }
  }

  std::string source_;
  std::size_t line_no_ = 0;
  std::size_t column_header_line_ = 0;
  Stage stage_ = Stage::schema;
  IntervalLog log_;
};

[[noreturn]] void fail_empty(std::string_view source) {
  throw InputError(printable_text(source) + ":1:1: empty file (expected '# schema: " + std::string(kMonitorSchema) +
                   "' first)");
}

}  // namespace

std::span<const std::string_view> interval_log_columns() { return column_names().views; }

std::string interval_log_head(const Metadata& header) {
  std::string out = "# schema: ";
  out += kMonitorSchema;
  out += '\n';
  for (const auto& [key, value] : header.entries()) {
    if (key != "schema") append_metadata_line(out, key, value);
  }
  const auto columns = interval_log_columns();
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) out += ',';
    out += columns[i];
  }
  out += '\n';
  return out;
}

std::string interval_log_line(const IntervalSummary& s) {
  std::string out;
  out.reserve(kIntervalLogColumnCount * 21);  // at most 20 characters and a comma per field
  auto u = [&](std::uint64_t v) {
    append_u64(out, v);
    out += ',';
  };
  auto i = [&](std::int64_t v) {
    append_i64(out, v);
    out += ',';
  };
  auto timed = [&](const TimedTicks& t) {
    if (t.present) {
      i(t.value_ticks);
      u(t.at_tick);
    } else {
      out += "-,-,";
    }
  };
  for (std::uint64_t v : {s.index, s.start_tick, s.end_tick, s.rounds, s.lost, s.late}) u(v);
  for (const TimedTicks& t : s.fwd_k) timed(t);
  for (const TimedTicks& t : s.rev_k) timed(t);
  for (std::int64_t v :
       {s.fwd_p50, s.fwd_max, s.rev_p50, s.rev_max, s.rtt_min, s.rtt_p50, s.rtt_p99, s.rtt_p999, s.rtt_max}) {
    i(v);
  }
  for (std::uint64_t v :
       {s.fwd_negative, s.rev_negative, s.self_inconsistent, s.switches_a, s.switches_b, s.stall_ms, s.peak_rss_kib}) {
    u(v);
  }
  out.back() = '\n';  // the last comma
  return out;
}

std::string interval_log_tail(const Metadata& trailer) {
  std::string out;
  for (const auto& [key, value] : trailer.entries()) append_metadata_line(out, key, value);
  return out;
}

IntervalLog parse_interval_log(std::string_view text, std::string_view source) {
  if (text.empty()) fail_empty(source);
  IntervalLogParser parser(source);
  for_each_line(text, source, [&](std::string_view line, std::size_t line_no, bool terminated) {
    parser.line(line, line_no, terminated);
  });
  return parser.finish();
}

IntervalLog read_interval_log_stream(std::FILE* file, std::string_view source, std::size_t chunk_bytes) {
  IntervalLogParser parser(source);
  const std::size_t total = for_each_line(
      file, source, chunk_bytes,
      [&](std::string_view line, std::size_t line_no, bool terminated) { parser.line(line, line_no, terminated); });
  if (total == 0) fail_empty(source);
  return parser.finish();
}

IntervalLog read_interval_log_file(const std::string& path) {
  if (path == "-") return read_interval_log_stream(stdin, "<stdin>", kReadChunkBytes);
  const FilePtr file = open_input_file(path);
  return read_interval_log_stream(file.get(), path, kReadChunkBytes);
}

bool is_interval_log_schema_line(std::string_view first_line) {
  if (!first_line.empty() && first_line.back() == '\r') first_line.remove_suffix(1);
  const auto kv = parse_metadata_line(first_line);
  if (!kv || kv->first != "schema") return false;
  // "tscaudit-monitor/N" for any version N, so that the reader can name an unknown one
  // (and "tscsync-monitor/N", the same logs written before the rename).
  constexpr std::string_view kPrefix = "tscaudit-monitor/";
  const std::string normalized = current_schema_name(kv->second);
  const std::string_view value = normalized;
  if (value.size() <= kPrefix.size() || value.substr(0, kPrefix.size()) != kPrefix) return false;
  return value.find_first_not_of("0123456789", kPrefix.size()) == std::string_view::npos;
}

std::optional<std::string> interval_log_incomplete_reason(const IntervalLog& log) {
  const std::size_t n = log.intervals.size();
  const std::string after = " after " + std::to_string(n) + (n == 1 ? " interval" : " intervals");
  const auto status = log.trailer.get("status");
  if (!status) {
    std::string reason = "no '# status:' line after the intervals: the log was cut short (the process died?)";
    if (log.cut_line != 0)
      reason += "; line " + std::to_string(log.cut_line) + " was cut in the middle and is left out";
    return reason;
  }
  if (*status == kStatusComplete) return std::nullopt;
  if (*status == kStatusInterrupted) {
    const auto signal = log.trailer.get("signal");
    return "interrupted" + (signal ? " by " + std::string(*signal) : std::string()) + after;
  }
  if (*status == kStatusAborted) {
    const auto error = log.trailer.get("error");
    return "aborted" + (error ? ": " + printable_text(*error) : after);
  }
  return "unknown status '" + printable(*status) + "' (expected " + std::string(kStatusComplete) + ", " +
         std::string(kStatusInterrupted) + " or " + std::string(kStatusAborted) + ")";
}

}  // namespace tscaudit
