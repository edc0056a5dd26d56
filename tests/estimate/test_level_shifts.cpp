// find_level_shifts on short series whose shifts are known exactly.
#include <catch2/catch.hpp>

#include <vector>

#include "estimate/level_shifts.hpp"

using namespace tscaudit;

namespace {

std::vector<double> levels(std::initializer_list<std::pair<std::size_t, double>> runs) {
  std::vector<double> out;
  for (const auto& [n, v] : runs) out.insert(out.end(), n, v);
  return out;
}

}  // namespace

TEST_CASE("level shifts: one shift of 20 at index 10 with a steady margin is offset-like") {
  const std::vector<double> v = levels({{10, 0.0}, {10, 20.0}});
  const std::vector<double> margin(v.size(), 100.0);
  const auto shifts = find_level_shifts(v, margin, 1);
  REQUIRE(shifts.size() == 1);
  CHECK(shifts[0].first_after == 10);
  CHECK(shifts[0].size == Approx(20));
  CHECK(shifts[0].residual_sd == Approx(0).margin(1e-9));
  CHECK(shifts[0].margin_change == Approx(0).margin(1e-9));
  CHECK(shifts[0].offset_like);
}

TEST_CASE("level shifts: the margin moving with the estimate means the delays changed") {
  const std::vector<double> v = levels({{10, 0.0}, {10, 20.0}});
  const std::vector<double> margin = levels({{10, 100.0}, {10, 120.0}});
  const auto shifts = find_level_shifts(v, margin, 1);
  REQUIRE(shifts.size() == 1);
  CHECK(shifts[0].margin_change == Approx(20));
  CHECK_FALSE(shifts[0].offset_like);  // 20 > max(2 q, 20 / 4)
}

TEST_CASE("level shifts: two shifts are each found but noise and small moves are not") {
  SECTION("up 30 at 10, down 50 at 20") {
    const std::vector<double> v = levels({{10, 0.0}, {10, 30.0}, {10, -20.0}});
    const auto shifts = find_level_shifts(v, std::vector<double>(v.size(), 50.0), 1);
    REQUIRE(shifts.size() == 2);
    CHECK(shifts[0].first_after == 10);
    CHECK(shifts[0].size == Approx(30));
    CHECK(shifts[1].first_after == 20);
    CHECK(shifts[1].size == Approx(-50));
  }
  SECTION("alternating +-3: no level to shift") {
    std::vector<double> v;
    for (int i = 0; i < 40; ++i) v.push_back(i % 2 ? 3.0 : -3.0);
    CHECK(find_level_shifts(v, std::vector<double>(v.size(), 50.0), 1).empty());
  }
  SECTION("a shift of 4 quanta is not enough") {
    const std::vector<double> v = levels({{10, 0.0}, {10, 104.0}});
    CHECK(find_level_shifts(v, std::vector<double>(v.size(), 50.0), 26).empty());
    CHECK(find_level_shifts(v, std::vector<double>(v.size(), 50.0), 25).size() == 1);
  }
  SECTION("a lone outlier shorter than min_run is no shift") {
    std::vector<double> v(30, 0.0);
    v[15] = 500;
    v[16] = 500;
    CHECK(find_level_shifts(v, std::vector<double>(v.size(), 50.0), 1).empty());
  }
}

TEST_CASE("level shifts: too short to split") {
  CHECK(find_level_shifts(std::vector<double>{}, std::vector<double>{}, 1).empty());
  CHECK(find_level_shifts(std::vector<double>{0, 0, 0, 9, 9}, std::vector<double>(5, 1.0), 1).empty());
}
