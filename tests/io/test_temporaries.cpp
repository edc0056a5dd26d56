// The registry a signal's cleanup reads (io/temporaries.hpp): trees removed whole without
// following a link, empty directories only while empty, children killed with their group
// and reaped before any file goes.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "file_tree.hpp"
#include "io/temporaries.hpp"
#include "temp_files.hpp"

extern char** environ;

using namespace tscaudit;
namespace fs = std::filesystem;

namespace {

/// A directory `depth` levels deep under `root` (d1/d2/...), with a file at the bottom.
fs::path make_chain(const fs::path& root, int depth) {
  fs::path p = root;
  for (int i = 1; i <= depth; ++i) p /= "d" + std::to_string(i);
  fs::create_directories(p);
  test::spit(p / "bottom.txt", "deep\n");
  return p;
}

}  // namespace

TEST_CASE("temporaries: a tree goes whole, the links in it removed and never followed", "[temporaries]") {
  test::TempDir tmp;
  const fs::path root = tmp.path / "out.tmp.abcdef";
  const fs::path outside = tmp.path / "outside";
  fs::create_directories(root / "sub" / "deeper" / "deepest");
  fs::create_directories(outside / "inner");
  test::spit(outside / "keep.txt", "keep\n");
  test::spit(outside / "inner" / "keep_too.txt", "keep\n");
  test::spit(root / "a.txt", "a\n");
  test::spit(root / "sub" / "b.txt", "b\n");
  test::spit(root / "sub" / "deeper" / "c.txt", "c\n");
  fs::create_directory_symlink(outside, root / "link_to_outside");  // a link to a directory outside
  fs::create_symlink(outside / "keep.txt", root / "sub" / "link_to_file");
  fs::create_symlink("/nonexistent/tscaudit", root / "dangling");
  REQUIRE(::mkfifo((root / "fifo").c_str(), 0600) == 0);  // never opened: that would block
  REQUIRE(::mkfifo((root / "sub" / "deeper" / "fifo2").c_str(), 0600) == 0);
  // More names than one reading of a directory holds (1 KiB), long ones.
  for (int i = 0; i < 300; ++i) test::spit(root / "sub" / (std::string(100, 'n') + std::to_string(i)), "x");

  const int slot = register_temporary(root.string(), TemporaryKind::tree);
  REQUIRE(slot >= 0);
  remove_registered_temporaries();
  unregister_temporary(slot);

  CHECK_FALSE(test::is_there(root));
  CHECK(test::slurp(outside / "keep.txt") == "keep\n");
  CHECK(test::slurp(outside / "inner" / "keep_too.txt") == "keep\n");
  CHECK(test::entry_count(outside) == 2);
  CHECK(test::entry_count(tmp.path) == 1);  // only the outside directory
}

TEST_CASE("temporaries: remove_tree leaves a link at its root, a file, and what lies too deep", "[temporaries]") {
  test::TempDir tmp;
  const fs::path outside = tmp.path / "outside";
  fs::create_directory(outside);
  test::spit(outside / "keep.txt", "keep\n");

  SECTION("a link at the root is not followed, and stays") {
    fs::create_directory_symlink(outside, tmp.path / "root_link");
    CHECK_FALSE(remove_tree((tmp.path / "root_link").c_str()));
    CHECK(test::is_there(tmp.path / "root_link"));
    CHECK(test::slurp(outside / "keep.txt") == "keep\n");
  }
  SECTION("a regular file is not a tree") {
    test::spit(tmp.path / "file", "f\n");
    CHECK_FALSE(remove_tree((tmp.path / "file").c_str()));
    CHECK(test::slurp(tmp.path / "file") == "f\n");
  }
  SECTION("a missing tree is gone already") {
    CHECK(remove_tree((tmp.path / "missing").c_str()));
  }
  SECTION("kTreeDepth levels are removed") {
    make_chain(tmp.path / "chain", kTreeDepth);
    CHECK(remove_tree((tmp.path / "chain").c_str()));
    CHECK_FALSE(test::is_there(tmp.path / "chain"));
  }
  SECTION("one level more stays, with the directories above it") {
    const fs::path bottom = make_chain(tmp.path / "chain", kTreeDepth + 1);
    test::spit(tmp.path / "chain" / "top.txt", "top\n");
    CHECK_FALSE(remove_tree((tmp.path / "chain").c_str()));
    CHECK(test::slurp(bottom / "bottom.txt") == "deep\n");
    CHECK_FALSE(test::is_there(tmp.path / "chain" / "top.txt"));  // what it could reach is gone
  }
}

TEST_CASE("temporaries: empty directories go after the files and trees, and only when empty", "[temporaries]") {
  test::TempDir tmp;
  const fs::path outer = tmp.path / "outer";  // registered first, emptied by the removal of inner
  const fs::path inner = outer / "inner";
  const fs::path full = tmp.path / "full";
  fs::create_directories(inner);
  fs::create_directory(full);
  test::spit(full / "someone_elses.txt", "theirs\n");
  const fs::path aside = inner / "file.tmp.abcdef";
  test::spit(aside, "half\n");
  const fs::path tree = inner / "tree.tmp.abcdef";
  fs::create_directories(tree / "x");
  test::spit(tree / "x" / "y", "y\n");

  const int slots[] = {register_temporary(outer.string(), TemporaryKind::empty_dir),
                       register_temporary(full.string(), TemporaryKind::empty_dir),
                       register_temporary(inner.string(), TemporaryKind::empty_dir),
                       register_temporary(aside.string()), register_temporary(tree.string(), TemporaryKind::tree)};
  for (int s : slots) REQUIRE(s >= 0);
  remove_registered_temporaries();
  for (int s : slots) unregister_temporary(s);

  CHECK_FALSE(test::is_there(outer));
  CHECK(test::slurp(full / "someone_elses.txt") == "theirs\n");
  CHECK(test::entry_count(tmp.path) == 1);
}

TEST_CASE("temporaries: a child's group is killed and the child reaped before the files go", "[temporaries]") {
  test::TempDir tmp;
  const std::string pid_file = tmp.at("grandchild.pid");
  // A shell in its own group that starts a grandchild in the same group, then waits: what
  // gnuplot and the awk of a script are.
  const std::string script = "sleep 600 & echo $! > " + pid_file + "; wait";
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  std::string arg0 = "sh", arg1 = "-c";
  std::string arg2 = script;
  char* argv[] = {arg0.data(), arg1.data(), arg2.data(), nullptr};
  pid_t child = -1;
  REQUIRE(::posix_spawn(&child, "/bin/sh", nullptr, &attr, argv, environ) == 0);
  posix_spawnattr_destroy(&attr);
  REQUIRE(test::eventually([&] { return test::slurp(pid_file).find('\n') != std::string::npos; }));
  const pid_t grandchild = std::stoi(test::slurp(pid_file));

  // One more child, registered and then given back: the cleanup leaves it alone.
  pid_t other = -1;
  std::string o0 = "sleep", o1 = "600";
  char* other_argv[] = {o0.data(), o1.data(), nullptr};
  REQUIRE(::posix_spawn(&other, "/bin/sleep", nullptr, nullptr, other_argv, environ) == 0);
  unregister_child(register_child(other));

  const int child_slot = register_child(child);
  REQUIRE(child_slot >= 0);
  const int file_slot = register_temporary(tmp.at("picture.tmp.abcdef.png"));
  test::spit(tmp.at("picture.tmp.abcdef.png"), "half a picture");
  remove_registered_temporaries();
  unregister_temporary(file_slot);
  unregister_child(child_slot);

  int status = 0;
  errno = 0;
  CHECK(::waitpid(child, &status, WNOHANG) == -1);  // reaped by the cleanup
  CHECK(errno == ECHILD);
  CHECK(test::eventually([&] { return test::process_ended(grandchild); }));
  CHECK_FALSE(test::is_there(tmp.at("picture.tmp.abcdef.png")));
  CHECK_FALSE(test::process_ended(other));
  ::kill(other, SIGKILL);
  CHECK(::waitpid(other, &status, 0) == other);
  CHECK(WIFSIGNALED(status));
}

TEST_CASE("temporaries: the table of children holds kChildSlots, then registers no more", "[temporaries]") {
  std::vector<int> slots;
  // Pids that no process of this test has (never killed: unregistered before any cleanup).
  for (std::size_t i = 0; i < kChildSlots; ++i) slots.push_back(register_child(static_cast<pid_t>(4000000 + i)));
  CHECK(std::find(slots.begin(), slots.end(), -1) == slots.end());
  CHECK(register_child(4100000) == -1);
  CHECK(register_child(0) == -1);
  CHECK(register_child(-1) == -1);
  for (int s : slots) unregister_child(s);
  const int again = register_child(4200000);
  CHECK(again >= 0);
  unregister_child(again);
}
