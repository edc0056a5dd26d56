#include <catch2/catch.hpp>

#include <new>

#include "core/errors.hpp"

using namespace tscsync;

TEST_CASE("each error kind maps to its documented exit code") {
  CHECK(report_error("t", UsageError("bad option")) == 2);
  CHECK(report_error("t", InputError("f.csv:3:4: bad field")) == 2);
  CHECK(report_error("t", IoError("cannot write /dev/full")) == 3);
  CHECK(report_error("t", RuntimeError("CPU 1 stopped answering")) == 3);
  CHECK(report_error("t", UnsupportedError("no RDTSCP")) == 4);
  CHECK(report_error("t", std::bad_alloc()) == 3);
}
