// The line splitter shared by the text readers: line ends, the byte order mark, lone
// carriage returns and the line limit, the same from a string and from a stream read in
// chunks of any size; and the stream reader's memory bound on a line without end.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>
#include <variant>
#include <vector>

#include "core/errors.hpp"
#include "formats/text_lines.hpp"
#include "stream_source.hpp"

using namespace tscaudit;

namespace {

struct Line {
  std::string text;
  std::size_t line_no;
  bool terminated;
  friend bool operator==(const Line&, const Line&) = default;
};

/// The lines of `text` through the string reader, or the error.
std::variant<std::vector<Line>, std::string> split(std::string_view text) {
  std::vector<Line> lines;
  try {
    for_each_line(text, "in", [&](std::string_view l, std::size_t n, bool t) {
      lines.push_back({std::string(l), n, t});
    });
  } catch (const InputError& e) {
    return std::string(e.what());
  }
  return lines;
}

/// The same through the stream reader, `chunk` bytes at a time.
std::variant<std::vector<Line>, std::string> split_stream(const std::string& text, std::size_t chunk) {
  test::TextFile file(text);
  std::vector<Line> lines;
  try {
    const std::size_t bytes = for_each_line(file.get(), "in", chunk, [&](std::string_view l, std::size_t n, bool t) {
      lines.push_back({std::string(l), n, t});
    });
    CHECK(bytes == text.size());
  } catch (const InputError& e) {
    return std::string(e.what());
  }
  return lines;
}

/// What both readers give for `text`, checked equal for chunk sizes 1, 2, 7 and 4096.
std::variant<std::vector<Line>, std::string> lines_of(const std::string& text) {
  const auto whole = split(text);
  for (std::size_t chunk : {std::size_t{1}, std::size_t{2}, std::size_t{7}, std::size_t{4096}}) {
    INFO("chunk " << chunk);
    CHECK(split_stream(text, chunk) == whole);
  }
  return whole;
}

std::string lines_error_of(const std::string& text) {
  const auto got = lines_of(text);
  return std::holds_alternative<std::string>(got) ? std::get<std::string>(got) : "(no error)";
}

std::vector<Line> ok(const std::string& text) {
  const auto got = lines_of(text);
  INFO((std::holds_alternative<std::string>(got) ? std::get<std::string>(got) : ""));
  REQUIRE(std::holds_alternative<std::vector<Line>>(got));
  return std::get<std::vector<Line>>(got);
}

}  // namespace

TEST_CASE("text_lines: LF and CRLF ends give the same lines and the last may lack its end") {
  const std::vector<Line> expected = {{"a,b", 1, true}, {"", 2, true}, {"1,2", 3, false}};
  CHECK(ok("a,b\n\n1,2") == expected);
  CHECK(ok("a,b\r\n\r\n1,2") == expected);
  CHECK(ok("a,b\r\n\n1,2\r") == expected);  // a CR before the end of the text ends the last line too
  CHECK(ok("").empty());
  CHECK(ok("\n") == std::vector<Line>{{"", 1, true}});
  CHECK(ok("\r\n\r\n") == std::vector<Line>{{"", 1, true}, {"", 2, true}});
}

TEST_CASE("text_lines: a byte order mark is dropped at the start of the text only") {
  const std::string bom(kUtf8Bom);
  CHECK(ok(bom + "t1,t2\r\n1,2\r\n") == std::vector<Line>{{"t1,t2", 1, true}, {"1,2", 2, true}});
  CHECK(ok(bom) == std::vector<Line>{{"", 1, false}});
  CHECK(ok(bom + "\n" + bom + "x\n") == std::vector<Line>{{"", 1, true}, {bom + "x", 2, true}});
  CHECK(ok("\xEF\xBBx\n") == std::vector<Line>{{"\xEF\xBBx", 1, true}});  // half a mark is data
}

TEST_CASE("text_lines: a carriage return inside a line is refused at its column") {
  CHECK(lines_error_of("t1,t2\n1,2\r3,4\n") ==
        "in:2:4: a carriage return (\\r) inside the line (line ends must be LF or CRLF)");
  CHECK(lines_error_of("a\rb\rc\r") == "in:1:2: a carriage return (\\r) inside the line (line ends must be LF or CRLF)");
  CHECK(lines_error_of("x\r\r\n") == "in:1:2: a carriage return (\\r) inside the line (line ends must be LF or CRLF)");
  CHECK(lines_error_of("a\x01"
                 "b\rc\n") == "in:1:2: byte \\x01 is not text (a binary or compressed file?)");
  CHECK(lines_error_of("a\rb\x01"
                 "c\n") == "in:1:2: a carriage return (\\r) inside the line (line ends must be LF or CRLF)");
  CHECK(lines_error_of("# comment\r here\n") ==
        "in:1:10: a carriage return (\\r) inside the line (line ends must be LF or CRLF)");
}

TEST_CASE("text_lines: a line over kMaxLineBytes is refused with its number whatever the chunks") {
  const std::string full(kMaxLineBytes, 'x');
  const std::string bom(kUtf8Bom);
  const std::string too_long = "in:2:65537: line longer than 65536 bytes (not a text table, or a line end is missing)";
  // At the limit: accepted, with LF, with CRLF, unterminated, and after a mark on line 1.
  CHECK(ok("h\n" + full + "\n").at(1).text.size() == kMaxLineBytes);
  CHECK(ok("h\n" + full + "\r\n").at(1).text.size() == kMaxLineBytes);
  CHECK(ok("h\n" + full).at(1).text.size() == kMaxLineBytes);
  CHECK(ok(bom + full + "\r\n").at(0).text.size() == kMaxLineBytes);
  // One byte over: refused, however the line ends.
  CHECK(lines_error_of("h\n" + full + "y\n") == too_long);
  CHECK(lines_error_of("h\n" + full + "y\r\n") == too_long);
  CHECK(lines_error_of("h\n" + full + "y") == too_long);
  CHECK(lines_error_of("h\n" + full + "yyyyyyyyyyyy") == too_long);
  CHECK(lines_error_of(full + "y\n").rfind("in:1:65537: ", 0) == 0);
  CHECK(lines_error_of(bom + full + "y\n").rfind("in:1:65537: ", 0) == 0);
}

TEST_CASE("text_lines: the stream reader stops inside a 100 MB line after about 64 KiB") {
  // A generated stream: a short line, then 100 MB without a line end. Were the line
  // buffered whole, the reader would read all of it (and hold it).
  constexpr std::size_t kLineBytes = std::size_t{100} << 20;
  for (std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{4096}, kReadChunkBytes}) {
    INFO("chunk " << chunk);
    test::GeneratedStream stream("t1,t2,t3,t4\n", 'x', kLineBytes);
    std::size_t lines = 0;
    CHECK_THROWS_WITH(for_each_line(stream.get(), "gen", chunk, [&](std::string_view, std::size_t, bool) { ++lines; }),
                      "gen:2:65537: line longer than 65536 bytes (not a text table, or a line end is missing)");
    CHECK(lines == 1);
    // One chunk past the limit at most (the stream itself is unbuffered).
    CHECK(stream.bytes_read() <= 12 + kMaxLineBytes + 4 + chunk);
  }
}
