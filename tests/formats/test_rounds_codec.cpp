#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "error_messages.hpp"
#include "formats/rounds_codec.hpp"
#include "simulate/simulate.hpp"
#include "simulation_fixture.hpp"

using namespace tscaudit;
using test::what_thrown;

namespace {

/// Rounds that reach every corner of the encoding: counters near 2^64 that wrap inside a
/// round and between rounds, huge forward and backward jumps of t1, cross-clock
/// differences far below zero, every flags value, seqs that jump, go back and sit at
/// kMaxSeq.
std::vector<Round> hostile_rounds(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Round> rounds;
  std::uint64_t t = std::numeric_limits<std::uint64_t>::max() - 5000;  // wraps within a few rounds
  std::uint64_t seq = 0;
  for (std::size_t i = 0; i < n; ++i) {
    switch (rng() % 8) {
      case 0: t += rng(); break;            // any jump, modulo 2^64
      case 1: t -= rng() % 1000000; break;  // backwards
      default: t += 200 + rng() % 3000; break;
    }
    const std::uint64_t t1 = t;
    const std::uint64_t t2 = (rng() % 4 == 0) ? rng() : t1 + rng() % 600 - 300;  // b's counter anywhere
    const std::uint64_t t3 = t2 + rng() % 100;
    const std::uint64_t t4 = (rng() % 16 == 0) ? t3 - rng() : t3 + rng() % 600 - 300;
    switch (rng() % 10) {
      case 0: seq += 2 + rng() % 1000; break;    // a jump
      case 1: seq = rng() % 50; break;           // back
      case 2: seq = kMaxSeq - rng() % 3; break;  // at the top
      default: seq = (seq + 1) & kMaxSeq; break;
    }
    rounds.push_back(Round(seq, t1, t2, t3, t4, rng() % 256));
  }
  return rounds;
}

VisitHeader header_of(int a, int b, std::uint64_t visit, std::uint64_t q, std::string error = "") {
  VisitHeader h;
  h.a = a;
  h.b = b;
  h.visit = visit;
  h.quantum_ticks = q;
  h.error = std::move(error);
  return h;
}

std::string text_of(const VisitHeader& h, const std::vector<Round>& rounds) {
  std::string text;
  append_visit_text(text, h, rounds);
  return text;
}

std::string parse_error(const std::string& text) {
  return what_thrown<InputError>([&] {
    std::vector<Round> rounds;
    parse_visit_text(text, "v", &rounds);
  });
}

}  // namespace

TEST_CASE("visit text: a person reads it, and it is exactly what the format says", "[rounds_codec]") {
  const std::vector<Round> rounds = {
      Round(6000, 1'000'000'000'000, 1'000'000'000'310, 1'000'000'000'362, 1'000'000'000'112, 0),
      Round(6001, 1'000'000'000'520, 1'000'000'000'832, 1'000'000'000'881, 1'000'000'000'633, 3),
      Round(6010, 1'000'000'001'038, 1'000'000'001'343, 1'000'000'001'398, 1'000'000'001'147, 0)};
  const std::string text = text_of(header_of(0, 1, 2, 26, "fewer rounds\nthan asked for"), rounds);
  CHECK(text ==
        "# visit a=0 b=1 visit=2 rounds=3 quantum_ticks=26 first_seq=6000\n"
        "# error: fewer rounds than asked for\n"
        "# columns: t1-t1_prev,t2-t1,t3-t2,t4-t3,flags[,seq]\n"
        "1000000000000,310,52,-250,0\n"
        "520,312,49,-248,3\n"
        "518,305,55,-251,0,6010\n");
  std::vector<Round> back;
  const VisitHeader h = parse_visit_text(text, "v", &back);
  CHECK(back == rounds);
  CHECK(h.a == 0);
  CHECK(h.b == 1);
  CHECK(h.visit == 2);
  CHECK(h.rounds == 3);
  CHECK(h.quantum_ticks == 26);
  CHECK(h.first_seq == 6000);
  CHECK(h.error == "fewer rounds than asked for");
}

TEST_CASE("visit frames round-trip seeded hostile rounds exactly", "[rounds_codec]") {
  for (std::uint64_t seed : {1u, 2u, 3u, 42u}) {
    const std::vector<Round> rounds = hostile_rounds(5000, seed);
    const std::string frame = compress_visit(header_of(7, 3, seed, 26), rounds);
    const FrameExtent e = next_frame(frame);
    REQUIRE(e.kind == FrameKind::visit);
    CHECK(e.size_bytes == frame.size());
    std::vector<Round> back = {Round(99, 1, 2, 3, 4, 0)};  // rounds are appended
    const VisitHeader h = decode_visit_frame(frame, "f", &back);
    REQUIRE(back.size() == rounds.size() + 1);
    CHECK(std::vector<Round>(back.begin() + 1, back.end()) == rounds);
    CHECK(h.a == 7);
    CHECK(h.b == 3);
    CHECK(h.visit == seed);
    CHECK(h.rounds == 5000);
    CHECK(h.first_seq == rounds.front().seq);
    // The header alone, without the rounds.
    const VisitHeader only = decode_visit_frame(frame, "f", nullptr);
    CHECK(only.rounds == 5000);
    CHECK(only.error.empty());
  }
}

TEST_CASE("visit frames: a seq offset, an empty visit with its error", "[rounds_codec]") {
  const std::vector<Round> rounds = {Round(0, 10, 20, 30, 40), Round(1, 50, 60, 70, 80)};
  std::vector<Round> back;
  decode_visit_frame(compress_visit(header_of(0, 1, 0, 1), rounds, 3000), "f", &back);
  REQUIRE(back.size() == 2);
  CHECK(back[0].seq == 3000);
  CHECK(back[1].seq == 3001);
  CHECK(back[1].t4 == 80);

  VisitHeader failed = header_of(2, 0, 4, 1, "partner stopped answering");
  failed.first_seq = 12000;
  const std::string frame = compress_visit(failed, {});
  back.clear();
  const VisitHeader h = decode_visit_frame(frame, "f", &back);
  CHECK(back.empty());
  CHECK(h.rounds == 0);
  CHECK(h.first_seq == 12000);
  CHECK(h.error == "partner stopped answering");
}

TEST_CASE("visit text: malformed lines are named by line and column", "[rounds_codec]") {
  const std::string head = "# visit a=0 b=1 visit=0 rounds=1 quantum_ticks=1 first_seq=0\n";
  test::check_messages(
      parse_error,
      {
          {"", "v: empty visit (no '# visit' line)"},
          {"1,2,3,4,0\n",
           "v:1:1: expected the visit line '# visit a=A b=B visit=V rounds=N quantum_ticks=Q "
           "first_seq=S', found '1,2,3,4,0'"},
          {"# visitor\n",
           "v:1:1: expected the visit line '# visit a=A b=B visit=V rounds=N quantum_ticks=Q "
           "first_seq=S', found '# visitor'"},
          {"# visit a=0 b=1 visit=0 rounds=1 quantum_ticks=1\n", "v:1:1: the visit line lacks first_seq="},
          {"# visit a=x b=1\n", "v:1:11: a: 'x' is not an unsigned decimal number"},
          {"# visit a=0 b\n", "v:1:13: 'b' is not key=value"},
          {"# visit a=3000000000 b=1 visit=0 rounds=0 quantum_ticks=1 first_seq=0\n",
           "v:1:1: a=3000000000 is not a CPU number"},
          {"# visit a=0 b=1 visit=0 rounds=0 quantum_ticks=0 first_seq=0\n",
           "v:1:1: quantum_ticks=0 (the counter's step is at least 1 tick)"},
          {head + "1,2,3,4\n", "v:2:8: found 4 fields, a round has 5 or 6"},
          {head + "1,2,x,4,0\n", "v:2:5: 'x' is not a signed decimal number"},
          {head + "1,2,3,4,256\n", "v:2:9: flags '256' beyond 8 bits (at most 255)"},
          {head + "1,2,3,4,0,72057594037927936\n", "v:2:11: seq '72057594037927936' beyond 2^56 - 1"},
          {head + "1,2,3,4,0,5,6\n", "v:2:13: more than 6 fields (t1-t1_prev,t2-t1,t3-t2,t4-t3,flags[,seq])"},
          {head + "99999999999999999999,2,3,4,0\n", "v:2:1: '99999999999999999999' is beyond 64 bits"},
          {head + "1,2,3,4,0\n1,2,3,4,0\n", "v:3:1: more round lines than the visit line's rounds=1"},
          {head, "v:1: the visit line says rounds=1 but 0 round lines follow"},
          {head + "1,2,3,4,0", "v:2: the visit's text ends in the middle of a line"},
      });
  // Keys in any order, unknown keys and '#' lines read past (a later version may add them).
  std::vector<Round> back;
  const VisitHeader h = parse_visit_text(
      "# visit first_seq=5 rounds=1 new_key=x quantum_ticks=2 visit=1 b=4 a=3\n# note: later\n10,1,1,1,0\n", "v",
      &back);
  CHECK(h.a == 3);
  CHECK(h.b == 4);
  REQUIRE(back.size() == 1);
  CHECK(back[0] == Round(5, 10, 11, 12, 13, 0));
}

TEST_CASE("frames: kinds, cuts and damage", "[rounds_codec]") {
  const std::vector<Round> rounds = hostile_rounds(3000, 9);
  const std::string frame = compress_visit(header_of(1, 2, 0, 1), rounds);
  CHECK(next_frame("garbage!").kind == FrameKind::not_zstd);
  CHECK(next_frame("ga").kind == FrameKind::not_zstd);
  CHECK(next_frame(frame.substr(0, 2)).kind == FrameKind::truncated);
  // A skippable frame: magic 0x184D2A50, 4-byte size, payload.
  const std::string skippable = std::string("\x50\x2a\x4d\x18\x03\x00\x00\x00xyz", 11);
  const FrameExtent s = next_frame(skippable + frame);
  CHECK(s.kind == FrameKind::skippable);
  CHECK(s.size_bytes == 11);
  // Cut anywhere: truncated, and what is there decompresses without error.
  for (std::size_t cut : {std::size_t{1}, std::size_t{5}, std::size_t{17}, frame.size() / 2, frame.size() - 1}) {
    INFO("cut " << cut);
    const std::string part = frame.substr(0, frame.size() - cut);
    CHECK(next_frame(part).kind == FrameKind::truncated);
    CHECK_NOTHROW(peek_truncated_frame(part, "f"));
  }
  // A flipped byte inside the compressed data: the checksum or the decoder says so.
  std::string damaged = frame;
  damaged[damaged.size() / 2] = static_cast<char>(damaged[damaged.size() / 2] ^ 0x5a);
  REQUIRE(next_frame(damaged).kind == FrameKind::visit);
  const std::string what = what_thrown<InputError>([&] {
    std::vector<Round> back;
    decode_visit_frame(damaged, "f", &back);
  });
  CHECK_THAT(what, Catch::StartsWith("f: the zstd frame does not decompress ("));
  CHECK_THAT(what, Catch::EndsWith("): the file is damaged"));
}

TEST_CASE("visit frames: bytes per round of a realistic simulated visit", "[rounds_codec]") {
  // 3000 rounds per visit, as the default matrix plan measures (matrix_plan.hpp), on the
  // simulator's defaults with an AMD-like quantum of 26 ticks and with none.
  for (std::uint64_t q : {1u, 26u}) {
    SimulationTruth truth;
    const Run run = simulate(
        test::simulation_spec({.rounds = 300'000, .seed = 5, .offset_ticks = 120, .drift_ppb = 0, .quantum_ticks = q}),
        truth);
    std::size_t bytes = 0;
    for (std::size_t first = 0, visit = 0; first < run.rounds.size(); first += 3000, ++visit) {
      const std::span<const Round> part(run.rounds.data() + first,
                                        std::min<std::size_t>(3000, run.rounds.size() - first));
      bytes += compress_visit(header_of(0, 1, visit, q), part).size();
    }
    const double per_round = static_cast<double>(bytes) / static_cast<double>(run.rounds.size());
    INFO("quantum " << q << ": " << bytes << " bytes for " << run.rounds.size() << " rounds, " << per_round
                    << " bytes per round");
    CHECK(per_round <= 12.0);
  }
}
