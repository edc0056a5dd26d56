// The matrices written for gnuplot (render/matrix_grids.hpp): which, in what order, their
// titles by the counter's name, the values of a grid, and the colour scale of the signed
// ones, exactly.
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

TEST_CASE("matrix grids: the eight matrices in order, the proven offset first, five of them drawn") {
  std::vector<std::string> names, drawn;
  for (const MatrixGridSpec& s : matrix_grid_specs()) {
    names.emplace_back(s.name);
    if (s.script != nullptr) drawn.push_back(std::string(s.name) + ":" + s.script);
  }
  CHECK(names == std::vector<std::string>{"proven_offset_ticks", "offset_ticks", "offset_lo_ticks", "offset_hi_ticks",
                                          "drift_ppb", "rtt_min_ticks", "rtt_p50_ticks", "causality_violations"});
  CHECK(drawn == std::vector<std::string>{"proven_offset_ticks:heatmap_offset.gp", "offset_ticks:heatmap_offset.gp",
                                          "rtt_min_ticks:heatmap_latency.gp", "rtt_p50_ticks:heatmap_latency.gp",
                                          "causality_violations:heatmap_violations.gp"});
  CHECK(spec("proven_offset_ticks").scale == GridScale::proven);
  CHECK(spec("offset_ticks").scale == GridScale::estimate);
  CHECK(spec("rtt_min_ticks").scale == GridScale::values);
}

TEST_CASE("matrix grids: the proven offset is the band's end nearest 0, or 0 where the band contains it") {
  PairCell c;
  c.offset_ticks = 5;
  c.offset_lo_ticks = 3;
  c.offset_hi_ticks = 8;
  CHECK(proven_offset_ticks(c) == Approx(3).margin(0));
  c.offset_lo_ticks = -8;
  c.offset_hi_ticks = -3;
  CHECK(proven_offset_ticks(c) == Approx(-3).margin(0));
  c.offset_lo_ticks = -3;
  c.offset_hi_ticks = 8;
  CHECK(proven_offset_ticks(c) == Approx(0).margin(0));
  c.offset_lo_ticks = 0;  // a band ending at 0 contains it
  CHECK(proven_offset_ticks(c) == Approx(0).margin(0));
  c.offset_lo_ticks = kNoValue;  // no feasible band: nothing proven, nothing drawn
  CHECK(std::isnan(proven_offset_ticks(c)));
}

TEST_CASE("matrix grids: a signed colour limit, clipped so that one far group does not pale the rest") {
  SECTION("nothing but 0 and NaN: the least limit, 1 when none is given") {
    const ColourLimit c = signed_colour_limit({kNoValue, 0, -0.0, kNoValue}, 0);
    CHECK(c.limit == Approx(1).margin(0));
    CHECK(c.clipped == 0);
    CHECK(signed_colour_limit({}, 26).limit == Approx(26).margin(0));
  }
  SECTION("a package at +600 and a quarter of the cells at 4500: clipped at 1.5 x 600") {
    std::vector<double> v(12, 600.0);
    v.insert(v.end(), 4, 4500.0);
    v.push_back(kNoValue);
    v.push_back(0);  // in-band cells do not count among the magnitudes
    const ColourLimit c = signed_colour_limit(v, 1);
    CHECK(c.limit == Approx(900).margin(0));  // the 12th of 16 nonzero magnitudes is 600
    CHECK(c.clipped == 4);
  }
  SECTION("one more far cell than a quarter: the far value is the 75th percentile, nothing clipped") {
    std::vector<double> v(11, 600.0);
    v.insert(v.end(), 5, -4500.0);
    const ColourLimit c = signed_colour_limit(v, 1);
    CHECK(c.limit == Approx(4500).margin(0));
    CHECK(c.clipped == 0);
  }
  SECTION("values close together: their largest, rounded up to two digits, none clipped") {
    const ColourLimit c = signed_colour_limit({400, 402, -405, -398}, 2);
    CHECK(c.limit == Approx(410).margin(0));
    CHECK(c.clipped == 0);
  }
  SECTION("small values inside a wider least limit read pale: the least limit wins") {
    const ColourLimit c = signed_colour_limit({50, -50}, 231);
    CHECK(c.limit == Approx(240).margin(0));
    CHECK(c.clipped == 0);
  }
  SECTION("rounding up to two significant digits keeps values already there") {
    CHECK(signed_colour_limit({150}, 1).limit == Approx(150).margin(0));
    CHECK(signed_colour_limit({912.3}, 1).limit == Approx(920).margin(0));
    CHECK(signed_colour_limit({0.372}, 0.1).limit == Approx(0.38).margin(1e-12));
    CHECK(signed_colour_limit({1}, 1).limit == Approx(1).margin(0));
  }
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

TEST_CASE("matrix grids: the signed heatmaps' colour limits and notes") {
  MatrixResult m = two_cpus(ReadVariant::lfence_rdtsc, 2.5e9);
  m.quantum_ticks = 2;
  SECTION("one pair, its band [3, 8] misses 0 by 3: the proven offset 3, the estimate 5 in a band of half-width 2.5") {
    CHECK(median_band_half_width(m) == Approx(2.5).margin(0));
    const MatrixGrid proven = matrix_grid(spec("proven_offset_ticks"), m);
    CHECK(proven.values[1] == Approx(3).margin(0));
    CHECK(proven.colour_limit == Approx(3).margin(0));
    CHECK(proven.note == "white: the pair's hard band contains 0; colour: the band's end nearest 0, proven");
    const MatrixGrid estimate = matrix_grid(spec("offset_ticks"), m);
    CHECK(estimate.colour_limit == Approx(5).margin(0));
    CHECK(estimate.note == "estimates inside hard bands of typically +/-2.5 ticks: colours span at least that");
  }
  SECTION("an estimate of 50 in a band of +/-231 reads pale: the limit is the band's half-width, rounded up") {
    PairCell& c = m.cells[1];
    c.offset_ticks = 50;
    c.offset_lo_ticks = -181;
    c.offset_hi_ticks = 281;
    const MatrixGrid proven = matrix_grid(spec("proven_offset_ticks"), m);
    CHECK(proven.values[1] == Approx(0).margin(0));
    CHECK(proven.colour_limit == Approx(2).margin(0));  // the quantum: nothing is proven
    const MatrixGrid estimate = matrix_grid(spec("offset_ticks"), m);
    CHECK(estimate.colour_limit == Approx(240).margin(0));
    CHECK(estimate.note == "estimates inside hard bands of typically +/-231 ticks: colours span at least that");
  }
  SECTION("clipped cells are counted in the note") {
    m.cpus = {0, 1, 2, 3, 4};
    m.labels = {"0", "1", "2", "3", "4"};
    m.places.clear();
    m.boundaries.clear();
    m.cells.assign(25, PairCell{});
    // CPU 4 at +4500, the others at 0; every band +/-10 around its estimate.
    for (std::size_t a = 0; a < 5; ++a) {
      for (std::size_t b = 0; b < 5; ++b) {
        if (a == b) continue;
        PairCell& c = m.cells[a * 5 + b];
        c.measured = true;
        c.offset_ticks = (b == 4 ? 4500.0 : 0.0) - (a == 4 ? 4500.0 : 0.0) + (a < b ? 60.0 : -60.0);
        c.offset_lo_ticks = c.offset_ticks - 10;
        c.offset_hi_ticks = c.offset_ticks + 10;
      }
    }
    // 12 pairs among CPUs 0-3 at +/-60, 8 with CPU 4 at about 4500: a third of the 20.
    const MatrixGrid estimate = matrix_grid(spec("offset_ticks"), m);
    CHECK(estimate.colour_limit == Approx(4600).margin(0));  // 8 of 20 is more than a quarter: not clipped
    m.cells[4 * 5 + 0].measured = m.cells[4 * 5 + 1].measured = m.cells[4 * 5 + 2].measured = false;
    m.cells[0 * 5 + 4].measured = false;
    // 4 with CPU 4 of 16: clipped at 1.5 x 60, at least the half-width 10.
    const MatrixGrid clipped = matrix_grid(spec("offset_ticks"), m);
    CHECK(clipped.colour_limit == Approx(90).margin(0));
    CHECK(clipped.note ==
          "estimates inside hard bands of typically +/-10 ticks: colours span at least that; colours end at +/-90 "
          "ticks: 4 cells beyond");
    const MatrixGrid proven = matrix_grid(spec("proven_offset_ticks"), m);
    CHECK(proven.colour_limit == Approx(75).margin(0));  // 1.5 x 50
    CHECK(proven.note ==
          "white: the pair's hard band contains 0; colour: the band's end nearest 0, proven; colours end at +/-75 "
          "ticks: 4 cells beyond");
  }
  SECTION("the unsigned grids leave their scale to the script") {
    const MatrixGrid rtt = matrix_grid(spec("rtt_min_ticks"), m);
    CHECK(std::isnan(rtt.colour_limit));
    CHECK(rtt.note.empty());
  }
}

TEST_CASE("matrix grids: the median half-width of the bands: known ends only, the lower median") {
  MatrixResult m = two_cpus(ReadVariant::lfence_rdtsc, 2.5e9);
  m.cells[2].measured = true;  // 1->0, half-width 10
  m.cells[2].offset_lo_ticks = -20;
  m.cells[2].offset_hi_ticks = 0;
  CHECK(median_band_half_width(m) == Approx(2.5).margin(0));  // of 2.5 and 10
  m.cells[1].offset_lo_ticks = kNoValue;
  CHECK(median_band_half_width(m) == Approx(10).margin(0));
  m.cells[2].measured = false;
  CHECK(std::isnan(median_band_half_width(m)));
}

TEST_CASE("matrix grids: titles name the counter, and a coarse counter's tick") {
  const MatrixResult x86 = two_cpus(ReadVariant::lfence_rdtsc, 2.5e9);
  CHECK(matrix_grid(spec("offset_ticks"), x86).title == "TSC offset, estimate: TSC_b - TSC_a (ticks)");
  CHECK(matrix_grid(spec("proven_offset_ticks"), x86).title ==
        "TSC offset proven: how far each hard band lies from 0 (ticks)");
  const MatrixResult arm = two_cpus(ReadVariant::isb_cntvct, 25e6);
  CHECK(matrix_grid(spec("offset_ticks"), arm).title ==
        "CNTVCT offset, estimate: CNTVCT_b - CNTVCT_a (ticks; 1 tick = 40 ns)");
  CHECK(matrix_grid(spec("rtt_min_ticks"), arm).title == "Round trip, minimum (ticks; 1 tick = 40 ns)");
  CHECK(matrix_grid(spec("drift_ppb"), arm).title == "Drift of b against a (ppb)");
  CHECK(matrix_grid(spec("causality_violations"), arm).title ==
        "Causality violations (one-way latencies below every offset)");
}
