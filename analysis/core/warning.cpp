#include "core/warning.hpp"

#include <algorithm>
#include <array>

namespace tscaudit {

bool weakens_answer(std::string_view code) {
  static constexpr std::array<std::string_view, 7> kWeakening = {
      "emulated",      "virtual_machine", "clocksource_not_tsc", "tsc_not_invariant",
      "tsc_unstable", "counter_erratum", "clocksource_not_arch_sys_counter"};
  return std::find(kWeakening.begin(), kWeakening.end(), code) != kWeakening.end();
}

std::vector<Warning> weakening(const std::vector<Warning>& warnings) {
  std::vector<Warning> kept;
  for (const Warning& w : warnings) {
    if (weakens_answer(w.code)) kept.push_back(w);
  }
  return kept;
}

std::string warning_line(const Warning& w) { return w.code + ": " + w.message; }

std::vector<std::string> warning_lines(const std::vector<Warning>& warnings) {
  std::vector<std::string> lines;
  lines.reserve(warnings.size());
  for (const Warning& w : warnings) lines.push_back(warning_line(w));
  return lines;
}

}  // namespace tscaudit
