// The parts of plot.hpp that run without gnuplot: the checks before gnuplot starts, the
// scripts compiled into the binary and where they are put, the Plotter where gnuplot is
// missing, and the messages. The drawing itself is tested by test_plot_gnuplot.cpp, which
// ctest skips where gnuplot is not installed.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "app/embedded_plots.hpp"
#include "app/pictures.hpp"
#include "app/plot.hpp"
#include "plot_fixture.hpp"

using namespace tscaudit;
using namespace tscaudit::test;
namespace fs = std::filesystem;

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
    CHECK(r.problem == "cannot create " + dir.at("no/out.png") + ": No such file or directory");
  }
  SECTION("no gnuplot on PATH") {
    EnvGuard path("PATH", dir.path.c_str());
    const PlotResult r = render_plot(kPlots + "/heatmap_offset.gp", dir.at("m.dat"), dir.at("out.png"));
    CHECK(r.problem == "gnuplot not found (install gnuplot-nox)");
    CHECK(r.gnuplot_missing);
  }
  CHECK(listing(dir.path) == "m.dat");
}

TEST_CASE("plot: the binary holds every script of plots/, byte for byte") {
  // The scripts (.gp, .awk); plots/README.md describes them and stays out of the binary.
  std::set<std::string> on_disk;
  for (const auto& e : fs::directory_iterator(kPlots)) {
    const std::string ext = e.path().extension().string();
    if (ext == ".gp" || ext == ".awk") on_disk.insert(e.path().filename().string());
  }
  CHECK(on_disk.size() >= 10);
  std::set<std::string> embedded;
  for (const EmbeddedFile& f : embedded_plot_files()) {
    INFO(f.name);
    embedded.insert(std::string(f.name));
    CHECK(f.bytes == slurp(fs::path(kPlots) / f.name));
  }
  CHECK(embedded == on_disk);
  CHECK(embedded.count("heatmap_common.gp") == 1);
  CHECK(embedded.count("matrix_info.awk") == 1);
}

TEST_CASE("plot: the compiled-in scripts are put in a private directory, removed at the end") {
  TempDir tmp;
  EnvGuard tmpdir("TMPDIR", tmp.path.c_str());
  std::string dir;
  {
    const PlotScripts scripts(nullptr);
    REQUIRE(scripts.ok());
    CHECK(scripts.problem().empty());
    dir = scripts.dir();
    CHECK(fs::path(dir).parent_path() == tmp.path);
    CHECK(fs::path(dir).filename().string().starts_with("tscaudit-plots-"));
    struct stat st {};
    REQUIRE(::stat(dir.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0700);
    for (const EmbeddedFile& f : embedded_plot_files()) {
      INFO(f.name);
      CHECK(slurp(scripts.script(f.name)) == f.bytes);
    }
    CHECK(scripts.script("heatmap_offset.gp") == dir + "/heatmap_offset.gp");
  }
  CHECK_FALSE(fs::exists(dir));
  CHECK(listing(tmp.path).empty());
}

TEST_CASE("plot: where the scripts come from") {
  TempDir tmp;
  SECTION("an empty override is no override") {
    EnvGuard tmpdir("TMPDIR", tmp.path.c_str());
    const PlotScripts scripts("");
    REQUIRE(scripts.ok());
    CHECK(fs::path(scripts.dir()).parent_path() == tmp.path);
  }
  SECTION("TSCAUDIT_PLOTS: the directory as it is, left alone at the end") {
    {
      const PlotScripts scripts(kPlots.c_str());
      REQUIRE(scripts.ok());
      CHECK(scripts.dir() == kPlots);
      CHECK(scripts.script("heatmap_offset.gp") == kPlots + "/heatmap_offset.gp");
    }
    CHECK(fs::exists(fs::path(kPlots) / "heatmap_common.gp"));
  }
  SECTION("a wrong TSCAUDIT_PLOTS is reported, not replaced") {
    const PlotScripts scripts(tmp.path.c_str());
    CHECK_FALSE(scripts.ok());
    CHECK(scripts.problem() == "TSCAUDIT_PLOTS=" + tmp.path.string() + " holds no heatmap_common.gp");
    CHECK(scripts.dir().empty());
  }
  SECTION("a temporary directory that cannot be made") {
    EnvGuard tmpdir("TMPDIR", (tmp.path / "none").c_str());
    const PlotScripts scripts(nullptr);
    CHECK_FALSE(scripts.ok());
    CHECK(scripts.problem() ==
          "cannot make a directory for the plot scripts in " + tmp.path.string() + "/none: No such file or directory");
  }
}

TEST_CASE("plot: without gnuplot the Plotter draws nothing, starts nothing and writes no script") {
  TempDir dir;
  TempDir tmp;
  spit(dir.at("m.dat"), small_matrix("ticks"));
  EnvGuard path("PATH", dir.path.c_str());
  EnvGuard tmpdir("TMPDIR", tmp.path.c_str());
  EnvGuard plots("TSCAUDIT_PLOTS", nullptr);
  CHECK_FALSE(gnuplot_on_path());
  Plotter plotter;
  CHECK_FALSE(plotter.draw("heatmap_offset.gp", dir.at("m.dat"), dir.at("m.png")));
  CHECK_FALSE(plotter.draw("heatmap_offset.gp", dir.at("m.dat"), dir.at("m.svg")));
  CHECK(plotter.report().drawn.empty());
  CHECK(plotter.report().not_drawn == std::vector<std::string>{dir.at("m.png"), dir.at("m.svg")});
  CHECK(plotter.report().failed.empty());
  CHECK(listing(dir.path) == "m.dat");
  CHECK(listing(tmp.path).empty());
}

TEST_CASE("plot: gnuplot is looked for where posix_spawnp looks") {
  TempDir dir;
  fs::create_directories(dir.path / "bin");
  spit(dir.path / "bin" / "gnuplot", "#!/bin/sh\n");
  SECTION("not executable: not found") {
    fs::permissions(dir.path / "bin" / "gnuplot", fs::perms::owner_read | fs::perms::owner_write);
    EnvGuard path("PATH", ("/nonexistent:" + dir.at("bin")).c_str());
    CHECK_FALSE(gnuplot_on_path());
  }
  SECTION("executable, in the second directory of PATH") {
    fs::permissions(dir.path / "bin" / "gnuplot", fs::perms::owner_all);
    EnvGuard path("PATH", ("/nonexistent:" + dir.at("bin")).c_str());
    CHECK(gnuplot_on_path());
  }
  SECTION("a directory named gnuplot is not gnuplot") {
    fs::create_directories(dir.path / "dirs" / "gnuplot");
    EnvGuard path("PATH", dir.at("dirs").c_str());
    CHECK_FALSE(gnuplot_on_path());
  }
}

TEST_CASE("plot: the messages claim only what was drawn") {
  SECTION("not_drawn_message groups the pictures by directory") {
    CHECK(not_drawn_message({}).empty());
    CHECK(not_drawn_message({"r/matrix/a.png", "r/matrix/a.svg", "r/variants/b.png"}) ==
          "gnuplot not found: install gnuplot-nox; not drawn in r/matrix: a.png, a.svg; in r/variants: b.png "
          "(the .dat files beside them are their input)");
    CHECK(not_drawn_message({"a.png"}) ==
          "gnuplot not found: install gnuplot-nox; not drawn in .: a.png (the .dat files beside them are their input)");
  }
  SECTION("pictures_written") {
    PictureReport r;
    CHECK(pictures_written(r, "heatmaps").empty());
    r.drawn = {"a.png", "a.svg"};
    CHECK(pictures_written(r, "heatmaps") == " and the heatmaps");
    r.not_drawn = {"b.png"};
    r.failed = {{"b.svg", "exit status 1"}};
    CHECK(pictures_written(r, "heatmaps") == " and 2 of the 4 heatmaps");
    r.drawn.clear();
    CHECK(pictures_written(r, "heatmaps") == ", no heatmap");
    CHECK(r.failure_lines() == std::vector<std::string>{"b.svg: exit status 1"});
  }
  SECTION("PictureReport::add appends") {
    PictureReport a, b;
    a.drawn = {"1"};
    b.drawn = {"2"};
    b.not_drawn = {"3"};
    b.failed = {{"4", "why"}};
    a.add(b);
    CHECK(a.drawn == std::vector<std::string>{"1", "2"});
    CHECK(a.not_drawn == std::vector<std::string>{"3"});
    CHECK(a.failure_lines() == std::vector<std::string>{"4: why"});
  }
}

TEST_CASE("plot: a picture cut short is told from a whole one by its end") {
  const std::string iend("\0\0\0\0IEND\xAE\x42\x60\x82", 12);
  CHECK(picture_ends_whole("...IDAT..." + iend, ".png"));
  CHECK(picture_ends_whole(iend, ".png"));
  CHECK_FALSE(picture_ends_whole("...IDAT..." + iend.substr(0, 11), ".png"));  // last byte missing
  CHECK_FALSE(picture_ends_whole("...IDAT...", ".png"));
  CHECK_FALSE(picture_ends_whole("", ".png"));
  CHECK(picture_ends_whole("<g></g>\n</svg>\n\n", ".svg"));
  CHECK(picture_ends_whole("</svg>", ".svg"));
  CHECK_FALSE(picture_ends_whole("<g></g>\n</sv", ".svg"));
  CHECK_FALSE(picture_ends_whole("</svg>\n<g>", ".svg"));
  CHECK_FALSE(picture_ends_whole("</svg>", ".pdf"));
}
