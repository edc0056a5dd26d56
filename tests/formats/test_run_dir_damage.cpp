// Damaged evidence in a run directory: what can be read is read, what cannot is named
// (RunDirReader::losses), and messages that quote a file's bytes keep them printable.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/format.hpp"
#include "error_messages.hpp"
#include "formats/interval_log.hpp"
#include "formats/rounds_codec.hpp"
#include "formats/run_dir.hpp"
#include "formats/run_format.hpp"
#include "io/run_dir_writer.hpp"
#include "temp_files.hpp"

using namespace tscaudit;
using test::what_thrown;
namespace fs = std::filesystem;

namespace {

using test::slurp;
using test::TempDir;

void damage_write(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << bytes;
}

/// Rounds of one visit, seq from 0, t1 from `start`.
std::vector<Round> damage_rounds(std::size_t n, std::uint64_t start) {
  std::vector<Round> r;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t t1 = start + i * 700;
    r.push_back(Round(i, t1, t1 + 300 + i % 7, t1 + 340 + i % 11, t1 + 600 - i % 5, 0));
  }
  return r;
}

/// A manifest as a matrix writes it; with the plan's spec (all pairs of `cpus`, 4 visits)
/// when `spec`.
RunDirManifest damage_manifest(std::vector<int> cpus, bool spec) {
  RunDirManifest m;
  m.started_utc = "2026-11-27T04:01:47.462Z";
  m.cpus = cpus;
  m.send = "rdtsc";
  m.recv = "lfence_rdtsc";
  m.tsc_hz = 2596141815;
  m.pair_header.set("tool_version", "0.1.0");
  m.pair_header.set("send", "rdtsc");
  m.pair_header.set("recv", "lfence_rdtsc");
  m.pair_header.set("visits", "4");
  if (!spec) return m;
  m.plan = {{"spec",
             {{"cpus", cpus},
              {"visits", 4},
              {"rounds_per_visit", 1000},
              {"warmup_per_visit", 0},
              {"parallel", false},
              {"design", "all_pairs"},
              {"pairs", nlohmann::ordered_json::array()},
              {"design_reason", ""},
              {"budget_seconds", 0}}}};
  return m;
}

/// Pairs 0 -> 1 and 0 -> 2 (and 1 -> 0, 2 -> 0 when `all`), 4 visits of 1000 rounds each,
/// interleaved in cpu-0.zst as a matrix writes them; the manifest says `status` and has the
/// plan's spec when `all` (a run of only some pairs has none: no rounds file is expected).
std::string damage_run(TempDir& tmp, RunDirStatus status, bool all = true) {
  const std::string dir = tmp.at("run");
  auto w = RunDirWriter::create(dir, damage_manifest({0, 1, 2}, all), std::nullopt);
  for (std::uint64_t v = 0; v < 4; ++v) {
    for (int b : {1, 2}) {
      w->append_visit(0, b, v, v * 1000, damage_rounds(1000, 1'000'000 * (v + 1)), 1, "");
      if (all) w->append_visit(b, 0, v, v * 1000, damage_rounds(1000, 3'000'000 * (v + 1)), 1, "");
    }
  }
  w->finish(status, status == RunDirStatus::complete ? "" : "SIGINT", "2026-11-27T04:03:00.000Z");
  return dir;
}

}  // namespace

TEST_CASE("run directory damage: a frame damaged in the middle loses that visit only, named", "[run_dir][damage]") {
  TempDir tmp;
  const std::string dir = damage_run(tmp, RunDirStatus::complete);
  const fs::path file = fs::path(dir) / "rounds" / "cpu-0.zst";
  const RunDirReader::VisitEntry v = open_run_dir(dir).visits_of(0, 1)[2];
  std::string bytes = slurp(file);
  // 8 bytes flipped in the middle of the frame of visit 2 of pair 0 -> 1 (its 5th frame).
  for (std::size_t i = 0; i < 8; ++i) bytes[v.offset + v.size / 2 + i] ^= static_cast<char>(0xff);
  damage_write(file, bytes);

  const RunDirReader r = open_run_dir(dir);
  CHECK(r.incomplete_notes().empty());
  const Run run = r.read_pair(0, 1);
  CHECK(run.rounds.size() == 3000);
  CHECK(run.trailer.get("status") == std::optional<std::string_view>("complete"));
  CHECK(!run.trailer.get("cut_short"));
  CHECK(run.header.get("visits") == std::optional<std::string_view>("4"));  // the plan's, from pair_header
  const std::vector<RunDirLoss> losses = r.losses();                        // a copy: losses() returns one
  REQUIRE(losses.size() == 1);
  const RunDirLoss& loss = losses[0];
  CHECK(loss.file == "rounds/cpu-0.zst");
  CHECK(loss.offset == v.offset);
  CHECK(loss.frame == std::optional<std::uint64_t>(4));
  CHECK(loss.a == std::optional<int>(0));
  CHECK(loss.b == std::optional<int>(1));
  CHECK(loss.visit == std::optional<std::uint64_t>(2));
  CHECK(loss.rounds == std::optional<std::uint64_t>(1000));
  CHECK_THAT(run_dir_loss_text(loss),
             Catch::StartsWith("rounds/cpu-0.zst at byte " + std::to_string(v.offset) + " (frame 4, " +
                               std::to_string(v.size) +
                               " bytes): pair 0 -> 1, visit=2 (1000 rounds): the zstd frame does not decompress ("));
  // The other visits of the pair, and the other pairs, are whole.
  CHECK(r.read_pair(0, 2).rounds.size() == 4000);
  CHECK(r.read_pair(1, 0).rounds.size() == 4000);
  // Read again: the same rounds, the same one loss.
  CHECK(r.read_pair(0, 1).rounds == run.rounds);
  CHECK(r.losses().size() == 1);
  const auto j = run_dir_loss_json(loss);
  CHECK(j["file"] == "rounds/cpu-0.zst");
  CHECK(j["visit"] == 2);
  CHECK(j["rounds"] == 1000);
}

TEST_CASE("run directory damage: a damaged block header and a magic number, passed over", "[run_dir][damage]") {
  TempDir tmp;
  const std::string dir = damage_run(tmp, RunDirStatus::complete, false);
  const fs::path file = fs::path(dir) / "rounds" / "cpu-0.zst";
  const std::string good = slurp(file);
  const RunDirReader whole = open_run_dir(dir);
  const std::vector<RunDirReader::VisitEntry> visits(whole.visits_of(0, 2).begin(), whole.visits_of(0, 2).end());
  const RunDirReader::VisitEntry v = visits[1];  // the 4th frame

  SECTION("8 bytes flipped at the frame's start: its header, the magic number with it") {
    std::string bytes = good;
    for (std::size_t i = 0; i < 8; ++i) bytes[v.offset + i] ^= static_cast<char>(0xff);
    damage_write(file, bytes);
    const RunDirReader r = open_run_dir(dir);
    REQUIRE(r.losses().size() == 1);
    CHECK(r.losses()[0].offset == v.offset);
    CHECK(r.losses()[0].bytes == v.size);
    CHECK(r.read_pair(0, 2).rounds.size() == 3000);
    CHECK(r.read_pair(0, 1).rounds.size() == 4000);
  }
  SECTION("a false magic number inside the damage does not derail the index") {
    // The frame's magic number gone, and zstd's magic planted twice in its compressed data:
    // each candidate is tried and refused, the next frame is found.
    std::string bytes = good;
    bytes[v.offset] = 'X';
    const std::string magic("\x28\xb5\x2f\xfd", 4);
    bytes.replace(v.offset + v.size / 3, 4, magic);
    bytes.replace(v.offset + v.size / 2, 4, magic + "");
    bytes[v.offset + v.size / 2 + 4] = '\x24';  // a plausible frame header after it
    damage_write(file, bytes);
    const RunDirReader r = open_run_dir(dir);
    REQUIRE(r.losses().size() == 1);
    CHECK(r.losses()[0].offset == v.offset);
    CHECK(r.losses()[0].bytes == v.size);
    CHECK_THAT(r.losses()[0].what, Catch::Contains("no zstd magic number"));
    CHECK(r.read_pair(0, 2).rounds.size() == 3000);
    CHECK(r.read_pair(0, 1).rounds.size() == 4000);
  }
  SECTION("garbage between two frames, a magic number in it") {
    const std::size_t end = static_cast<std::size_t>(visits[0].offset + visits[0].size);
    const std::string junk = std::string("junk\x28\xb5\x2f\xfd\x24 and more junk", 24);
    damage_write(file, good.substr(0, end) + junk + good.substr(end));
    const RunDirReader r = open_run_dir(dir);
    REQUIRE(r.losses().size() == 1);
    CHECK(run_dir_loss_text(r.losses()[0]) == "rounds/cpu-0.zst at byte " + std::to_string(end) + " (frame 2, " +
                                                  std::to_string(junk.size()) +
                                                  " bytes): pair 0 -> ?: not a zstd frame (no zstd magic number): the "
                                                  "file is damaged");
    CHECK(r.read_pair(0, 2).rounds.size() == 4000);
    CHECK(r.read_pair(0, 1).rounds.size() == 4000);
  }
  SECTION("every visit of a pair lost: the pair is not there to analyse") {
    std::string bytes = good;
    for (const auto& e : visits) bytes[e.offset + e.size / 2] ^= static_cast<char>(0x55);
    damage_write(file, bytes);
    const RunDirReader r = open_run_dir(dir);
    CHECK(!r.try_read_pair(0, 2));
    CHECK(r.losses().size() == 4);
    CHECK_THAT(what_thrown<InputError>([&] { static_cast<void>(r.read_pair(0, 2)); }),
               Catch::StartsWith(dir + ": every visit of pair 0 -> 2 is lost (rounds/cpu-0.zst at byte "));
    CHECK(r.try_read_pair(0, 1)->rounds.size() == 4000);
  }
}

TEST_CASE("run directory damage: a run that says it completed, cut inside a frame", "[run_dir][damage]") {
  TempDir tmp;
  const std::string dir = damage_run(tmp, RunDirStatus::complete);
  const fs::path file = fs::path(dir) / "rounds" / "cpu-0.zst";
  const std::string good = slurp(file);
  const RunDirReader::VisitEntry last = open_run_dir(dir).visits_of(0, 2).back();
  damage_write(file, good.substr(0, good.size() - last.size / 2));
  const RunDirReader r = open_run_dir(dir);
  // Not a run cut short (it says it completed): evidence lost.
  CHECK(r.incomplete_notes().empty());
  REQUIRE(r.losses().size() == 1);
  CHECK(run_dir_loss_text(r.losses()[0]) == "rounds/cpu-0.zst at byte " + std::to_string(last.offset) + " (frame 7, " +
                                                std::to_string(last.size - last.size / 2) +
                                                " bytes): pair 0 -> 2, visit=3 (1000 rounds): the file ends " +
                                                std::to_string(last.size - last.size / 2) +
                                                " bytes into this frame, but the manifest says the run completed");
  const Run run = r.read_pair(0, 2);
  CHECK(run.rounds.size() == 3000);
  CHECK(run.trailer.get("status") == std::optional<std::string_view>("complete"));
  CHECK(r.read_pair(0, 1).rounds.size() == 4000);
}

TEST_CASE("run directory damage: a rounds file missing from a run that completed", "[run_dir][damage]") {
  TempDir tmp;
  const std::string dir = damage_run(tmp, RunDirStatus::complete);
  fs::remove(fs::path(dir) / "rounds" / "cpu-1.zst");
  const RunDirReader r = open_run_dir(dir);
  REQUIRE(r.losses().size() == 1);
  CHECK(run_dir_loss_text(r.losses()[0]) ==
        "rounds/cpu-1.zst: pair 1 -> ?: missing, but the manifest says the run completed and its plan has CPU 1 "
        "initiate pairs (4 visits of 1000 rounds each)");
  CHECK(!r.has_pair(1, 0));
  CHECK(r.read_pair(2, 0).rounds.size() == 4000);
  // Interrupted, the same directory is only incomplete: nothing was promised.
  TempDir tmp2;
  const std::string dir2 = damage_run(tmp2, RunDirStatus::interrupted);
  fs::remove(fs::path(dir2) / "rounds" / "cpu-1.zst");
  CHECK(open_run_dir(dir2).losses().empty());
}

TEST_CASE("run directory damage: a visit's text that is malformed is lost, the others kept", "[run_dir][damage]") {
  TempDir tmp;
  const std::string dir = damage_run(tmp, RunDirStatus::complete, false);
  const fs::path file = fs::path(dir) / "rounds" / "cpu-0.zst";
  const std::string good = slurp(file);
  // A visit line with a control byte and a byte that is not UTF-8 in a key's value: lost at
  // once (the index reads the visit line), quoted printable.
  const std::string bad =
      compress_visit_text(std::string("# visit a=0 b=1 visit=4 rounds=1 quantum_ticks=\x1b[31m\xff first_seq=9\n"));
  damage_write(file, good + bad);
  const RunDirReader r = open_run_dir(dir);
  REQUIRE(r.losses().size() == 1);
  CHECK(r.losses()[0].what ==
        "line 1, column 48 of the visit: quantum_ticks: '\\x1b[31m\\xff' is not an unsigned "
        "decimal number");
  CHECK(r.read_pair(0, 1).rounds.size() == 4000);
}

TEST_CASE("printable: messages quote control bytes and invalid UTF-8 in hex (backslash x NN)", "[printable]") {
  CHECK(printable_text("a\x1b[2J\xff\xc3\xa9\n") == "a\\x1b[2J\\xff\\xc3\\xa9\\x0a");
  TempDir tmp;
  const std::string dir = damage_run(tmp, RunDirStatus::complete, false);
  const fs::path manifest = fs::path(dir) / "manifest.json";
  const std::string good = slurp(manifest);
  SECTION("the manifest: a status with an escape sequence, a byte that is not UTF-8, a detail") {
    std::string text = good;
    text.replace(text.find("\"complete\""), 10, "\"\\u001b[2Jx\"");
    damage_write(manifest, text);
    CHECK_THAT(what_thrown<InputError>([&] { open_run_dir(dir); }),
               Catch::EndsWith(": status '\\x1b[2Jx' is none of running, complete, interrupted, aborted"));
    text = good;
    text.replace(text.find("\"complete\""), 10, "\"compl\xff\xfe\"");
    damage_write(manifest, text);
    const std::string what = what_thrown<InputError>([&] { open_run_dir(dir); });
    CHECK_THAT(what, Catch::Contains(": not JSON: "));
    CHECK_THAT(what, Catch::Contains("\\xff"));
    CHECK(what.find('\xff') == std::string::npos);
    text = good;
    text.replace(text.find("\"complete\""), 10, "\"interrupted\"");
    text.replace(text.find("\"detail\": null"), 14, "\"detail\": \"SIG\\u0007\\u001b]0;x\"");
    damage_write(manifest, text);
    const RunDirReader r = open_run_dir(dir);
    REQUIRE(r.incomplete_notes().size() == 1);
    CHECK_THAT(r.incomplete_notes()[0], Catch::EndsWith("says interrupted: SIG\\x07\\x1b]0;x"));
  }
  SECTION("a visit's error line") {
    damage_write(fs::path(dir) / "rounds" / "cpu-0.zst",
                 compress_visit_text("# visit a=0 b=1 visit=0 rounds=0 quantum_ticks=1 first_seq=0\n"
                                     "# error: partner \x1b[2J\xff gone\n"));
    const Run run = open_run_dir(dir).read_pair(0, 1);
    CHECK(run.trailer.get("error") == std::optional<std::string_view>("visit 1: partner \\x1b[2J\\xff gone"));
  }
  SECTION("the run format and import tables") {
    const Run run = parse_run("t1,t2,t3,t4\n1,2,3,4\n# status: x\x1b[0m\n# error: \xc3(\x07\n", "in");
    CHECK(incomplete_reason(run) == std::optional<std::string>("status is 'x\\x1b[0m': \\xc3(\\x07"));
  }
  SECTION("the interval log") {
    IntervalLog log;
    log.trailer.set("status", "done\x1b[1m\xfe");
    CHECK_THAT(*interval_log_incomplete_reason(log), Catch::StartsWith("unknown status 'done\\x1b[1m\\xfe'"));
    log.trailer.set("status", "aborted");
    log.trailer.set("error", "bad \x9b\x07");
    CHECK(interval_log_incomplete_reason(log) == std::optional<std::string>("aborted: bad \\x9b\\x07"));
  }
}

TEST_CASE("run directory: a manifest with a number beyond a double is not JSON, at that number", "[run_dir]") {
  // Found by the run_dir fuzz harness: nlohmann's parser refuses it with out_of_range, not
  // parse_error, and the reader let it through as another exception (fuzz/regressions/run_dir/).
  TempDir tmp;
  const std::string dir = damage_run(tmp, RunDirStatus::complete, false);
  const fs::path manifest = fs::path(dir) / "manifest.json";
  std::string text = slurp(manifest);
  text.replace(text.find("\"tsc_hz\": "), 10, "\"tsc_hz\": 1e0464, \"x\": ");
  damage_write(manifest, text);
  const std::string what = what_thrown<InputError>([&] { open_run_dir(dir); });
  CHECK_THAT(what, Catch::Matches(".*/manifest.json:[0-9]+:13: not JSON: number overflow parsing '1e0464'"));
}
