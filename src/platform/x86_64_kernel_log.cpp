// The x86-64 lines of the kernel log: what Linux's TSC code prints about the counter's
// stability and its frequency (arch/x86/kernel/tsc.c).
#include "platform/kernel_log_lines.hpp"

#include <charconv>

namespace tscaudit {
namespace {

/// The number at `pos` in `line` followed by `suffix`, or nullopt.
std::optional<double> mhz_at(std::string_view line, std::size_t pos, std::string_view suffix) {
  double v = 0;
  const char* first = line.data() + pos;
  const char* last = line.data() + line.size();
  const auto [ptr, ec] = std::from_chars(first, last, v, std::chars_format::fixed);
  if (ec != std::errc{} || !(v > 0)) return std::nullopt;
  if (std::string_view(ptr, static_cast<std::size_t>(last - ptr)).substr(0, suffix.size()) != suffix) {
    return std::nullopt;
  }
  return v;
}

}  // namespace

void parse_tsc_log_line(std::string_view line, KernelLogFacts& f, int& mhz_rank) {
  const bool unstable = line.find("Marking TSC unstable") != std::string_view::npos ||
                        (line.find("Marking clocksource 'tsc") != std::string_view::npos &&
                         line.find("as unstable") != std::string_view::npos) ||
                        line.find("TSC found unstable") != std::string_view::npos ||
                        line.find("turning off TSC clock") != std::string_view::npos;
  if (unstable && !f.tsc_marked_unstable) {
    f.tsc_marked_unstable = true;
    f.unstable_line = std::string(line);
  }
  constexpr std::string_view kRefined = "Refined TSC clocksource calibration: ";
  constexpr std::string_view kDetected = "Detected ";
  if (const std::size_t p = line.find(kRefined); p != std::string_view::npos) {
    if (auto v = mhz_at(line, p + kRefined.size(), " MHz"); v && mhz_rank <= 3) {
      f.tsc_mhz = v;
      f.tsc_mhz_line = std::string(line);
      mhz_rank = 3;
    }
  } else if (const std::size_t d = line.find(kDetected); d != std::string_view::npos) {
    if (auto v = mhz_at(line, d + kDetected.size(), " MHz TSC"); v && mhz_rank <= 2) {
      f.tsc_mhz = v;
      f.tsc_mhz_line = std::string(line);
      mhz_rank = 2;
    } else if (auto w = mhz_at(line, d + kDetected.size(), " MHz processor"); w && mhz_rank <= 1) {
      f.tsc_mhz = w;
      f.tsc_mhz_line = std::string(line);
      mhz_rank = 1;
    }
  }
}

}  // namespace tscaudit
