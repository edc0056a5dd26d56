#include "app/tolerance.hpp"

#include <charconv>
#include <cmath>
#include <string_view>

#include "core/errors.hpp"

namespace tscaudit {

Tolerance parse_tolerance(const std::string& option, const std::string& text) {
  Tolerance t;
  std::string number = text;
  // A count of ticks ("40", "40ticks") or a time in any unit of a duration below the hour
  // (docs/commands.md, "Conventions"): ns, us, ms or s, held in ns.
  double scale_to_ns = 1;
  const auto unit = [&](std::string_view suffix, double to_ns) {
    if (number.size() <= suffix.size() || !number.ends_with(suffix)) return false;
    number.resize(number.size() - suffix.size());
    t.ns = to_ns > 0;
    scale_to_ns = to_ns > 0 ? to_ns : 1;
    return true;
  };
  static_cast<void>(unit("ticks", 0) || unit("ns", 1) || unit("us", 1e3) || unit("ms", 1e6) || unit("s", 1e9));
  const char* last = number.data() + number.size();
  const auto [ptr, ec] = std::from_chars(number.data(), last, t.value);
  t.value *= scale_to_ns;
  if (number.empty() || ec != std::errc{} || ptr != last || !std::isfinite(t.value) || t.value < 0) {
    throw UsageError(option + " '" + text +
                     "' is not a number >= 0 of ticks or a time (e.g. 40, 40ticks, 15ns, 1.5us, 2ms, 1s)");
  }
  return t;
}

double tolerance_in_ticks(const std::string& option, const Tolerance& t, double tsc_hz) {
  if (!t.ns) return t.value;
  if (!(tsc_hz > 0)) throw UsageError(option + " in ns needs the TSC frequency, which is unknown here; give ticks");
  return t.value * tsc_hz / 1e9;
}

}  // namespace tscaudit
