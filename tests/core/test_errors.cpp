#include <catch2/catch.hpp>

#include <new>

#include "core/errors.hpp"

using namespace tscaudit;

TEST_CASE("each error kind maps to its documented exit code") {
  CHECK(exit_code_of(UsageError("bad option")) == 2);
  CHECK(exit_code_of(InputError("f.csv:3:4: bad field")) == 2);
  CHECK(exit_code_of(IoError("cannot write /dev/full")) == 3);
  CHECK(exit_code_of(RuntimeError("CPU 1 stopped answering")) == 3);
  CHECK(exit_code_of(UnsupportedError("no RDTSCP")) == 4);
  CHECK(exit_code_of(std::bad_alloc()) == 3);
}
