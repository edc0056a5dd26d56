// One writer per run directory (docs/formats.md, "The lock"), and what a reader says of a run
// still being written.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "core/errors.hpp"
#include "error_messages.hpp"
#include "formats/run_dir.hpp"
#include "formats/run_format.hpp"
#include "io/run_dir_writer.hpp"
#include "temp_files.hpp"

using namespace tscaudit;
using test::what_thrown;
namespace fs = std::filesystem;

namespace {

using test::slurp;
using test::spit;
using test::TempDir;

RunDirManifest lock_test_manifest() {
  RunDirManifest m;
  m.started_utc = "2026-11-27T22:00:00.000Z";
  m.cpus = {0, 1};
  m.send = "rdtsc";
  m.recv = "lfence_rdtsc";
  m.tsc_hz = 2596141815;
  return m;
}

std::vector<Round> lock_test_rounds(std::size_t n) {
  std::vector<Round> r;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t t1 = 1000000 + i * 1000;
    r.push_back(Round{i, t1, t1 + 200, t1 + 230, t1 + 430, 0});
  }
  return r;
}

std::string own_pid_text() { return "pid " + std::to_string(::getpid()) + " ("; }

}  // namespace

TEST_CASE("run directory lock: a second writer is refused at once and the first goes on", "[run_dir][lock]") {
  TempDir tmp;
  const std::string dir = tmp.at("out/run");
  auto first = RunDirWriter::create(dir, lock_test_manifest(), std::nullopt);
  CHECK(fs::is_regular_file(fs::path(dir) / ".lock"));
  CHECK(slurp(fs::path(dir) / ".lock").starts_with("pid: " + std::to_string(::getpid()) + "\ncommand: "));

  const auto start = std::chrono::steady_clock::now();
  const std::string why =
      what_thrown<IoError>([&] { (void)RunDirWriter::create(dir, lock_test_manifest(), std::nullopt); });
  const auto took = std::chrono::steady_clock::now() - start;
  CHECK_THAT(why,
             Catch::StartsWith("cannot write the run directory " + dir + ": it is being written by " + own_pid_text()));
  CHECK(took < std::chrono::milliseconds(500));
  // The same for a matrix's --out, which replaces an earlier run but never a live one.
  CHECK_THAT(what_thrown<IoError>([&] { (void)RunDirLock::acquire(dir, EarlierRun::replace); }),
             Catch::Contains("it is being written by " + own_pid_text()));

  // The first writes and finishes as if alone.
  first->append_visit(0, 1, 0, 0, lock_test_rounds(100), 1, "");
  first->finish(RunDirStatus::complete, "", "2026-11-27T22:00:01.000Z");
  CHECK_FALSE(fs::exists(fs::path(dir) / ".lock"));  // a finished run keeps no lock file
  const RunDirReader r = open_run_dir(dir);
  CHECK(r.incomplete_notes().empty());
  CHECK(r.read_pair(0, 1).rounds.size() == 100);

  // Finished: the directory is free, and not empty.
  CHECK(what_thrown<IoError>([&] { (void)RunDirWriter::create(dir, lock_test_manifest(), std::nullopt); }) ==
        "cannot write the run directory " + dir +
            ": it exists and is not empty (a run is written into a new or an empty directory)");
  CHECK_FALSE(fs::exists(fs::path(dir) / ".lock"));  // the refused writer left none behind
  // A matrix's --out replaces it, once the new run starts writing; a run that stops before
  // (a refused option) leaves it whole and no lock file.
  {
    RunDirLock gives_up = RunDirLock::acquire(dir, EarlierRun::replace);
    CHECK(fs::exists(fs::path(dir) / ".lock"));
    CHECK(fs::exists(fs::path(dir) / "manifest.json"));
    gives_up.give_up();
    CHECK_FALSE(fs::exists(fs::path(dir) / ".lock"));
    CHECK(open_run_dir(dir).read_pair(0, 1).rounds.size() == 100);
  }
  auto again = RunDirWriter::create(RunDirLock::acquire(dir, EarlierRun::replace), lock_test_manifest(), std::nullopt);
  CHECK_FALSE(fs::exists(fs::path(dir) / "rounds" / "cpu-0.zst"));
  CHECK(open_run_dir(dir).manifest().status == RunDirStatus::running);
}

TEST_CASE("run directory lock: a run that never wrote leaves no directory behind", "[run_dir][lock]") {
  TempDir tmp;
  const std::string dir = tmp.at("out/run");
  RunDirLock::acquire(dir, EarlierRun::replace).give_up();
  CHECK_FALSE(fs::exists(dir));
  CHECK(fs::exists(tmp.at("out")));  // the parent, which --out names, stays
}

TEST_CASE("run directory lock: of writers that start at once, exactly one gets it", "[run_dir][lock]") {
  TempDir tmp;
  for (int attempt = 0; attempt < 20; ++attempt) {
    const std::string dir = tmp.at("race" + std::to_string(attempt) + "/run");
    constexpr int kWriters = 4;
    std::atomic<int> ready{0};
    std::atomic<int> won{0}, refused{0}, other{0};
    std::vector<std::unique_ptr<RunDirWriter>> writers(kWriters);
    std::vector<std::thread> threads;
    for (int i = 0; i < kWriters; ++i) {
      threads.emplace_back([&, i] {
        ++ready;
        while (ready.load() < kWriters) {
        }
        try {
          writers[static_cast<std::size_t>(i)] = RunDirWriter::create(dir, lock_test_manifest(), std::nullopt);
          ++won;
        } catch (const IoError& e) {
          const std::string what = e.what();
          if (what.find("it is being written by") != std::string::npos ||
              what.find("it exists and is not empty") != std::string::npos) {
            ++refused;
          } else {
            ++other;
            UNSCOPED_INFO(what);
          }
        }
      });
    }
    for (std::thread& t : threads) t.join();
    REQUIRE(won.load() == 1);
    CHECK(refused.load() == kWriters - 1);
    CHECK(other.load() == 0);
  }
}

TEST_CASE("run directory lock: a reader tells a run being written from one whose writer stopped", "[run_dir][lock]") {
  TempDir tmp;
  const std::string dir = tmp.at("run");
  auto w = RunDirWriter::create(dir, lock_test_manifest(), std::nullopt);
  w->append_visit(0, 1, 0, 0, lock_test_rounds(50), 1, "");
  {
    const RunDirReader r = open_run_dir(dir);
    REQUIRE(r.incomplete_notes().size() == 1);
    CHECK_THAT(r.incomplete_notes()[0],
               Catch::StartsWith(dir + "/manifest.json says running: it is still being written by " + own_pid_text()));
    CHECK_THAT(incomplete_reason(r.read_pair(0, 1)).value_or(""), Catch::Contains("it is still being written by"));
    CHECK(run_dir_writer_state(dir).kind == RunDirWriterState::Kind::writing);
  }
  // The reader took nothing: the writer goes on.
  w->append_visit(0, 1, 1, 50, lock_test_rounds(50), 1, "");
  w.reset();  // no finish(): the writer stopped (what a crash leaves, the lock released by the kernel)
  CHECK(fs::exists(fs::path(dir) / ".lock"));
  CHECK(run_dir_writer_state(dir).kind == RunDirWriterState::Kind::stopped);
  const RunDirReader r = open_run_dir(dir);
  REQUIRE(r.incomplete_notes().size() == 1);
  CHECK_THAT(r.incomplete_notes()[0],
             Catch::StartsWith(dir + "/manifest.json says running: the writer (" + own_pid_text()) &&
                 Catch::EndsWith(") stopped without finishing"));
  CHECK(r.read_pair(0, 1).rounds.size() == 100);
  // A stale lock file blocks nobody; the directory is refused only for not being empty.
  CHECK_THAT(what_thrown<IoError>([&] { (void)RunDirWriter::create(dir, lock_test_manifest(), std::nullopt); }),
             Catch::EndsWith("it exists and is not empty (a run is written into a new or an empty directory)"));
}

TEST_CASE("run directory lock: the holder named in the message is printable", "[run_dir][lock]") {
  TempDir tmp;
  const std::string dir = tmp.at("run");
  fs::create_directories(dir);
  spit(fs::path(dir) / ".lock", "pid: 4242\ncommand: tscaudit matrix --out \x1b[31mred\x01\xff\n");
  const int fd = ::open((fs::path(dir) / ".lock").c_str(), O_RDWR | O_CLOEXEC);
  REQUIRE(fd >= 0);
  struct flock l {};
  l.l_type = F_WRLCK;
  l.l_whence = SEEK_SET;
  REQUIRE(::fcntl(fd, F_OFD_SETLK, &l) == 0);
  CHECK(what_thrown<IoError>([&] { (void)RunDirLock::acquire(dir, EarlierRun::refuse); }) ==
        "cannot write the run directory " + dir +
            ": it is being written by pid 4242 (tscaudit matrix --out \\x1b[31mred\\x01\\xff) (one writer per "
            "directory: give another --out, or wait for it to end)");
  ::close(fd);
  // Released: the lock file alone does not make the directory busy nor not empty.
  RunDirLock lock = RunDirLock::acquire(dir, EarlierRun::refuse);
  CHECK(slurp(fs::path(dir) / ".lock").starts_with("pid: " + std::to_string(::getpid()) + "\n"));
}

TEST_CASE("run directory lock: a plain directory's reader passes the lock file by", "[run_dir][lock]") {
  TempDir tmp;
  const std::string dir = tmp.at("plain");
  fs::create_directories(dir);
  spit(fs::path(dir) / "pair_0_1.csv", "# a: 0\n# b: 1\nt1,t2,t3,t4\n100,300,330,500\n1100,1300,1330,1500\n");
  spit(fs::path(dir) / ".lock", "pid: 1\ncommand: not a run\n");
  const RunDirReader r = open_run_dir(dir);
  CHECK_FALSE(r.has_manifest());
  CHECK(r.pairs() == std::vector<std::pair<int, int>>{{0, 1}});
}
