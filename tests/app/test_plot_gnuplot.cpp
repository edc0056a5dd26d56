// render_plot and the Plotter running the real gnuplot on the real plots/ scripts
// (TSCAUDIT_TEST_PLOTS, the source tree, and the copies compiled into the binary). This
// executable exits 4, which ctest counts as skipped, where gnuplot is not installed
// (support/gnuplot_main.cpp): install gnuplot-nox to run it. What needs no gnuplot is in
// test_plot.cpp.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "app/pictures.hpp"
#include "app/plot.hpp"
#include "plot_fixture.hpp"

using namespace tscaudit;
using namespace tscaudit::test;
namespace fs = std::filesystem;

TEST_CASE("plot: every heatmap script renders PNG and SVG, leaving nothing aside") {
  const std::string script =
      GENERATE(as<std::string>{}, "heatmap_offset.gp", "heatmap_latency.gp", "heatmap_violations.gp");
  const std::string ext = GENERATE(as<std::string>{}, ".png", ".svg");
  TempDir dir;
  spit(dir.at("m.dat"), small_matrix("count"));
  const PlotResult r = render_plot(kPlots + "/" + script, dir.at("m.dat"), dir.at("m" + ext));
  INFO(script << ext << ": " << r.problem);
  REQUIRE(r.ok);
  CHECK(r.problem.empty());
  CHECK(listing(dir.path) == "m.dat m" + ext);
  const std::string picture = slurp(dir.at("m" + ext));
  if (ext == ".png") {
    CHECK(picture.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
  } else {
    CHECK(picture.find("<svg") != std::string::npos);
    CHECK(picture.find("test matrix (count)") != std::string::npos);  // the title, from the file
  }
}

TEST_CASE("plot: a malformed matrix fails with gnuplot's reason and keeps the old picture") {
  TempDir dir;
  spit(dir.at("bad.dat"), "# title: t\ncpu 0 1\n0 NaN x\n1 2 NaN\n");
  spit(dir.at("out.png"), "old picture");
  const PlotResult r = render_plot(kPlots + "/heatmap_offset.gp", dir.at("bad.dat"), dir.at("out.png"));
  CHECK_FALSE(r.ok);
  CHECK_THAT(r.problem, Catch::Contains("exit status 1") && Catch::Contains("bad.dat:3: 'x' is not a number"));
  CHECK(slurp(dir.at("out.png")) == "old picture");
  CHECK(listing(dir.path) == "bad.dat out.png");
}

TEST_CASE("plot: a script that hangs is killed at the timeout") {
  TempDir dir;
  spit(dir.at("m.dat"), small_matrix("ticks"));
  spit(dir.at("hang.gp"), "system('sleep 30')\n");
  const auto t0 = std::chrono::steady_clock::now();
  const PlotResult r =
      render_plot(dir.at("hang.gp"), dir.at("m.dat"), dir.at("out.svg"), std::chrono::milliseconds(300));
  const auto took = std::chrono::steady_clock::now() - t0;
  CHECK_FALSE(r.ok);
  CHECK_THAT(r.problem, Catch::Contains("no result after 300 ms, killed"));
  CHECK(took < std::chrono::seconds(10));
  CHECK(listing(dir.path) == "hang.gp m.dat");
}

// The variants_*.gp scripts (tscaudit variants). Fixtures: tests/data/plots/*.dat, in
// the formats the scripts' header comments define.
namespace {

const std::string kPlotData = std::string(TSCAUDIT_TEST_DATA) + "/plots";

/// Width and height of a PNG, from its IHDR chunk (0 0 when it is not a PNG).
std::pair<unsigned, unsigned> png_size(const std::string& png) {
  if (png.size() < 24 || png.compare(0, 8, std::string("\x89PNG\r\n\x1a\n", 8)) != 0) return {0, 0};
  auto be32 = [&](std::size_t at) {
    unsigned v = 0;
    for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(png[at + i]);
    return v;
  };
  return {be32(16), be32(20)};
}

/// Renders `text` (written to DIR/in.dat) with plots/SCRIPT into DIR/out.EXT.
PlotResult render_text(const TempDir& dir, const std::string& script, const std::string& text, const std::string& ext) {
  spit(dir.at("in.dat"), text);
  return render_plot(kPlots + "/" + script, dir.at("in.dat"), dir.at("out" + ext));
}

/// Renders INPUT with the script at SCRIPT_PATH into OUTPUT, requires that it worked (a
/// failure names gnuplot's problem), and returns the picture.
std::string drawn(const std::string& script_path, const std::string& input, const std::string& output) {
  const PlotResult r = render_plot(script_path, input, output);
  INFO(r.problem);
  REQUIRE(r.ok);
  return slurp(output);
}

/// drawn() of `text` (written to DIR/in.dat) with plots/SCRIPT into DIR/out.EXT.
std::string drawn_text(const TempDir& dir, const std::string& script, const std::string& text, const std::string& ext) {
  spit(dir.at("in.dat"), text);
  return drawn(kPlots + "/" + script, dir.at("in.dat"), dir.at("out" + ext));
}

/// Checks that the SVG `svg` holds every text of `shown` and none of `absent`.
void check_svg_text(const std::string& svg, const std::vector<std::string>& shown,
                    const std::vector<std::string>& absent = {}) {
  for (const auto& text : shown) {
    INFO("the SVG shows " << text);
    CHECK(svg.find(text) != std::string::npos);
  }
  for (const auto& text : absent) {
    INFO("the SVG does not show " << text);
    CHECK(svg.find(text) == std::string::npos);
  }
}

/// A script's own fixture, tests/data/plots/NAME.dat, drawn with plots/NAME.gp as
/// DIR/out.EXT: nothing else is left in DIR, a PNG has the size `size`, an SVG that size,
/// every text of `shown` and none of `absent`.
void check_fixture_drawn(const std::string& name, const std::string& ext, std::pair<unsigned, unsigned> size,
                         const std::vector<std::string>& shown, const std::vector<std::string>& absent = {}) {
  INFO(name << ext);
  TempDir dir;
  const std::string picture = drawn(kPlots + "/" + name + ".gp", kPlotData + "/" + name + ".dat", dir.at("out" + ext));
  CHECK(listing(dir.path) == "out" + ext);
  if (ext == ".png") {
    CHECK(png_size(picture) == size);
  } else {
    CHECK(picture.find("<svg") != std::string::npos);
    CHECK(picture.find("width=\"" + std::to_string(size.first) + "\" height=\"" + std::to_string(size.second) + "\"") !=
          std::string::npos);
    check_svg_text(picture, shown, absent);
  }
}

/// Each text of `bad` (text, the problem gnuplot names) drawn with plots/SCRIPT fails with
/// exit status 1 and that problem, and leaves the old picture as it was.
void check_rejected(const std::string& script, const std::vector<std::pair<std::string, std::string>>& bad) {
  for (const auto& [text, problem] : bad) {
    TempDir dir;
    spit(dir.at("out.png"), "old picture");
    const PlotResult r = render_text(dir, script, text, ".png");
    INFO(script << " on:\n" << text);
    CHECK_FALSE(r.ok);
    CHECK_THAT(r.problem, Catch::Contains("exit status 1") && Catch::Contains(problem));
    CHECK(slurp(dir.at("out.png")) == "old picture");
    CHECK(listing(dir.path) == "in.dat out.png");
  }
}

/// A percentile file of `n` blocks, send/recv named from the eight variants.
std::string percentile_blocks(int n) {
  static const char* const kVariants[] = {"rdtsc",  "rdtsc_lfence",  "lfence_rdtsc", "lfence_rdtsc_lfence",
                                          "rdtscp", "rdtscp_lfence", "mfence_rdtsc", "cpuid_rdtsc"};
  std::ostringstream s;
  s << "# title: " << n << " combinations\n# blocks: " << n << "\n";
  for (int i = 0; i < n; ++i) {
    if (i > 0) s << "\n\n";
    s << kVariants[(i / 8) % 8] << "/" << kVariants[i % 8] << " inverse_tail ticks\n";
    s << "0 1 " << (-61 + 9 * i) << "\n50 2 " << (201 + i) << "\n90 10 380\n99 100 690\n99.9 1000 2515\n"
      << "99.99 10000 22031\n99.999 100000 " << (130175 + 1000 * i) << "\n";
  }
  return s.str();
}

}  // namespace

TEST_CASE("plot: every variants script renders its fixture as PNG and SVG, leaving nothing aside") {
  struct Case {
    std::string name;
    std::vector<std::string> shown;  // text the SVG must hold: title, names, notes
  };
  const Case c = GENERATE(
      Case{"variants_cost",
           {"read cost per call on CPU 0", "cpuid_rdtsc", "CLOCK_MONOTONIC_RAW", "2245", "18.4", "ns per read",
            "measured by: batch"}},
      Case{"variants_tradeoff",
           {"cost against causality violations, send rdtsc", "lfence_rdtsc_lfence", "does not order earlier loads"}},
      Case{"variants_percentiles",
           {"one-way latency percentiles, CPUs 0 and 1", "rdtsc/rdtsc", "cpuid_rdtsc/cpuid_rdtsc", "99.999%", "-100"}},
      Case{"variants_switch",
           {"CPUs 0 -> 1: receive read rdtsc, then lfence_rdtsc", "rdtsc/rdtsc", "rdtsc/lfence_rdtsc", "forward min",
            "-100"}});
  const std::string ext = GENERATE(as<std::string>{}, ".png", ".svg");
  check_fixture_drawn(c.name, ext, {900U, 560U}, c.shown);
}

TEST_CASE("plot: a malformed variants file fails, naming the line and the problem") {
  check_rejected(
      "variants_cost.gp",
      {
          {"# title: t\nrdtsc 18.4 18.1 18.9 40.2 batch\nrdtscp 36 35 37 63\n", "in.dat:3: 5 fields, expected 6"},
          {"# title: t\nrdtsc 18.4 fast 18.9 40.2 batch\n", "in.dat:2: column 3: 'fast' is not a number"},
          {"# title: t\n# tsc_hz: 2299998000\n\n", "in.dat: no data rows"},
          {"", "in.dat: no data rows"},
          {"# tsc_hz: 2.3GHz\nrdtsc 18.4 18.1 18.9 40.2 batch\n", "the tsc_hz line: '2.3GHz' is not a number"},
          {"# columns: name p50_ticks min_ticks\nrdtsc 18.4 18.1 18.9 40.2 batch\n",
           "in.dat:1: the columns line names 3 columns, expected 6"},
      });
  check_rejected("variants_tradeoff.gp",
                 {
                     {"rdtsc 18.4 3.5 7 2000000 88\n", "in.dat:1: 6 fields, expected 7"},
                     {"rdtsc 18.4 3.5 7 2000000 88 2\n", "in.dat:1: column 7: '2' is not 0 or 1"},
                     {"# title: t\n", "in.dat: no data rows"},
                 });
  check_rejected(
      "variants_percentiles.gp",
      {
          {"a/b inverse_tail ticks\n0 1 -61\n50 2\n", "in.dat:3: 2 fields, expected 3"},
          {"a/b inverse_tail ticks\n0 1 -61\n50 2 NaN\n", "in.dat:3: column 3: 'NaN' is not a number"},
          {"# blocks: 2\n", "in.dat: no data rows"},
          {"0 1 -61\n50 2 201\n", "in.dat:1: expected a header line naming block 1"},
          {"a/b inverse_tail ticks\n0 1 -61\n\n50 2 201\n", "in.dat:4: a single blank line inside a block"},
          {"a/b inverse_tail ticks\n\n\nc/d inverse_tail ticks\n0 1 5\n", "in.dat:4: block 1 (a/b) has no rows"},
          {"# blocks: 3\na/b inverse_tail ticks\n0 1 -61\n\n\nc/d x y\n0 1 5\n",
           "in.dat: 2 blocks, but the blocks line says 3"},
          {"a/b inverse_tail ticks\n0 0.5 -61\n", "in.dat: an inverse_tail below 1 (0.5)"},
      });
  check_rejected(
      "variants_switch.gp",
      {
          {"0.00 -12 201 35 190\n", "in.dat:1: 5 fields, expected 6"},
          {"0.00 -12 201 35 190 -\n", "in.dat:1: column 6: '-' is not a number or NaN"},
          {"# switch_ms: half-way\n0.00 -12 201 35 190 210\n", "the switch_ms line: 'half-way' is not a number"},
          {"# title: only comments\n", "in.dat: no data rows"},
      });
}

TEST_CASE("plot: variants_percentiles draws 1 block and 64 blocks") {
  TempDir dir;
  SECTION("one block, without a blocks line, p0 only (x still spans 0% to 90%)") {
    check_svg_text(drawn_text(dir, "variants_percentiles.gp", "rdtsc/rdtscp inverse_tail ticks\n0 1 -7\n", ".svg"),
                   {"rdtsc/rdtscp", "90%"});
  }
  SECTION("one block with negatives only") {
    const PlotResult r =
        render_text(dir, "variants_percentiles.gp", "a/b inverse_tail ticks\n0 1 -900\n50 2 -300\n99 100 -2\n", ".png");
    INFO(r.problem);
    CHECK(r.ok);
  }
  SECTION("64 blocks: every combination in the key, on a larger canvas") {
    // Each combination as a key entry of its own: the name alone between > and <.
    check_svg_text(drawn_text(dir, "variants_percentiles.gp", percentile_blocks(64), ".svg"),
                   {"width=\"1300\" height=\"760\"", ">rdtsc/rdtsc<", ">rdtsc/cpuid_rdtsc<",
                    ">mfence_rdtsc/rdtscp_lfence<", ">cpuid_rdtsc/rdtsc<", ">cpuid_rdtsc/cpuid_rdtsc<"});
    CHECK(png_size(drawn_text(dir, "variants_percentiles.gp", percentile_blocks(64), ".png")) ==
          std::make_pair(1300U, 760U));
  }
  CHECK(listing(dir.path).find(".tmp.") == std::string::npos);
}

TEST_CASE("plot: variants scripts on zeros, a NaN bin and differing methods") {
  TempDir dir;
  SECTION("a cost of 0 (and a negative minimum) is drawn at the bottom of the log axis, and said") {
    const std::string svg = drawn_text(dir, "variants_cost.gp",
                                       "# title: zero cost\n# tsc_hz: 0\n"
                                       "rdtsc 0 -3 0.5 40.2 batch\nrdtscp 36.4 35.8 37.0 63.1 batch\n",
                                       ".svg");
    check_svg_text(svg, {"drawn at the bottom of the axis"},
                   {"ns per read",            // tsc_hz 0: no ns axis
                    "clock_gettime clock"});  // no clock rows: no key entry
  }
  SECTION("every value 0") {
    const PlotResult r = render_text(dir, "variants_cost.gp", "rdtsc 0 0 0 0 batch\n", ".png");
    INFO(r.problem);
    CHECK(r.ok);
  }
  SECTION("methods differ: each tick label names its own") {
    check_svg_text(drawn_text(dir, "variants_cost.gp",
                              "rdtsc 18.4 18.1 18.9 40.2 batch\nrdtscp 36.4 35.8 37.0 63.1 pair\n", ".svg"),
                   {"rdtscp (pair)"}, {"measured by:"});
  }
  SECTION("no causality violations at all") {
    const std::string svg = drawn_text(dir, "variants_tradeoff.gp",
                                       "# title: all clean\n"
                                       "rdtsc 18.4 0 0 2000000 88 0\nlfence_rdtsc 35.2 0 0 2000000 424 1\n"
                                       "rdtscp 36.4 0 0 2000000 418 1\n",
                                       ".svg");
    check_svg_text(svg, {"no causality violations in any combination", ">rdtscp<"});
  }
  SECTION("a cost of 0 on the tradeoff's log axis") {
    check_svg_text(drawn_text(dir, "variants_tradeoff.gp", "rdtsc 0 3.5 7 2000000 88 0\n", ".svg"),
                   {"costs &lt;= 0 are drawn at the left edge"});
  }
  SECTION("a switch file with an empty bin (NaN) and no switch line") {
    const PlotResult r =
        render_text(dir, "variants_switch.gp",
                    "0.00 -12 201 35 190 210\n0.25 NaN NaN NaN NaN NaN\n0.50 150 205 140 195 380\n", ".png");
    INFO(r.problem);
    CHECK(r.ok);
  }
  CHECK(listing(dir.path).find(".tmp.") == std::string::npos);
}

// plots/monitor_timeseries.gp (tscaudit analyze --plot on an interval log). Fixture:
// tests/data/plots/monitor_timeseries.dat, written by analyze --plot from
// tests/data/monitor/step.log.
TEST_CASE("plot: monitor_timeseries renders its fixture as PNG and SVG and leaves nothing aside") {
  const std::string ext = GENERATE(as<std::string>{}, ".png", ".svg");
  check_fixture_drawn(
      "monitor_timeseries", ext, {1000U, 900U},
      {"step.log: CPU 0 -> CPU 1, complete, k = 1", "offset b - a (ticks)", "band of each interval", "fitted line",
       "offset step", "rtt per interval (ticks)", "p99.9", "lost (queue full)", "time into the run (s)"},
      {"estimate moved"});  // no moves line: no key entry
}

TEST_CASE("plot: monitor_timeseries draws edge cases: no frequency or rounds and every marker") {
  TempDir dir;
  SECTION("intervals without rounds or bands, no range lines") {
    const PlotResult r = render_text(dir, "monitor_timeseries.gp",
                                     "# title: empty\n# xlabel: interval\n"
                                     "0 NaN NaN NaN NaN NaN NaN NaN NaN NaN 0 0 0\n"
                                     "1 NaN NaN NaN NaN NaN NaN NaN NaN NaN 0 0 7\n",
                                     ".png");
    INFO(r.problem);
    CHECK(r.ok);
  }
  SECTION("steps, bends and moves are all drawn and named") {
    const std::string svg = drawn_text(dir, "monitor_timeseries.gp",
                                       "# title: markers\n# offset_lo: -400\n# offset_hi: 400\n"
                                       "# steps: 1.5\n# bends: 2.5 3.5\n# moves: 0.5\n"
                                       "0 -200 180 -10 -12 350 360 400 500 900 3 0 0\n"
                                       "1 -190 170 -10 -12 351 362 410 520 60000 0 2 0\n"
                                       "2 100 300 200 195 352 361 405 510 1200 0 0 0\n"
                                       "4 90 310 200 195 340 359 405 510 1200 0 0 1000\n",
                                       ".svg");
    check_svg_text(svg, {"offset step", "bend", "estimate moved"});
  }
}

TEST_CASE("plot: a malformed monitor time series fails and names the line and the problem") {
  check_rejected("monitor_timeseries.gp",
                 {
                     {"# title: t\n0 -200 180 -10 -12 350 360 400 500 900 3 0\n", "in.dat:2: 12 fields, expected 13"},
                     {"0 -200 x -10 -12 350 360 400 500 900 3 0 0\n", "in.dat:1: column 3: 'x' is not a number or NaN"},
                     {"0 -200 180 -10 -12 350 360 400 500 900 NaN 0 0\n", "in.dat:1: column 11: 'NaN' is not a number"},
                     {"# offset_lo: low\n0 -200 180 -10 -12 350 360 400 500 900 3 0 0\n",
                      "the offset_lo line: 'low' is not a number"},
                     {"# steps: 1.5 soon\n0 -200 180 -10 -12 350 360 400 500 900 3 0 0\n",
                      "in.dat: the steps line: 'soon' is not a number"},
                     {"# columns: time band_lo_ticks\n0 -200 180 -10 -12 350 360 400 500 900 3 0 0\n",
                      "in.dat:1: the columns line names 2 columns, expected 13"},
                     {"# title: nothing\n", "in.dat: no data rows"},
                 });
}

namespace {

/// An N x N grid of counts from 0 to 49, NaN on the diagonal.
MatrixGrid square_grid(std::size_t n) {
  MatrixGrid g;
  g.name = "m";
  g.title = std::to_string(n) + " CPUs";
  g.units = "ticks";
  for (std::size_t i = 0; i < n; ++i) g.labels.push_back(std::to_string(i));
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      g.values.push_back(a == b ? std::nan("") : static_cast<double>((a * 7 + b * 3) % 50));
    }
  }
  return g;
}

/// square_grid(n) in the heatmap scripts' format.
std::string square_matrix(std::size_t n) { return format_gnuplot_matrix(square_grid(n)); }

/// square_grid(n) cut into `packages` equal packages of `l3s` equal L3 domains each, as
/// matrix_groups() would find them; the boundaries line as tscaudit writes it (the L3 starts).
std::string grouped_matrix(std::size_t n, std::size_t packages, std::size_t l3s) {
  MatrixGrid g = square_grid(n);
  for (std::size_t p = 0; p < packages; ++p) {
    g.packages.starts.push_back(p * n / packages);
    g.packages.ids.push_back(static_cast<int>(p));
  }
  for (std::size_t k = 0; k < packages * l3s; ++k) {
    g.l3.starts.push_back(k * n / (packages * l3s));
    g.l3.ids.push_back(static_cast<int>(k));
    if (k > 0) g.boundaries.push_back(g.l3.starts.back());
  }
  return format_gnuplot_matrix(g);
}

/// drawn() of `matrix` (written to DIR/m.dat) with plots/SCRIPT into DIR/m.svg.
std::string drawn_heatmap(const TempDir& dir, const std::string& script, const std::string& matrix) {
  spit(dir.at("m.dat"), matrix);
  return drawn(kPlots + "/" + script, dir.at("m.dat"), dir.at("m.svg"));
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("plot: heatmap cells stay crisp: rectangles in an SVG up to 64 CPUs, a pixelated image beyond") {
  TempDir dir;
  const std::string script = GENERATE(as<std::string>{}, "heatmap_offset.gp", "heatmap_violations.gp");
  SECTION("2 CPUs: no image, a polygon per measured cell") {
    const std::string svg = drawn_heatmap(
        dir, script, "# title: t\n# units: count\n# rows: a\n# cells: c\n# boundaries:\ncpu 0 1\n0 NaN 3\n1 5 NaN\n");
    CHECK(count(svg, "<image") == 0);
    // Two cells, the grey square behind them, the colour box's steps: at least 3 polygons.
    CHECK(count(svg, "<polygon") >= 3);
  }
  SECTION("64 CPUs: still no image") {
    const std::string svg = drawn_heatmap(dir, script, square_matrix(64));
    CHECK(count(svg, "<image") == 0);
    CHECK(count(svg, "<polygon") >= std::size_t{64} * 63);
  }
  SECTION("65 CPUs: one image, marked pixelated; the PNG is an image too") {
    const std::string svg = drawn_heatmap(dir, script, square_matrix(65));
    CHECK(count(svg, "<image") == 1);
    CHECK(count(svg, "<image image-rendering='optimizeSpeed' style='image-rendering:pixelated' ") == 1);
    CHECK(count(svg, "<polygon") < std::size_t{65} * 64);
    const PlotResult png = render_plot(kPlots + "/" + script, dir.at("m.dat"), dir.at("m.png"));
    INFO(png.problem);
    CHECK(png.ok);
  }
  CHECK(listing(dir.path).find(".tmp.") == std::string::npos);
}

TEST_CASE("plot: a signed heatmap's colour limit: cells beyond it in the end colours, the note under the title") {
  TempDir dir;
  const std::string head = "# title: t\n# units: ticks\n# rows: a\n# cells: c\n# boundaries:\n";
  const std::string cells = "cpu 0 1\n0 NaN 240\n1 -480 NaN\n";
  const std::string end_blue = "fill = 'rgb( 33, 102, 172)'";
  SECTION("limit 240: the colour box ends there, -480 in the end blue, the note in two lines") {
    const std::string svg = drawn_heatmap(dir, "heatmap_offset.gp",
                                          head + "# colour_limit: 240\n# note: first part; second part\n" + cells);
    check_svg_text(svg,
                   {"<text>t</text>", "<text>first part</text>", "<text>second part</text>", "<text> 200</text>",
                    "<text>-480</text>"},
                   {"<text>-400</text>", "first part; second part"});
    CHECK(count(svg, end_blue) == 2);  // the cell of -480 and the colour box's end
  }
  SECTION("no limit: the colour box spans the values, as before") {
    const std::string svg = drawn_heatmap(dir, "heatmap_offset.gp", head + cells);
    check_svg_text(svg, {"<text>-400</text>"}, {"first part"});
  }
  SECTION("a limit that is no positive number is refused") {
    check_rejected("heatmap_offset.gp", {{head + "# colour_limit: -5\n" + cells, "is not a positive number"},
                                         {head + "# colour_limit: x\n" + cells, "is not a positive number"}});
  }
}

TEST_CASE("plot: beyond 64 CPUs the heatmap tics name the packages and L3 domains, not the CPUs") {
  TempDir dir;
  const std::string script = GENERATE(as<std::string>{}, "heatmap_offset.gp", "heatmap_violations.gp");
  // In gnuplot's SVG a tic label is "<text>LABEL</text>". CPU 136 is a tic label of today's
  // CPU-number tics at 256 CPUs (every 8th); no colour box tic reaches 136 (counts < 50).
  const std::string cpu_136 = "<text>136</text>";
  SECTION("256 CPUs, 2 packages of 8 L3 domains: group names on both axes, two weights of lines") {
    const std::string svg = drawn_heatmap(dir, script, grouped_matrix(256, 2, 8));
    CHECK(count(svg, "<text>package 0</text>") == 2);
    CHECK(count(svg, "<text>package 1</text>") == 2);
    CHECK(count(svg, "<text>L3 0</text>") == 2);
    CHECK(count(svg, "<text>L3 15</text>") == 2);
    CHECK(count(svg, cpu_136) == 0);
    // The L3 lines, dark grey, one path (the package line is black).
    CHECK(count(svg, "<path stroke='rgb( 80,  80,  80)'") == 1);
  }
  SECTION("1024 CPUs, 4 packages of 8 L3 domains: still named, no value in the cells") {
    const std::string svg = drawn_heatmap(dir, script, grouped_matrix(1024, 4, 8));
    CHECK(count(svg, "<text>package 3</text>") == 2);
    CHECK(count(svg, "<text>L3 31</text>") == 2);
    CHECK(count(svg, "<text>1000</text>") == 0);
    // Title, axis labels, colour box tics, tic labels, the not-measured note: no cell values.
    CHECK(count(svg, "<text>") < 200);
  }
  SECTION("L3 domains too narrow for a line of text: only the packages are named") {
    // 128 L3 domains of 4 CPUs, at 3 px a CPU (1536 px for 512): 12 px, no room for text.
    const std::string svg = drawn_heatmap(dir, script, grouped_matrix(512, 4, 32));
    CHECK(count(svg, "<text>package 3</text>") == 2);
    CHECK(count(svg, "<text>L3 0</text>") == 0);
  }
  SECTION("one L3 domain per package: the packages are named at the tics, no thin lines") {
    const std::string svg = drawn_heatmap(dir, script, grouped_matrix(256, 2, 1));
    CHECK(count(svg, "<text>package 1</text>") == 2);
    CHECK(count(svg, "<text>L3 1</text>") == 0);
    CHECK(count(svg, "<path stroke='rgb( 80,  80,  80)'") == 0);
  }
  SECTION("256 CPUs without topology: the CPU numbers as before, no line") {
    const std::string svg = drawn_heatmap(dir, script, square_matrix(256));
    CHECK(count(svg, cpu_136) == 2);
    CHECK(count(svg, "package") == 0);
  }
  SECTION("64 CPUs keep their CPU numbers, with the two weights of lines") {
    const std::string svg = drawn_heatmap(dir, script, grouped_matrix(64, 2, 4));
    CHECK(count(svg, "<text>62</text>") == 2);
    CHECK(count(svg, "package") == 0);
    CHECK(count(svg, "<path stroke='rgb( 80,  80,  80)'") == 1);
  }
}

TEST_CASE("plot: the Plotter draws with the scripts compiled into the binary, and removes them after") {
  TempDir dir;
  TempDir tmp;
  EnvGuard tmpdir("TMPDIR", tmp.path.c_str());
  EnvGuard plots("TSCAUDIT_PLOTS", nullptr);
  spit(dir.at("m.dat"), small_matrix("ticks"));
  {
    Plotter plotter;
    CHECK(plotter.draw("heatmap_offset.gp", dir.at("m.dat"), dir.at("m.png")));
    CHECK(plotter.draw("heatmap_latency.gp", dir.at("m.dat"), dir.at("m.svg")));
    CHECK(plotter.report().drawn == std::vector<std::string>{dir.at("m.png"), dir.at("m.svg")});
    CHECK(plotter.report().not_drawn.empty());
    CHECK(plotter.report().failed.empty());
    CHECK(listing(tmp.path).starts_with("tscaudit-plots-"));  // the scripts, while the Plotter lives
  }
  CHECK(listing(tmp.path).empty());
  CHECK(listing(dir.path) == "m.dat m.png m.svg");
  CHECK(slurp(dir.at("m.svg")).find("test matrix (ticks)") != std::string::npos);
}

TEST_CASE("plot: TSCAUDIT_PLOTS overrides the compiled-in scripts") {
  TempDir dir;
  TempDir tmp;
  fs::create_directories(dir.path / "plots");
  spit(dir.path / "plots" / "heatmap_common.gp", "");
  spit(dir.path / "plots" / "heatmap_offset.gp",
       "set terminal svg\nset output ARG2\nset title 'drawn by the override'\nplot ARG1 using 1:1\n");
  spit(dir.path / "plots" / "broken.gp", "exit error 'this script is broken'\n");
  spit(dir.at("m.dat"), "1\n2\n");
  EnvGuard tmpdir("TMPDIR", tmp.path.c_str());
  EnvGuard plots("TSCAUDIT_PLOTS", dir.at("plots").c_str());
  Plotter plotter;
  SECTION("its scripts are drawn") {
    REQUIRE(plotter.draw("heatmap_offset.gp", dir.at("m.dat"), dir.at("m.svg")));
    CHECK(slurp(dir.at("m.svg")).find("drawn by the override") != std::string::npos);
  }
  SECTION("a script that fails is a failure, not a missing gnuplot") {
    CHECK_FALSE(plotter.draw("broken.gp", dir.at("m.dat"), dir.at("m.svg")));
    REQUIRE(plotter.report().failed.size() == 1);
    CHECK(plotter.report().failed[0].path == dir.at("m.svg"));
    CHECK_THAT(plotter.report().failed[0].why, Catch::Contains("this script is broken"));
    CHECK(plotter.report().not_drawn.empty());
  }
  SECTION("a script it lacks is a failure too") {
    CHECK_FALSE(plotter.draw("variants_cost.gp", dir.at("m.dat"), dir.at("m.png")));
    REQUIRE(plotter.report().failed.size() == 1);
    CHECK_THAT(plotter.report().failed[0].why, Catch::StartsWith("cannot read the plot script"));
  }
  CHECK(listing(tmp.path).empty());  // nothing written for an override
}

// plots/cpu_offsets.gp: the per-CPU offsets, one point per CPU (analysis/render/cpu_offsets_text.cpp).
namespace {

/// A cpu_offsets.dat of `n` CPUs (CPU number = position), each at 0 within [-3, 3] but CPU
/// `off` at 400 within [390, 410]; `packages` and `l3s` equal groups (0: no group lines).
std::string cpu_offsets_text(int n, int off, int packages, int l3s, bool nan_bounds = false) {
  std::ostringstream s;
  s << "# title: offsets per CPU\n# units: ticks\n# reference: 0\n# columns: position cpu estimate lo hi\n";
  auto groups = [&](const char* key, int count) {
    s << "# " << key << "_starts:";
    for (int k = 0; k < count; ++k) s << ' ' << k * (n / count);
    s << "\n# " << key << "_ids:";
    for (int k = 0; k < count; ++k) s << ' ' << k;
    s << '\n';
  };
  groups("package", packages);
  groups("l3", l3s);
  for (int i = 0; i < n; ++i) {
    const bool is_off = i == off;
    s << i << ' ' << i << ' ' << (is_off ? 400 : 0) << ' ';
    if (nan_bounds) {
      s << "NaN NaN\n";
    } else {
      s << (is_off ? 390 : -3) << ' ' << (is_off ? 410 : 3) << '\n';
    }
  }
  return s.str();
}

/// How many points of the colour `rgb` the SVG draws (the key's sample among them).
std::size_t points_of(const std::string& svg, const std::string& rgb) {
  const std::string mark = "color='" + rgb + "'/>";
  std::size_t count = 0;
  for (std::size_t at = svg.find(mark); at != std::string::npos; at = svg.find(mark, at + 1)) ++count;
  return count;
}

const std::string kRed = "rgb(215,  25,  28)";   // bounds exclude 0
const std::string kBlue = "rgb( 33, 102, 172)";  // the other estimates

}  // namespace

TEST_CASE("plot: cpu offsets at 128 CPUs name the groups and show the one CPU off in red") {
  TempDir dir;
  const std::string svg = drawn_text(dir, "cpu_offsets.gp", cpu_offsets_text(128, 77, 2, 8), ".svg");
  check_svg_text(svg,
                 {"offsets per CPU", "offset against CPU 0 (ticks)", ">package 0<", ">package 1<", ">L3 0<", ">L3 7<",
                  "bounds exclude 0"},
                 {">77<", ">64<"});
  CHECK(points_of(svg, kRed) == 2);     // CPU 77 and the key's sample
  CHECK(points_of(svg, kBlue) == 128);  // the 127 others and the key's sample
  const std::string png = drawn_text(dir, "cpu_offsets.gp", cpu_offsets_text(128, 77, 2, 8), ".png");
  CHECK(png_size(png).first == 640 + 200);  // 4 px per CPU, but a plot area of at least 640 px
}

TEST_CASE("plot: cpu offsets of 2 CPUs without topology, and with no bound known") {
  TempDir dir;
  SECTION("CPU numbers as tick labels, no group named") {
    const std::string svg = drawn_text(dir, "cpu_offsets.gp", cpu_offsets_text(2, 1, 0, 0), ".svg");
    check_svg_text(svg, {">0<", ">1<"}, {"package", "L3"});
    CHECK(points_of(svg, kRed) == 2);
    CHECK(points_of(svg, kBlue) == 2);
  }
  SECTION("all bounds NaN: the estimates drawn, none red") {
    const std::string svg = drawn_text(dir, "cpu_offsets.gp", cpu_offsets_text(16, 5, 2, 0, true), ".svg");
    CHECK(points_of(svg, kRed) == 1);  // the key's sample only
    CHECK(points_of(svg, kBlue) == 17);
  }
  SECTION("every value NaN") {
    const std::string svg = drawn_text(dir, "cpu_offsets.gp", "# title: t\n0 0 NaN NaN NaN\n1 1 NaN NaN NaN\n", ".svg");
    CHECK(points_of(svg, kRed) == 1);
    CHECK(points_of(svg, kBlue) == 1);
  }
}

namespace {

/// cpu_offsets_text() with the offset groups: package 0 (CPUs 0 to n/2 - 1) the reference,
/// package 1 the group ahead by 600, CPU `off` left out at `off_ticks`, beyond the y range
/// when the file gives one.
std::string grouped_offsets_text(int n, int off, double off_ticks, bool y_range) {
  std::ostringstream s;
  s << "# title: offsets per CPU\n# units: ticks\n# reference: 0\n# columns: position cpu estimate lo hi group\n"
    << "# package_starts: 0 " << n / 2 << "\n# package_ids: 0 1\n# l3_starts:\n# l3_ids:\n# groups: 2\n"
    << "# group_0: reference: package 0 (" << n / 2 << " CPUs)\n# group_1: package 1, +600 ticks\n"
    << "# left_out: left out (drifts, steps or unlinked): CPU " << off << "\n";
  if (y_range) s << "# y_range: -200 800\n";
  for (int i = 0; i < n; ++i) {
    const int group = i == off ? -1 : (i < n / 2 ? 0 : 1);
    const double x = i == off ? off_ticks : (group == 1 ? 600 : 0);
    s << i << ' ' << i << ' ' << x << ' ' << x - 100 << ' ' << x + 100 << ' ' << group << '\n';
  }
  return s.str();
}

const std::string kBlack = "rgb(  0,   0,   0)";  // the CPUs left out
const std::string kGreen = "rgb( 26, 150,  65)";  // the third group

}  // namespace

TEST_CASE("plot: cpu offsets by offset group: a colour and a key entry each, a CPU far off on the edge") {
  TempDir dir;
  SECTION("128 CPUs, package 1 ahead, CPU 77 drifting to +4500: beyond the range, a triangle and its value") {
    const std::string svg = drawn_text(dir, "cpu_offsets.gp", grouped_offsets_text(128, 77, 4500, true), ".svg");
    check_svg_text(svg,
                   {"reference: package 0 (64 CPUs)", "package 1, +600 ticks",
                    "left out (drifts, steps or unlinked): CPU 77", "> +4500<", ">package 0<", ">package 1<"},
                   {"bounds exclude 0", ">estimate<"});
    CHECK(points_of(svg, kBlue) == 65);  // package 0 and the key's sample
    CHECK(points_of(svg, kRed) == 64);   // package 1 but CPU 77, and the key's sample
    CHECK(points_of(svg, kBlack) == 2);  // CPU 77's triangle and the key's circle
    // The y range the file gives: its tics, not those up to 4500.
    check_svg_text(svg, {"> 800<"}, {"> 4000<"});
  }
  SECTION("a CPU left out within the range: an open circle where it is, no value written") {
    const std::string svg = drawn_text(dir, "cpu_offsets.gp", grouped_offsets_text(16, 5, 300, false), ".svg");
    CHECK(points_of(svg, kBlack) == 2);  // CPU 5's circle and the key's
    CHECK(svg.find("> +300<") == std::string::npos);
  }
  SECTION("more than seven groups: the first seven in colour, the rest grey under one key entry") {
    std::ostringstream s;
    s << "# title: t\n# columns: position cpu estimate lo hi group\n# groups: 9\n";
    for (int k = 0; k < 9; ++k) s << "# group_" << k << ": CPU " << k << "\n";
    for (int k = 0; k < 9; ++k) s << k << ' ' << k << ' ' << k * 10 << " NaN NaN " << k << '\n';
    const std::string svg = drawn_text(dir, "cpu_offsets.gp", s.str(), ".svg");
    check_svg_text(svg, {"CPU 0", "CPU 6", "groups 7 to 8"}, {"CPU 7<", "left out"});
    CHECK(points_of(svg, kGreen) == 2);                // group 2 and its key sample
    CHECK(points_of(svg, "rgb(119, 119, 119)") == 3);  // groups 7 and 8, one key sample
  }
}

TEST_CASE("plot: a malformed cpu offsets file fails and names the line") {
  check_rejected(
      "cpu_offsets.gp",
      {{"# title: t\n0 0 x NaN NaN\n", "in.dat:2: column 3: 'x' is not a number or NaN"},
       {"# title: t\n0 0 0 0\n", "in.dat:2: 4 fields, expected 5"},
       {"# title: t\n# columns: position cpu estimate lo hi group\n0 0 0 0 0\n", "in.dat:3: 5 fields, expected 6"},
       {"# columns: position cpu estimate lo hi group\n0 0 0 0 0 x\n", "in.dat:2: column 6: 'x' is not a number"},
       {"# title: t\n", "in.dat: no data rows"}});
}

// The heatmap's canvas follows the matrix: a small matrix a small picture with large text,
// a large one no wider than a page shows near its own size.
TEST_CASE("plot: the heatmap canvas is sized by the matrix, its text legible at each size") {
  TempDir dir;
  const std::string script = GENERATE(as<std::string>{}, "heatmap_offset.gp", "heatmap_latency.gp");
  struct Size {
    std::size_t cpus;
    std::string canvas;  // the SVG's width and height
    std::string font;    // the tic labels' size
  };
  for (const Size& s : {Size{2, "width=\"530\" height=\"390\"", "font-size=\"13.00\""},
                        Size{4, "width=\"650\" height=\"510\"", "font-size=\"13.00\""},
                        Size{16, "width=\"1130\" height=\"990\"", "font-size=\"11.00\""},
                        Size{64, "width=\"730\" height=\"590\"", "font-size=\"11.00\""},
                        Size{256, "width=\"1354\" height=\"1214\"", "font-size=\"13.00\""}}) {
    INFO(script << ", " << s.cpus << " CPUs");
    const std::string svg = drawn_heatmap(dir, script, square_matrix(s.cpus));
    CHECK(svg.find(s.canvas) != std::string::npos);
    CHECK(svg.find(s.font) != std::string::npos);
  }
  // 2 CPUs: a label in each of the 4 cells at 14 pt (those of the diagonal, not measured, empty).
  CHECK(count(drawn_heatmap(dir, script, square_matrix(2)), "font-size=\"14.00\"") == 4);
  CHECK(png_size(drawn(kPlots + "/" + script, dir.at("m.dat"), dir.at("m.png"))) == std::make_pair(530U, 390U));
}

TEST_CASE("plot: a heatmap's long note is cut at its colons and the canvas widened to its title") {
  TempDir dir;
  MatrixGrid g = square_grid(2);
  g.title = "a title of exactly sixty characters, which is wider than 530";
  std::string text = format_gnuplot_matrix(g);
  text.insert(text.find("\n") + 1,
              "# note: estimates inside hard bands of typically +/-129 ticks: colours span at least that\n");
  const std::string svg = drawn_heatmap(dir, "heatmap_offset.gp", text);
  // 60 characters at 11 pt (0.6 em each) and 40 px: 568 px, 567 as gnuplot rounds it down;
  // three lines, the usual height.
  CHECK(svg.find("width=\"567\" height=\"390\"") != std::string::npos);
  check_svg_text(svg, {">estimates inside hard bands of typically +/-129 ticks:<", ">colours span at least that<"});
}

// plots/variants_switch.gp breaks its lines where there is no data, through
// plots/gap_lines.awk: a blank line at the switch and before a step of more than 4 times
// the median step.
namespace {

/// What `command` prints on stdout.
std::string output_of(const std::string& command) {
  std::string out;
  FILE* p = ::popen(command.c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  CHECK(::pclose(p) == 0);
  return out;
}

const char* const kSwitchRows =
    "# title: CPUs 0 -> 1: receive read rdtsc, then lfence_rdtsc\n# switch_ms: 1.0\n"
    "# first: rdtsc/rdtsc\n# second: rdtsc/lfence_rdtsc\n"
    "0.00 -12 201 35 190 210\n0.25 -10 200 36 191 211\n0.50 -11 202 34 189 212\n"
    "1.00 150 205 140 195 380\n1.25 151 206 141 196 381\n"
    "3.00 152 207 142 197 382\n3.25 153 208 143 198 383\n";

}  // namespace

TEST_CASE("plot: gap_lines.awk puts a blank line at the switch and at a gap in time, and nowhere else") {
  TempDir dir;
  spit(dir.at("in.dat"), kSwitchRows);
  const std::string awk = "awk -f " + kPlots + "/gap_lines.awk ";
  // Steps 0.25 0.25 0.5 0.25 1.75 0.25: median 0.25, so a gap is a step beyond 1.0.
  CHECK(output_of(awk + "-v switch_at=1.0 " + dir.at("in.dat")) ==
        "0.00 -12 201 35 190 210\n0.25 -10 200 36 191 211\n0.50 -11 202 34 189 212\n\n"
        "1.00 150 205 140 195 380\n1.25 151 206 141 196 381\n\n"
        "3.00 152 207 142 197 382\n3.25 153 208 143 198 383\n");
  // No switch given: the step of 0.5 to the switch is no gap.
  CHECK(output_of(awk + dir.at("in.dat")) ==
        "0.00 -12 201 35 190 210\n0.25 -10 200 36 191 211\n0.50 -11 202 34 189 212\n"
        "1.00 150 205 140 195 380\n1.25 151 206 141 196 381\n\n"
        "3.00 152 207 142 197 382\n3.25 153 208 143 198 383\n");
  // Even steps: no gap at all.
  spit(dir.at("even.dat"), "0 1 1 1 1 1\n1 1 1 1 1 1\n2 1 1 1 1 1\n");
  CHECK(output_of(awk + dir.at("even.dat")) == "0 1 1 1 1 1\n1 1 1 1 1 1\n2 1 1 1 1 1\n");
}

TEST_CASE("plot: the switch plot draws no line across the switch or a gap in time") {
  TempDir dir;
  const std::string svg = drawn_text(dir, "variants_switch.gp", kSwitchRows, ".svg");
  // The forward minimum, blue and solid: its key sample and three pieces of line, each
  // begun with a move (M).
  const std::string blue_solid = "<path stroke='rgb(  0, 114, 178)'  d='";
  const std::size_t at = svg.find(blue_solid);
  REQUIRE(at != std::string::npos);
  const std::string d = svg.substr(at, svg.find('\'', at + blue_solid.size()) - at);
  CHECK(count(d, "M") == 4);
}
