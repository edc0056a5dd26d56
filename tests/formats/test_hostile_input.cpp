// Hostile and careless input to the run reader: every case exits with
// "SOURCE:LINE:COLUMN: what is wrong" (or is read as documented), never crashes, never
// hangs and never allocates beyond what the input holds. Each case is read both whole
// (parse_run) and as a stream in chunks of 1, 7 and 4096 bytes, which must agree.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <variant>

#include "core/errors.hpp"
#include "error_messages.hpp"
#include "formats/run_format.hpp"
#include "formats/text_fields.hpp"
#include "skip.hpp"
#include "stream_source.hpp"

using namespace tscaudit;
using namespace std::string_literals;

namespace {

using Outcome = std::variant<Run, std::string>;

Outcome parse_whole(const std::string& text) {
  try {
    return parse_run(text, "in.csv");
  } catch (const InputError& e) {
    return std::string(e.what());
  }
}

Outcome parse_stream(const std::string& text, std::size_t chunk) {
  return test::read_or_error(text, [&](std::FILE* f) { return read_run_stream(f, "in.csv", chunk, text.size()); });
}

bool same(const Outcome& x, const Outcome& y) {
  if (x.index() != y.index()) return false;
  if (const auto* e = std::get_if<std::string>(&x)) return *e == std::get<std::string>(y);
  const Run& a = std::get<Run>(x);
  const Run& b = std::get<Run>(y);
  return a.rounds == b.rounds && a.header.entries() == b.header.entries() &&
         a.trailer.entries() == b.trailer.entries() && a.cut_line == b.cut_line;
}

/// The outcome of `text`, checked to be the same whole and in chunks.
Outcome outcome(const std::string& text) {
  Outcome whole = parse_whole(text);
  for (std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{4096}}) {
    INFO("chunk " << chunk);
    CHECK(same(parse_stream(text, chunk), whole));
  }
  return whole;
}

std::string hostile_error_of(const std::string& text) {
  const Outcome o = outcome(text);
  return std::holds_alternative<std::string>(o) ? std::get<std::string>(o) : "(no error)";
}

Run ok(const std::string& text) {
  Outcome o = outcome(text);
  INFO((std::holds_alternative<std::string>(o) ? std::get<std::string>(o) : ""));
  REQUIRE(std::holds_alternative<Run>(o));
  return std::get<Run>(std::move(o));
}

const std::string kHead = "t1,t2,t3,t4\n";
const std::string kNoHeader = "in.csv: no column header row (expected e.g. 't1,t2,t3,t4')";

}  // namespace

TEST_CASE("hostile: files without a table") {
  CHECK(hostile_error_of("") == "in.csv: empty file");
  CHECK(hostile_error_of("\n\n\n") == kNoHeader);
  CHECK(hostile_error_of("\r\n\r\n\r\n") == kNoHeader);
  CHECK(hostile_error_of("# a comment\n# quantum_ticks: 26\n#\n") == kNoHeader);
  CHECK(hostile_error_of("t1,t2,t3,t4") == "in.csv: no rounds after the column header row");
  CHECK(hostile_error_of("t1,t2,t3,t4\r\n\r\n# only a comment\r\n") == "in.csv: no rounds after the column header row");
}

TEST_CASE("hostile: rows whose fields do not fit the header") {
  CHECK(hostile_error_of(kHead + "1,2,3,4,\n") == "in.csv:2:9: more fields than the 4 columns of the header");
  CHECK(hostile_error_of(kHead + "1,2,3,4\n5,6,7\n") == "in.csv:3:6: found 3 fields, the header has 4");
  CHECK(hostile_error_of(kHead + ",,,\n") == "in.csv:2:1: empty field (expected an unsigned decimal number)");
  CHECK(hostile_error_of(kHead + "   \n") == "in.csv:2:1: empty field (expected an unsigned decimal number)");
  CHECK(hostile_error_of(kHead + "1,2,3,4\nt1,t2,t3,t4\n") == "in.csv:3:1: 't1' is not an unsigned decimal number");
  // Tab-separated header: a comma inside a field is part of the field.
  CHECK(hostile_error_of("t1\tt2\tt3\tt4\n1\t2,5\t3\t4\n") == "in.csv:2:3: '2,5' is not an unsigned decimal number");
}

TEST_CASE("hostile: fields that are not unsigned decimal numbers of 64 bits") {
  const std::string nan = " is not an unsigned decimal number";
  CHECK(hostile_error_of(kHead + "1,+5,3,4\n") == "in.csv:2:3: '+5'" + nan);
  CHECK(hostile_error_of(kHead + "-1,2,3,4\n") == "in.csv:2:1: '-1'" + nan);
  CHECK(hostile_error_of(kHead + "1,5 6,7,9\n") == "in.csv:2:3: '5 6'" + nan);
  CHECK(hostile_error_of(kHead + "1,\t5,7,9\n") == "in.csv:2:3: '\\x095'" + nan);
  CHECK(hostile_error_of(kHead + "1,0x10,3,4\n") == "in.csv:2:3: '0x10'" + nan);
  CHECK(hostile_error_of(kHead + "1,2,3,1e3\n") == "in.csv:2:7: '1e3'" + nan);
  CHECK(hostile_error_of(kHead + "1,2,3,4.0\n") == "in.csv:2:7: '4.0'" + nan);
  CHECK(hostile_error_of(kHead + "1,abc,3,4\n") == "in.csv:2:3: 'abc'" + nan);
  CHECK(hostile_error_of(kHead + "1,2"s + '\0' + "3,3,4\n") == "in.csv:2:3: '2\\x003'" + nan);
  CHECK(hostile_error_of(kHead + "1,2,3,18446744073709551616\n") == "in.csv:2:7: '18446744073709551616' is beyond 64 bits");
  CHECK(hostile_error_of(kHead + "1,123456789012345678901234567890,3,4\n") ==
        "in.csv:2:3: '123456789012345678901234567890' is beyond 64 bits");
  CHECK(hostile_error_of(kHead + "1," + std::string(50, '9') + ",3,4\n") ==
        "in.csv:2:3: '" + std::string(40, '9') + "...' is beyond 64 bits");
  // Spaces around a field are trimmed (", " separators); 2^64 - 1 is the largest tick.
  CHECK(ok(kHead + " 1 , 5 ,7,  9\n").rounds == ok(kHead + "1,5,7,9\n").rounds);
  const Run max = ok(kHead + "18446744073709551615,18446744073709551615,18446744073709551615,18446744073709551615\n");
  CHECK(max.rounds.at(0) == Round{0, ~0ull, ~0ull, ~0ull, ~0ull, 0});
}

TEST_CASE("hostile: a byte order mark is accepted on line 1 and CRLF gives what LF gives") {
  const std::string lf = "# quantum_ticks: 26\nseq,t1,t2,t3,t4\n0,100,150,160,210\n1,300,350,360,410\n";
  std::string crlf;
  for (char c : lf) crlf += c == '\n' ? "\r\n"s : std::string(1, c);
  const Run plain = ok(lf);
  for (const std::string& text : {"\xEF\xBB\xBF" + lf, crlf, "\xEF\xBB\xBF" + crlf}) {
    const Run r = ok(text);
    CHECK(r.rounds == plain.rounds);
    CHECK(r.header.entries() == plain.header.entries());
  }
  CHECK(*plain.header.get("quantum_ticks") == "26");  // the mark does not hide the first key
  // A mark anywhere else is data.
  CHECK(hostile_error_of("# x\n\xEF\xBB\xBFt1,t2,t3,t4\n1,2,3,4\n") ==
        "in.csv:2:1: the column header lacks required column 't1'");
  CHECK(hostile_error_of(kHead + "\xEF\xBB\xBF"
                         "1,2,3,4\n") == "in.csv:2:1: '\\xef\\xbb\\xbf1' is not an unsigned decimal number");
}

TEST_CASE("hostile: a lone carriage return is refused at its column") {
  const std::string msg = ": a carriage return (\\r) inside the line (line ends must be LF or CRLF)";
  CHECK(hostile_error_of(kHead + "1,2\r,3,4\n") == "in.csv:2:4" + msg);
  CHECK(hostile_error_of("t1,t2,t3,t4\r1,2,3,4\r5,6,7,8\r") == "in.csv:1:12" + msg);  // old Mac line ends
}

TEST_CASE("hostile: binary input is refused at the header row or as an endless line") {
  const std::string not_text = " is not text (a binary or compressed file?)";
  CHECK(hostile_error_of("\0\0\0\n"s) == "in.csv:1:1: byte \\x00" + not_text);
  // A gzip member header (magic, deflate, no flags, mtime 0, OS unix) and some data.
  CHECK(hostile_error_of("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03+I-.\x01\x00\n"s) == "in.csv:1:1: byte \\x1f" + not_text);
  CHECK(hostile_error_of("t1,t2,t3,t4\x7f\n") == "in.csv:1:12: byte \\x7f" + not_text);
  // A CR in binary data: the first control byte is named, not the CR.
  CHECK(hostile_error_of("\x1f\x8b\x08\r\n"s) == "in.csv:1:1: byte \\x1f" + not_text);
  CHECK(hostile_error_of(kHead + "1,2,3,4\n5,\x01,\r,\n") == "in.csv:3:3: byte \\x01" + not_text);
  CHECK(hostile_error_of(std::string(kMaxLineBytes + 10, '\0')) ==
        "in.csv:1:65537: line longer than 65536 bytes (not a text table, or a line end is missing)");
}

TEST_CASE("hostile: seeded random bytes are refused with a place and the same whole and in chunks") {
  std::mt19937_64 rng(20261122);
  for (int trial = 0; trial < 200; ++trial) {
    std::string text(rng() % 3000, '\0');
    for (char& c : text) c = static_cast<char>(rng());
    INFO("trial " << trial << ", " << text.size() << " bytes");
    const Outcome o = outcome(text);
    REQUIRE(std::holds_alternative<std::string>(o));
    CHECK_THAT(std::get<std::string>(o), Catch::Matchers::Matches("in\\.csv(:[0-9]+:[0-9]+)?: .+"));
  }
}

TEST_CASE("hostile: seeded random tables are read the same whole and in chunks") {
  // Whole tables (counters forward within each round), then 0 to 3 bytes replaced,
  // inserted or dropped, from the bytes a table is made of and the ones that break it:
  // every mix gives the same rounds or the same message both ways, never anything else.
  const std::string alphabet = "0123456789,\n\r \t+-x#:\0\xEF\xBB\xBF"s;
  std::mt19937_64 rng(7);
  int read = 0, refused = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const bool with_seq = trial % 2 == 1;
    std::string text = with_seq ? "seq,t1,t2,t3,t4,flags\n" : kHead;
    const std::size_t rows = 1 + rng() % 20;
    for (std::size_t i = 0; i < rows; ++i) {
      const std::uint64_t t1 = rng() % 100000, t2 = rng() % 100000, t3 = t2 + rng() % 100, t4 = t1 + rng() % 1000;
      if (with_seq) text += std::to_string(i) + ",";
      text += std::to_string(t1) + "," + std::to_string(t2) + "," + std::to_string(t3) + "," + std::to_string(t4);
      text += with_seq ? ",0\n" : "\n";
    }
    for (std::uint64_t m = rng() % 4; m > 0; --m) {
      const std::size_t at = rng() % text.size();
      const char c = alphabet[rng() % alphabet.size()];
      switch (rng() % 3) {
        case 0: text[at] = c; break;
        case 1: text.insert(at, 1, c); break;
        default: text.erase(at, 1); break;
      }
    }
    INFO("trial " << trial << ": '" << printable(text.substr(0, 40)) << "'");
    const bool whole = std::holds_alternative<Run>(outcome(text));
    read += whole ? 1 : 0;
    refused += whole ? 0 : 1;
  }
  CHECK(read > 0);  // both kinds occur: the comparison is not vacuous
  CHECK(refused > 0);
}

TEST_CASE("hostile: a line over 64 KiB is refused with its number and the stream reads little of it") {
  const std::string too_long =
      "in.csv:3:65537: line longer than 65536 bytes (not a text table, or a line end is missing)";
  CHECK(hostile_error_of(kHead + "1,2,3,4\n" + std::string(std::size_t{1} << 20, '7') + "\n") == too_long);
  CHECK(hostile_error_of(kHead + "1,2,3,4\n# key: " + std::string(kMaxLineBytes, 'v') + "\n") == too_long);
  // 100 MB in one line, generated as it is read: the reader stops near the limit.
  constexpr std::size_t kLineBytes = std::size_t{100} << 20;
  const std::string head = kHead + "1,2,3,4\n";
  for (std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{4096}}) {
    INFO("chunk " << chunk);
    test::GeneratedStream stream(head, '7', kLineBytes);
    CHECK_THROWS_WITH(read_run_stream(stream.get(), "in.csv", chunk, 0), too_long);
    CHECK(stream.bytes_read() <= head.size() + kMaxLineBytes + 4 + chunk);
  }
}

TEST_CASE("hostile: a counter that runs backwards within a round is kept, in imports as in our runs") {
  // Evidence, not malformed text: the analysis counts such rounds (counter_backwards).
  CHECK(ok(kHead + "100,150,160,90\n").rounds.at(0) == Round{0, 100, 150, 160, 90});
  CHECK(ok(kHead + "100,150,140,300\n").rounds.at(0) == Round{0, 100, 150, 140, 300});
  CHECK(ok("t4,t3,t2,t1\n90,140,150,100\n").rounds.at(0) == Round{0, 100, 150, 140, 90});
  CHECK(ok(kHead + "18446744073709551606,18446744073709551610,3,5\n").rounds.size() == 1);
  CHECK(ok(kHead + "5,6,7,18446744073709551615\n").rounds.at(0).t4 == 18446744073709551615ULL);
  // Equal reads, rounds out of time order across rows: accepted, in file order.
  const Run shuffled = ok(kHead + "500,550,550,500\n100,150,160,210\n");
  CHECK(shuffled.rounds == std::vector<Round>{Round{0, 500, 550, 550, 500}, Round{1, 100, 150, 160, 210}});
  const Run own = ok("# schema: tscaudit-run/1\nseq,t1,t2,t3,t4,flags\n0,100,150,140,90,0\n");
  CHECK(own.rounds.at(0) == Round{0, 100, 150, 140, 90, 0});
  // The line between the two: a malformed field in such a round is still refused.
  CHECK(hostile_error_of(kHead + "100,150,-140,90\n").rfind("in.csv:2:9: ", 0) == 0);
}

TEST_CASE("hostile: seq may go backwards but not repeat") {
  const std::string head = "t1,seq,t2,t3,t4\n";
  CHECK(hostile_error_of(head + "10,0,20,30,40\n10,0,20,30,40\n") ==
        "in.csv:3:4: seq 0 repeats the seq of line 2 (two rows cannot be the same round)");
  const Run backwards = ok(head + "10,2,20,30,40\n10,1,20,30,40\n10,0,20,30,40\n");
  CHECK(backwards.rounds.at(0).seq == 2);
  CHECK(backwards.rounds.at(2).seq == 0);
  // Out of order, with comments and blank lines between: the line and column of the repeat.
  CHECK(hostile_error_of(head + "10,5,20,30,40\n10,3,20,30,40\n# c\n\n10,4,20,30,40\n1000,3,1001,1002,1003\n10,5,20,30,40\n") ==
        "in.csv:7:6: seq 3 repeats the seq of line 3 (two rows cannot be the same round)");
  // The first repeat in file order, not the smallest repeated seq.
  CHECK(hostile_error_of(head + "10,9,20,30,40\n10,1,20,30,40\n10,9,20,30,40\n10,1,20,30,40\n") ==
        "in.csv:4:4: seq 9 repeats the seq of line 2 (two rows cannot be the same round)");
}

TEST_CASE("hostile: metadata") {
  // Checked numbers, at the column of the value: each line above the header of one round.
  test::check_messages(
      [](const std::string& line) { return hostile_error_of(line + "\n" + kHead + "1,2,3,4\n"); },
      {
          {"# quantum_ticks: abc", "in.csv:1:18: quantum_ticks: 'abc' is not an unsigned decimal number"},
          {"# quantum_ticks:   0", "in.csv:1:20: quantum_ticks 0 is out of range [1, 1000000000]"},
          {"# quantum_ticks:", "in.csv:1:17: quantum_ticks: empty field (expected an unsigned decimal number)"},
          {"# quantum_ticks: 9223372036854775807",
           "in.csv:1:18: quantum_ticks 9223372036854775807 is out of range [1, 1000000000]"},
          {"# tsc_hz: 2.3e9", "in.csv:1:11: tsc_hz: '2.3e9' is not an unsigned decimal number"},
          {"# tsc_hz: 1000000000001", "in.csv:1:11: tsc_hz 1000000000001 is out of range [0, 1000000000000]"},
      });
  CHECK(*ok("# tsc_hz: 0\n" + kHead + "1,2,3,4\n").header.get("tsc_hz") == "0");  // unknown, as measure writes it
  // A large value within the line limit is kept whole; a repeated key keeps the last.
  const std::string big(60000, 'v');
  const Run r = ok("# note: " + big + "\n# a: 1\n# a: 2\n" + kHead + "1,2,3,4\n");
  CHECK(r.header.get("note")->size() == 60000);
  CHECK(*r.header.get("a") == "2");
  // At most kMaxMetadataKeys distinct keys per section.
  std::string many;
  for (std::size_t i = 0; i < kMaxMetadataKeys; ++i) many += "# k" + std::to_string(i) + ": v\n";
  CHECK(ok(many + kHead + "1,2,3,4\n").header.entries().size() == kMaxMetadataKeys);
  CHECK(ok(many + "# k0: again\n" + kHead + "1,2,3,4\n").header.entries().size() == kMaxMetadataKeys);
  CHECK(hostile_error_of(many + "# one_more: v\n" + kHead + "1,2,3,4\n") ==
        "in.csv:1001:1: more than 1000 metadata keys in the header");
  CHECK(hostile_error_of(kHead + "1,2,3,4\n" + many + "# one_more: v\n") ==
        "in.csv:1003:1: more than 1000 metadata keys in the trailer");
  // A status line before the rounds is header metadata: the run is still not complete.
  const Run early = ok("# schema: tscaudit-run/1\n# status: complete\n" + kHead + "1,2,3,4\n");
  CHECK(incomplete_reason(early) ==
        std::optional<std::string>("no '# status:' line after the rounds: the file was cut short"));
  CHECK(hostile_error_of("# schema: \x1b[2J\n" + kHead + "1,2,3,4\n") ==
        "in.csv: unknown schema '\\x1b[2J' (this version reads tscaudit-run/1)");
}

TEST_CASE("hostile: a header with 10000 columns") {
  std::string header = "t1,t2,t3,t4";
  std::string row = "1,2,3,4";
  for (int i = 4; i < 10000; ++i) {
    header += ",c" + std::to_string(i);
    row += ",x";
  }
  const Run r = ok(header + "\n" + row + "\n" + row + "\n");
  CHECK(r.rounds.size() == 2);
  CHECK(hostile_error_of(header + "\n" + row + ",y\n") ==
        "in.csv:2:" + std::to_string(row.size() + 2) + ": more fields than the 10000 columns of the header");
  const std::string short_row = row.substr(0, row.size() - 2);
  CHECK(hostile_error_of(header + "\n" + short_row + "\n") ==
        "in.csv:2:" + std::to_string(short_row.size() + 1) + ": found 9999 fields, the header has 10000");
}

TEST_CASE("hostile: pair and variant columns stay constant and agree with the metadata") {
  test::check_messages(
      hostile_error_of, {
                    {"a,t1,t2,t3,t4\n0,1,2,3,4\n00,5,6,7,8\n",
                     "in.csv:3:1: a '00' differs from '0' earlier (one run holds one pair)"},
                    {"a,t1,t2,t3,t4\n0,1,2,3,4\nx,5,6,7,8\n", "in.csv:3:1: 'x' is not an unsigned decimal number"},
                    {"# send: rdtsc\nsend,t1,t2,t3,t4\nrdtscp,1,2,3,4\n",
                     "in.csv:3:1: send 'rdtscp' differs from 'rdtsc' earlier (one run holds one pair)"},
                    {"recv,t1,t2,t3,t4\nrdtscp,1,2,3,4\n\x1b[2J,5,6,7,8\n",
                     "in.csv:3:1: recv '\\x1b[2J' differs from 'rdtscp' earlier (one run holds one pair)"},
                });
  const Run r = ok("b,recv,t1,t2,t3,t4\n1,rdtscp,1,2,3,4\n1,rdtscp,5,6,7,8\n");
  CHECK(*r.header.get("b") == "1");
  CHECK(*r.header.get("recv") == "rdtscp");
}

TEST_CASE("hostile: a last line without its end") {
  // Our own runs end every line: a last line without one was cut, even when it parses.
  const Run own = ok("# schema: tscaudit-run/1\nseq,t1,t2,t3,t4,flags\n0,100,150,160,210,0\n1,300,350,360,41");
  CHECK(own.rounds.size() == 1);
  CHECK(own.cut_line == 4);
  // Imports often lack the last line end: a whole round is kept.
  const Run import = ok(kHead + "1,2,3,4\n5,6,7,8");
  CHECK(import.rounds.size() == 2);
  CHECK(import.cut_line == 0);
}

TEST_CASE("hostile: a sparse file of a terabyte reserves nothing for it") {
  // Its size promises 16e9 rounds; its blocks hold a few bytes and the rest reads as zeros.
  namespace fs = std::filesystem;
  const fs::path path = fs::temp_directory_path() / ("tscaudit-sparse-" + std::to_string(::getpid()) + ".csv");
  const int fd = ::open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0600);
  REQUIRE(fd >= 0);
  const std::string text = kHead + "1,2,3,4\n";
  REQUIRE(::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
  const bool sparse = ::ftruncate(fd, off_t{1} << 40) == 0;
  ::close(fd);
  if (!sparse) {
    fs::remove(path);
    return test::skip_test("the temporary directory's file system refuses a 1 TB sparse file");
  }
  CHECK_THROWS_WITH(
      read_run_file(path.string()),
      path.string() + ":3:65537: line longer than 65536 bytes (not a text table, or a line end is missing)");
  fs::remove(path);
}
