// The message a failed command leaves on stderr, and its exit code.
#include <catch2/catch.hpp>

#include <new>
#include <sstream>
#include <utility>
#include <vector>

#include "app/report_error.hpp"
#include "core/errors.hpp"

using namespace tscaudit;

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
  // What report_error gave, and the exit code and message it must give.
  const std::vector<std::pair<Case, Case>> cases = {
      {report(UsageError("bad option")), {2, "t: error: bad option\n(run 't --help' for usage)\n"}},
      {report(InputError("f.csv:3:4: bad field")), {2, "t: error: f.csv:3:4: bad field\n"}},
      {report(IoError("cannot write /dev/full")), {3, "t: error: cannot write /dev/full\n"}},
      {report(UnsupportedError("no RDTSCP")), {4, "t: unsupported: no RDTSCP\n"}},
  };
  for (const auto& [got, want] : cases) {
    INFO(want.text);
    CHECK(got.code == want.code);
    CHECK(got.text == want.text);
  }
  const Case memory = report(std::bad_alloc());
  CHECK(memory.code == 3);
  CHECK(memory.text.rfind("t: error: ", 0) == 0);
}
