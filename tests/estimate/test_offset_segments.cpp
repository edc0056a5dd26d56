// offset_segments on hand-made bounds whose answer can be worked out on paper.
#include <catch2/catch.hpp>

#include <vector>

#include "estimate/offset_segments.hpp"

using namespace tscaudit;

namespace {

/// Source i: an upper bound offset(i) + 10 at x = i * spacing and a lower bound
/// offset(i) - 10 at x = i * spacing + spacing / 2.
template <class Offset>
std::vector<TimedBound> bounds_of(std::size_t sources, std::int64_t spacing, Offset offset) {
  std::vector<TimedBound> out;
  for (std::size_t i = 0; i < sources; ++i) {
    const std::int64_t x = static_cast<std::int64_t>(i) * spacing;
    out.push_back({{x, offset(i, x) + 10}, true, i});
    out.push_back({{x + spacing / 2, offset(i, x + spacing / 2) - 10}, false, i});
  }
  return out;
}

}  // namespace

TEST_CASE("offset_segments: one line fits: one piece and no change") {
  const auto seg = segment_offset(bounds_of(20, 10, [](std::size_t, std::int64_t) { return std::int64_t{0}; }), 1);
  REQUIRE(seg.pieces.size() == 1);
  CHECK(seg.changes.empty());
  CHECK(seg.transients.empty());
  const OffsetPiece& p = seg.pieces[0];
  CHECK(p.first == 0);
  CHECK(p.last == 40);
  CHECK(p.zero_drift);
  CHECK(p.line.offset_ticks == Approx(0.0).margin(1e-12));
  CHECK(p.line.margin_ticks == Approx(10.0));
  CHECK(bounds_admit_one_line(seg.bounds, 1));
}

TEST_CASE("offset_segments: a step of 100 between sources 9 and 10 is found and placed and sized") {
  const auto seg = segment_offset(
      bounds_of(20, 10, [](std::size_t i, std::int64_t) { return i < 10 ? std::int64_t{0} : std::int64_t{100}; }), 1);
  CHECK_FALSE(bounds_admit_one_line(seg.bounds, 1));
  REQUIRE(seg.pieces.size() == 2);
  REQUIRE(seg.changes.size() == 1);
  CHECK(seg.transients.empty());
  const OffsetChange& c = seg.changes[0];
  // The last bound the later line cannot fit: source 9's upper bound 10 at x = 90 (its
  // lower bound -10 at x = 95 fits the later line). The first bound the earlier line
  // cannot fit: source 10's lower bound 90 at x = 105 (its upper 110 at x = 100 fits).
  CHECK(c.window_lo_x == Approx(90));
  CHECK(c.window_hi_x == Approx(105));
  CHECK(c.window_lo_source == 9);
  CHECK(c.window_hi_source == 10);
  CHECK(c.at_x == Approx(97.5));
  CHECK(c.size_ticks == Approx(100));
  // Bands [-11, 11] and [89, 111], each widened at 97.5 by at most 1e-3 x 7.5 ticks of drift.
  CHECK(c.size_lo_ticks == Approx(78).margin(0.02));
  CHECK(c.size_hi_ticks == Approx(122).margin(0.02));
  CHECK(c.proven_step);
  CHECK(seg.pieces[0].line.offset_ticks == Approx(0.0).margin(1e-9));
  CHECK(seg.pieces[1].line.offset_ticks == Approx(100.0));
}

TEST_CASE("offset_segments: two steps give three pieces and so does a step with its return") {
  SECTION("up 100, then up 150") {
    const auto seg =
        segment_offset(bounds_of(30, 10,
                                 [](std::size_t i, std::int64_t) {
                                   return i < 10 ? std::int64_t{0} : i < 20 ? std::int64_t{100} : std::int64_t{250};
                                 }),
                       1);
    REQUIRE(seg.pieces.size() == 3);
    REQUIRE(seg.changes.size() == 2);
    CHECK(seg.changes[0].size_ticks == Approx(100));
    CHECK(seg.changes[1].size_ticks == Approx(150));
    CHECK(seg.changes[1].window_lo_source == 19);
    CHECK(seg.changes[1].window_hi_source == 20);
    CHECK(seg.changes[0].proven_step);
    CHECK(seg.changes[1].proven_step);
  }
  SECTION("up 300 for ten sources, then back") {
    const auto seg = segment_offset(
        bounds_of(30, 10,
                  [](std::size_t i, std::int64_t) { return i >= 10 && i < 20 ? std::int64_t{300} : std::int64_t{0}; }),
        1);
    REQUIRE(seg.changes.size() == 2);
    CHECK(seg.changes[0].size_ticks == Approx(300));
    CHECK(seg.changes[1].size_ticks == Approx(-300));
    CHECK(seg.pieces[2].line.offset_ticks == Approx(0.0).margin(1e-9));
  }
}

TEST_CASE("offset_segments: one too-small bound is set aside as a transient and not taken for two steps") {
  std::vector<TimedBound> bounds = bounds_of(20, 10, [](std::size_t, std::int64_t) { return std::int64_t{0}; });
  bounds[14].point.y = -50;  // source 7's upper bound: an early read 60 ticks below the rest
  const auto seg = segment_offset(bounds, 1);
  REQUIRE(seg.pieces.size() == 1);
  CHECK(seg.changes.empty());
  REQUIRE(seg.transients.size() == 1);
  REQUIRE(seg.transients[0].bounds.size() == 1);
  const TimedBound& aside = seg.bounds[seg.transients[0].bounds[0]];
  CHECK(aside.source == 7);
  CHECK(aside.upper);
  CHECK(seg.pieces[0].set_aside == seg.transients[0].bounds);
  CHECK(seg.pieces[0].line.offset_ticks == Approx(0.0).margin(1e-9));  // the early read left no mark
}

TEST_CASE("offset_segments: a change of rate whose bands meet is a bend and not a proven step") {
  // Flat for 10 sources, then rising by 100 ticks per source (1e-4 per tick): no one line
  // fits, but at the change both sides allow offset 0.
  const auto seg = segment_offset(
      bounds_of(20, 1'000'000,
                [](std::size_t i, std::int64_t x) { return i < 10 ? std::int64_t{0} : (x - 10'000'000) / 10'000; }),
      1);
  REQUIRE(seg.changes.size() == 1);
  const OffsetChange& c = seg.changes[0];
  CHECK_FALSE(c.proven_step);
  CHECK(c.size_lo_ticks <= 0);
  CHECK(c.size_hi_ticks >= 0);
  CHECK(seg.pieces[1].line.drift == Approx(1e-4).margin(1e-6));
}

TEST_CASE("offset_segments: empty input and one-sided input") {
  CHECK(segment_offset({}, 1).pieces.empty());
  const auto seg = segment_offset({{{0, 5}, true, 0}, {{10, 7}, true, 1}}, 1);
  REQUIRE(seg.pieces.size() == 1);
  CHECK(seg.pieces[0].one_sided);
  CHECK_FALSE(seg.pieces[0].fit.band.feasible);
}

TEST_CASE("offset_segments: more pieces than max_pieces is left unresolved") {
  auto offset = [](std::size_t i, std::int64_t) {
    return i < 10 ? std::int64_t{0} : i < 20 ? std::int64_t{100} : std::int64_t{250};
  };
  const auto unresolved = segment_offset(bounds_of(30, 10, offset), 1, kMinPieceSources, 2);
  CHECK_FALSE(unresolved.resolved);
  CHECK(unresolved.pieces.size() == 3);
  CHECK(unresolved.changes.empty());
  CHECK(segment_offset(bounds_of(30, 10, offset), 1, kMinPieceSources, 3).resolved);
}
