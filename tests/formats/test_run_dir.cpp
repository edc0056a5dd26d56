#include <catch2/catch.hpp>

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/errors.hpp"
#include "error_messages.hpp"
#include "formats/rounds_codec.hpp"
#include "formats/run_dir.hpp"
#include "formats/run_format.hpp"
#include "io/run_dir_writer.hpp"
#include "pair/analyze.hpp"
#include "render/pair_output.hpp"
#include "run_text.hpp"
#include "simulate/simulate.hpp"
#include "simulation_fixture.hpp"
#include "temp_files.hpp"

using namespace tscaudit;
using test::what_thrown;
namespace fs = std::filesystem;

namespace {

using test::slurp;
using test::TempDir;

void write_file(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

/// The pair header a matrix would give: run_header (src/measure/pair_run.cpp) without
/// schema, a and b, plus what finish_visits_run adds before quantum_ticks.
Metadata matrix_pair_header() {
  Metadata h;
  for (const auto& [k, v] :
       std::vector<std::pair<std::string, std::string>>{{"tool_version", "0.1.0"},
                                                        {"command", "tscaudit matrix --cpus 0-3 --out m"},
                                                        {"host", "vm"},
                                                        {"tsc_hz", "2596141815"},
                                                        {"send", "rdtsc"},
                                                        {"recv", "lfence_rdtsc"},
                                                        {"transport", "slot"},
                                                        {"rounds", "9000"},
                                                        {"visits", "3"},
                                                        {"rounds_per_visit", "3000"},
                                                        {"warmup", "1000"},
                                                        {"flags", std::string(kFlagLegend)}}) {
    h.set(k, v);
  }
  return h;
}

RunDirManifest sample_manifest(std::vector<int> cpus) {
  RunDirManifest m;
  m.started_utc = "2026-11-25T04:01:47.462Z";
  m.cpus = std::move(cpus);
  m.send = "rdtsc";
  m.recv = "lfence_rdtsc";
  m.tsc_hz = 2596141815;
  m.pair_header = matrix_pair_header();
  m.plan = {{"visits", 3}, {"rounds_per_visit", 3000}};
  m.platform = {{"cpu_vendor", "AuthenticAMD"}};
  return m;
}

/// Rounds of one visit, seq from 0, t1 from `start`.
std::vector<Round> visit_rounds(std::size_t n, std::uint64_t start, std::uint64_t flags = 0) {
  std::vector<Round> r;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t t1 = start + i * 700;
    r.push_back(Round(i, t1, t1 + 300 + i % 7, t1 + 340 + i % 11, t1 + 600 - i % 5, flags));
  }
  return r;
}

std::string open_error(const std::string& dir) {
  return what_thrown<InputError>([&] { open_run_dir(dir); });
}

std::string read_error(const std::string& dir, int a, int b) {
  return what_thrown<InputError>([&] { static_cast<void>(open_run_dir(dir).read_pair(a, b)); });
}

std::uintmax_t dir_bytes(const fs::path& dir) {
  std::uintmax_t n = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) n += e.file_size();
  }
  return n;
}

}  // namespace

TEST_CASE("run directory: what is written reads back, pair by pair, as matrix --save-runs would", "[run_dir]") {
  TempDir tmp;
  const std::string dir = tmp.at("run");
  auto w = RunDirWriter::create(dir, sample_manifest({0, 1, 2}), std::string_view("<topology/>\n"));
  CHECK(slurp(fs::path(dir) / "topology.xml") == "<topology/>\n");
  {
    const std::string manifest = slurp(fs::path(dir) / "manifest.json");
    CHECK_THAT(manifest, Catch::Contains("\"schema\": \"tscaudit-rundir/1\""));
    CHECK_THAT(manifest, Catch::Contains("\"status\": \"running\""));
  }
  // Pair 0 -> 1: three visits (written out of order); 1 -> 0: one visit that failed;
  // 2 -> 0: a visit without rounds.
  w->append_visit(0, 1, 1, 3000, visit_rounds(3000, 5'000'000, 1), 26, "");
  w->append_visit(0, 1, 0, 0, visit_rounds(3000, 1'000'000), 25, "");
  w->append_visit(1, 0, 0, 0, visit_rounds(10, 2'000'000), 26, "fewer rounds than asked for");
  w->append_visit(0, 1, 2, 6000, visit_rounds(3000, 9'000'000), 26, "");
  w->append_visit(2, 0, 0, 0, {}, 1, "partner stopped answering");
  CHECK(what_thrown<UsageError>([&] { w->append_visit(0, 7, 0, 0, {}, 1, ""); }) ==
        "run directory " + dir + ": CPU 7 is not among the manifest's CPUs");
  w->finish(RunDirStatus::complete, "", "2026-11-25T04:03:00.000Z");
  CHECK(what_thrown<IoError>([&] { w->append_visit(0, 1, 3, 9000, {}, 1, ""); }) ==
        "cannot write " + dir + "/rounds/cpu-0.zst: the run directory was finished already");
  // Files: one per initiating CPU.
  CHECK(fs::exists(fs::path(dir) / "rounds" / "cpu-0.zst"));
  CHECK(fs::exists(fs::path(dir) / "rounds" / "cpu-1.zst"));
  CHECK(fs::exists(fs::path(dir) / "rounds" / "cpu-2.zst"));
  CHECK(std::distance(fs::directory_iterator(fs::path(dir) / "rounds"), fs::directory_iterator()) == 3);

  const RunDirReader r = open_run_dir(dir);
  CHECK(r.has_manifest());
  CHECK(r.manifest().status == RunDirStatus::complete);
  CHECK(r.manifest().ended_utc == "2026-11-25T04:03:00.000Z");
  CHECK(r.manifest().cpus == std::vector<int>{0, 1, 2});
  CHECK(r.manifest().plan == nlohmann::ordered_json{{"visits", 3}, {"rounds_per_visit", 3000}});
  CHECK(r.manifest().pair_header.entries() == matrix_pair_header().entries());
  CHECK(r.topology_xml() == std::optional<std::string>("<topology/>\n"));
  CHECK(r.incomplete_notes().empty());
  CHECK(r.pairs() == std::vector<std::pair<int, int>>{{0, 1}, {1, 0}, {2, 0}});
  CHECK(r.visits_of(0, 1).size() == 3);
  CHECK_FALSE(r.has_pair(0, 2));

  const Run run = r.read_pair(0, 1);
  std::vector<Round> expected;
  for (const auto& [start, first_seq, flags] :
       {std::tuple<std::uint64_t, std::uint64_t, std::uint64_t>{1'000'000, 0, 0},
        {5'000'000, 3000, 1},
        {9'000'000, 6000, 0}}) {
    for (const Round& x : visit_rounds(3000, start, flags)) {
      expected.push_back(Round(first_seq + x.seq, x.t1, x.t2, x.t3, x.t4, x.flags));
    }
  }
  CHECK(run.rounds == expected);
  // The header finish_visits_run gives a live pair, key for key and in order.
  const std::vector<std::pair<std::string, std::string>> header = {{"schema", "tscaudit-run/1"},
                                                                   {"tool_version", "0.1.0"},
                                                                   {"command", "tscaudit matrix --cpus 0-3 --out m"},
                                                                   {"host", "vm"},
                                                                   {"tsc_hz", "2596141815"},
                                                                   {"a", "0"},
                                                                   {"b", "1"},
                                                                   {"send", "rdtsc"},
                                                                   {"recv", "lfence_rdtsc"},
                                                                   {"transport", "slot"},
                                                                   {"rounds", "9000"},
                                                                   {"visits", "3"},
                                                                   {"rounds_per_visit", "3000"},
                                                                   {"warmup", "1000"},
                                                                   {"quantum_ticks", "26"},
                                                                   {"flags", std::string(kFlagLegend)}};
  CHECK(run.header.entries() == header);
  CHECK(run.trailer.entries() ==
        std::vector<std::pair<std::string, std::string>>{{"rounds_written", "9000"}, {"status", "complete"}});
  CHECK_FALSE(incomplete_reason(run).has_value());
  // And it is a tscaudit-run/1 file like any other.
  test::check_round_trip(run);

  const Run failed = r.read_pair(1, 0);
  CHECK(failed.rounds.size() == 10);
  CHECK(failed.trailer.get("status") == std::optional<std::string_view>("aborted"));
  CHECK(failed.trailer.get("error") == std::optional<std::string_view>("visit 1: fewer rounds than asked for"));
  const Run empty = r.read_pair(2, 0);
  CHECK(empty.rounds.empty());
  CHECK(empty.trailer.get("error") == std::optional<std::string_view>("visit 1: partner stopped answering"));
  CHECK(read_error(dir, 0, 2) == dir + ": no rounds of pair 0 -> 2");
}

TEST_CASE("run directory: a pair read back analyzes exactly like the pair in memory", "[run_dir]") {
  SimulationTruth truth;
  SimulationSpec spec =
      test::simulation_spec({.rounds = 30'000, .seed = 11, .offset_ticks = -150, .drift_ppb = 40, .quantum_ticks = 26});
  spec.spec_b.rate = 0.001;  // early reads: negative latencies to classify
  Run live = simulate(spec, truth);
  live.header = Metadata();
  TempDir tmp;
  const std::string dir = tmp.at("run");
  RunDirManifest m = sample_manifest({0, 1});
  m.pair_header.set("rounds", "30000");
  m.pair_header.set("visits", "10");
  auto w = RunDirWriter::create(dir, m, std::nullopt);
  for (std::size_t v = 0; v < 10; ++v) {
    std::vector<Round> part(live.rounds.begin() + static_cast<std::ptrdiff_t>(v * 3000),
                            live.rounds.begin() + static_cast<std::ptrdiff_t>((v + 1) * 3000));
    for (Round& x : part) x.seq = (x.seq - v * 3000) & kMaxSeq;  // each visit counts from 0 (assemble_run)
    w->append_visit(0, 1, v, v * 3000, part, 26, "");
  }
  w->finish(RunDirStatus::complete, "", "2026-11-25T04:03:00.000Z");
  const Run back = open_run_dir(dir).read_pair(0, 1);
  CHECK(back.rounds == live.rounds);
  // The live pair, as finish_visits_run would wrap it.
  live.header = back.header;
  live.trailer = Metadata();
  live.trailer.set("rounds_written", "30000");
  live.trailer.set("status", "complete");
  CHECK(analysis_json({analyze_run(back, "pair 0 -> 1")}) == analysis_json({analyze_run(live, "pair 0 -> 1")}));
}

TEST_CASE("run directory: a run that did not complete says so in every pair", "[run_dir]") {
  TempDir tmp;
  SECTION("the process died: the manifest still says running") {
    const std::string dir = tmp.at("run");
    auto w = RunDirWriter::create(dir, sample_manifest({0, 1}), std::nullopt);
    w->append_visit(0, 1, 0, 0, visit_rounds(100, 1000), 1, "");
    w.reset();  // no finish(): what a crash leaves
    const RunDirReader r = open_run_dir(dir);
    CHECK(r.manifest().status == RunDirStatus::running);
    // Its lock file names it, and nobody holds it: the writer stopped.
    const std::string stopped =
        dir + "/manifest.json says running: the writer (pid " + std::to_string(::getpid()) + " (";
    REQUIRE(r.incomplete_notes().size() == 1);
    CHECK_THAT(r.incomplete_notes()[0], Catch::StartsWith(stopped) && Catch::EndsWith(")) stopped without finishing"));
    const Run run = r.read_pair(0, 1);
    CHECK(run.rounds.size() == 100);
    CHECK_FALSE(run.trailer.get("status").has_value());
    CHECK_THAT(incomplete_reason(run).value_or(""),
               Catch::StartsWith("cut short: " + stopped) && Catch::EndsWith(")) stopped without finishing"));
    // Without the lock file (a copy, or an earlier version's run), the reader cannot tell.
    fs::remove(fs::path(dir) / ".lock");
    CHECK(open_run_dir(dir).incomplete_notes() ==
          std::vector<std::string>{dir + "/manifest.json says running: the measuring process ended before it finished "
                                         "(no lock file says whether it is still running)"});
  }
  SECTION("interrupted by a signal") {
    const std::string dir = tmp.at("run");
    auto w = RunDirWriter::create(dir, sample_manifest({0, 1}), std::nullopt);
    w->append_visit(0, 1, 0, 0, visit_rounds(100, 1000), 1, "");
    w->finish(RunDirStatus::interrupted, "SIGINT", "2026-11-25T04:02:00.000Z");
    const RunDirReader r = open_run_dir(dir);
    CHECK(r.manifest().detail == "SIGINT");
    CHECK(r.incomplete_notes() == std::vector<std::string>{dir + "/manifest.json says interrupted: SIGINT"});
    const Run run = r.read_pair(0, 1);
    CHECK(incomplete_reason(run) == "status is 'interrupted': SIGINT");
  }
}

TEST_CASE("run directory: a rounds file cut short loses its last visit only", "[run_dir]") {
  TempDir tmp;
  const std::string dir = tmp.at("run");
  {
    // Interrupted: a file that ends inside a frame is what a stopped writer leaves (a run
    // that says it completed has lost it instead: test_run_dir_damage.cpp).
    auto w = RunDirWriter::create(dir, sample_manifest({0, 1, 2}), std::nullopt);
    for (std::uint64_t v = 0; v < 3; ++v) {
      w->append_visit(0, 1, v, v * 2000, visit_rounds(2000, 1'000'000 * (v + 1)), 1, "");
      w->append_visit(0, 2, v, v * 2000, visit_rounds(2000, 1'000'000 * (v + 1)), 1, "");
    }
    w->finish(RunDirStatus::interrupted, "SIGINT", "2026-11-25T04:03:00.000Z");
  }
  const std::string interrupted_note = dir + "/manifest.json says interrupted: SIGINT";
  const fs::path file = fs::path(dir) / "rounds" / "cpu-0.zst";
  const std::string whole = slurp(file);
  const std::size_t last_size = open_run_dir(dir).visits_of(0, 2).back().size;
  const std::size_t before_last = whole.size() - last_size;
  for (std::size_t cut : {std::size_t{1}, std::size_t{4}, std::size_t{9}, last_size / 2, last_size - 3}) {
    INFO("cut " << cut << " of " << last_size << " bytes");
    write_file(file, whole.substr(0, whole.size() - cut));
    const RunDirReader r = open_run_dir(dir);
    const std::string at = dir + "/rounds/cpu-0.zst ends " + std::to_string(last_size - cut) +
                           " bytes into a visit (at byte " + std::to_string(before_last) + ")";
    REQUIRE(r.incomplete_notes().size() == 2);
    CHECK(r.incomplete_notes()[0] == interrupted_note);
    CHECK_THAT(r.incomplete_notes()[1], Catch::StartsWith(at));
    CHECK(r.losses().empty());
    CHECK(r.read_pair(0, 1).rounds.size() == 6000);
    const Run cut_pair = r.read_pair(0, 2);
    CHECK(cut_pair.rounds.size() == 4000);
    const auto reason = incomplete_reason(cut_pair);
    REQUIRE(reason.has_value());
    CHECK_THAT(*reason, Catch::StartsWith("cut short: " + at));
  }
  // The whole last frame gone: a shorter file, nothing to say about it.
  write_file(file, whole.substr(0, before_last));
  CHECK(open_run_dir(dir).incomplete_notes() == std::vector<std::string>{interrupted_note});
  CHECK(open_run_dir(dir).read_pair(0, 2).rounds.size() == 4000);
}

TEST_CASE("run directory: bad directories are refused, naming the file and the line", "[run_dir]") {
  TempDir tmp;
  const std::string dir = tmp.at("run");
  {
    auto w = RunDirWriter::create(dir, sample_manifest({0, 1}), std::nullopt);
    for (std::uint64_t v = 0; v < 3; ++v)
      w->append_visit(0, 1, v, v * 2000, visit_rounds(2000, 1'000'000 * (v + 1)), 1, "");
    w->finish(RunDirStatus::complete, "", "2026-11-25T04:03:00.000Z");
  }
  const fs::path manifest = fs::path(dir) / "manifest.json";
  const fs::path rounds = fs::path(dir) / "rounds" / "cpu-0.zst";
  const std::string good_manifest = slurp(manifest);
  const std::string good_rounds = slurp(rounds);
  auto restore = [&] {
    write_file(manifest, good_manifest);
    write_file(rounds, good_rounds);
  };

  SECTION("no manifest beside rounds/") {
    fs::remove(manifest);
    CHECK(open_error(dir) == dir + "/manifest.json: missing, but " + dir +
                                 "/rounds is there: a run directory without its manifest (the manifest is written "
                                 "first, so it was removed or the directory copied in part)");
  }
  SECTION("a manifest that is not JSON, of another schema, of a later version") {
    write_file(manifest, "{\n  \"schema\": \"tscaudit-rundir/1\",\n  \"status\": runn\n}\n");
    CHECK(open_error(dir) ==
          dir +
              "/manifest.json:3:13: not JSON: syntax error while parsing value - invalid literal; last read: "
              "'\"status\": r'");
    write_file(manifest, "{\"schema\": \"tscaudit-analysis/1\", \"pairs\": []}");
    CHECK(open_error(dir) == dir +
                                 "/manifest.json:1:2: schema 'tscaudit-analysis/1' is not a tscaudit run directory's "
                                 "(expected 'tscaudit-rundir/1')");
    std::string later = good_manifest;
    later.replace(later.find(kRunDirSchema), kRunDirSchema.size(), "tscaudit-rundir/2");
    write_file(manifest, later);
    CHECK(open_error(dir) ==
          dir +
              "/manifest.json:2:3: schema 'tscaudit-rundir/2' is newer than this version of tscaudit "
              "reads (tscaudit-rundir/1): read it with a newer tscaudit");
    std::string minor = good_manifest;
    minor.replace(minor.find(kRunDirSchema), kRunDirSchema.size(), "tscaudit-rundir/1.4");
    write_file(manifest, minor);
    CHECK(open_run_dir(dir).read_pair(0, 1).rounds.size() == 6000);
    std::string bad_cpus = good_manifest;
    bad_cpus.replace(bad_cpus.find("\"cpus\""), 6, "\"cpus\": \"0-1\", \"old_cpus\"");
    write_file(manifest, bad_cpus);
    CHECK_THAT(open_error(dir), Catch::Matches(".*/manifest.json:[0-9]+:3: no \"cpus\" array of CPU numbers"));
    restore();
  }
  SECTION("a rounds file that is not zstd: lost whole") {
    const std::string csv = "seq,t1,t2,t3,t4\n0,1,2,3,4\n";
    write_file(rounds, csv);
    const RunDirReader r = open_run_dir(dir);
    CHECK(r.pairs().empty());
    REQUIRE(r.losses().size() == 1);
    CHECK(run_dir_loss_text(r.losses()[0]) == "rounds/cpu-0.zst at byte 0 (frame 0, " + std::to_string(csv.size()) +
                                                  " bytes): pair 0 -> ?: not a zstd file (no zstd magic number)");
  }
  SECTION("a frame damaged in the middle of the file, not at its end: passed over, named") {
    const RunDirReader r = open_run_dir(dir);
    const auto v = r.visits_of(0, 1);
    // Its magic number: the index goes on at the next frame.
    std::string damaged = good_rounds;
    damaged[v[1].offset] = 'X';
    write_file(rounds, damaged);
    {
      const RunDirReader d = open_run_dir(dir);
      REQUIRE(d.losses().size() == 1);
      CHECK(run_dir_loss_text(d.losses()[0]) == "rounds/cpu-0.zst at byte " + std::to_string(v[1].offset) +
                                                    " (frame 1, " + std::to_string(v[1].size) +
                                                    " bytes): pair 0 -> ?: not a zstd frame (no zstd magic number): "
                                                    "the file is damaged");
      CHECK(d.read_pair(0, 1).rounds.size() == 4000);
    }
    // Its content: the checksum says so when the pair is read.
    damaged = good_rounds;
    const std::size_t at = v[1].offset + v[1].size / 2;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x20);
    write_file(rounds, damaged);
    const RunDirReader d = open_run_dir(dir);
    CHECK(d.losses().empty());
    CHECK(d.read_pair(0, 1).rounds.size() == 4000);
    REQUIRE(d.losses().size() == 1);
    CHECK_THAT(run_dir_loss_text(d.losses()[0]),
               Catch::StartsWith("rounds/cpu-0.zst at byte " + std::to_string(v[1].offset) + " (frame 1, " +
                                 std::to_string(v[1].size) +
                                 " bytes): pair 0 -> 1, visit=1 (2000 rounds): the zstd frame does not decompress ("));
  }
  SECTION("a visit naming a CPU the manifest lacks, a visit twice, a stray file") {
    const std::uint64_t visit1_at = open_run_dir(dir).visits_of(0, 1)[1].offset;
    VisitHeader h;
    h.a = 0;
    h.b = 5;
    // Frames that name no pair of this file are lost; the other visits stay.
    const auto only_loss = [&] {
      const RunDirReader r = open_run_dir(dir);
      CHECK(r.read_pair(0, 1).rounds.size() == 6000);
      REQUIRE(r.losses().size() == 1);
      return run_dir_loss_text(r.losses()[0]);
    };
    const std::string at = "rounds/cpu-0.zst at byte " + std::to_string(good_rounds.size()) + " (frame 3, ";
    std::string extra = compress_visit(h, visit_rounds(10, 100));
    write_file(rounds, good_rounds + extra);
    CHECK(only_loss() == at + std::to_string(extra.size()) +
                             " bytes): pair 0 -> 5, visit=0 (10 rounds): b=5 is not among the manifest's cpus");
    h.b = 1;
    h.visit = 1;
    extra = compress_visit(h, visit_rounds(10, 100));
    write_file(rounds, good_rounds + extra);
    CHECK(only_loss() == at + std::to_string(extra.size()) +
                             " bytes): pair 0 -> 1, visit=1 (10 rounds): visit=1 of pair 0 -> 1 appears twice (kept: "
                             "the frame at byte " +
                             std::to_string(visit1_at) + ")");
    h.a = 1;
    h.b = 0;
    extra = compress_visit(h, visit_rounds(10, 100));
    write_file(rounds, good_rounds + extra);
    CHECK(only_loss() == at + std::to_string(extra.size()) +
                             " bytes): pair 1 -> 0, visit=1 (10 rounds): a visit of pair 1 -> 0 in the file of CPU 0 "
                             "(each file holds the visits that its CPU initiates)");
    restore();
    write_file(fs::path(dir) / "rounds" / "cpu-7.zst", good_rounds);
    CHECK(open_error(dir) == dir + "/rounds/cpu-7.zst: CPU 7 is not among the manifest's cpus");
    fs::remove(fs::path(dir) / "rounds" / "cpu-7.zst");
    write_file(fs::path(dir) / "rounds" / "notes.txt", "x");
    CHECK(open_error(dir) == dir + "/rounds/notes.txt: not a rounds file (expected cpu-<A>.zst, A a CPU number)");
  }
  SECTION("a visit whose text is malformed names its line") {
    // A frame written by hand: its 3rd line has a letter where a number goes. The index
    // reads only the visit line; the pair's reader finds the rest.
    const std::string frame = compress_visit_text(
        "# visit a=0 b=1 visit=3 rounds=2 quantum_ticks=1 first_seq=6000\n1000,300,40,260,0\n700,3x0,40,260,0\n");
    write_file(rounds, good_rounds + frame);
    {
      const RunDirReader r = open_run_dir(dir);
      const Run run = r.read_pair(0, 1);
      CHECK(run.rounds.size() == 6000);
      CHECK(run.trailer.get("status") == std::optional<std::string_view>("complete"));
      CHECK(run.trailer.get("lost") ==
            std::optional<std::string_view>("visit=3 (2 rounds, byte " + std::to_string(good_rounds.size()) +
                                            "): line 3, column 5 of the visit: '3x0' is not a signed decimal number"));
      REQUIRE(r.losses().size() == 1);
      CHECK(run_dir_loss_text(r.losses()[0]) == "rounds/cpu-0.zst at byte " + std::to_string(good_rounds.size()) +
                                                    " (frame 3, " + std::to_string(frame.size()) +
                                                    " bytes): pair 0 -> 1, visit=3 (2 rounds): line 3, column 5 of "
                                                    "the visit: '3x0' is not a signed decimal number");
    }
    const std::string bad_line = compress_visit_text("# visit a=0 b=1 visit=3 rounds=2\n");
    write_file(rounds, good_rounds + bad_line);
    const RunDirReader r = open_run_dir(dir);
    REQUIRE(r.losses().size() == 1);
    CHECK(run_dir_loss_text(r.losses()[0]) == "rounds/cpu-0.zst at byte " + std::to_string(good_rounds.size()) +
                                                  " (frame 3, " + std::to_string(bad_line.size()) +
                                                  " bytes): pair 0 -> ?: line 1, column 1 of the visit: the visit "
                                                  "line lacks quantum_ticks=");
  }
  SECTION("the directory is not there, or is a file") {
    CHECK_THAT(what_thrown<InputError>([&] { open_run_dir(tmp.at("absent")); }),  // input error: exit 2
               Catch::StartsWith("cannot open the run directory " + tmp.at("absent") + ": "));
    CHECK(open_error(rounds.string()) == rounds.string() + ": not a directory (a run directory is one)");
  }
  SECTION("the writer wants a new or empty directory") {
    CHECK(what_thrown<IoError>([&] {
            RunDirWriter::create(dir, sample_manifest({0, 1}), std::nullopt);
          }) == "cannot write the run directory " + dir +
                    ": it exists and is not empty (a run is written into a new or an empty directory)");
  }
}

TEST_CASE("run directory: two writers on disjoint pairs at once", "[run_dir]") {
  TempDir tmp;
  const std::string dir = tmp.at("run");
  auto w = RunDirWriter::create(dir, sample_manifest({0, 1, 2, 3}), std::nullopt);
  constexpr std::uint64_t kVisits = 40;
  auto slot = [&](int a, int b) {
    for (std::uint64_t v = 0; v < kVisits; ++v) {
      w->append_visit(a, b, v, v * 500, visit_rounds(500, 1000 + v * 1'000'000 + static_cast<std::uint64_t>(a)), 1, "");
      // The other role of the same two CPUs shares no file with the other thread either.
      w->append_visit(b, a, v, v * 500, visit_rounds(500, 2000 + v * 1'000'000), 1, "");
    }
  };
  std::thread t1(slot, 0, 1);
  std::thread t2(slot, 2, 3);
  t1.join();
  t2.join();
  w->finish(RunDirStatus::complete, "", "2026-11-25T04:03:00.000Z");
  const RunDirReader r = open_run_dir(dir);
  CHECK(r.pairs() == std::vector<std::pair<int, int>>{{0, 1}, {1, 0}, {2, 3}, {3, 2}});
  for (const auto& [a, b] : r.pairs()) {
    const Run run = r.read_pair(a, b);
    REQUIRE(run.rounds.size() == kVisits * 500);
    for (std::size_t i = 0; i < run.rounds.size(); ++i) {
      if (run.rounds[i].seq != i)
        FAIL("pair " << a << " -> " << b << ": round " << i << " has seq " << run.rounds[i].seq);
    }
    CHECK(run.trailer.get("status") == std::optional<std::string_view>("complete"));
  }
}

TEST_CASE("run directory: a plain directory of run files and import tables", "[run_dir]") {
  TempDir tmp;
  const fs::path dir = tmp.path / "plain";
  fs::create_directories(dir);
  auto measured = [](int a, int b, std::uint64_t start, std::size_t n) {
    Run run;
    run.header.set("schema", std::string(kRunSchema));
    run.header.set("a", std::to_string(a));
    run.header.set("b", std::to_string(b));
    run.header.set("send", "rdtsc");
    run.header.set("recv", "lfence_rdtsc");
    run.header.set("quantum_ticks", std::to_string(start % 3 + 1));
    run.rounds = visit_rounds(n, start);
    run.trailer.set("rounds_written", std::to_string(n));
    run.trailer.set("status", "complete");
    return test::run_text(run);
  };
  write_file(dir / "pair_0_1.csv", measured(0, 1, 1'000'000, 100));
  write_file(dir / "pair_0_1.more.csv", measured(0, 1, 9'000'000, 50));  // seq from 0 again
  write_file(dir / "b.csv", measured(1, 0, 5'000'000, 80));
  write_file(dir / "import.txt", "# a: 2\n# b: 0\n# quantum_ticks: 26\nt1\tt2\tt3\tt4\n100\t400\t450\t700\n");
  write_file(dir / "columns.csv", "a,b,t1,t2,t3,t4\n0,2,100,400,450,700\n0,2,900,1200,1250,1500\n");
  write_file(dir / ".hidden", "not read");
  fs::create_directories(dir / "subdir");

  const RunDirReader r = open_run_dir(dir.string());
  CHECK_FALSE(r.has_manifest());
  CHECK(r.manifest().status == RunDirStatus::complete);
  CHECK(r.manifest().cpus == std::vector<int>{0, 1, 2});
  CHECK_FALSE(r.topology_xml().has_value());
  CHECK(r.pairs() == std::vector<std::pair<int, int>>{{0, 1}, {0, 2}, {1, 0}, {2, 0}});

  // One file: exactly what `analyze` reads.
  const Run one = r.read_pair(1, 0);
  const Run direct = read_run_file((dir / "b.csv").string());
  CHECK(one.rounds == direct.rounds);
  CHECK(one.header.entries() == direct.header.entries());
  CHECK(one.trailer.entries() == direct.trailer.entries());
  CHECK(r.read_pair(2, 0).header.get("quantum_ticks") == std::optional<std::string_view>("26"));
  CHECK(r.read_pair(0, 2).rounds.size() == 2);

  // Two files: in file-name order ("pair_0_1.csv" < "pair_0_1.more.csv"), the second's
  // seqs shifted to follow the first's; the largest quantum.
  const Run two = r.read_pair(0, 1);
  REQUIRE(two.rounds.size() == 150);
  CHECK(two.rounds[0].t1 == 1'000'000);
  CHECK(two.rounds[99].seq == 99);
  CHECK(two.rounds[100].seq == 100);
  CHECK(two.rounds[100].t1 == 9'000'000);
  CHECK(two.header.get("quantum_ticks") == std::optional<std::string_view>("2"));
  CHECK(two.header.get("files") == std::optional<std::string_view>("2"));
  CHECK(two.trailer.get("status") == std::optional<std::string_view>("complete"));
  CHECK(two.trailer.get("rounds_written") == std::optional<std::string_view>("150"));

  // A topology beside the files gives the groups.
  write_file(dir / "topology.xml", "<topology/>\n");
  CHECK(open_run_dir(dir.string()).topology_xml() == std::optional<std::string>("<topology/>\n"));

  // One of the two files cut short: the pair says so.
  std::string cut = measured(0, 1, 9'000'000, 50);
  cut.resize(cut.find("# rounds_written"));
  write_file(dir / "pair_0_1.more.csv", cut);
  const auto reason = incomplete_reason(open_run_dir(dir.string()).read_pair(0, 1));
  REQUIRE(reason.has_value());
  CHECK(*reason == "cut short: " + (dir / "pair_0_1.more.csv").string() +
                       ": no '# status:' line after the rounds: the file was cut short");
}

TEST_CASE("run directory: bad plain directories are refused, naming the file and the line", "[run_dir]") {
  TempDir tmp;
  const fs::path dir = tmp.path / "plain";
  fs::create_directories(dir);
  const std::string good = "# a: 0\n# b: 1\n# recv: rdtscp\nt1,t2,t3,t4\n100,400,450,700\n";
  write_file(dir / "pair_0_1.csv", good);
  const std::string base = dir.string();

  write_file(dir / "pair_0_1.b.csv", "# note\n# a: 2\n# b: 1\nt1,t2,t3,t4\n100,400,450,700\n");
  CHECK(open_error(base) == base + "/pair_0_1.b.csv:2:6: a 2 disagrees with the file name, which names pair 0 -> 1");
  fs::remove(dir / "pair_0_1.b.csv");

  write_file(dir / "x.csv", "# a: 0\n# b: 1\n# recv: rdtsc\nt1,t2,t3,t4\n100,400,450,700\n");
  CHECK(open_error(base) == base + "/x.csv:3:9: recv 'rdtsc' differs from 'rdtscp' in " + base +
                                "/pair_0_1.csv, another file of pair 0 -> 1 (one pair is measured with one pair of "
                                "read variants)");
  fs::remove(dir / "x.csv");

  write_file(dir / "y.csv", "# schema: tscaudit-run/2\n# a: 0\n# b: 1\nseq,t1,t2,t3,t4,flags\n0,1,2,3,4,0\n");
  CHECK(open_error(base) == base + "/y.csv:1:11: unknown schema 'tscaudit-run/2' (this version reads tscaudit-run/1)");
  fs::remove(dir / "y.csv");

  write_file(dir / "z.csv", "t1,t2,t3,t4\n100,400,450,700\n");
  CHECK(open_error(base) == base +
                                "/z.csv: names no pair: a run directory without a manifest needs '# a: CPU' and "
                                "'# b: CPU' lines (or a and b columns) in each file");
  write_file(dir / "z.csv", "# a: zero\n# b: 1\nt1,t2,t3,t4\n100,400,450,700\n");
  CHECK(open_error(base) == base + "/z.csv:1:6: a 'zero' is not a CPU number");
  write_file(dir / "z.csv", "");
  CHECK(open_error(base) == base + "/z.csv: empty file (a run directory without a manifest holds run files only)");
  write_file(dir / "z.csv", std::string("\x28\xb5\x2f\xfd\x00\x01\x02", 7));
  CHECK(open_error(base) == base + "/z.csv:1:5: byte \\x00 is not text (a binary or compressed file?)");
  fs::remove(dir / "z.csv");

  // Malformed rounds are found when the pair is read, by the run reader.
  write_file(dir / "pair_0_1.csv", "# a: 0\n# b: 1\nt1,t2,t3,t4\n100,400,x,700\n");
  CHECK(read_error(base, 0, 1) == base + "/pair_0_1.csv:4:9: 'x' is not an unsigned decimal number");
}

TEST_CASE("run directory: bytes per round on disk for a simulated matrix", "[run_dir]") {
  // Four CPUs, every ordered pair, 10 visits of 3000 rounds each (the default plan's visit
  // size), rounds from the simulator with an AMD-like quantum of 26 ticks.
  TempDir tmp;
  const std::string dir = tmp.at("run");
  auto w = RunDirWriter::create(dir, sample_manifest({0, 1, 2, 3}), std::nullopt);
  std::uint64_t rounds = 0, seed = 1;
  for (int a = 0; a < 4; ++a) {
    for (int b = 0; b < 4; ++b) {
      if (a == b) continue;
      SimulationTruth truth;
      const Run run = simulate(
          test::simulation_spec(
              {.rounds = 30'000, .seed = seed++, .offset_ticks = 100.0 * (b - a), .drift_ppb = 0, .quantum_ticks = 26}),
          truth);
      for (std::uint64_t v = 0; v < 10; ++v) {
        std::vector<Round> part(run.rounds.begin() + static_cast<std::ptrdiff_t>(v * 3000),
                                run.rounds.begin() + static_cast<std::ptrdiff_t>((v + 1) * 3000));
        for (Round& x : part) x.seq = (x.seq - v * 3000) & kMaxSeq;
        w->append_visit(a, b, v, v * 3000, part, 26, "");
      }
      rounds += run.rounds.size();
    }
  }
  w->finish(RunDirStatus::complete, "", "2026-11-25T04:03:00.000Z");
  const std::uintmax_t bytes = dir_bytes(dir);
  const double per_round = static_cast<double>(bytes) / static_cast<double>(rounds);
  INFO(bytes << " bytes for " << rounds << " rounds: " << per_round << " bytes per round");
  CHECK(per_round <= 12.0);
  WARN("run directory: " << bytes << " bytes for " << rounds << " simulated rounds, " << per_round
                         << " bytes per round");
}
