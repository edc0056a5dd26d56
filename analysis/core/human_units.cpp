#include "core/human_units.hpp"

#include <cmath>

#include "core/format.hpp"

namespace tscaudit {

std::string human_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  if (seconds < 9.95) return format_fixed(seconds, 1) + " s";  // 9.95 would print as "10.0 s"
  const auto total = static_cast<std::uint64_t>(std::llround(seconds));
  const auto two = [](std::uint64_t big, const char* big_unit, std::uint64_t small, const char* small_unit) {
    return std::to_string(big) + " " + big_unit + " " + std::to_string(small) + " " + small_unit;
  };
  if (total < 60) return std::to_string(total) + " s";
  if (total < 3600) return two(total / 60, "min", total % 60, "s");
  if (total < 86400) return two(total / 3600, "h", total % 3600 / 60, "min");
  return two(total / 86400, "d", total % 86400 / 3600, "h");
}

std::string duration_words(double s) {
  if (std::isinf(s)) return "no limit";
  if (!std::isfinite(s)) return "unknown";
  if (std::abs(s) < 1e-6) return format_sig(s * 1e9, 3) + " ns";
  if (std::abs(s) < 1e-3) return format_sig(s * 1e6, 3) + " µs";
  if (std::abs(s) < 1) return format_sig(s * 1e3, 3) + " ms";
  if (std::abs(s) < 120) return format_sig(s, 3) + " s";
  if (std::abs(s) < 7200) return format_sig(s / 60, 3) + " min";
  if (std::abs(s) < 172800) return format_sig(s / 3600, 3) + " h";
  return format_sig(s / 86400, 3) + " days";
}

std::string human_bytes(std::uint64_t bytes) {
  if (bytes < 1000) return std::to_string(bytes) + " B";
  static constexpr const char* kUnits[] = {"kB", "MB", "GB", "TB"};
  double value = static_cast<double>(bytes) / 1000;
  std::size_t unit = 0;
  // Switch unit where one decimal would round up to 1000.0 ("999.96 kB" is "1.0 MB").
  while (value >= 999.95 && unit + 1 < std::size(kUnits)) {
    value /= 1000;
    ++unit;
  }
  return format_fixed(value, 1) + " " + kUnits[unit];
}

}  // namespace tscaudit
