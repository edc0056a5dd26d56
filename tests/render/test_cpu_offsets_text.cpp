#include <catch2/catch.hpp>

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
      {"a group start past the end", [](CpuOffsetsTable& t) { t.l3 = {.starts = {0, 2}, .ids = {0, 1}}; }},
      {"a start without its id", [](CpuOffsetsTable& t) { t.l3 = {.starts = {0, 1}, .ids = {0}}; }},
  };
  for (const auto& [what, spoil] : spoilers) {
    INFO(what);
    CpuOffsetsTable t = two_cpus();
    spoil(t);
    CHECK_THROWS_AS(format_cpu_offsets(t), std::invalid_argument);
  }
}
