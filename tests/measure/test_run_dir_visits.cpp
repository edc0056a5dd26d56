// The visits of a run directory as the plan's runner and a simulated machine append them
// (measure/plan_runner.hpp, RunDirVisits): each pair's visits numbered from 0, its seq
// counting on across them; exact, read back from the directory.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "formats/run_dir.hpp"
#include "formats/run_format.hpp"
#include "measure/plan_runner.hpp"
#include "temp_files.hpp"

using namespace tscaudit;

namespace {

RunDirManifest visits_manifest() {
  RunDirManifest m;
  m.started_utc = "2026-11-25T04:01:47.462Z";
  m.cpus = {0, 1, 2};
  m.send = "rdtsc";
  m.recv = "lfence_rdtsc";
  m.tsc_hz = 2596141815;
  m.pair_header.set("tool_version", "0.1.0");
  m.pair_header.set("send", "rdtsc");
  m.pair_header.set("recv", "lfence_rdtsc");
  m.pair_header.set("flags", std::string(kFlagLegend));
  return m;
}

/// `n` rounds of one visit, seq from 0 (as assemble_run gives them), t1 from `start`.
std::vector<Round> rounds_of(std::uint64_t n, std::uint64_t start) {
  std::vector<Round> r;
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t t1 = start + i * 1000;
    r.push_back(Round(i, t1, t1 + 300, t1 + 340, t1 + 600));
  }
  return r;
}

std::vector<std::uint64_t> seqs_of(const Run& run) {
  std::vector<std::uint64_t> s;
  for (const Round& r : run.rounds) s.push_back(r.seq);
  return s;
}

std::vector<std::uint64_t> counting(std::uint64_t n) {
  std::vector<std::uint64_t> s;
  for (std::uint64_t i = 0; i < n; ++i) s.push_back(i);
  return s;
}

}  // namespace

TEST_CASE("run directory visits: each pair's visits numbered from 0, seq counting on across them") {
  test::TempDir tmp;
  const std::string dir = tmp.at("run");
  {
    auto writer = RunDirWriter::create(dir, visits_manifest(), std::nullopt);
    RunDirVisits visits(*writer);
    CHECK(visits.visits_of(0, 1) == 0);
    CHECK(visits.append(0, 1, rounds_of(3, 1'000'000), 5, "") == 0);
    CHECK(visits.append(1, 0, rounds_of(4, 2'000'000), 7, "CPU 0 stopped answering") == 0);
    CHECK(visits.append(0, 1, rounds_of(2, 3'000'000), 5, "") == 1);
    CHECK(visits.append(0, 1, rounds_of(4, 4'000'000), 6, "") == 2);
    CHECK(visits.visits_of(0, 1) == 3);
    CHECK(visits.visits_of(1, 0) == 1);
    CHECK(visits.visits_of(0, 2) == 0);
    writer->finish(RunDirStatus::complete, "", "2026-11-25T04:03:00.000Z");
  }
  const RunDirReader r = open_run_dir(dir);
  REQUIRE(r.visits_of(0, 1).size() == 3);
  for (std::uint64_t v = 0; v < 3; ++v) {
    CHECK(r.visits_of(0, 1)[v].visit == v);
    CHECK(r.visits_of(0, 1)[v].rounds == std::vector<std::uint64_t>{3, 2, 4}[v]);
  }
  CHECK(seqs_of(r.read_pair(0, 1)) == counting(9));
  CHECK(r.read_pair(0, 1).rounds[3].t1 == 3'000'000);  // the second visit's first round
  REQUIRE(r.visits_of(1, 0).size() == 1);
  CHECK(r.visits_of(1, 0)[0].visit == 0);
}

TEST_CASE("run directory visits: disjoint pairs appended from two threads at once") {
  test::TempDir tmp;
  const std::string dir = tmp.at("run");
  {
    auto writer = RunDirWriter::create(dir, visits_manifest(), std::nullopt);
    RunDirVisits visits(*writer);
    std::vector<std::uint64_t> numbers_01, numbers_20;
    std::thread t([&] {
      for (std::uint64_t v = 0; v < 20; ++v) numbers_01.push_back(visits.append(0, 1, rounds_of(v + 1, v << 20), 1, ""));
    });
    for (std::uint64_t v = 0; v < 20; ++v) numbers_20.push_back(visits.append(2, 0, rounds_of(3, v << 20), 1, ""));
    t.join();
    CHECK(numbers_01 == counting(20));
    CHECK(numbers_20 == counting(20));
    writer->finish(RunDirStatus::complete, "", "2026-11-25T04:03:00.000Z");
  }
  const RunDirReader r = open_run_dir(dir);
  CHECK(seqs_of(r.read_pair(0, 1)) == counting(20 * 21 / 2));
  CHECK(seqs_of(r.read_pair(2, 0)) == counting(60));
}
