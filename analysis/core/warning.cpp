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

std::vector<std::string> weakening_lines(const std::vector<Warning>& warnings) {
  std::vector<std::string> lines;
  for (const Warning& w : warnings) {
    if (weakens_answer(w.code)) lines.push_back(w.code + ": " + w.message);
  }
  return lines;
}

}  // namespace tscaudit
