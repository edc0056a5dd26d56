#include <catch2/catch.hpp>

#include <clocale>
#include <cstdio>
#include <locale>
#include <random>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/errors.hpp"
#include "core/format.hpp"
#include "error_messages.hpp"
#include "formats/run_format.hpp"
#include "run_text.hpp"
#include "stream_source.hpp"

using namespace tscaudit;

namespace {

Run sample_run(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Run run;
  const std::vector<std::pair<std::string, std::string>> header = {
      {"schema", std::string(kRunSchema)},
      {"a", "0"},
      {"b", "1"},
      {"send", "rdtsc"},
      {"recv", "lfence_rdtsc"},
      {"command", "tscaudit measure --cpus 0,1 --out 'a b.csv'"}};
  for (const auto& [key, value] : header) run.header.set(key, value);
  std::uint64_t t = 0xFFFFFFFF00000000ull;  // large values: no shortcut through 32 bits
  for (std::size_t i = 0; i < n; ++i) {
    t += 200 + rng() % 5000;
    const std::uint64_t t1 = t;
    const std::uint64_t t2 = t1 + rng() % 400 - 100;  // may be below t1 (negative fwd)
    const std::uint64_t t3 = t2 + rng() % 100;
    const std::uint64_t t4 = t3 + rng() % 400;
    run.rounds.push_back(Round{i, t1, t2, t3, t4, static_cast<std::uint32_t>(rng() % 16)});
  }
  run.rounds.back().t4 = ~0ull;  // the largest 64-bit value round-trips
  run.trailer.set("rounds_written", std::to_string(n));
  run.trailer.set("status", "complete");
  return run;
}

std::string to_text(const Run& run) { return test::run_text(run); }

std::string run_error_of(std::string_view text) {
  return test::what_thrown<InputError>([&] { parse_run(text, "in.csv"); });
}

}  // namespace

TEST_CASE("a run round-trips exactly through the text format") {
  const Run run = sample_run(3000, 42);  // more than one 1 MiB flush is not needed: 3000 lines
  test::check_round_trip(run);
}

namespace {

/// The result of reading `text` through a file, `chunk` bytes at a time, or the error.
std::variant<Run, std::string> read_chunked(const std::string& text, std::size_t chunk) {
  return test::read_or_error(text, [&](std::FILE* f) { return read_run_stream(f, "in.csv", chunk, text.size()); });
}

}  // namespace

TEST_CASE("a file read in chunks gives what the whole text gives, whatever the chunk size") {
  const std::string crlf = test::with_crlf(to_text(sample_run(300, 5)));
  const std::string whole = to_text(sample_run(300, 4));
  const std::string cut = whole.substr(0, whole.size() / 2 + 7);  // ends inside a round
  const std::string bad = "t1,t2,t3,t4\n1,2,3,4\n5,6,x,8\n";
  test::check_chunked_reading<Run>(
      {whole, crlf, cut}, {1, 2, 7, 64, 4096, std::size_t{1} << 22},
      [](const std::string& text) { return parse_run(text, "in.csv"); }, read_chunked, &Run::rounds);
  CHECK(parse_run(cut, "in.csv").cut_line != 0);  // the cut really fell inside a round
  for (std::size_t chunk : {std::size_t{1}, std::size_t{5}, std::size_t{4096}}) {
    CHECK(std::get<std::string>(read_chunked(bad, chunk)) == "in.csv:3:5: 'x' is not an unsigned decimal number");
  }
  CHECK(std::get<std::string>(read_chunked("", 16)) == "in.csv: empty file");
}

TEST_CASE("the written text has the documented shape") {
  Run run;
  run.header.set("a", "2");
  run.rounds.push_back(Round{0, 10, 20, 30, 40, 0});
  run.rounds.push_back(Round{1, 50, 60, 70, 80, 9});
  run.trailer.set("status", "complete");
  CHECK(to_text(run) ==
        "# schema: tscaudit-run/1\n"
        "# a: 2\n"
        "seq,t1,t2,t3,t4,flags\n"
        "0,10,20,30,40,0\n"
        "1,50,60,70,80,9\n"
        "# status: complete\n");
}

TEST_CASE("a metadata value cannot break out of its line") {
  Run run;
  run.header.set("command", "evil\nseq,t1,t2,t3,t4\n1,2,3,4,5");
  run.rounds.push_back(Round{0, 10, 20, 30, 40, 0});
  const Run back = parse_run(to_text(run), "mem");
  CHECK(back.rounds.size() == 1);
  CHECK(*back.header.get("command") == "evil seq,t1,t2,t3,t4 1,2,3,4,5");
}

TEST_CASE("a file cut anywhere is never taken for a complete run") {
  const std::string text = to_text(sample_run(200, 7));
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t cut = rng() % (text.size() - 1);  // at least the last byte is missing
    const std::string_view part(text.data(), cut);
    bool complete = false;
    try {
      complete = !incomplete_reason(parse_run(part, "cut")).has_value();
    } catch (const InputError&) {
      complete = false;
    }
    INFO("cut at byte " << cut);
    CHECK_FALSE(complete);
  }
}

TEST_CASE("status lines explain an incomplete run") {
  Run run = sample_run(3, 1);
  run.trailer = Metadata{};
  CHECK(*incomplete_reason(run) == "no '# status:' line after the rounds: the file was cut short");
  run.trailer.set("error", "CPU 1 stopped answering");
  run.trailer.set("status", "aborted");
  CHECK(*incomplete_reason(run) == "status is 'aborted': CPU 1 stopped answering");
}

TEST_CASE("imports: tab-separated, CRLF, extra columns, comments, pair columns") {
  const Run run = parse_run(
      "# exported by some tool\r\n"
      "# quantum_ticks: 26\r\n"
      "a\tb\tt1\tt2\tt3\tt4\tnote\r\n"
      "0\t1\t100\t150\t160\t210\tx\r\n"
      "\r\n"
      "0\t1\t300\t350\t360\t410\ty\r\n",
      "import.tsv");
  REQUIRE(run.rounds.size() == 2);
  CHECK(run.rounds[1] == Round{1, 300, 350, 360, 410, 0});
  CHECK(*run.header.get("quantum_ticks") == "26");
  CHECK(*run.header.get("a") == "0");
  CHECK(*run.header.get("b") == "1");
  CHECK_FALSE(incomplete_reason(run).has_value());  // an import carries no status line: it is not a run cut short
}

TEST_CASE("imports: complete unless they say otherwise or their last line was cut") {
  const std::string head = "# a: 0\n# b: 1\nt1,t2,t3,t4\n100,150,160,210\n";
  CHECK_FALSE(incomplete_reason(parse_run(head + "300,350,360,410\n# rounds: 2\n", "in.csv")).has_value());
  CHECK_FALSE(incomplete_reason(parse_run(head + "300,350,360,410", "in.csv")).has_value());  // a whole last round
  CHECK(incomplete_reason(parse_run(head + "300,350,36", "in.csv")) ==
        std::optional<std::string>("line 5 has no line end and is not a whole round: it is left out"));
  CHECK(incomplete_reason(parse_run(head + "# error: disk full\n# status: aborted\n", "in.csv")) ==
        std::optional<std::string>("status is 'aborted': disk full"));
  // The same table as a run file promises a status line: without it, it was cut short.
  CHECK(incomplete_reason(parse_run("# schema: tscaudit-run/1\n" + head, "run.csv")) ==
        std::optional<std::string>("no '# status:' line after the rounds: the file was cut short"));
}

TEST_CASE("malformed input names the line and the column") {
  test::check_messages(
      run_error_of,
      {
          {"t1,t2,t3\n1,2,3\n", "in.csv:1:1: the column header lacks required column 't4'"},
          {"t1,t2,t3,t4,t1\n", "in.csv:1:13: column 't1' appears twice"},
          {"t1,t2,t3,t4\n1,2,3\n", "in.csv:2:6: found 3 fields, the header has 4"},
          {"t1,t2,t3,t4\n1,2,3,4,5\n", "in.csv:2:9: more fields than the 4 columns of the header"},
          {"t1,t2,t3,t4\n1,2,x3,4\n", "in.csv:2:5: 'x3' is not an unsigned decimal number"},
          {"t1,t2,t3,t4\n1,2,-3,4\n", "in.csv:2:5: '-3' is not an unsigned decimal number"},
          {"t1,t2,t3,t4\n1,2,3.5,4\n", "in.csv:2:5: '3.5' is not an unsigned decimal number"},
          {"t1,t2,t3,t4\n1,,3,4\n", "in.csv:2:3: empty field (expected an unsigned decimal number)"},
          {"t1,t2,t3,t4\n1,2,3,18446744073709551616\n", "in.csv:2:7: '18446744073709551616' is beyond 64 bits"},
          {"t1,t2,t3,t4\n1,2,\x01\xff,4\n", "in.csv:2:5: '\\x01\\xff' is not an unsigned decimal number"},
          {"t1,t2,t3,t4\n1,2,3,4\n# status: complete\n5,6,7,8\n",
           "in.csv:4:1: a round after the trailer metadata (rounds must come before the closing '# key: value' lines)"},
          {"a,t1,t2,t3,t4\n0,1,2,3,4\n1,5,6,7,8\n",
           "in.csv:3:1: a '1' differs from '0' earlier (one run holds one pair)"},
          {"t1,t2,t3,t4,flags\n1,2,3,4,256\n", "in.csv:2:9: flags '256' beyond 8 bits (at most 255)"},
          {"seq,t1,t2,t3,t4\n72057594037927936,1,2,3,4\n", "in.csv:2:1: seq '72057594037927936' beyond 2^56 - 1"},
          {"# only comments\n", "in.csv: no column header row (expected e.g. 't1,t2,t3,t4')"},
          {"t1,t2,t3,t4\n", "in.csv: no rounds after the column header row"},
          {"# schema: tscaudit-run/9\nt1,t2,t3,t4\n1,2,3,4\n",
           "in.csv: unknown schema 'tscaudit-run/9' (this version reads tscaudit-run/1)"},
      });
}

namespace {
struct CommaDecimal : std::numpunct<char> {
  char do_decimal_point() const override { return ','; }
  char do_thousands_sep() const override { return '.'; }
  std::string do_grouping() const override { return "\3"; }
};
}  // namespace

TEST_CASE("output does not depend on the global locale") {
  const Run run = sample_run(50, 3);
  const std::string before = to_text(run);
  const std::string number_before = format_sig(2299.998, 7) + format_fixed(1234567.25, 2);
  const std::locale previous = std::locale::global(std::locale(std::locale::classic(), new CommaDecimal));
  std::setlocale(LC_ALL, "C.UTF-8");
  const std::string after = to_text(run);
  const std::string number_after = format_sig(2299.998, 7) + format_fixed(1234567.25, 2);
  const Run back = parse_run(after, "mem");
  std::locale::global(previous);
  std::setlocale(LC_ALL, "C");
  CHECK(after == before);
  CHECK(number_before == "2299.9981234567.25");
  CHECK(number_after == number_before);
  CHECK(back.rounds == run.rounds);
}
