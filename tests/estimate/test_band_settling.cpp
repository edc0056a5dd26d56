// The quick check's stopping rule, block by block, on exact widths.
#include <catch2/catch.hpp>

#include <limits>

#include "estimate/band_settling.hpp"

using namespace tscaudit;

TEST_CASE("band settling: two blocks in a row that do not narrow the band, after the fourth") {
  BandSettling s;  // min 4 blocks, patience 2, 1 %
  CHECK_FALSE(s.add_block(100));
  CHECK_FALSE(s.add_block(90));
  CHECK_FALSE(s.add_block(80));
  CHECK_FALSE(s.add_block(70));
  CHECK_FALSE(s.add_block(70));  // one still block
  CHECK(s.add_block(70));        // two in a row
  CHECK(s.settled());
  CHECK(s.blocks() == 6);
  CHECK(s.add_block(10));  // settled stays settled
}

TEST_CASE("band settling: a narrowing block starts the count again") {
  BandSettling s(4, 2, 0.01);
  for (double w : {100.0, 100.0, 100.0}) CHECK_FALSE(s.add_block(w));  // still 2 after 3 blocks: too few
  CHECK(s.add_block(100));                                             // 4 blocks, still 3
  BandSettling t(4, 2, 0.01);
  for (double w : {100.0, 100.0, 100.0, 50.0, 50.0}) CHECK_FALSE(t.add_block(w));
  CHECK(t.add_block(50));
}

TEST_CASE("band settling: narrowing by less than a tick or 1 % of the width counts as still") {
  BandSettling s(1, 2, 0.01);
  CHECK_FALSE(s.add_block(1000));
  CHECK_FALSE(s.add_block(991));  // 9 < 10 (1 %): still
  CHECK(s.add_block(990.5));      // 0.5 < max(1, 9.91): still, twice
  BandSettling t(1, 2, 0.01);
  CHECK_FALSE(t.add_block(50));
  CHECK_FALSE(t.add_block(49.5));  // below a tick
  CHECK(t.add_block(49));          // 0.5 again
  BandSettling u(1, 2, 0.01);
  CHECK_FALSE(u.add_block(1000));
  CHECK_FALSE(u.add_block(980));  // 20 >= 10: narrowed
  CHECK_FALSE(u.add_block(980));
  CHECK(u.add_block(980));
}

TEST_CASE("band settling: a width that is not finite never counts as still") {
  const double inf = std::numeric_limits<double>::infinity();
  BandSettling s(1, 1, 0.01);
  CHECK_FALSE(s.add_block(inf));
  CHECK_FALSE(s.add_block(inf));
  CHECK_FALSE(s.add_block(40));
  CHECK(s.add_block(40));
}
