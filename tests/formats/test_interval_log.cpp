#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "core/errors.hpp"
#include "error_messages.hpp"
#include "formats/interval_log.hpp"
#include "formats/text_lines.hpp"
#include "stream_source.hpp"
#include "int_limits.hpp"

using namespace tscaudit;

namespace {

using test::kI64Max;
using test::kI64Min;
using test::kU64Max;


/// A log in every shape a writer can produce: an interval without rounds (everything
/// absent), one with 3 rounds (k = 1 only), one with 16 and one at the 64-bit extremes.
IntervalLog sample_log() {
  IntervalLog log;
  log.header.set("schema", std::string(kMonitorSchema));
  log.header.set("a", "0");
  log.header.set("b", "1");
  log.header.set("command", "tscaudit monitor --cpus 0,1 --out 'a b.log'");
  IntervalSummary empty;
  empty.index = 0;
  empty.start_tick = 0;
  empty.end_tick = 2'300'000'000;
  empty.lost = 7;
  empty.stall_ms = 1200;
  empty.peak_rss_kib = 5000;
  log.intervals.push_back(empty);

  IntervalSummary three;
  three.index = 1;
  three.start_tick = 2'300'000'000;
  three.end_tick = 4'600'000'000;
  three.rounds = 3;
  three.late = 1;
  three.fwd_k[0] = {true, -40, 2'300'000'100};
  three.rev_k[0] = {true, 250, 2'300'000'900};
  three.fwd_p50 = 200;
  three.fwd_max = 260;
  three.rev_p50 = 255;
  three.rev_max = 300;
  three.rtt_min = 400;
  three.rtt_p50 = 420;
  three.rtt_p99 = 500;
  three.rtt_p999 = 500;
  three.rtt_max = 500;
  three.fwd_negative = 1;
  three.switches_a = 1;
  log.intervals.push_back(three);

  IntervalSummary sixteen = three;
  sixteen.index = 2;
  sixteen.start_tick = 4'600'000'000;
  sixteen.end_tick = 6'900'000'000;
  sixteen.rounds = 16;
  sixteen.late = 0;
  sixteen.fwd_k = {TimedTicks{true, -90, 4'600'000'500}, TimedTicks{true, -2, 4'600'000'100},
                   TimedTicks{true, 300, 4'600'000'000}};
  sixteen.rev_k = {TimedTicks{true, -300, 4'600'000'700}, TimedTicks{true, 10, 4'600'000'800},
                   TimedTicks{true, 20, 4'600'000'900}};
  sixteen.fwd_p50 = 120;
  sixteen.fwd_max = 300;
  sixteen.rev_p50 = 15;
  sixteen.rev_max = 20;
  sixteen.fwd_negative = 5;
  sixteen.rev_negative = 2;
  sixteen.self_inconsistent = 2;
  sixteen.rtt_min = -900;
  sixteen.switches_b = 4;
  log.intervals.push_back(sixteen);

  IntervalSummary extreme;
  extreme.index = 3;
  extreme.start_tick = 6'900'000'000;
  extreme.end_tick = kU64Max;
  extreme.rounds = kU64Max;
  extreme.lost = kU64Max;
  extreme.late = kU64Max;
  extreme.fwd_k = {TimedTicks{true, kI64Min, kU64Max}, TimedTicks{true, kI64Min, 0}, TimedTicks{true, kI64Max, 1}};
  extreme.rev_k = {TimedTicks{true, kI64Min, kU64Max - 1}, TimedTicks{true, 0, kU64Max},
                   TimedTicks{true, kI64Max, kU64Max}};
  extreme.fwd_p50 = kI64Min;
  extreme.fwd_max = kI64Max;
  extreme.rev_p50 = 0;
  extreme.rev_max = kI64Max;
  extreme.rtt_min = kI64Min;
  extreme.rtt_p50 = -1;
  extreme.rtt_p99 = 0;
  extreme.rtt_p999 = kI64Max;
  extreme.rtt_max = kI64Max;
  extreme.fwd_negative = 15;  // k4 negative, k16 not
  extreme.rev_negative = 3;   // k1 negative, k4 (0) not
  extreme.self_inconsistent = kU64Max;
  extreme.switches_a = kU64Max;
  extreme.switches_b = kU64Max;
  extreme.stall_ms = kU64Max;
  extreme.peak_rss_kib = kU64Max;
  log.intervals.push_back(extreme);

  log.trailer.set("intervals_written", "4");
  log.trailer.set("signal", "SIGINT");
  log.trailer.set("status", std::string(kStatusInterrupted));
  return log;
}

std::string to_text(const IntervalLog& log) {
  std::string text = interval_log_head(log.header);
  for (const IntervalSummary& s : log.intervals) text += interval_log_line(s);
  text += interval_log_tail(log.trailer);
  return text;
}

std::string log_error_of(std::string_view text) {
  return test::what_thrown<InputError>([&] { parse_interval_log(text, "in.log"); });
}

// A valid interval line with 20 rounds and small numbers, so that the byte column of each
// field can be counted by hand: interval at 1, start_tick 3, end_tick 8, rounds 13, lost 16,
// late 18, fwd_k1 20, fwd_k1_tick 23, fwd_k4 28, fwd_k4_tick 32, fwd_k16 37, fwd_k16_tick
// 41, rev_k1 46, rev_k1_tick 49, rev_k4 54, rev_k4_tick 57, rev_k16 62, rev_k16_tick 66,
// fwd_p50 71, fwd_max 75, rev_p50 79, rev_max 83, rtt_min 87, rtt_p50 91, rtt_p99 95,
// rtt_p999 99, rtt_max 103, fwd_negative 107, rev_negative 109, self_inconsistent 111,
// switches_a 113, switches_b 115, stall_ms 117, peak_rss_kib 119; 122 bytes.
const std::string kLine0 =
    "0,1000,2000,20,0,0,-5,1100,100,1200,150,1300,90,1150,95,1250,140,1350,120,400,110,300,200,230,390,400,410,1,0,0,"
    "2,3,0,4096";
// The interval after it, with 3 rounds.
const std::string kLine1 =
    "1,2000,3000,3,0,0,-5,2100,-,-,-,-,90,2150,-,-,-,-,120,400,110,300,200,230,390,400,410,1,0,0,0,0,0,4096";

std::string head() { return interval_log_head(Metadata{}); }

/// `line` with the field of column `name` replaced by `value`.
std::string with_field(const std::string& line, std::string_view name, std::string_view value) {
  const auto columns = interval_log_columns();
  std::size_t index = 0;
  while (index < columns.size() && columns[index] != name) ++index;
  REQUIRE(index < columns.size());
  std::size_t start = 0;
  for (std::size_t i = 0; i < index; ++i) start = line.find(',', start) + 1;
  const std::size_t end = std::min(line.find(',', start), line.size());
  return line.substr(0, start) + std::string(value) + line.substr(end);
}

/// The log of the interval lines given (each without its line end), with a status.
std::string log_of(std::initializer_list<std::string> lines) {
  std::string text = head();
  for (const std::string& l : lines) text += l + "\n";
  return text + "# status: complete\n";
}

/// The message reading the log of kLine0 gives with one field changed, `edit` being
/// "name=value" (the value is all after the first '=').
std::string error_of_edit(const std::string& edit) {
  const std::size_t eq = edit.find('=');
  REQUIRE(eq != std::string::npos);
  return log_error_of(log_of({with_field(kLine0, edit.substr(0, eq), edit.substr(eq + 1))}));
}

}  // namespace

TEST_CASE("interval log: the columns are the documented ones, in order") {
  const auto columns = interval_log_columns();
  REQUIRE(columns.size() == kIntervalLogColumnCount);
  REQUIRE(columns.size() == 34);
  std::string joined;
  for (std::string_view c : columns) joined += std::string(c) + ",";
  CHECK(joined ==
        "interval,start_tick,end_tick,rounds,lost,late,fwd_k1,fwd_k1_tick,fwd_k4,fwd_k4_tick,fwd_k16,fwd_k16_tick,"
        "rev_k1,rev_k1_tick,rev_k4,rev_k4_tick,rev_k16,rev_k16_tick,fwd_p50,fwd_max,rev_p50,rev_max,rtt_min,rtt_p50,"
        "rtt_p99,rtt_p999,rtt_max,fwd_negative,rev_negative,self_inconsistent,switches_a,switches_b,stall_ms,"
        "peak_rss_kib,");
}

TEST_CASE("interval log: the written text has the documented shape") {
  Metadata header;
  header.set("a", "0");
  header.set("schema", "ignored: the schema line is always the first and only one");
  CHECK(interval_log_head(header) ==
        "# schema: tscaudit-monitor/1\n"
        "# a: 0\n"
        "interval,start_tick,end_tick,rounds,lost,late,fwd_k1,fwd_k1_tick,fwd_k4,fwd_k4_tick,fwd_k16,fwd_k16_tick,"
        "rev_k1,rev_k1_tick,rev_k4,rev_k4_tick,rev_k16,rev_k16_tick,fwd_p50,fwd_max,rev_p50,rev_max,rtt_min,rtt_p50,"
        "rtt_p99,rtt_p999,rtt_max,fwd_negative,rev_negative,self_inconsistent,switches_a,switches_b,stall_ms,"
        "peak_rss_kib\n");
  const IntervalLog log = sample_log();
  CHECK(interval_log_line(log.intervals[0]) ==
        "0,0,2300000000,0,7,0,-,-,-,-,-,-,-,-,-,-,-,-,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1200,5000\n");
  CHECK(interval_log_line(log.intervals[1]) ==
        "1,2300000000,4600000000,3,0,1,-40,2300000100,-,-,-,-,250,2300000900,-,-,-,-,200,260,255,300,400,420,500,500,"
        "500,1,0,0,1,0,0,0\n");
  CHECK(interval_log_line(log.intervals[3]) ==
        "3,6900000000,18446744073709551615,18446744073709551615,18446744073709551615,18446744073709551615,"
        "-9223372036854775808,18446744073709551615,-9223372036854775808,0,9223372036854775807,1,"
        "-9223372036854775808,18446744073709551614,0,18446744073709551615,9223372036854775807,18446744073709551615,"
        "-9223372036854775808,9223372036854775807,0,9223372036854775807,-9223372036854775808,-1,0,"
        "9223372036854775807,9223372036854775807,15,3,18446744073709551615,18446744073709551615,"
        "18446744073709551615,18446744073709551615,18446744073709551615\n");
  Metadata trailer;
  trailer.set("status", "complete");
  CHECK(interval_log_tail(trailer) == "# status: complete\n");
}

TEST_CASE("interval log: write then parse gives every field back, absent statistics and extremes included") {
  const IntervalLog log = sample_log();
  const std::string text = to_text(log);
  const IntervalLog back = parse_interval_log(text, "mem");
  REQUIRE(back.intervals.size() == log.intervals.size());
  for (std::size_t i = 0; i < log.intervals.size(); ++i) {
    INFO("interval " << i);
    CHECK(back.intervals[i] == log.intervals[i]);
  }
  CHECK(back.header.entries() == log.header.entries());
  CHECK(back.trailer.entries() == log.trailer.entries());
  CHECK(back.cut_line == 0);
  CHECK(to_text(back) == text);
  // The parsed header names the schema first even when the written one did not hold it.
  IntervalLog bare = log;
  bare.header = Metadata{};
  const IntervalLog bare_back = parse_interval_log(to_text(bare), "mem");
  REQUIRE(bare_back.header.entries().size() == 1);
  CHECK(*bare_back.header.get("schema") == "tscaudit-monitor/1");
}

TEST_CASE("interval log: CRLF line ends give what LF gives") {
  const std::string lf = to_text(sample_log());
  const std::string crlf = test::with_crlf(lf);
  const IntervalLog a = parse_interval_log(lf, "lf");
  const IntervalLog b = parse_interval_log(crlf, "crlf");
  CHECK(a.intervals == b.intervals);
  CHECK(a.header.entries() == b.header.entries());
  CHECK(a.trailer.entries() == b.trailer.entries());
}

namespace {

/// The result of reading `text` through a file, `chunk` bytes at a time, or the error.
std::variant<IntervalLog, std::string> read_chunked(const std::string& text, std::size_t chunk) {
  return test::read_or_error(text, [&](std::FILE* f) { return read_interval_log_stream(f, "in.log", chunk); });
}

}  // namespace

TEST_CASE("interval log: a stream read in chunks gives what the whole text gives, whatever the chunk size") {
  const std::string whole = to_text(sample_log());
  const std::string crlf = test::with_crlf(whole);
  const std::string cut = whole.substr(0, whole.find("\n3,") + 40);  // ends inside interval 3
  test::check_chunked_reading<IntervalLog>(
      {whole, crlf, cut}, {1, 2, 7, 64, std::size_t{1} << 22},
      [](const std::string& text) { return parse_interval_log(text, "in.log"); }, read_chunked,
      &IntervalLog::intervals);
  CHECK(parse_interval_log(cut, "in.log").cut_line == 9);  // the cut really fell inside interval 3 (line 9)
  const std::string bad = log_of({with_field(kLine0, "lost", "x")});
  for (std::size_t chunk : {std::size_t{1}, std::size_t{5}, std::size_t{4096}}) {
    CHECK(std::get<std::string>(read_chunked(bad, chunk)) ==
          "in.log:3:16: lost: 'x' is not an unsigned decimal number");
  }
  CHECK(std::get<std::string>(read_chunked("", 16)) ==
        "in.log:1:1: empty file (expected '# schema: tscaudit-monitor/1' first)");
}

TEST_CASE("interval log: files and what cannot be read") {
  const auto dir = std::filesystem::temp_directory_path() / "tscaudit_test_interval_log";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "x.log").string();
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    REQUIRE(f != nullptr);
    const std::string text = to_text(sample_log());
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  }
  CHECK(read_interval_log_file(path).intervals == sample_log().intervals);
  // A file that cannot be opened is an input error (exit 2), as malformed text is.
  CHECK_THROWS_AS(read_interval_log_file((dir / "missing.log").string()), InputError);
  CHECK_THROWS_AS(read_interval_log_file(dir.string()), InputError);
  CHECK_THROWS_WITH(read_interval_log_file(dir.string()), "cannot read " + dir.string() + ": it is a directory");
  std::filesystem::remove_all(dir);
}

TEST_CASE("interval log: a log cut anywhere is never taken for a complete one") {
  const std::string text = to_text(sample_log());
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t cut = rng() % (text.size() - 1);  // at least the last byte is missing
    bool complete = false;
    try {
      complete =
          !interval_log_incomplete_reason(parse_interval_log(std::string_view(text.data(), cut), "cut")).has_value();
    } catch (const InputError&) {
      complete = false;
    }
    INFO("cut at byte " << cut);
    CHECK_FALSE(complete);
  }
}

TEST_CASE("interval log: a last line cut mid-write is left out and named while the lines before it are kept") {
  const std::string text = log_of({kLine0, kLine1});
  const std::string cut = text.substr(0, text.find(kLine1) + 30);
  const IntervalLog log = parse_interval_log(cut, "in.log");
  CHECK(log.intervals.size() == 1);
  CHECK(log.cut_line == 4);
  CHECK(*interval_log_incomplete_reason(log) ==
        "no '# status:' line after the intervals: the log was cut short (the process died?); line 4 was cut in the "
        "middle and is left out");
  // A whole last line without its '\n' is kept (the run reader does the same).
  const IntervalLog whole = parse_interval_log(head() + kLine0 + "\n" + kLine1, "in.log");
  CHECK(whole.intervals.size() == 2);
  CHECK(whole.cut_line == 0);
  CHECK(*interval_log_incomplete_reason(whole) ==
        "no '# status:' line after the intervals: the log was cut short (the process died?)");
}

TEST_CASE("interval log: the status says why a log is incomplete") {
  IntervalLog log = sample_log();
  CHECK(*interval_log_incomplete_reason(log) == "interrupted by SIGINT after 4 intervals");
  log.trailer = Metadata{};
  log.trailer.set("status", "interrupted");
  CHECK(*interval_log_incomplete_reason(log) == "interrupted after 4 intervals");
  log.intervals.resize(1);
  CHECK(*interval_log_incomplete_reason(log) == "interrupted after 1 interval");
  log.trailer = Metadata{};
  log.trailer.set("error", "CPU 1 stopped answering");
  log.trailer.set("status", "aborted");
  CHECK(*interval_log_incomplete_reason(log) == "aborted: CPU 1 stopped answering");
  log.trailer = Metadata{};
  log.trailer.set("status", "aborted");
  CHECK(*interval_log_incomplete_reason(log) == "aborted after 1 interval");
  log.trailer = Metadata{};
  log.trailer.set("status", "complete");
  CHECK_FALSE(interval_log_incomplete_reason(log).has_value());
  log.trailer.set("status", "compl");  // a status line cut in the middle
  CHECK(*interval_log_incomplete_reason(log) == "unknown status 'compl' (expected complete, interrupted or aborted)");
  log.trailer = Metadata{};
  CHECK(*interval_log_incomplete_reason(log) ==
        "no '# status:' line after the intervals: the log was cut short (the process died?)");
}

TEST_CASE("interval log: the schema line tells a log from a run") {
  CHECK(is_interval_log_schema_line("# schema: tscaudit-monitor/1"));
  CHECK(is_interval_log_schema_line("# schema: tscaudit-monitor/1\r"));
  CHECK(is_interval_log_schema_line("# schema: tscaudit-monitor/2"));  // recognised, then refused as unknown
  CHECK(is_interval_log_schema_line("# schema: tscaudit-monitor/12 "));
  CHECK_FALSE(is_interval_log_schema_line("# schema: tscaudit-run/1"));
  CHECK_FALSE(is_interval_log_schema_line("# schema: tscaudit-monitor/"));
  CHECK_FALSE(is_interval_log_schema_line("# schema: tscaudit-monitor/1x"));
  CHECK_FALSE(is_interval_log_schema_line("# schema: tscaudit-monitor-extra/1"));
  CHECK_FALSE(is_interval_log_schema_line("#schema: tscaudit-monitor/1"));
  CHECK_FALSE(is_interval_log_schema_line("# note: tscaudit-monitor/1"));
  CHECK_FALSE(is_interval_log_schema_line(""));
}

TEST_CASE("interval log: comments, blank lines and metadata around the intervals") {
  const IntervalLog log = parse_interval_log(
      "\n# schema: tscaudit-monitor/1\n# a: 0\n# a comment\n" + head().substr(head().find('\n') + 1) + "# b: 1\n\n" +
          kLine0 + "\n# just a comment\n" + kLine1 + "\n# signal: SIGTERM\n\n" + "# status: interrupted\n",
      "in.log");
  CHECK(log.intervals.size() == 2);
  CHECK(log.header.entries() ==
        std::vector<std::pair<std::string, std::string>>{{"schema", "tscaudit-monitor/1"}, {"a", "0"}, {"b", "1"}});
  CHECK(log.trailer.entries() ==
        std::vector<std::pair<std::string, std::string>>{{"signal", "SIGTERM"}, {"status", "interrupted"}});
  CHECK(*interval_log_incomplete_reason(log) == "interrupted by SIGTERM after 2 intervals");
}

TEST_CASE("interval log: what is not a log, or not this schema, is refused at its first line") {
  CHECK(log_error_of("") == "in.log:1:1: empty file (expected '# schema: tscaudit-monitor/1' first)");
  CHECK(log_error_of("\n\r\n") ==
        "in.log:1:1: no schema line: the input holds only empty lines (expected '# schema: tscaudit-monitor/1' first)");
  CHECK(log_error_of(head().substr(head().find('\n') + 1) + kLine0 + "\n") ==
        "in.log:1:1: not an interval log: the first line is 'interval,start_tick,end_tick,rounds,lost...', not "
        "'# schema: tscaudit-monitor/1'");
  CHECK(log_error_of("# a: 0\n# schema: tscaudit-monitor/1\n") ==
        "in.log:1:1: not an interval log: the first line is '# a: 0', not '# schema: tscaudit-monitor/1'");
  CHECK(log_error_of("\n# schema: tscaudit-monitor/2\n") ==
        "in.log:2:11: unknown schema 'tscaudit-monitor/2' (this version reads tscaudit-monitor/1)");
  CHECK(log_error_of("# schema: tscaudit-run/1\nseq,t1,t2,t3,t4,flags\n0,1,2,3,4,0\n") ==
        "in.log:1:11: unknown schema 'tscaudit-run/1' (this version reads tscaudit-monitor/1)");
  CHECK(log_error_of(std::string("\x7f"
                             "ELF\x02\x01\x01\0\0\0",
                             10) +
                 "\n") ==
        "in.log:1:1: not an interval log: the first line is '\\x7fELF\\x02\\x01\\x01\\x00\\x00\\x00', not "
        "'# schema: tscaudit-monitor/1'");
}

TEST_CASE("interval log: a missing, different or lone column header is refused") {
  CHECK(log_error_of("# schema: tscaudit-monitor/1\n# a: 0\n") ==
        "in.log:2:1: the log ends before its column header row (expected 'interval,start_tick,...')");
  CHECK(log_error_of("# schema: tscaudit-monitor/1\n" + kLine0 + "\n") ==
        "in.log:2:1: no column header row before the first interval (expected 'interval,start_tick,...')");
  std::string header = head().substr(head().find('\n') + 1);
  header.pop_back();  // its '\n'
  // fwd_k4 starts at byte 66 of the column header row.
  std::string renamed = header;
  renamed.replace(renamed.find("fwd_k4,"), 6, "fwd_k5");
  CHECK(log_error_of("# schema: tscaudit-monitor/1\n" + renamed + "\n" + kLine0 + "\n") ==
        "in.log:2:66: column 9 of the header is 'fwd_k5', expected 'fwd_k4' (the columns of tscaudit-monitor/1 are "
        "fixed)");
  const std::string shorter = header.substr(0, header.rfind(','));  // no peak_rss_kib
  CHECK(log_error_of("# schema: tscaudit-monitor/1\n" + shorter + "\n" + kLine0 + "\n") ==
        "in.log:2:312: the column header ends after 33 columns, expected 'peak_rss_kib' next (tscaudit-monitor/1 has "
        "34)");
  CHECK(log_error_of("# schema: tscaudit-monitor/1\n" + header + ",extra\n" + kLine0 + "\n") ==
        "in.log:2:326: column 35 'extra' is beyond the 34 columns of tscaudit-monitor/1");
  CHECK(log_error_of(head()) == "in.log:2:1: no intervals after the column header row");
  CHECK(log_error_of(head() + "# status: aborted\n") == "in.log:2:1: no intervals after the column header row");
}

TEST_CASE("interval log: the field count, empty, non-numeric and out-of-range fields") {
  REQUIRE(log_error_of(log_of({kLine0, kLine1})) == "(no error)");
  test::check_messages(
      log_error_of, {
                    {log_of({kLine0.substr(0, kLine0.rfind(','))}), "in.log:3:118: found 33 fields, the header has 34"},
                    {log_of({kLine0 + ",5"}), "in.log:3:124: more fields than the 34 columns of the header"},
                    {log_of({std::string(kMaxLineBytes + 1, '7')}),
                     "in.log:3:65537: line longer than 65536 bytes (not a text table, or a line end is missing)"},
                });
  test::check_messages(
      error_of_edit,
      {
          {"rounds=", "in.log:3:13: rounds: empty field (expected an unsigned decimal number)"},
          {"fwd_p50= ", "in.log:3:71: fwd_p50: empty field (expected a signed decimal number)"},
          {"end_tick=2e3", "in.log:3:8: end_tick: '2e3' is not an unsigned decimal number"},
          {"rtt_p50=2.5", "in.log:3:91: rtt_p50: '2.5' is not a signed decimal number"},
          {"start_tick=18446744073709551616", "in.log:3:3: start_tick: '18446744073709551616' is beyond 64 bits"},
          {"fwd_max=9223372036854775808",
           "in.log:3:75: fwd_max: '9223372036854775808' is beyond the signed 64-bit range"},
          {"rtt_min=-9223372036854775809",
           "in.log:3:87: rtt_min: '-9223372036854775809' is beyond the signed 64-bit range"},
          {"lost=-1", "in.log:3:16: lost: '-1' is negative (an unsigned column)"},
          {"fwd_k4_tick=-1200", "in.log:3:32: fwd_k4_tick: '-1200' is negative (an unsigned column)"},
          {"switches_b=" + std::string("3\0", 2),
           "in.log:3:115: switches_b: '3\\x00' is not an unsigned decimal number"},
          {"peak_rss_kib=\x1b[31m", "in.log:3:119: peak_rss_kib: '\\x1b[31m' is not an unsigned decimal number"},
      });
}

TEST_CASE("interval log: '-' only for an absent statistic, together with its tick") {
  test::check_messages(
      error_of_edit,
      {
          {"rounds=-",
           "in.log:3:13: rounds: '-' where a value is required (only the order statistics fwd_kK, rev_kK and their "
           "ticks may be absent)"},
          {"rtt_max=-",
           "in.log:3:103: rtt_max: '-' where a value is required (only the order statistics fwd_kK, rev_kK and their "
           "ticks may be absent)"},
          {"rev_k16_tick=-",
           "in.log:3:66: rev_k16_tick: '-' where rev_k16 has a value (a statistic and its tick are absent together)"},
      });
  CHECK(log_error_of(log_of({kLine0, with_field(kLine1, "fwd_k4_tick", "2200")})) ==
        "in.log:4:29: fwd_k4_tick: '2200' where fwd_k4 is '-' (a statistic and its tick are absent together)");
}

TEST_CASE("interval log: intervals out of order are refused") {
  test::check_messages(
      log_error_of,
      {
          {log_of({with_field(kLine0, "interval", "1")}),
           "in.log:3:1: interval 1 where 0 is expected (intervals are numbered 0, 1, 2, ... in order, without gaps)"},
          {log_of({kLine0, with_field(kLine1, "interval", "2")}),
           "in.log:4:1: interval 2 where 1 is expected (intervals are numbered 0, 1, 2, ... in order, without gaps)"},
          {log_of({kLine0, kLine0}),
           "in.log:4:1: interval 0 where 1 is expected (intervals are numbered 0, 1, 2, ... in order, without gaps)"},
          {log_of({with_field(kLine0, "end_tick", "1000")}),
           "in.log:3:8: end_tick 1000 is not after start_tick 1000 (an interval is t1 in [start_tick, end_tick))"},
          {log_of({kLine0, with_field(kLine1, "start_tick", "1999")}),
           "in.log:4:3: start_tick 1999 is before the end_tick 2000 of the interval before (intervals follow each "
           "other without overlap)"},
          // A gap between intervals is fine (the monitor was stopped, nothing was measured).
          {log_of({kLine0, with_field(kLine1, "start_tick", "2500")}), "(no error)"},
      });
}

TEST_CASE("interval log: values that contradict each other are refused") {
  test::check_messages(
      error_of_edit,
      {
          // Counts of some of the rounds.
          {"late=21", "in.log:3:18: late 21 exceeds rounds 20 (it counts some of the interval's rounds)"},
          {"fwd_negative=21",
           "in.log:3:107: fwd_negative 21 exceeds rounds 20 (it counts some of the interval's rounds)"},
          {"rev_negative=99",
           "in.log:3:109: rev_negative 99 exceeds rounds 20 (it counts some of the interval's rounds)"},
          {"self_inconsistent=30",
           "in.log:3:111: self_inconsistent 30 exceeds rounds 20 (it counts some of the interval's rounds)"},
          // Ascending in k.
          {"rev_k4=89", "in.log:3:54: rev_k4 89 is below rev_k1 90 (the k-th smallest cannot decrease with k)"},
          {"fwd_k16=99", "in.log:3:37: fwd_k16 99 is below fwd_k4 100 (the k-th smallest cannot decrease with k)"},
          // Negative exactly when at least k of the latencies are.
          {"fwd_negative=0",
           "in.log:3:20: fwd_k1 -5 contradicts fwd_negative 0 (the k-th smallest is negative exactly when at least k "
           "are)"},
          {"fwd_negative=4",
           "in.log:3:28: fwd_k4 100 contradicts fwd_negative 4 (the k-th smallest is negative exactly when at least k "
           "are)"},
          // min <= p50 <= max, the rtt percentiles in order.
          {"fwd_p50=-6", "in.log:3:71: fwd_p50 -6 is below fwd_k1 -5 (they cannot decrease)"},
          {"fwd_max=119", "in.log:3:75: fwd_max 119 is below fwd_p50 120 (they cannot decrease)"},
          {"rev_p50=80", "in.log:3:79: rev_p50 80 is below rev_k1 90 (they cannot decrease)"},
          {"rev_max=100", "in.log:3:83: rev_max 100 is below rev_p50 110 (they cannot decrease)"},
          {"rtt_p50=199", "in.log:3:91: rtt_p50 199 is below rtt_min 200 (they cannot decrease)"},
          {"rtt_p99=229", "in.log:3:95: rtt_p99 229 is below rtt_p50 230 (they cannot decrease)"},
          {"rtt_p999=389", "in.log:3:99: rtt_p999 389 is below rtt_p99 390 (they cannot decrease)"},
          {"rtt_max=399", "in.log:3:103: rtt_max 399 is below rtt_p999 400 (they cannot decrease)"},
      });
  test::check_messages(log_error_of,
                       {
                           // Present exactly when rounds >= k.
                           {log_of({kLine0, with_field(with_field(kLine1, "fwd_k4", "110"), "fwd_k4_tick", "2200")}),
                            "in.log:4:27: fwd_k4 has a value but the interval has 3 rounds ('-' below 4)"},
                           {log_of({with_field(with_field(kLine0, "rev_k16", "-"), "rev_k16_tick", "-")}),
                            "in.log:3:62: rev_k16 is '-' but the interval has 20 rounds (present from 16 on)"},
                           // The k-th <= max.
                           {log_of({with_field(with_field(kLine0, "fwd_max", "140"), "fwd_p50", "130")}),
                            "in.log:3:75: fwd_max 140 is below fwd_k16 150 (they cannot decrease)"},
                       });
  // An interval without rounds has no latencies.
  const std::string none = "0,1000,2000,0,5,0,-,-,-,-,-,-,-,-,-,-,-,-,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0";
  REQUIRE(log_error_of(log_of({none})) == "(no error)");
  test::check_messages(log_error_of, {
                                     {log_of({with_field(none, "rtt_p99", "7")}),
                                      "in.log:3:55: rtt_p99 7 in an interval without rounds (0 expected)"},
                                     {log_of({with_field(with_field(none, "fwd_k1", "-5"), "fwd_k1_tick", "1100")}),
                                      "in.log:3:19: fwd_k1 has a value but the interval has 0 rounds ('-' below 1)"},
                                 });
}

TEST_CASE("interval log: an interval after the trailer is refused") {
  CHECK(log_error_of(head() + kLine0 + "\n# status: complete\n" + kLine1 + "\n") ==
        "in.log:5:1: an interval after the trailer metadata (intervals must come before the closing '# key: value' "
        "lines)");
}
