// The printable forms of text a file brings back: exact strings.
#include <catch2/catch.hpp>

#include <string>

#include "core/format.hpp"

using namespace tscaudit;

TEST_CASE("printable_utf8_text keeps printable UTF-8 and escapes control bytes and bad sequences", "[format]") {
  CHECK(printable_utf8_text("within \u00b1392 ns, \u03b8") == "within \u00b1392 ns, \u03b8");
  CHECK(printable_utf8_text("a\x1b[2Jb\n") == "a\\x1b[2Jb\\x0a");
  CHECK(printable_utf8_text("\xc3") == "\\xc3");                   // a sequence cut short
  CHECK(printable_utf8_text("\xc3(") == "\\xc3(");                 // a lead byte without its tail
  CHECK(printable_utf8_text("\xc0\xaf") == "\\xc0\\xaf");          // an overlong '/'
  CHECK(printable_utf8_text("\xe0\x80\xaf") == "\\xe0\\x80\\xaf");  // another
  CHECK(printable_utf8_text("\xc2\x85") == "\\xc2\\x85");          // U+0085, a C1 control
  CHECK(printable_utf8_text("\xed\xa0\x80") == "\\xed\\xa0\\x80");  // a surrogate
  CHECK(printable_utf8_text("\xf4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");  // beyond U+10FFFF
  CHECK(printable_utf8_text("\xf0\x9f\x98\x80") == "\xf0\x9f\x98\x80");      // U+1F600 is kept
  // printable_text escapes every byte above 0x7e, even good UTF-8.
  CHECK(printable_text("\u00b1") == "\\xc2\\xb1");
}
