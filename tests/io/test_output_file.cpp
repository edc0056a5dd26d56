#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <ostream>
#include <vector>

#include "core/errors.hpp"
#include "error_messages.hpp"
#include "formats/standard_output.hpp"
#include "io/output_file.hpp"
#include "io/temporaries.hpp"
#include "temp_files.hpp"

using namespace tscaudit;
namespace fs = std::filesystem;

namespace {

using test::slurp;
using test::spit;
using test::TempDir;
using test::what_thrown;

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

TEST_CASE("output file: a link planted at the target is replaced, never written through", "[output_file]") {
  TempDir tmp;
  const fs::path victim = tmp.path / "victim";
  spit(victim, "precious\n");
  const std::string target = tmp.at("metrics.prom");
  fs::create_symlink(victim, target);
  write_text_file(target, "new\n");
  CHECK(slurp(victim) == "precious\n");
  CHECK_FALSE(fs::is_symlink(target));
  CHECK(slurp(target) == "new\n");
  // A dangling link too: nothing is created where it points.
  const std::string dangling = tmp.at("dangling.prom");
  fs::create_symlink(tmp.path / "created-through-link", dangling);
  write_text_file(dangling, "x\n");
  CHECK_FALSE(fs::exists(tmp.path / "created-through-link"));
  CHECK(slurp(dangling) == "x\n");
}

TEST_CASE("output file: a link planted at a predictable aside name is never followed", "[output_file]") {
  TempDir tmp;
  const fs::path victim = tmp.path / "victim";
  spit(victim, "precious\n");
  const std::string target = tmp.at("m.log");
  fs::create_symlink(victim, target + ".partial");
  CHECK_THAT(what_thrown<IoError>([&] { OutputFile out(target, ".partial"); }),
             Catch::StartsWith("cannot create " + target + ".partial: it exists"));
  CHECK(slurp(victim) == "precious\n");
  fs::create_symlink(tmp.path / "through", target + ".tmp.XXXXXX");  // the name mkstemp's template had
  write_text_file(target, "fine\n");
  CHECK(slurp(target) == "fine\n");
  CHECK_FALSE(fs::exists(tmp.path / "through"));
}

TEST_CASE("output file: the aside file is new, closed on exec, and of mode 0666 less the umask", "[output_file]") {
  TempDir tmp;
  const mode_t old = ::umask(027);
  std::string aside;
  const int fd = create_aside_file(tmp.at("t.prom"), ".x", aside);
  ::umask(old);
  REQUIRE(fd >= 0);
  CHECK_THAT(aside, Catch::StartsWith(tmp.at("t.prom") + ".tmp.") && Catch::EndsWith(".x"));
  CHECK(aside.size() == tmp.at("t.prom").size() + 5 + 6 + 2);
  CHECK((::fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0);
  struct stat st {};
  REQUIRE(::fstat(fd, &st) == 0);
  CHECK((st.st_mode & 07777) == 0640);
  ::close(fd);
  std::string other;
  const int fd2 = create_aside_file(tmp.at("t.prom"), ".x", other);
  CHECK(other != aside);
  ::close(fd2);
}

TEST_CASE("output file: a signal's cleanup removes the temporaries open, and only those", "[output_file]") {
  TempDir tmp;
  {
    OutputFile open_one(tmp.at("a.prom"));
    open_one.write("x\n");
    OutputFile done(tmp.at("b.prom"));
    done.write("y\n");
    done.commit();
    REQUIRE(fs::exists(open_one.temp_path()));
    remove_registered_temporaries();  // what the handler of SIGINT, SIGTERM and SIGHUP does
    CHECK_FALSE(fs::exists(open_one.temp_path()));
    CHECK(slurp(tmp.at("b.prom")) == "y\n");  // a committed file is nobody's temporary
  }
  // A later file registers again (the slots were given back), a path too long does not.
  OutputFile later(tmp.at("c.prom"));
  later.write("z\n");
  remove_registered_temporaries();
  CHECK_FALSE(fs::exists(later.temp_path()));
  CHECK(register_temporary(std::string(PATH_MAX, 'p')) == -1);
  CHECK(register_temporary("") == -1);
}

TEST_CASE("output file: the table of temporaries holds kTemporarySlots, then registers no more", "[output_file]") {
  std::vector<int> slots;
  for (std::size_t i = 0; i < kTemporarySlots; ++i) slots.push_back(register_temporary("/nonexistent/t"));
  CHECK(std::find(slots.begin(), slots.end(), -1) == slots.end());
  CHECK(register_temporary("/nonexistent/u") == -1);
  for (int s : slots) unregister_temporary(s);
  const int again = register_temporary("/nonexistent/v");
  CHECK(again >= 0);
  unregister_temporary(again);
}
