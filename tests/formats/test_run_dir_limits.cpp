// A hostile run directory (docs/formats.md, "Run directory", "Limits"): what is beyond the
// limits is refused with the file, line and column named; well-formed evidence that claims
// more than a visit holds is a loss; a loss found again is known once.
#include <catch2/catch.hpp>

#include <zstd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/cpu_list.hpp"
#include "core/errors.hpp"
#include "error_messages.hpp"
#include "formats/json_bounds.hpp"
#include "formats/rounds_codec.hpp"
#include "formats/run_dir.hpp"
#include "hostile_dir_fixture.hpp"
#include "io/run_dir_writer.hpp"
#include "skip.hpp"
#include "temp_files.hpp"

using namespace tscaudit;
using test::what_thrown;
namespace fs = std::filesystem;

namespace {

/// A complete run directory of CPUs 0 and 1 at tmp/run: `visits` visits of pair 0 -> 1 (visit
/// i of rounds[i] rounds) and one of 1 -> 0, plan spec `rounds_per_visit`.
std::string limits_run(test::TempDir& tmp, const std::vector<std::size_t>& rounds, std::uint64_t rounds_per_visit,
                       bool topology = false) {
  const std::string dir = tmp.at("run");
  auto w = RunDirWriter::create(dir, test::hostile_manifest({0, 1}, rounds_per_visit),
                                topology ? std::optional<std::string_view>("<topology/>\n") : std::nullopt);
  for (std::size_t v = 0; v < rounds.size(); ++v) {
    w->append_visit(0, 1, v, v * 1000, test::hostile_rounds(rounds[v], 1'000'000 * (v + 1)), 1, "");
  }
  w->append_visit(1, 0, 0, 0, test::hostile_rounds(100, 5'000'000), 1, "");
  w->finish(RunDirStatus::complete, "", "2026-12-02T04:03:00.000Z");
  return dir;
}

/// The manifest of `dir` with `edit` applied to its JSON, written back compact (one line).
template <class Edit>
std::string edit_manifest(const std::string& dir, Edit edit) {
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(test::slurp(fs::path(dir) / "manifest.json"));
  edit(j);
  const std::string text = j.dump();
  test::spit(fs::path(dir) / "manifest.json", text);
  return text;
}

/// `text` as one zstd frame whose header gives no content size (what a stream writes).
std::string frame_without_size(const std::string& text) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  std::string frame(ZSTD_compressBound(text.size()) + 64, '\0');
  ZSTD_outBuffer out{frame.data(), frame.size(), 0};
  ZSTD_inBuffer in{text.data(), text.size(), 0};
  // Given in two calls, the first without ending: zstd cannot know the size when it writes the header.
  ZSTD_compressStream2(cctx, &out, &in, ZSTD_e_continue);
  ZSTD_inBuffer none{nullptr, 0, 0};
  while (ZSTD_compressStream2(cctx, &out, &none, ZSTD_e_end) != 0) {
  }
  ZSTD_freeCCtx(cctx);
  frame.resize(out.pos);
  return frame;
}

std::string open_error(const std::string& dir) {
  return what_thrown<InputError>([&] { static_cast<void>(open_run_dir(dir)); });
}

}  // namespace

TEST_CASE("run directory limits: a manifest nested 65 deep is refused at its bracket, 64 is read", "[run_dir][limits]") {
  test::TempDir tmp;
  const std::string dir = limits_run(tmp, {100}, 100);
  // The manifest is level 1 and platform level 2: 62 arrays in it make 64 levels.
  edit_manifest(dir, [](nlohmann::ordered_json& j) { j["platform"]["deep"] = nlohmann::ordered_json::parse(test::nested_arrays(62)); });
  CHECK(open_error(dir) == "(no error)");
  const std::string text = edit_manifest(
      dir, [](nlohmann::ordered_json& j) { j["platform"]["deep"] = nlohmann::ordered_json::parse(test::nested_arrays(63)); });
  const std::size_t at = text.find(test::nested_arrays(63)) + 62;  // the 63rd '[' of it
  CHECK(open_error(dir) == dir + "/manifest.json:1:" + std::to_string(at + 1) + ": nested deeper than 64");
}

TEST_CASE("run directory limits: pair_header of 4096 keys is read in order, of 4097 refused at its key",
          "[run_dir][limits]") {
  test::TempDir tmp;
  const std::string dir = limits_run(tmp, {100}, 100);
  edit_manifest(dir, [](nlohmann::ordered_json& j) {
    nlohmann::ordered_json h = nlohmann::ordered_json::object();
    for (std::size_t i = 0; i < kMaxPairHeaderKeys; ++i) h["k" + std::to_string(kMaxPairHeaderKeys - i)] = "v";
    j["pair_header"] = h;
  });
  const RunDirReader r = open_run_dir(dir);
  REQUIRE(r.manifest().pair_header.entries().size() == 4096);
  CHECK(r.manifest().pair_header.entries().front().first == "k4096");
  CHECK(r.manifest().pair_header.entries().back().first == "k1");
  const std::string text = edit_manifest(dir, [](nlohmann::ordered_json& j) { j["pair_header"]["k0"] = "v"; });
  CHECK(open_error(dir) == dir + "/manifest.json:1:" + std::to_string(text.find("\"pair_header\"") + 1) +
                               ": pair_header: 4097 keys, more than the 4096 a manifest's pair_header may hold");
}

TEST_CASE("run directory limits: more CPUs than kMaxMatrixCpus, or a CPU beyond kMaxCpu, refused at cpus",
          "[run_dir][limits]") {
  test::TempDir tmp;
  const std::string dir = limits_run(tmp, {100}, 100);
  std::string text = edit_manifest(dir, [](nlohmann::ordered_json& j) {
    std::vector<int> cpus(static_cast<std::size_t>(kMaxMatrixCpus) + 1);
    for (std::size_t i = 0; i < cpus.size(); ++i) cpus[i] = static_cast<int>(i);
    j["cpus"] = cpus;
  });
  const std::string where = dir + "/manifest.json:1:" + std::to_string(text.find("\"cpus\"") + 1);
  CHECK(open_error(dir) == where + ": cpus: 4097 CPUs, more than the 4096 a run directory may hold");
  edit_manifest(dir, [](nlohmann::ordered_json& j) { j["cpus"] = {0, 1, 8192}; });
  CHECK(open_error(dir) == where + ": cpus: CPU 8192 is beyond the largest CPU number, 8191");
  edit_manifest(dir, [](nlohmann::ordered_json& j) { j["cpus"] = {0, 1, 8191}; });
  CHECK(open_run_dir(dir).manifest().cpus == std::vector<int>{0, 1, 8191});
}

TEST_CASE("run directory limits: a visit that claims more rounds than the plan's visits hold is lost, never decoded",
          "[run_dir][limits]") {
  test::TempDir tmp;
  const std::string dir = limits_run(tmp, {100, 101, 100}, 100);
  const RunDirReader r = open_run_dir(dir);
  const std::vector<RunDirLoss> losses = r.losses();
  REQUIRE(losses.size() == 1);
  CHECK(run_dir_loss_text(losses[0]) == "rounds/cpu-0.zst at byte " + std::to_string(losses[0].offset) + " (frame 1, " +
                                            std::to_string(losses[0].bytes) +
                                            " bytes): pair 0 -> 1, visit=1 (101 rounds): claims 101 rounds, the "
                                            "plan's visits hold at most 100");
  CHECK(losses[0].offset == r.visits_of(0, 1)[0].size);  // the second frame, right after the first
  REQUIRE(r.visits_of(0, 1).size() == 2);
  CHECK(r.visits_of(0, 1)[1].visit == 2);
  const Run run = r.read_pair(0, 1);
  CHECK(run.rounds.size() == 200);
  CHECK(r.losses().size() == 1);
}

TEST_CASE("run directory limits: a frame that says it decompresses to more than 256 times its size is lost",
          "[run_dir][limits]") {
  test::TempDir tmp;
  const std::string dir = limits_run(tmp, {100}, 1'000'000);
  // 100,000 rounds of one line over and over: a few hundred bytes that say 1 MB.
  std::string text = "# visit a=0 b=1 visit=1 rounds=100000 quantum_ticks=1 first_seq=1000\n"
                     "# columns: t1-t1_prev,t2-t1,t3-t2,t4-t3,flags[,seq]\n";
  for (int i = 0; i < 100000; ++i) text += "1,1,1,1,0\n";
  const std::string frame = compress_visit_text(text);
  REQUIRE(text.size() > max_frame_content_bytes(frame.size()));
  const fs::path file = fs::path(dir) / "rounds" / "cpu-0.zst";
  const std::uint64_t before = fs::file_size(file);
  std::ofstream(file, std::ios::binary | std::ios::app) << frame;
  const RunDirReader r = open_run_dir(dir);
  const std::vector<RunDirLoss> losses = r.losses();
  REQUIRE(losses.size() == 1);
  CHECK(run_dir_loss_text(losses[0]) ==
        "rounds/cpu-0.zst at byte " + std::to_string(before) + " (frame 1, " + std::to_string(frame.size()) +
            " bytes): pair 0 -> 1, visit=1 (100000 rounds): its zstd header says it decompresses to " +
            std::to_string(text.size()) + " bytes, more than 256 times its " + std::to_string(frame.size()) +
            " bytes and 4096 more: not a visit");
  // decode_visit_frame refuses it too, before a byte is decompressed.
  std::vector<Round> rounds;
  CHECK(what_thrown<InputError>([&] { decode_visit_frame(frame, "f", &rounds); }) ==
        "f: its zstd header says it decompresses to " + std::to_string(text.size()) + " bytes, more than 256 times its " +
            std::to_string(frame.size()) + " bytes and 4096 more: not a visit");
  CHECK(rounds.empty());
  CHECK(r.read_pair(0, 1).rounds.size() == 100);
}

TEST_CASE("run directory limits: the same frame given many times, each later copy one loss, in file order, once",
          "[run_dir][limits]") {
  test::TempDir tmp;
  const std::string dir = limits_run(tmp, {100}, 100);
  const fs::path file = fs::path(dir) / "rounds" / "cpu-0.zst";
  const std::string frame = test::slurp(file);
  std::string copies;
  for (int i = 0; i < 1000; ++i) copies += frame;
  test::spit(file, copies);
  const RunDirReader r = open_run_dir(dir);
  static_cast<void>(r.read_pair(0, 1));
  static_cast<void>(r.read_pair(0, 1));
  const std::vector<RunDirLoss> losses = r.losses();
  REQUIRE(losses.size() == 999);
  bool in_order = true;
  for (std::size_t i = 0; i < losses.size(); ++i) {
    in_order = in_order && losses[i].offset == (i + 1) * frame.size() && losses[i].frame == i + 1;
  }
  CHECK(in_order);
  CHECK(run_dir_loss_text(losses[0]) == "rounds/cpu-0.zst at byte " + std::to_string(frame.size()) + " (frame 1, " +
                                            std::to_string(frame.size()) +
                                            " bytes): pair 0 -> 1, visit=0 (100 rounds): visit=0 of pair 0 -> 1 "
                                            "appears twice (kept: the frame at byte 0)");
  CHECK(r.read_pair(0, 1).rounds.size() == 100);
}

TEST_CASE("run directory limits: a FIFO or a device at manifest.json or topology.xml is refused, never waited on",
          "[run_dir][limits]") {
  test::TempDir tmp;
  const std::string dir = limits_run(tmp, {100}, 100, true);
  const std::string topology = dir + "/topology.xml";
  fs::remove(topology);
  if (!test::make_fifo(topology)) {
    test::skip_test("mkfifo failed: this file system holds no FIFO");
    return;
  }
  const RunDirReader r = open_run_dir(dir);
  CHECK(what_thrown<InputError>([&] { static_cast<void>(r.topology_xml()); }) ==
        topology + ": not a regular file (a FIFO)");
  fs::remove(topology);
  fs::create_symlink("/dev/zero", topology);
  CHECK(what_thrown<InputError>([&] { static_cast<void>(r.topology_xml()); }) ==
        topology + ": not a regular file (a character device)");
  const std::string manifest = dir + "/manifest.json";
  fs::remove(manifest);
  REQUIRE(test::make_fifo(manifest));
  CHECK(open_error(dir) == manifest + ": not a regular file (a FIFO)");
  fs::remove(manifest);
  test::spit(manifest, "");
  fs::resize_file(manifest, kMaxManifestBytes + 1);
  CHECK(open_error(dir) == manifest + ": 67108865 bytes, more than the 67108864 bytes a manifest may hold");
}

TEST_CASE("run directory limits: a frame that gives no size is stopped at 256 times its size while it decompresses",
          "[run_dir][limits]") {
  std::string text = "# visit a=0 b=1 visit=1 rounds=100000 quantum_ticks=1 first_seq=1000\n"
                     "# columns: t1-t1_prev,t2-t1,t3-t2,t4-t3,flags[,seq]\n";
  for (int i = 0; i < 100000; ++i) text += "1,1,1,1,0\n";
  const std::string frame = frame_without_size(text);
  REQUIRE_FALSE(frame_content_bytes(frame).has_value());
  REQUIRE(text.size() > max_frame_content_bytes(frame.size()));
  // The visit line alone is read (an index's view of it) ...
  CHECK(decode_visit_frame(frame, "f", nullptr).rounds == 100000);
  // ... but the rounds are not: the frame ends as a loss past 256 times its size and 4 KiB.
  std::vector<Round> rounds;
  CHECK(what_thrown<InputError>([&] { decode_visit_frame(frame, "f", &rounds); }) ==
        "f: the zstd frame decompresses to more than " + std::to_string(max_frame_content_bytes(frame.size())) +
            " bytes, 256 times its " + std::to_string(frame.size()) + " bytes and 4096 more: not a visit");
  CHECK(rounds.size() < 100000);
  // A frame without a size that holds what a visit holds reads as one.
  std::string small_text = text.substr(0, text.find("1,1,1,1,0\n") + 10 * 1000);
  small_text.replace(small_text.find("rounds=100000"), 13, "rounds=1000");
  std::vector<Round> some;
  CHECK(decode_visit_frame(frame_without_size(small_text), "f", &some).rounds == 1000);
  CHECK(some.size() == 1000);
}
