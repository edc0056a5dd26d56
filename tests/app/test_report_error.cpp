// The message a failed command leaves on stderr, and its exit code.
#include <catch2/catch.hpp>

#include <new>
#include <sstream>

#include "app/report_error.hpp"
#include "core/errors.hpp"

using namespace tscsync;

TEST_CASE("report_error: each error kind in its words, with its exit code") {
  struct Case {
    int code;
    std::string text;
  };
  auto report = [](const std::exception& e) {
    std::ostringstream err;
    const int code = report_error("t", e, err);
    return Case{code, err.str()};
  };
  const Case usage = report(UsageError("bad option"));
  CHECK(usage.code == 2);
  CHECK(usage.text == "t: error: bad option\n(run 't --help' for usage)\n");
  const Case input = report(InputError("f.csv:3:4: bad field"));
  CHECK(input.code == 2);
  CHECK(input.text == "t: error: f.csv:3:4: bad field\n");
  const Case io = report(IoError("cannot write /dev/full"));
  CHECK(io.code == 3);
  CHECK(io.text == "t: error: cannot write /dev/full\n");
  const Case unsupported = report(UnsupportedError("no RDTSCP"));
  CHECK(unsupported.code == 4);
  CHECK(unsupported.text == "t: unsupported: no RDTSCP\n");
  const Case memory = report(std::bad_alloc());
  CHECK(memory.code == 3);
  CHECK(memory.text.rfind("t: error: ", 0) == 0);
}
