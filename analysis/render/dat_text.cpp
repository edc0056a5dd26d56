#include "render/dat_text.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace tscaudit {

namespace {

// Integers below 2^53 are exact in a double; they print without a point or exponent.
constexpr double kExactIntegerLimit = 9007199254740992.0;

}  // namespace

void append_dat_value(std::string& out, double v) {
  if (std::isnan(v)) {
    out += "NaN";  // gnuplot reads it as undefined and leaves the cell or point out
    return;
  }
  std::array<char, 64> buf{};
  std::to_chars_result r{};
  // Integral exactly when nothing is left after the point (no ==: -Wfloat-equal).
  if (std::fabs(v) < kExactIntegerLimit && !(std::fabs(v - std::trunc(v)) > 0.0)) {
    r = std::to_chars(buf.data(), buf.data() + buf.size(), static_cast<std::int64_t>(v));
  } else {
    r = std::to_chars(buf.data(), buf.data() + buf.size(), v);  // shortest that round-trips
  }
  out.append(buf.data(), r.ptr);
}

void check_dat_groups(const MatrixGroups& g, std::size_t n, const std::string& what) {
  if (g.ids.size() != g.starts.size()) {
    throw std::invalid_argument(what + std::to_string(g.starts.size()) + " starts and " + std::to_string(g.ids.size()) +
                                " ids");
  }
  if (!g.starts.empty() && g.starts[0] != 0) {
    throw std::invalid_argument(what + "the first start is " + std::to_string(g.starts[0]) + ", not 0");
  }
  for (std::size_t i = 0; i < g.starts.size(); ++i) {
    if (g.starts[i] >= n || (i > 0 && g.starts[i] <= g.starts[i - 1])) {
      throw std::invalid_argument(what + "start " + std::to_string(g.starts[i]) + " is not increasing inside [0, " +
                                  std::to_string(n) + ")");
    }
  }
}

}  // namespace tscaudit
