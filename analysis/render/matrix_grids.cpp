#include "render/matrix_grids.hpp"

#include <string>
#include <string_view>

#include "core/format.hpp"
#include "render/matrix_output.hpp"

namespace tscaudit {
namespace {

const MatrixGridSpec kGrids[] = {
    {"offset_ticks", "TSC offset: TSC_b - TSC_a (ticks)", "ticks", [](const PairCell& c) { return c.offset_ticks; },
     "heatmap_offset.gp"},
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

}  // namespace

std::span<const MatrixGridSpec> matrix_grid_specs() { return kGrids; }

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
  return grid;
}

}  // namespace tscaudit
