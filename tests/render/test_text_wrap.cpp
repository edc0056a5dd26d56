// The one wrapping helper of every command's text output: exact strings.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "render/text_wrap.hpp"

using namespace tscaudit;

TEST_CASE("text_columns counts UTF-8 code points, not bytes", "[format]") {
  CHECK(text_columns("") == 0);
  CHECK(text_columns("abc") == 3);
  CHECK(text_columns("\u00b1218 ns") == 7);  // ± is two bytes, one column
  CHECK(text_columns("|\u03b8_ab|") == 6);   // θ too
}

TEST_CASE("wrap_words breaks long lines at spaces and keeps short ones whole", "[format]") {
  CHECK(wrap_words("short line\n", 20, "  ") == "short line\n");
  CHECK(wrap_words("aaa bbb ccc ddd", 7, "  ") == "aaa bbb\n  ccc\n  ddd");
  CHECK(wrap_words("aaa bbb ccc ddd\n", 11, "> ") == "aaa bbb ccc\n> ddd\n");
  // Inner runs of spaces in a line that fits stay; the one that breaks is dropped.
  CHECK(wrap_words("a  b", 4, "") == "a  b");
  CHECK(wrap_words("a  b", 3, "") == "a\nb");
  // A word longer than the width stays whole on its own line.
  CHECK(wrap_words("x /a/very/long/path y", 8, " ") == "x\n /a/very/long/path\n y");
  // Leading spaces of the line stay; each line of a text is wrapped alone.
  CHECK(wrap_words("  one two three\nfour five\n", 9, "    ") == "  one two\n    three\nfour five\n");
  // Columns, not bytes: "±1 ±2" is 5 columns (7 bytes) and fits in 5.
  CHECK(wrap_words("\u00b11 \u00b12", 5, "") == "\u00b11 \u00b12");
}

TEST_CASE("wrap_words for --help: never a line starting with an option's name", "[format]") {
  constexpr OptionBreak kHelp = OptionBreak::never_before_option;
  CHECK(wrap_words("", 10, "", kHelp).empty());
  CHECK(wrap_words("one two three", 9, "", kHelp) == "one two\nthree");
  CHECK(wrap_words("one two three", 13, "", kHelp) == "one two three");
  CHECK(wrap_words("a\nb c", 80, "", kHelp) == "a\nb c");
  CHECK(wrap_words("averyveryverylongword x", 5, "", kHelp) == "averyveryverylongword\nx");
  // "--budget" would start a line: the word before it goes along.
  CHECK(wrap_words("give a --budget", 10, "", kHelp) == "give\na --budget");
  CHECK(wrap_words("give a --budget", 10, "") == "give a\n--budget");  // other text: anywhere
  // Unless the two would not fit together, or the word before is the line's only one.
  CHECK(wrap_words("give a --budget", 8, "", kHelp) == "give a\n--budget");
  CHECK(wrap_words("give --budget", 10, "", kHelp) == "give\n--budget");
  // The continuation's indent counts: "  a --budget" is 12 columns.
  CHECK(wrap_words("give a --budget", 11, "  ", kHelp) == "give a\n  --budget");
  CHECK(wrap_words("give a --budget x", 12, "  ", kHelp) == "give\n  a --budget\n  x");
}

TEST_CASE("wrap_lines hangs a labelled line under its text, others two columns in", "[format]") {
  CHECK(wrap_lines("  stats     one two three four\n", 24) == "  stats     one two\n            three four\n");
  CHECK(wrap_lines("verdict: one two three\n", 14) == "verdict: one\n  two three\n");
  CHECK(wrap_lines("  a b c d e f\n", 7) == "  a b c\n    d e\n    f\n");
  // Nothing over the width: the text comes back byte for byte.
  const std::string table = "  pair    offset\n  0->1         0\n";
  CHECK(wrap_lines(table) == table);
  std::string long_line = "w";
  for (int i = 0; i < 60; ++i) long_line += " word";
  const std::string wrapped = wrap_lines(long_line);
  std::size_t start = 0, widest = 0, lines = 0;
  while (start <= wrapped.size()) {
    std::size_t end = wrapped.find('\n', start);
    if (end == std::string::npos) end = wrapped.size();
    widest = std::max(widest, end - start);
    ++lines;
    start = end + 1;
  }
  CHECK(widest <= kTextColumns);
  CHECK(lines == 4);  // 301 columns: "w" and 19 words, then 19 words a line after the indent
}

TEST_CASE("wrap_lines: a label of several words, at the start of the line", "[format]") {
  CHECK(wrap_lines("kernel tsc flags    a b c d\n", 25) == "kernel tsc flags    a b c\n                    d\n");
}

TEST_CASE("pad_right pads to a width in columns, and leaves wider text as it is", "[format]") {
  CHECK(pad_right("ab", 5) == "ab   ");
  CHECK(pad_right("\u00b1ab", 5) == "\u00b1ab  ");  // ± takes one column, not two bytes' worth
  CHECK(pad_right("abcdef", 3) == "abcdef");
  CHECK(pad_right("", 2) == "  ");
}
