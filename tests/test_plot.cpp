// render_plot runs the real gnuplot on the real plots/ scripts (TSCSYNC_TEST_PLOTS, the
// source tree). Where gnuplot is not installed the rendering tests say so and pass
// (install gnuplot-nox to run them); the failure paths that need no gnuplot always run.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "matrix_text.hpp"
#include "plot.hpp"

using namespace tscsync;
namespace fs = std::filesystem;

namespace {

const std::string kPlots = TSCSYNC_TEST_PLOTS;

struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "tscsync-plot-XXXXXX").string();
    path = ::mkdtemp(tmpl.data());
  }
  ~TempDir() { fs::remove_all(path); }
  [[nodiscard]] std::string at(const std::string& name) const { return (path / name).string(); }
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void spit(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

/// The names in `dir`, sorted, space-separated: shows any aside file left behind.
std::string listing(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : " ") + n;
  return out;
}

bool gnuplot_on_path() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (!dir.empty() && ::access((fs::path(dir) / "gnuplot").c_str(), X_OK) == 0) return true;
  }
  return false;
}

/// A 3x3 matrix with a NaN diagonal and a group boundary after the first CPU.
std::string small_matrix(const std::string& units) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  MatrixGrid g;
  g.name = "m";
  g.title = "test matrix (" + units + ")";
  g.units = units;
  g.labels = {"0", "2", "1"};
  g.boundaries = {1};
  g.values = {nan, 3, 40, 0, nan, 7, 1200, 0.5, nan};
  return format_gnuplot_matrix(g);
}

/// Restores PATH when a test has changed it.
struct PathGuard {
  std::string saved = std::getenv("PATH") != nullptr ? std::getenv("PATH") : "";
  ~PathGuard() { ::setenv("PATH", saved.c_str(), 1); }
};

}  // namespace

TEST_CASE("plot: every heatmap script renders PNG and SVG, leaving nothing aside") {
  if (!gnuplot_on_path()) {
    WARN("gnuplot is not installed (apt-get install gnuplot-nox): rendering not tested");
    return;
  }
  const std::string script = GENERATE(as<std::string>{}, "heatmap_offset.gp", "heatmap_latency.gp",
                                      "heatmap_violations.gp");
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
  if (!gnuplot_on_path()) {
    WARN("gnuplot is not installed (apt-get install gnuplot-nox): rendering not tested");
    return;
  }
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
  if (!gnuplot_on_path()) {
    WARN("gnuplot is not installed (apt-get install gnuplot-nox): timeout not tested");
    return;
  }
  TempDir dir;
  spit(dir.at("m.dat"), small_matrix("ticks"));
  spit(dir.at("hang.gp"), "system('sleep 30')\n");
  const auto t0 = std::chrono::steady_clock::now();
  const PlotResult r = render_plot(dir.at("hang.gp"), dir.at("m.dat"), dir.at("out.svg"), std::chrono::milliseconds(300));
  const auto took = std::chrono::steady_clock::now() - t0;
  CHECK_FALSE(r.ok);
  CHECK_THAT(r.problem, Catch::Contains("no result after 300 ms, killed"));
  CHECK(took < std::chrono::seconds(10));
  CHECK(listing(dir.path) == "hang.gp m.dat");
}

TEST_CASE("plot: problems found before gnuplot runs") {
  TempDir dir;
  spit(dir.at("m.dat"), small_matrix("ticks"));
  SECTION("a missing script") {
    const PlotResult r = render_plot(dir.at("nope.gp"), dir.at("m.dat"), dir.at("out.png"));
    CHECK_FALSE(r.ok);
    CHECK(r.problem == "cannot read the plot script " + dir.at("nope.gp") + ": No such file or directory");
  }
  SECTION("a missing input") {
    const PlotResult r = render_plot(kPlots + "/heatmap_offset.gp", dir.at("none.dat"), dir.at("out.png"));
    CHECK(r.problem == "cannot read " + dir.at("none.dat") + ": No such file or directory");
  }
  SECTION("an output that is neither PNG nor SVG") {
    const PlotResult r = render_plot(kPlots + "/heatmap_offset.gp", dir.at("m.dat"), dir.at("out.jpg"));
    CHECK(r.problem == "the picture " + dir.at("out.jpg") + " must end in .png or .svg");
  }
  SECTION("an output in a missing directory") {
    const PlotResult r = render_plot(kPlots + "/heatmap_offset.gp", dir.at("m.dat"), dir.at("no/out.png"));
    CHECK_THAT(r.problem, Catch::StartsWith("cannot create " + dir.at("no/out.png") + ".tmp.") &&
                              Catch::EndsWith(".png: No such file or directory"));
  }
  SECTION("no gnuplot on PATH") {
    PathGuard guard;
    ::setenv("PATH", dir.path.c_str(), 1);
    const PlotResult r = render_plot(kPlots + "/heatmap_offset.gp", dir.at("m.dat"), dir.at("out.png"));
    CHECK(r.problem == "gnuplot not found (install gnuplot-nox)");
  }
  CHECK(listing(dir.path) == "m.dat");
}

TEST_CASE("plot: where the scripts are found") {
  TempDir dir;
  const std::string tree = dir.path.string();
  fs::create_directories(dir.path / "plots");
  fs::create_directories(dir.path / "share");
  spit(dir.path / "plots" / "heatmap_common.gp", "");
  spit(dir.path / "share" / "heatmap_common.gp", "");
  std::string problem = "untouched";
  SECTION("TSCSYNC_PLOTS wins") {
    CHECK(find_plot_dir_in(kPlots.c_str(), tree + "/build/tscsync", tree + "/share", &problem) == kPlots);
    CHECK(problem == "untouched");
  }
  SECTION("a wrong TSCSYNC_PLOTS is reported, not replaced") {
    CHECK(find_plot_dir_in(tree.c_str(), tree + "/build/tscsync", tree + "/share", &problem).empty());
    CHECK(problem == "TSCSYNC_PLOTS=" + tree + " holds no heatmap_common.gp");
  }
  SECTION("build/tscsync finds plots/ beside build/") {
    CHECK(find_plot_dir_in(nullptr, tree + "/build/tscsync", tree + "/share", &problem) == tree + "/plots");
  }
  SECTION("then the install directory") {
    CHECK(find_plot_dir_in(nullptr, tree + "/share/bin/x/tscsync", tree + "/share", &problem) == tree + "/share");
  }
  SECTION("nowhere") {
    CHECK(find_plot_dir_in(nullptr, tree + "/a/b/tscsync", tree + "/none", &problem).empty());
    CHECK(problem == "no plot scripts found (looked in " + tree + "/a/plots, " + tree +
                         "/none); set TSCSYNC_PLOTS to the plots/ directory");
  }
  SECTION("find_plot_dir reads TSCSYNC_PLOTS") {
    ::setenv("TSCSYNC_PLOTS", kPlots.c_str(), 1);
    CHECK(find_plot_dir(&problem) == kPlots);
    ::unsetenv("TSCSYNC_PLOTS");
  }
}
