// PairCells: an n×n grid that keeps a full cell only for the cells written, read back as
// a dense vector of cells would be.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "matrix/pair_cells.hpp"

using namespace tscaudit;

namespace {

PairCell measured(double offset_ticks) {
  PairCell c;
  c.measured = true;
  c.rounds = 100;
  c.offset_ticks = offset_ticks;
  return c;
}

}  // namespace

TEST_CASE("PairCells: unwritten cells read as the fill, written ones as written") {
  PairCells cells;
  CHECK(cells.empty());
  cells.assign(9, PairCell{});
  CHECK(cells.size() == 9);
  CHECK(cells.written() == 0);
  PairCell& first = cells[4];
  first = measured(12);
  // References stay valid as more cells are written.
  for (const std::size_t k : std::vector<std::size_t>{0, 1, 2, 3, 5, 6, 7, 8})
    cells[k] = measured(static_cast<double>(k));
  CHECK(first.offset_ticks == Approx(12));
  const PairCells& read = cells;
  CHECK(read[4].offset_ticks == Approx(12));
  CHECK(read[8].offset_ticks == Approx(8));
  cells.assign(4, PairCell{});
  CHECK(cells.written() == 0);
  const PairCells& again = cells;
  CHECK(!again[3].measured);
  CHECK(std::isnan(again[3].offset_ticks));
}

TEST_CASE("PairCells: iteration visits the written cells in the order first written") {
  PairCells cells;
  cells.assign(6, PairCell{});
  cells[5] = measured(5);
  cells[1] = measured(1);
  cells[5].rounds = 7;  // written again: still one cell
  std::vector<double> seen;
  std::uint64_t rounds = 0;
  for (const PairCell& c : cells) {
    seen.push_back(c.offset_ticks);
    rounds += c.rounds;
  }
  REQUIRE(seen.size() == 2);
  CHECK(seen[0] == Approx(5));
  CHECK(seen[1] == Approx(1));
  CHECK(rounds == 107);
}

TEST_CASE("PairCells: from a dense vector, and resized") {
  std::vector<PairCell> dense(4);
  dense[1] = measured(-3);
  PairCells cells = dense;
  CHECK(cells.size() == 4);
  CHECK(cells.written() == 4);
  CHECK(static_cast<const PairCells&>(cells)[1].offset_ticks == Approx(-3));
  cells.resize(2);
  CHECK(cells.size() == 2);
  CHECK(cells.written() == 2);
  CHECK(static_cast<const PairCells&>(cells)[1].offset_ticks == Approx(-3));
  cells.resize(5);
  CHECK(cells.written() == 2);
  CHECK(!static_cast<const PairCells&>(cells)[4].measured);
  std::size_t visited = 0;
  for (const PairCell& c : cells) visited += c.measured ? 1 : 0;
  CHECK(visited == 1);
}
