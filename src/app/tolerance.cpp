#include "app/tolerance.hpp"

#include <charconv>
#include <cmath>

#include "core/errors.hpp"

namespace tscaudit {

Tolerance parse_tolerance(const std::string& option, const std::string& text) {
  Tolerance t;
  std::string number = text;
  if (number.size() > 2 && number.ends_with("ns")) {
    t.ns = true;
    number.resize(number.size() - 2);
  } else if (number.size() > 5 && number.ends_with("ticks")) {
    number.resize(number.size() - 5);
  }
  const char* last = number.data() + number.size();
  const auto [ptr, ec] = std::from_chars(number.data(), last, t.value);
  if (number.empty() || ec != std::errc{} || ptr != last || !std::isfinite(t.value) || t.value < 0) {
    throw UsageError(option + " '" + text + "' is not a number >= 0 of ticks or ns (e.g. 40, 40ticks, 15ns)");
  }
  return t;
}

double tolerance_in_ticks(const std::string& option, const Tolerance& t, double tsc_hz) {
  if (!t.ns) return t.value;
  if (!(tsc_hz > 0)) throw UsageError(option + " in ns needs the TSC frequency, which is unknown here; give ticks");
  return t.value * tsc_hz / 1e9;
}

}  // namespace tscaudit
