#include <catch2/catch.hpp>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "render/matrix_text.hpp"

using namespace tscaudit;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

MatrixGrid two_by_two() {
  return {.name = "offset_ticks",
          .title = "TSC offset θ = TSC_b − TSC_a (ticks)",
          .units = "ticks",
          .labels = {"0", "1"},
          .boundaries = {},
          .values = {kNaN, -26, 26, kNaN}};
}

}  // namespace

TEST_CASE("matrix text: a 2x2 offset matrix, exactly") {
  CHECK(format_gnuplot_matrix(two_by_two()) ==
        "# title: TSC offset θ = TSC_b − TSC_a (ticks)\n"
        "# units: ticks\n"
        "# rows: initiator a (CPU number); columns: responder b (CPU number)\n"
        "# cells: row-major values; NaN = not measured (the diagonal)\n"
        "# boundaries:\n"
        "# package_starts:\n"
        "# package_ids:\n"
        "# l3_starts:\n"
        "# l3_ids:\n"
        "cpu 0 1\n"
        "0 NaN -26\n"
        "1 26 NaN\n");
}

TEST_CASE("matrix text: a signed heatmap's colour limit and note follow the group lines") {
  MatrixGrid g = two_by_two();
  g.colour_limit = 240;
  g.note = "white: the band contains 0; colours end at +/-240 ticks: 2 cells beyond";
  CHECK(format_gnuplot_matrix(g) ==
        "# title: TSC offset θ = TSC_b − TSC_a (ticks)\n"
        "# units: ticks\n"
        "# rows: initiator a (CPU number); columns: responder b (CPU number)\n"
        "# cells: row-major values; NaN = not measured (the diagonal)\n"
        "# boundaries:\n"
        "# package_starts:\n"
        "# package_ids:\n"
        "# l3_starts:\n"
        "# l3_ids:\n"
        "# colour_limit: 240\n"
        "# note: white: the band contains 0; colours end at +/-240 ticks: 2 cells beyond\n"
        "cpu 0 1\n"
        "0 NaN -26\n"
        "1 26 NaN\n");
  g.note.clear();
  g.colour_limit = 0.38;
  const std::string text = format_gnuplot_matrix(g);
  CHECK(text.find("# l3_ids:\n# colour_limit: 0.38\ncpu 0 1\n") != std::string::npos);
}

TEST_CASE("matrix text: a sparse design names the pairs it leaves out among the NaN cells") {
  MatrixGrid g = two_by_two();
  g.values = {kNaN, -26, kNaN, kNaN};
  g.left_out = 1;
  CHECK(format_gnuplot_matrix(g) ==
        "# title: TSC offset θ = TSC_b − TSC_a (ticks)\n"
        "# units: ticks\n"
        "# rows: initiator a (CPU number); columns: responder b (CPU number)\n"
        "# cells: row-major values; NaN = not measured (the diagonal, and the 1 ordered pairs the sparse design "
        "leaves out)\n"
        "# boundaries:\n"
        "# package_starts:\n"
        "# package_ids:\n"
        "# l3_starts:\n"
        "# l3_ids:\n"
        "cpu 0 1\n"
        "0 NaN -26\n"
        "1 NaN NaN\n");
  g.left_out = 3;
  CHECK_THROWS_WITH(format_gnuplot_matrix(g), "matrix 'offset_ticks': 3 ordered pairs left out of 2");
}

TEST_CASE("matrix text: topology-ordered labels, boundaries and non-integer values") {
  const MatrixGrid g{.name = "rtt_p50_ns",
                     .title = "rtt p50 (ns)",
                     .units = "ns",
                     .labels = {"0", "2", "1", "3"},  // topology order, not numeric order
                     .boundaries = {1, 3},
                     .values = {kNaN, 0.1, -2.5, 1e300,                               // row-major, a row a line
                                1e-7, kNaN, 9007199254740992.0, -9007199254740991.0,  //
                                123456789.0, 0.0, kNaN, 1.0 / 3.0,                    //
                                -0.0, 7, 8, kNaN}};
  CHECK(format_gnuplot_matrix(g) ==
        "# title: rtt p50 (ns)\n"
        "# units: ns\n"
        "# rows: initiator a (CPU number); columns: responder b (CPU number)\n"
        "# cells: row-major values; NaN = not measured (the diagonal)\n"
        "# boundaries: 1 3\n"
        "# package_starts:\n"
        "# package_ids:\n"
        "# l3_starts:\n"
        "# l3_ids:\n"
        "cpu 0 2 1 3\n"
        "0 NaN 0.1 -2.5 1e+300\n"
        "2 1e-07 NaN 9007199254740992 -9007199254740991\n"
        "1 123456789 0 NaN 0.3333333333333333\n"
        "3 0 7 8 NaN\n");
}

TEST_CASE("matrix text: the package and L3 lines name where each group begins and its index") {
  MatrixGrid g{.name = "offset_ticks",
               .title = "t",
               .units = "ticks",
               .labels = {"0", "4", "1", "5", "2", "6"},
               .boundaries = {2, 4},
               .values = std::vector<double>(36, 1.0),
               .packages = {.starts = {0, 4}, .ids = {0, 1}},
               .l3 = {.starts = {0, 2, 4}, .ids = {0, 1, 7}}};
  CHECK(
      format_gnuplot_matrix(g).starts_with("# title: t\n"
                                           "# units: ticks\n"
                                           "# rows: initiator a (CPU number); columns: responder b (CPU number)\n"
                                           "# cells: row-major values; NaN = not measured (the diagonal)\n"
                                           "# boundaries: 2 4\n"
                                           "# package_starts: 0 4\n"
                                           "# package_ids: 0 1\n"
                                           "# l3_starts: 0 2 4\n"
                                           "# l3_ids: 0 1 7\n"
                                           "cpu 0 4 1 5 2 6\n"
                                           "0 1 1 1 1 1 1\n"));
  SECTION("a level the machine does not say is an empty line, the other stays") {
    g.packages = {};
    CHECK_THAT(format_gnuplot_matrix(g),
               Catch::Contains("# boundaries: 2 4\n# package_starts:\n# package_ids:\n# l3_starts: 0 2 4\n"));
  }
  SECTION("starts that do not begin at 0") {
    g.l3 = {.starts = {2, 4}, .ids = {1, 7}};
    CHECK_THROWS_WITH(format_gnuplot_matrix(g), "matrix 'offset_ticks': L3 domains: the first start is 2, not 0");
  }
  SECTION("starts out of order or past the end") {
    g.packages = {.starts = {0, 4, 4}, .ids = {0, 1, 2}};
    CHECK_THROWS_WITH(format_gnuplot_matrix(g),
                      "matrix 'offset_ticks': packages: start 4 is not increasing inside [0, 6)");
    g.packages = {.starts = {0, 6}, .ids = {0, 1}};
    CHECK_THROWS_WITH(format_gnuplot_matrix(g),
                      "matrix 'offset_ticks': packages: start 6 is not increasing inside [0, 6)");
  }
  SECTION("an id missing") {
    g.packages.ids.pop_back();
    CHECK_THROWS_WITH(format_gnuplot_matrix(g), "matrix 'offset_ticks': packages: 2 starts and 1 ids");
  }
}

TEST_CASE("matrix text: the groups are the runs of one level along the CPUs' places") {
  // Two packages; the L3 indexes as hwloc numbers them, a run per change along the order.
  const std::vector<CpuPlace> places{{.cpu = 0, .package = 0, .l3 = 0}, {.cpu = 4, .package = 0, .l3 = 0},
                                     {.cpu = 1, .package = 0, .l3 = 1}, {.cpu = 5, .package = 1, .l3 = 2},
                                     {.cpu = 2, .package = 1, .l3 = 2}, {.cpu = 6, .package = 1, .l3 = 3}};
  const MatrixGroups packages = matrix_groups(places, &CpuPlace::package);
  CHECK(packages.starts == std::vector<std::size_t>{0, 3});
  CHECK(packages.ids == std::vector<int>{0, 1});
  const MatrixGroups l3 = matrix_groups(places, &CpuPlace::l3);
  CHECK(l3.starts == std::vector<std::size_t>{0, 2, 3, 5});
  CHECK(l3.ids == std::vector<int>{0, 1, 2, 3});
  // No topology (a plain directory of run files): every index -1, no group.
  const std::vector<CpuPlace> unknown{{.cpu = 0}, {.cpu = 1}};
  CHECK(matrix_groups(unknown, &CpuPlace::package).starts.empty());
  CHECK(matrix_groups(unknown, &CpuPlace::l3).ids.empty());
  CHECK(matrix_groups({}, &CpuPlace::l3).starts.empty());
}

TEST_CASE("matrix text: every value reads back bit for bit") {
  const double third = 1.0 / 3.0;
  const MatrixGrid g{.name = "drift_ppb",
                     .title = "",
                     .units = "ppb",
                     .labels = {"4", "5", "6"},
                     .boundaries = {},
                     .values = {kNaN, third, -third * 1e-200,                // row-major, a row a line
                                std::nextafter(1.0, 2.0), kNaN, -123.456e7,  //
                                std::numeric_limits<double>::max(), std::numeric_limits<double>::denorm_min(), kNaN}};
  std::istringstream in(format_gnuplot_matrix(g));
  std::string line;
  while (std::getline(in, line) && line.rfind("cpu", 0) != 0) {
  }
  std::size_t i = 0;
  for (std::string row_label : {"4", "5", "6"}) {
    REQUIRE(std::getline(in, line));
    std::istringstream fields(line);
    std::string field;
    fields >> field;
    CHECK(field == row_label);
    for (int col = 0; col < 3; ++col, ++i) {
      REQUIRE(fields >> field);
      if (std::isnan(g.values[i])) {
        CHECK(field == "NaN");
        continue;
      }
      double back = 0;
      const auto r = std::from_chars(field.data(), field.data() + field.size(), back);
      REQUIRE(r.ec == std::errc{});
      // Bit for bit: the text must give back the very double written, sign of zero included.
      CHECK(std::bit_cast<std::uint64_t>(back) == std::bit_cast<std::uint64_t>(g.values[i]));
    }
  }
  CHECK_FALSE(std::getline(in, line));
}

TEST_CASE("matrix text: inputs it cannot write are refused, not guessed") {
  MatrixGrid g = two_by_two();
  SECTION("too few values") {
    g.values.pop_back();
    CHECK_THROWS_WITH(format_gnuplot_matrix(g), "matrix 'offset_ticks': 3 values for 2 labels (needs 4)");
  }
  SECTION("no CPU") {
    g.labels.clear();
    g.values.clear();
    CHECK_THROWS_WITH(format_gnuplot_matrix(g), "matrix 'offset_ticks': no CPU");
  }
  SECTION("a label with a space would shift every column") {
    g.labels[1] = "cpu 1";
    CHECK_THROWS_WITH(format_gnuplot_matrix(g), "matrix 'offset_ticks': label 'cpu 1' is empty or holds white space");
  }
  SECTION("an empty label") {
    g.labels[0].clear();
    CHECK_THROWS_AS(format_gnuplot_matrix(g), std::invalid_argument);
  }
  SECTION("a line break in the title would end the comment") {
    g.title = "two\nlines";
    CHECK_THROWS_WITH(format_gnuplot_matrix(g), "matrix 'offset_ticks': title or units hold a line break");
  }
  SECTION("a boundary at 0") {
    g.boundaries = {0};
    CHECK_THROWS_WITH(format_gnuplot_matrix(g), "matrix 'offset_ticks': boundary 0 is not increasing inside (0, 2)");
  }
  SECTION("a boundary at N") {
    g.boundaries = {2};
    CHECK_THROWS_AS(format_gnuplot_matrix(g), std::invalid_argument);
  }
  SECTION("boundaries out of order") {
    g.labels = {"0", "1", "2", "3"};
    g.values.assign(16, 1.0);
    g.boundaries = {2, 1};
    CHECK_THROWS_WITH(format_gnuplot_matrix(g), "matrix 'offset_ticks': boundary 1 is not increasing inside (0, 4)");
  }
  SECTION("infinity") {
    g.values[1] = -std::numeric_limits<double>::infinity();
    CHECK_THROWS_WITH(format_gnuplot_matrix(g), "matrix 'offset_ticks': an infinite value");
  }
  SECTION("a line break in the note") {
    g.note = "white: 0\n1 2 3";
    CHECK_THROWS_WITH(format_gnuplot_matrix(g), "matrix 'offset_ticks': the note holds a line break");
  }
  SECTION("a colour limit that is not a positive number") {
    for (double limit : {0.0, -5.0, std::numeric_limits<double>::infinity()}) {
      g.colour_limit = limit;
      CHECK_THROWS_WITH(format_gnuplot_matrix(g), "matrix 'offset_ticks': the colour limit is not a positive number");
    }
  }
}
