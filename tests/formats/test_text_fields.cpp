// The field parsers and metadata helpers shared by the text readers: exact results for
// every kind of field a hostile or careless file holds.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "core/lines.hpp"
#include "formats/text_fields.hpp"

using namespace tscaudit;
using namespace std::string_literals;

namespace {

std::pair<FieldProblem, std::uint64_t> u64(std::string_view field) {
  std::uint64_t v = 12345;  // left alone unless the field is a number
  const FieldProblem p = parse_u64_field(field, v);
  return {p, v};
}

std::pair<FieldProblem, std::int64_t> i64(std::string_view field) {
  std::int64_t v = 12345;
  const FieldProblem p = parse_i64_field(field, v);
  return {p, v};
}

}  // namespace

TEST_CASE("text_fields: unsigned fields are plain decimal digits of at most 64 bits") {
  using P = FieldProblem;
  CHECK(u64("0") == std::pair{P::ok, std::uint64_t{0}});
  CHECK(u64("007") == std::pair{P::ok, std::uint64_t{7}});  // leading zeros are still decimal
  CHECK(u64("18446744073709551615") == std::pair{P::ok, std::numeric_limits<std::uint64_t>::max()});
  CHECK(u64("18446744073709551616").first == P::out_of_range);  // 2^64
  CHECK(u64("123456789012345678901234567890").first == P::out_of_range);
  CHECK(u64("00000000000000000000000000000018446744073709551615").first == P::ok);
  CHECK(u64("") == std::pair{P::empty, std::uint64_t{12345}});
  for (const std::string& bad :
       {"x"s, "5x"s, "+5"s, "-5"s, "-0"s, " 5"s, "5 "s, "5 6"s, "\t5"s, "0x10"s, "1e3"s, "1.5"s, "1,5"s, "5\0"s, "\0"s,
        "2\x00"s
        "3"s,
        "\xef\xbc\x95"s /* fullwidth 5 */, "\xff"s}) {
    INFO("field '" << printable(bad) << "'");
    CHECK(u64(bad) == std::pair{P::not_a_number, std::uint64_t{12345}});
  }
}

TEST_CASE("text_fields: signed fields take one leading minus") {
  using P = FieldProblem;
  CHECK(i64("-9223372036854775808") == std::pair{P::ok, std::numeric_limits<std::int64_t>::min()});
  CHECK(i64("9223372036854775807") == std::pair{P::ok, std::numeric_limits<std::int64_t>::max()});
  CHECK(i64("-0") == std::pair{P::ok, std::int64_t{0}});
  CHECK(i64("-9223372036854775809").first == P::out_of_range);
  CHECK(i64("9223372036854775808").first == P::out_of_range);
  CHECK(i64("").first == P::empty);
  for (const std::string& bad : {"-"s, "+1"s, "--1"s, "- 1"s, "1-"s, "0x1"s, "1.0"s}) {
    INFO("field '" << bad << "'");
    CHECK(i64(bad) == std::pair{P::not_a_number, std::int64_t{12345}});
  }
}

TEST_CASE("text_fields: messages quote the field printably") {
  CHECK(field_problem_message(FieldProblem::empty, "", "an unsigned decimal number") ==
        "empty field (expected an unsigned decimal number)");
  CHECK(field_problem_message(FieldProblem::not_a_number, "+5", "an unsigned decimal number") ==
        "'+5' is not an unsigned decimal number");
  CHECK(field_problem_message(FieldProblem::out_of_range, "18446744073709551616", "an unsigned decimal number") ==
        "'18446744073709551616' is beyond 64 bits");
  CHECK(field_problem_message(FieldProblem::not_a_number,
                              "2\x00"s
                              "3\x1b[2J",
                              "a signed decimal number") == "'2\\x003\\x1b[2J' is not a signed decimal number");
}

TEST_CASE("printable ASCII is 0x20 to 0x7e, and every other byte is escaped in lowercase hex") {
  std::string printable_bytes, escaped;
  for (int b = 0; b < 256; ++b) {
    const char c = static_cast<char>(b);
    if (is_printable_byte(c)) printable_bytes += c;
  }
  CHECK(printable_bytes.size() == 95);
  CHECK(printable_bytes.front() == ' ');
  CHECK(printable_bytes.back() == '~');
  CHECK(all_printable(printable_bytes));
  CHECK(all_printable(""));
  CHECK_FALSE(all_printable("ok\x7f"));
  CHECK_FALSE(all_printable("\xc3\xa9"));  // UTF-8 too
  for (const char c : {'\0', '\n', '\x1b', '\x7f', '\x80', '\xab', '\xff'}) append_hex_escape(escaped, c);
  CHECK(escaped == "\\x00\\x0a\\x1b\\x7f\\x80\\xab\\xff");
}

TEST_CASE("text_fields: printable escapes every byte outside printable ASCII and cuts at 40") {
  CHECK(printable("abc ~") == "abc ~");
  CHECK(printable("\t\r\n\x7f\x80\xff"s + '\0') == "\\x09\\x0d\\x0a\\x7f\\x80\\xff\\x00");
  CHECK(printable(std::string(40, '9')) == std::string(40, '9'));
  CHECK(printable(std::string(41, '9')) == "9999999999999999999999999999999999999999...");
  CHECK(printable(std::string(100000, '\xff')).size() == 40 * 4 + 3);
}

TEST_CASE("trim takes the characters given off both ends, and nothing inside") {
  CHECK(trim("  5 ", " ") == "5");
  CHECK(trim("   ", " ").empty());
  CHECK(trim("", " ").empty());
  CHECK(trim("\t5\t", " ") == "\t5\t");  // the readers of runs trim spaces only
  CHECK(trim("5 6", " ") == "5 6");
  CHECK(trim(" \t\r\n5 6\n\r\t ", " \t\r\n") == "5 6");  // /proc and /sys: their blanks
  static_assert(trim(" x ", " ") == "x");
  CHECK(trim_end(" 5 \r\n", " \r\n") == " 5");  // what gnuplot said, its line end off
  CHECK(trim_end("\n\n", "\n").empty());
}

TEST_CASE("text_fields: metadata lines are '# key: value' with a key of [a-z0-9_]") {
  using KV = std::optional<std::pair<std::string, std::string>>;
  CHECK(parse_metadata_line("# tsc_hz: 2300000000") == KV{{"tsc_hz", "2300000000"}});
  CHECK(parse_metadata_line("# a:0") == KV{{"a", "0"}});
  CHECK(parse_metadata_line("# note:   two  words  ") == KV{{"note", "two  words"}});
  CHECK(parse_metadata_line("# empty:") == KV{{"empty", ""}});
  CHECK(parse_metadata_line("# url: http://x:80/") == KV{{"url", "http://x:80/"}});
  for (const std::string& not_meta : {"#key: v"s, "# Key: v"s, "# key v"s, "# : v"s, "#"s, "# "s, "# key-x: v"s,
                                      "# key :v"s, " # key: v"s, "## key: v"s}) {
    INFO("line '" << not_meta << "'");
    CHECK(parse_metadata_line(not_meta) == std::nullopt);
  }
}

TEST_CASE("text_fields: a written metadata value never ends its line") {
  std::string out;
  append_metadata_line(out, "command", "a\nb\r\nc");
  CHECK(out == "# command: a b  c\n");
  CHECK(parse_metadata_line(std::string_view(out).substr(0, out.size() - 1)) ==
        std::optional<std::pair<std::string, std::string>>{{"command", "a b  c"}});
}
