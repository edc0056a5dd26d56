// The pieces the gnuplot .dat writers share (matrix_text.cpp, cpu_offsets_text.cpp): how a
// number is written, a "# key: v v v" line, and the check of the package and L3 group lines.
#pragma once

#include <cstddef>
#include <string>

#include "render/matrix_text.hpp"

namespace tscaudit {

/// Appends `v` so that it reads back exactly: integers (|v| < 2^53) without a point
/// ("-3"), others in the shortest form that round-trips ("0.1", "1e+300"), NaN as "NaN"
/// (gnuplot's undefined). Locale-independent. \pre v is not ±infinity.
void append_dat_value(std::string& out, double v);

/// Appends "# key: v1 v2 ...\n" ("# key:\n" for an empty list).
void append_dat_list(std::string& out, const char* key, const auto& list) {
  out += "# ";
  out += key;
  out += ':';
  for (const auto v : list) out += " " + std::to_string(v);
  out += '\n';
}

/// \throws std::invalid_argument, `what` first, when `g` has not one id per start, its
/// first start is not 0, or its starts do not increase inside [0, n).
void check_dat_groups(const MatrixGroups& g, std::size_t n, const std::string& what);

}  // namespace tscaudit
