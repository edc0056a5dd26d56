// The matrices written for gnuplot (render/matrix_grids.hpp): which, in what order, their
// titles by the counter's name, and the values of a grid, exactly.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "render/matrix_grids.hpp"

using namespace tscaudit;

namespace {

/// CPUs 0 and 1 in two packages: 0->1 measured (offset 5, band [3, 8], rtt min 200), 1->0 not.
MatrixResult two_cpus(ReadVariant recv, double tsc_hz) {
  MatrixResult m;
  m.cpus = {0, 1};
  m.labels = {"0", "1"};
  m.boundaries = {1};
  m.places = {{.cpu = 0, .package = 0}, {.cpu = 1, .package = 1}};
  m.recv = recorded_variant(recv);
  m.tsc_hz = tsc_hz;
  m.cells.assign(4, PairCell{});
  PairCell& c = m.cells[1];
  c.measured = true;
  c.offset_ticks = 5;
  c.offset_lo_ticks = 3;
  c.offset_hi_ticks = 8;
  c.rtt_min_ticks = 200;
  c.causality_violations = 2;
  return m;
}

const MatrixGridSpec& spec(const std::string& name) {
  for (const MatrixGridSpec& s : matrix_grid_specs()) {
    if (name == s.name) return s;
  }
  FAIL("no grid " << name);
  return matrix_grid_specs().front();
}

}  // namespace

TEST_CASE("matrix grids: the seven matrices in order, four of them drawn") {
  std::vector<std::string> names, drawn;
  for (const MatrixGridSpec& s : matrix_grid_specs()) {
    names.emplace_back(s.name);
    if (s.script != nullptr) drawn.push_back(std::string(s.name) + ":" + s.script);
  }
  CHECK(names == std::vector<std::string>{"offset_ticks", "offset_lo_ticks", "offset_hi_ticks", "drift_ppb",
                                          "rtt_min_ticks", "rtt_p50_ticks", "causality_violations"});
  CHECK(drawn == std::vector<std::string>{"offset_ticks:heatmap_offset.gp", "rtt_min_ticks:heatmap_latency.gp",
                                          "rtt_p50_ticks:heatmap_latency.gp",
                                          "causality_violations:heatmap_violations.gp"});
}

TEST_CASE("matrix grids: a grid's values, labels and groups") {
  const MatrixGrid g = matrix_grid(spec("offset_lo_ticks"), two_cpus(ReadVariant::lfence_rdtsc, 2.5e9));
  CHECK(g.name == "offset_lo_ticks");
  CHECK(g.title == "TSC offset, hard band low end (ticks)");
  CHECK(g.units == "ticks");
  CHECK(g.labels == std::vector<std::string>{"0", "1"});
  CHECK(g.boundaries == std::vector<std::size_t>{1});
  CHECK(g.left_out == 0);
  CHECK(g.packages.starts == std::vector<std::size_t>{0, 1});
  CHECK(g.packages.ids == std::vector<int>{0, 1});
  CHECK(g.l3.starts.empty());
  REQUIRE(g.values.size() == 4);
  CHECK(std::isnan(g.values[0]));
  CHECK(g.values[1] == Approx(3).margin(0));
  CHECK(std::isnan(g.values[2]));  // 1->0 not measured
  CHECK(std::isnan(g.values[3]));
  CHECK(matrix_grid(spec("causality_violations"), two_cpus(ReadVariant::rdtsc, 0)).values[1] == Approx(2).margin(0));
}

TEST_CASE("matrix grids: titles name the counter, and a coarse counter's tick") {
  const MatrixResult x86 = two_cpus(ReadVariant::lfence_rdtsc, 2.5e9);
  CHECK(matrix_grid(spec("offset_ticks"), x86).title == "TSC offset: TSC_b - TSC_a (ticks)");
  const MatrixResult arm = two_cpus(ReadVariant::isb_cntvct, 25e6);
  CHECK(matrix_grid(spec("offset_ticks"), arm).title == "CNTVCT offset: CNTVCT_b - CNTVCT_a (ticks; 1 tick = 40 ns)");
  CHECK(matrix_grid(spec("rtt_min_ticks"), arm).title == "Round trip, minimum (ticks; 1 tick = 40 ns)");
  CHECK(matrix_grid(spec("drift_ppb"), arm).title == "Drift of b against a (ppb)");
  CHECK(matrix_grid(spec("causality_violations"), arm).title ==
        "Causality violations (one-way latencies below every offset)");
}
