#include "render/matrix_text.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "render/dat_text.hpp"

namespace tscaudit {

namespace {

bool has_space(const std::string& s) { return s.find_first_of(" \t\r\n\v\f") != std::string::npos; }

void check(const MatrixGrid& g) {
  const std::size_t n = g.labels.size();
  const std::string what = "matrix '" + g.name + "': ";
  if (n == 0) throw std::invalid_argument(what + "no CPU");
  if (g.values.size() != n * n) {
    throw std::invalid_argument(what + std::to_string(g.values.size()) + " values for " + std::to_string(n) +
                                " labels (needs " + std::to_string(n * n) + ")");
  }
  const auto bad = std::find_if(g.labels.begin(), g.labels.end(),
                                [](const std::string& label) { return label.empty() || has_space(label); });
  if (bad != g.labels.end()) throw std::invalid_argument(what + "label '" + *bad + "' is empty or holds white space");
  if (g.title.find_first_of("\r\n") != std::string::npos || g.units.find_first_of("\r\n") != std::string::npos) {
    throw std::invalid_argument(what + "title or units hold a line break");
  }
  if (g.note.find_first_of("\r\n") != std::string::npos)
    throw std::invalid_argument(what + "the note holds a line break");
  if (!std::isnan(g.colour_limit) && !(std::isfinite(g.colour_limit) && g.colour_limit > 0)) {
    throw std::invalid_argument(what + "the colour limit is not a positive number");
  }
  std::size_t previous = 0;
  for (std::size_t b : g.boundaries) {
    if (b <= previous || b >= n) {
      throw std::invalid_argument(what + "boundary " + std::to_string(b) + " is not increasing inside (0, " +
                                  std::to_string(n) + ")");
    }
    previous = b;
  }
  if (g.left_out > n * (n - 1)) {
    throw std::invalid_argument(what + std::to_string(g.left_out) + " ordered pairs left out of " +
                                std::to_string(n * (n - 1)));
  }
  check_dat_groups(g.packages, n, what + "packages: ");
  check_dat_groups(g.l3, n, what + "L3 domains: ");
  for (double v : g.values) {
    if (std::isinf(v)) throw std::invalid_argument(what + "an infinite value");
  }
}

}  // namespace

MatrixGroups matrix_groups(const std::vector<CpuPlace>& places, int CpuPlace::*level) {
  MatrixGroups groups;
  if (std::none_of(places.begin(), places.end(), [&](const CpuPlace& p) { return p.*level >= 0; })) return groups;
  for (std::size_t i = 0; i < places.size(); ++i) {
    if (i == 0 || places[i].*level != places[i - 1].*level) {
      groups.starts.push_back(i);
      groups.ids.push_back(places[i].*level);
    }
  }
  return groups;
}

std::string format_gnuplot_matrix(const MatrixGrid& grid) {
  check(grid);
  const std::size_t n = grid.labels.size();
  std::string out;
  out.reserve(256 + n * n * 8);
  out += "# title: " + grid.title + "\n";
  out += "# units: " + grid.units + "\n";
  out += "# rows: initiator a (CPU number); columns: responder b (CPU number)\n";
  out += "# cells: row-major values; NaN = not measured (the diagonal";
  if (grid.left_out > 0)
    out += ", and the " + std::to_string(grid.left_out) + " ordered pairs the sparse design leaves out";
  out += ")\n";
  append_dat_list(out, "boundaries", grid.boundaries);
  append_dat_list(out, "package_starts", grid.packages.starts);
  append_dat_list(out, "package_ids", grid.packages.ids);
  append_dat_list(out, "l3_starts", grid.l3.starts);
  append_dat_list(out, "l3_ids", grid.l3.ids);
  if (!std::isnan(grid.colour_limit)) {
    out += "# colour_limit: ";
    append_dat_value(out, grid.colour_limit);
    out += '\n';
  }
  if (!grid.note.empty()) out += "# note: " + grid.note + "\n";
  out += "cpu";
  for (const std::string& label : grid.labels) out += " " + label;
  out += "\n";
  for (std::size_t row = 0; row < n; ++row) {
    out += grid.labels[row];
    for (std::size_t col = 0; col < n; ++col) {
      out += ' ';
      append_dat_value(out, grid.values[row * n + col]);
    }
    out += '\n';
  }
  return out;
}

}  // namespace tscaudit
