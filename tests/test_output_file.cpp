#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "errors.hpp"
#include "output_file.hpp"

using namespace tscsync;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "tscsync-test-XXXXXX").string();
    path = ::mkdtemp(tmpl.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

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
  CHECK_THROWS_WITH(OutputFile("/nonexistent-dir-tscsync/x.csv"),
                    "cannot create /nonexistent-dir-tscsync/x.csv: No such file or directory");
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
