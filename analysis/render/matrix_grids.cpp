#include "render/matrix_grids.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/format.hpp"
#include "render/matrix_output.hpp"

namespace tscaudit {
namespace {

const MatrixGridSpec kGrids[] = {
    {"proven_offset_ticks", "TSC offset proven: how far each hard band lies from 0 (ticks)", "ticks",
     proven_offset_ticks, "heatmap_offset.gp", GridScale::proven},
    {"offset_ticks", "TSC offset, estimate: TSC_b - TSC_a (ticks)", "ticks",
     [](const PairCell& c) { return c.offset_ticks; }, "heatmap_offset.gp", GridScale::estimate},
    {"offset_lo_ticks", "TSC offset, hard band low end (ticks)", "ticks",
     [](const PairCell& c) { return c.offset_lo_ticks; }, nullptr},
    {"offset_hi_ticks", "TSC offset, hard band high end (ticks)", "ticks",
     [](const PairCell& c) { return c.offset_hi_ticks; }, nullptr},
    {"drift_ppb", "Drift of b against a (ppb)", "ppb", [](const PairCell& c) { return c.drift_ppb; }, nullptr},
    {"rtt_min_ticks", "Round trip, minimum (ticks)", "ticks", [](const PairCell& c) { return c.rtt_min_ticks; },
     "heatmap_latency.gp"},
    {"rtt_p50_ticks", "Round trip, median (ticks)", "ticks", [](const PairCell& c) { return c.rtt_p50_ticks; },
     "heatmap_latency.gp"},
    {"causality_violations", "Causality violations (one-way latencies below every offset)", "count",
     [](const PairCell& c) { return static_cast<double>(c.causality_violations); }, "heatmap_violations.gp"},
};

/// A heatmap's title for this run: the counter by its name (TSC, CNTVCT), and for a coarse
/// counter what one tick lasts.
std::string grid_title(const MatrixGridSpec& g, const MatrixResult& m) {
  std::string title = g.title;
  const std::string_view counter = counter_name(m.recv);
  for (std::size_t at = title.find("TSC"); at != std::string::npos; at = title.find("TSC", at + counter.size())) {
    title.replace(at, 3, counter);
  }
  if (std::string_view(g.units) == "ticks" && coarse_ticks(m.tsc_hz)) {
    title.insert(title.rfind(')'), "; 1 tick = " + format_sig(1e9 / m.tsc_hz, 4) + " ns");
  }
  return title;
}

/// `v` > 0 rounded up to two significant digits: 912 -> 920, 150 -> 150, 0.372 -> 0.38.
double round_up_2(double v) {
  const double unit = std::pow(10.0, std::floor(std::log10(v)) - 1);
  // The slack keeps a value already on the grid (150 / 10 = 15.000000000000002) where it is.
  return std::ceil(v / unit - 1e-9) * unit;
}

/// "; colours end at ±920 ticks: 62 cells beyond" when cells are clipped, else "".
std::string clipped_note(const ColourLimit& c, const char* units) {
  if (c.clipped == 0) return "";
  return "; colours end at +/-" + format_sig(c.limit, 4) + " " + units + ": " + std::to_string(c.clipped) +
         (c.clipped == 1 ? " cell" : " cells") + " beyond";
}

}  // namespace

double proven_offset_ticks(const PairCell& c) {
  if (!std::isfinite(c.offset_lo_ticks) || !std::isfinite(c.offset_hi_ticks)) return kNoValue;
  if (c.offset_lo_ticks > 0) return c.offset_lo_ticks;
  if (c.offset_hi_ticks < 0) return c.offset_hi_ticks;
  return 0;
}

std::span<const MatrixGridSpec> matrix_grid_specs() { return kGrids; }

ColourLimit signed_colour_limit(const std::vector<double>& values, double least) {
  if (!(least > 0)) least = 1;
  std::vector<double> magnitudes;
  for (double v : values) {
    if (std::fabs(v) > 0) magnitudes.push_back(std::fabs(v));  // false for NaN
  }
  ColourLimit c;
  double limit = least;
  if (!magnitudes.empty()) {
    std::sort(magnitudes.begin(), magnitudes.end());
    const std::size_t rank = (3 * magnitudes.size() + 3) / 4;  // nearest rank of the 75th percentile, 1-based
    limit = std::max(least, std::min(magnitudes.back(), 1.5 * magnitudes[rank - 1]));
  }
  c.limit = round_up_2(limit);
  for (double v : values) {
    if (std::fabs(v) > c.limit) ++c.clipped;  // false for NaN
  }
  return c;
}

double median_band_half_width(const MatrixResult& m) {
  std::vector<double> half;
  for (std::size_t a = 0; a < m.size(); ++a) {
    for (std::size_t b = 0; b < m.size(); ++b) {
      const PairCell& c = m.at(a, b);
      if (a == b || !c.measured || !std::isfinite(c.offset_lo_ticks) || !std::isfinite(c.offset_hi_ticks)) continue;
      half.push_back((c.offset_hi_ticks - c.offset_lo_ticks) / 2);
    }
  }
  if (half.empty()) return kNoValue;
  const auto mid = half.begin() + static_cast<std::ptrdiff_t>((half.size() - 1) / 2);
  std::nth_element(half.begin(), mid, half.end());
  return *mid;
}

MatrixGrid matrix_grid(const MatrixGridSpec& spec, const MatrixResult& m) {
  MatrixGrid grid;
  grid.name = spec.name;
  grid.title = grid_title(spec, m);
  grid.units = spec.units;
  grid.labels = m.labels;
  grid.boundaries = m.boundaries;
  grid.left_out = pairs_left_out(m);
  grid.packages = matrix_groups(m.places, &CpuPlace::package);
  grid.l3 = matrix_groups(m.places, &CpuPlace::l3);
  grid.values.assign(m.size() * m.size(), kNoValue);
  for (std::size_t a = 0; a < m.size(); ++a) {
    for (std::size_t b = 0; b < m.size(); ++b) {
      if (m.at(a, b).measured) grid.values[a * m.size() + b] = spec.value(m.at(a, b));
    }
  }
  const double quantum = static_cast<double>(std::max<std::int64_t>(m.quantum_ticks, 1));
  if (spec.scale == GridScale::proven) {
    const ColourLimit c = signed_colour_limit(grid.values, quantum);
    grid.colour_limit = c.limit;
    grid.note = "white: the pair's hard band contains 0; colour: the band's end nearest 0, proven" +
                clipped_note(c, spec.units);
  } else if (spec.scale == GridScale::estimate) {
    const double half = median_band_half_width(m);
    const ColourLimit c = signed_colour_limit(grid.values, std::isfinite(half) ? std::max(half, quantum) : quantum);
    grid.colour_limit = c.limit;
    grid.note = std::isfinite(half) ? "estimates inside hard bands of typically +/-" + format_sig(half, 3) + " " +
                                          spec.units + ": colours span at least that" + clipped_note(c, spec.units)
                                    : "no pair has a hard band" + clipped_note(c, spec.units);
  }
  return grid;
}

}  // namespace tscaudit
