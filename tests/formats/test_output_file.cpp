#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <cerrno>
#include <ostream>

#include "core/errors.hpp"
#include "formats/output_file.hpp"
#include "formats/standard_output.hpp"
#include "temp_files.hpp"

using namespace tscaudit;
namespace fs = std::filesystem;

namespace {

using test::slurp;
using test::TempDir;

std::size_t entries(const fs::path& dir) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

}  // namespace

TEST_CASE("the target appears only on commit, complete") {
  TempDir dir;
  const fs::path target = dir.path / "run.csv";
  {
    OutputFile out(target.string());
    out.write("hello ");
    CHECK_FALSE(fs::exists(target));  // written aside
    CHECK(entries(dir.path) == 1);
    out.write("world\n");
    out.commit();
  }
  CHECK(slurp(target) == "hello world\n");
  CHECK(entries(dir.path) == 1);  // no temporary left behind
}

TEST_CASE("without commit the old target stays and the temporary goes") {
  TempDir dir;
  const fs::path target = dir.path / "run.csv";
  std::ofstream(target) << "old complete run\n";
  {
    OutputFile out(target.string());
    out.write("half a run");
  }  // e.g. an exception between write and commit
  CHECK(slurp(target) == "old complete run\n");
  CHECK(entries(dir.path) == 1);
}

TEST_CASE("outputs that cannot be written raise IoError with the path and the reason") {
  CHECK_THROWS_WITH(OutputFile("/nonexistent-dir-tscaudit/x.csv"),
                    "cannot create /nonexistent-dir-tscaudit/x.csv: No such file or directory");
  CHECK_THROWS_WITH(OutputFile("/tmp"), "cannot write /tmp: it is a directory");
  CHECK_THROWS_WITH(OutputFile(""), "empty output path");
  OutputFile full("/dev/full");  // a device: written in place
  CHECK_THROWS_WITH(full.write("x"), "cannot write /dev/full: No space left on device");
}

TEST_CASE("a directory that vanishes before commit is an IoError") {
  TempDir dir;
  const fs::path sub = dir.path / "sub";
  fs::create_directory(sub);
  OutputFile out((sub / "run.csv").string());
  out.write("data\n");
  fs::remove_all(sub);
  CHECK_THROWS_AS(out.commit(), IoError);
}

TEST_CASE("a target name near NAME_MAX still gets an aside file") {
  TempDir dir;
  const std::string name(250, 'n');  // legal; name + ".tmp.XXXXXX" would not be
  const fs::path target = dir.path / name;
  {
    OutputFile out(target.string());
    out.write("long name\n");
    CHECK(entries(dir.path) == 1);
    const std::string aside = fs::directory_iterator(dir.path)->path().filename().string();
    CHECK(aside == std::string(200, 'n') + aside.substr(200));
    CHECK(aside.substr(200, 5) == ".tmp.");
    out.commit();
  }
  CHECK(slurp(target) == "long name\n");
  CHECK(entries(dir.path) == 1);
}

TEST_CASE("a path under a regular file is an IoError naming it") {
  TempDir dir;
  const fs::path file = dir.path / "plain";
  std::ofstream(file) << "x";
  CHECK_THROWS_WITH(OutputFile((file / "x.csv").string()),
                    "cannot create " + (file / "x.csv").string() + ": Not a directory");
  CHECK_THROWS_WITH(make_directories((file / "sub").string()),
                    (file / "sub").string() + ": cannot create the directory: Not a directory");
}

TEST_CASE("standard output's buffer keeps the reason of its first failed write") {
  const int fd = ::open("/dev/full", O_WRONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  FdOutputBuffer buffer(fd);
  std::ostream out(&buffer);
  out << std::string(100000, 'x');  // more than the buffer: written, and failed, before the flush
  CHECK(buffer.first_error() == ENOSPC);
  CHECK_FALSE(out);
  out.clear();
  out << "more" << std::flush;  // dropped, and the first reason stays
  CHECK(buffer.first_error() == ENOSPC);
  ::close(fd);

  TempDir dir;
  const fs::path path = dir.path / "out.txt";
  const int ok_fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  REQUIRE(ok_fd >= 0);
  {
    FdOutputBuffer good(ok_fd);
    std::ostream o(&good);
    o << "hello " << std::string(70000, 'y') << std::flush;
    CHECK(good.first_error() == 0);
    CHECK(o);
  }
  ::close(ok_fd);
  CHECK(slurp(path) == "hello " + std::string(70000, 'y'));
}
