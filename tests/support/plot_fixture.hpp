// Helpers of the plot tests (app/test_plot.cpp, app/test_plot_gnuplot.cpp): where the
// scripts are, a private temporary directory, whole-file reads and writes, and small inputs
// of the scripts.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "render/matrix_text.hpp"
#include "temp_files.hpp"

namespace tscaudit::test {

/// plots/ of the source tree (TSCAUDIT_TEST_PLOTS, defined for the files that include this).
inline const std::string kPlots = TSCAUDIT_TEST_PLOTS;

/// The names in `dir`, sorted, space-separated: shows any aside file left behind.
inline std::string listing(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : " ") + n;
  return out;
}

/// A 3x3 matrix with a NaN diagonal and a group boundary after the first CPU.
inline std::string small_matrix(const std::string& units) {
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

/// Sets an environment variable for one scope, and restores it (or its absence) after.
struct EnvGuard {
  std::string name;
  bool was_set = false;
  std::string saved;
  EnvGuard(std::string variable, const char* value) : name(std::move(variable)) {
    if (const char* old = std::getenv(name.c_str())) {
      was_set = true;
      saved = old;
    }
    if (value != nullptr) {
      ::setenv(name.c_str(), value, 1);
    } else {
      ::unsetenv(name.c_str());
    }
  }
  ~EnvGuard() {
    if (was_set) {
      ::setenv(name.c_str(), saved.c_str(), 1);
    } else {
      ::unsetenv(name.c_str());
    }
  }
  EnvGuard(const EnvGuard&) = delete;
  EnvGuard& operator=(const EnvGuard&) = delete;
};

}  // namespace tscaudit::test
