#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>

#include "render/cpu_offsets_text.hpp"

using namespace tscaudit;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

CpuOffsetsTable two_cpus() {
  return {.title = "TSC offset per CPU against CPU 0, estimate and hard bounds (ticks)",
          .units = "ticks",
          .reference_cpu = 0,
          .cpus = {0, 1},
          .offset_ticks = {0, -26.5},
          .lo_ticks = {0, -30},
          .hi_ticks = {0, -23}};
}

}  // namespace

TEST_CASE("cpu offsets text: two CPUs without topology, exactly") {
  CHECK(format_cpu_offsets(two_cpus()) ==
        "# title: TSC offset per CPU against CPU 0, estimate and hard bounds (ticks)\n"
        "# units: ticks\n"
        "# reference: 0\n"
        "# columns: position cpu estimate lo hi\n"
        "# package_starts:\n"
        "# package_ids:\n"
        "# l3_starts:\n"
        "# l3_ids:\n"
        "0 0 0 0 0\n"
        "1 1 -26.5 -30 -23\n");
}

TEST_CASE("cpu offsets text: groups, NaN where unknown, CPU numbers apart from positions") {
  CpuOffsetsTable t = two_cpus();
  t.reference_cpu = 4;
  t.cpus = {4, 6, 5, 7};
  t.offset_ticks = {0, 400, kNaN, 0.1};
  t.lo_ticks = {0, 396, kNaN, kNaN};
  t.hi_ticks = {0, 405, kNaN, 3};
  t.packages = {.starts = {0, 2}, .ids = {0, 1}};
  t.l3 = {.starts = {0, 1, 2, 3}, .ids = {0, 1, 2, 3}};
  CHECK(format_cpu_offsets(t) ==
        "# title: TSC offset per CPU against CPU 0, estimate and hard bounds (ticks)\n"
        "# units: ticks\n"
        "# reference: 4\n"
        "# columns: position cpu estimate lo hi\n"
        "# package_starts: 0 2\n"
        "# package_ids: 0 1\n"
        "# l3_starts: 0 1 2 3\n"
        "# l3_ids: 0 1 2 3\n"
        "0 4 0 0 0\n"
        "1 6 400 396 405\n"
        "2 5 NaN NaN NaN\n"
        "3 7 0.1 NaN 3\n");
}

TEST_CASE("cpu offsets text: the table of a matrix takes its order, offsets and groups") {
  MatrixResult m;
  m.cpus = {2, 0, 3, 1};
  m.places = {{.cpu = 2, .package = 0, .l3 = 0},
              {.cpu = 0, .package = 0, .l3 = 0},
              {.cpu = 3, .package = 1, .l3 = 1},
              {.cpu = 1, .package = 1, .l3 = 1}};
  m.cpu.offset_ticks = {0, 1, 400, -2};
  m.cpu.lo_ticks = {0, -3, 397, kNaN};
  m.cpu.hi_ticks = {0, 4, 403, kNaN};
  const CpuOffsetsTable t = cpu_offsets_table(m);
  CHECK(t.reference_cpu == 2);
  CHECK(format_cpu_offsets(t) ==
        "# title: TSC offset per CPU against CPU 2, estimate and hard bounds (ticks)\n"
        "# units: ticks\n"
        "# reference: 2\n"
        "# columns: position cpu estimate lo hi\n"
        "# package_starts: 0 2\n"
        "# package_ids: 0 1\n"
        "# l3_starts: 0 2\n"
        "# l3_ids: 0 1\n"
        "0 2 0 0 0\n"
        "1 0 1 -3 4\n"
        "2 3 400 397 403\n"
        "3 1 -2 NaN NaN\n");
}

namespace {

/// Six CPUs in two packages of three (CPUs 0-2 | 3-5): package 1 at +600 but CPU 5, which
/// drifts to +4000 and is left out of the offset groups.
MatrixResult package_off() {
  MatrixResult m;
  m.cpus = {0, 1, 2, 3, 4, 5};
  for (int cpu : m.cpus) m.places.push_back({.cpu = cpu, .package = cpu / 3});
  m.cpu.offset_ticks = {0, 1, -1, 600, 602, 4000};
  m.cpu.lo_ticks = {0, -9, -11, 500, 502, 3900};
  m.cpu.hi_ticks = {0, 11, 9, 700, 702, 4100};
  return m;
}

Diagnosis groups_of(std::vector<int> groups, int count) {
  Diagnosis d;
  d.offset_group = std::move(groups);
  d.offset_groups = count;
  return d;
}

}  // namespace

TEST_CASE("cpu offsets text: the offset groups, named by topology, with the CPU left out beyond them") {
  const MatrixResult m = package_off();
  const Diagnosis d = groups_of({0, 0, 0, 1, 1, -1}, 2);
  const CpuOffsetsTable t = cpu_offsets_table(m, &d);
  // y: the grouped CPUs' values span [-11, 702] with 0; padded by 6 % of 713; CPU 5's +4000 lies beyond.
  CHECK(t.y_lo == Approx(-11 - 0.06 * 713));
  CHECK(t.y_hi == Approx(702 + 0.06 * 713));
  CpuOffsetsTable exact = t;
  exact.y_lo = -53.78;
  exact.y_hi = 744.78;
  CHECK(format_cpu_offsets(exact) ==
        "# title: TSC offset per CPU against CPU 0, estimate and hard bounds (ticks)\n"
        "# units: ticks\n"
        "# reference: 0\n"
        "# columns: position cpu estimate lo hi group\n"
        "# package_starts: 0 3\n"
        "# package_ids: 0 1\n"
        "# l3_starts:\n"
        "# l3_ids:\n"
        "# groups: 2\n"
        "# group_0: reference: package 0 (3 CPUs)\n"
        "# group_1: package 1 (2 CPUs), +600 ticks\n"  // the lower medians 600 and 0; CPU 5 left out
        "# left_out: left out (drifts, steps or unlinked): CPU 5\n"
        "# y_range: -53.78 744.78\n"
        "0 0 0 0 0 0\n"
        "1 1 1 -9 11 0\n"
        "2 2 -1 -11 9 0\n"
        "3 3 600 500 700 1\n"
        "4 4 602 502 702 1\n"
        "5 5 4000 3900 4100 -1\n");
}

TEST_CASE("cpu offsets text: groups without a topology word: a short CPU list, else the count") {
  MatrixResult m = package_off();
  m.cpu.offset_ticks[5] = 300;  // within the groups' range: no y range of its own
  SECTION("one CPU off in each package: the reference is no unit, the group of one is its number") {
    const Diagnosis d = groups_of({0, 0, 1, 0, 0, 2}, 3);
    const CpuOffsetsTable t = cpu_offsets_table(m, &d);
    // The reference's lower median: 1 (of 0, 1, 600, 602).
    CHECK(t.group_names ==
          std::vector<std::string>{"reference: CPUs 0-1,3-4 (4 CPUs)", "CPU 2, -2 ticks", "CPU 5, +299 ticks"});
    CHECK(t.left_out_name.empty());
    CHECK(std::isnan(t.y_lo));
    CHECK(std::isnan(t.y_hi));
    const std::string text = format_cpu_offsets(t);
    CHECK(text.find("# left_out") == std::string::npos);
    CHECK(text.find("# y_range") == std::string::npos);
  }
  SECTION("a long list is counted instead") {
    MatrixResult big;
    for (int cpu = 0; cpu < 40; ++cpu) {
      big.cpus.push_back(cpu * 3);  // 0, 3, 6, ...: no ranges to compress
      big.places.push_back({.cpu = cpu * 3});
    }
    big.cpu.offset_ticks.assign(40, 0.0);
    big.cpu.lo_ticks = big.cpu.hi_ticks = big.cpu.offset_ticks;
    std::vector<int> groups(40, 0);
    groups[39] = 1;
    big.cpu.offset_ticks[39] = 250.4;
    const Diagnosis d = groups_of(groups, 2);
    CHECK(cpu_offsets_table(big, &d).group_names ==
          std::vector<std::string>{"reference: 39 CPUs", "CPU 117, +250 ticks"});
  }
  SECTION("no diagnosis, or one of another size: no group column") {
    const Diagnosis d = groups_of({0, 0}, 1);
    for (const Diagnosis* given : {static_cast<const Diagnosis*>(nullptr), &d}) {
      const CpuOffsetsTable t = cpu_offsets_table(m, given);
      CHECK(t.groups.empty());
      CHECK(format_cpu_offsets(t).find("# columns: position cpu estimate lo hi\n") != std::string::npos);
    }
  }
}

TEST_CASE("cpu offsets text: a matrix whose offsets are not solved writes NaN, not garbage") {
  MatrixResult m;
  m.cpus = {0, 1};
  m.places = {{.cpu = 0}, {.cpu = 1}};
  const std::string text = format_cpu_offsets(cpu_offsets_table(m));
  CHECK(text.find("0 0 NaN NaN NaN\n1 1 NaN NaN NaN\n") != std::string::npos);
  CHECK(text.find("# package_starts:\n") != std::string::npos);
}

TEST_CASE("cpu offsets text: what gnuplot could not draw is refused") {
  const std::vector<std::pair<const char*, std::function<void(CpuOffsetsTable&)>>> spoilers = {
      {"no CPU",
       [](CpuOffsetsTable& t) {
         t.cpus.clear();
         t.offset_ticks.clear();
         t.lo_ticks.clear();
         t.hi_ticks.clear();
       }},
      {"a list one short", [](CpuOffsetsTable& t) { t.hi_ticks.pop_back(); }},
      {"an infinite bound", [](CpuOffsetsTable& t) { t.lo_ticks[1] = -std::numeric_limits<double>::infinity(); }},
      {"a line break in the title", [](CpuOffsetsTable& t) { t.title += "\n1 2 3"; }},
      {"groups not from 0", [](CpuOffsetsTable& t) { t.packages = {.starts = {1}, .ids = {0}}; }},
      {"a group start past the end",
       [](CpuOffsetsTable& t) {
         t.l3 = {.starts = {0, 2}, .ids = {0, 1}};
       }},
      {"a start without its id",
       [](CpuOffsetsTable& t) {
         t.l3 = {.starts = {0, 1}, .ids = {0}};
       }},
      {"groups not one per CPU",
       [](CpuOffsetsTable& t) {
         t.groups = {0};
         t.group_names = {"reference"};
       }},
      {"a group without its legend",
       [](CpuOffsetsTable& t) {
         t.groups = {0, 1};
         t.group_names = {"reference"};
       }},
      {"a line break in a legend",
       [](CpuOffsetsTable& t) {
         t.groups = {0, -1};
         t.group_names = {"reference"};
         t.left_out_name = "left out\n1 2 3";
       }},
      {"a y range upside down",
       [](CpuOffsetsTable& t) {
         t.groups = {0, 0};
         t.group_names = {"reference"};
         t.y_lo = 5;
         t.y_hi = -5;
       }},
  };
  for (const auto& [what, spoil] : spoilers) {
    INFO(what);
    CpuOffsetsTable t = two_cpus();
    spoil(t);
    CHECK_THROWS_AS(format_cpu_offsets(t), std::invalid_argument);
  }
}
