// read_regular_file and ReadOnlyFd(OpenAs::regular_file): what a run directory's readers
// read whole is a regular file of bounded size, never a FIFO waited on or a device read
// without end.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "core/errors.hpp"
#include "core/files.hpp"
#include "error_messages.hpp"
#include "hostile_dir_fixture.hpp"
#include "skip.hpp"
#include "temp_files.hpp"

using namespace tscaudit;
using test::what_thrown;

TEST_CASE("read_regular_file: a regular file whole, every byte, up to its limit and no further", "[files]") {
  test::TempDir tmp;
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes += static_cast<char>(i);
  test::spit(tmp.at("f"), bytes);
  CHECK(read_regular_file(tmp.at("f"), 256) == bytes);
  CHECK(what_thrown<InputError>([&] { read_regular_file(tmp.at("f"), 255, "a test file"); }) ==
        tmp.at("f") + ": 256 bytes, more than the 255 bytes a test file may hold");
  test::spit(tmp.at("empty"), "");
  CHECK(read_regular_file(tmp.at("empty"), 0).empty());
  // A link to a regular file is read as the file.
  std::filesystem::create_symlink(tmp.at("f"), tmp.at("link"));
  CHECK(read_regular_file(tmp.at("link"), 1000) == bytes);
  CHECK(what_thrown<InputError>([&] { read_regular_file(tmp.at("missing"), 10); }) ==
        "cannot open " + tmp.at("missing") + " for reading: No such file or directory");
}

TEST_CASE("read_regular_file: a 1 TB sparse file is refused by its size, before a byte is read", "[files]") {
  test::TempDir tmp;
  test::spit(tmp.at("big"), "");
  std::filesystem::resize_file(tmp.at("big"), std::uintmax_t{1} << 40);
  CHECK(what_thrown<InputError>([&] { read_regular_file(tmp.at("big"), std::uint64_t{64} << 20, "a manifest"); }) ==
        tmp.at("big") + ": 1099511627776 bytes, more than the 67108864 bytes a manifest may hold");
}

TEST_CASE("read_regular_file: a file that says 0 bytes and holds more (/proc) is cut at its limit", "[files]") {
  // /proc/self/status is a regular file of size 0 that reads as several hundred bytes.
  CHECK(read_regular_file("/proc/self/status", 1 << 20).starts_with("Name:"));
  CHECK(what_thrown<InputError>([&] { read_regular_file("/proc/self/status", 10, "a test file"); }) ==
        "/proc/self/status: it grew past the 10 bytes a test file may hold while it was read");
}

TEST_CASE("read_regular_file: a FIFO, a directory and /dev/zero are refused at once, by what they are", "[files]") {
  test::TempDir tmp;
  if (!test::make_fifo(tmp.at("fifo"))) {
    test::skip_test("mkfifo failed: this file system holds no FIFO");
    return;
  }
  // Nobody writes the FIFO: an open that waited would never return.
  CHECK(what_thrown<InputError>([&] { read_regular_file(tmp.at("fifo"), 1000); }) ==
        tmp.at("fifo") + ": not a regular file (a FIFO)");
  CHECK(what_thrown<InputError>([&] { ReadOnlyFd fd(tmp.at("fifo"), OpenAs::regular_file); }) ==
        tmp.at("fifo") + ": not a regular file (a FIFO)");
  std::filesystem::create_directory(tmp.at("dir"));
  CHECK(what_thrown<InputError>([&] { read_regular_file(tmp.at("dir"), 1000); }) ==
        tmp.at("dir") + ": not a regular file (a directory)");
  CHECK(what_thrown<InputError>([&] { read_regular_file("/dev/zero", 1000); }) ==
        "/dev/zero: not a regular file (a character device)");
  std::filesystem::create_symlink("/dev/zero", tmp.at("zero"));
  CHECK(what_thrown<InputError>([&] { read_regular_file(tmp.at("zero"), 1000); }) ==
        tmp.at("zero") + ": not a regular file (a character device)");
  // Opened for anything, a regular file is a regular file.
  test::spit(tmp.at("f"), "x");
  const ReadOnlyFd fd(tmp.at("f"), OpenAs::regular_file);
  CHECK(fd.get() >= 0);
}
