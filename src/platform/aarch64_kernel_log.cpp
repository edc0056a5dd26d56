// The aarch64 lines of the kernel log: what Linux's arch_timer driver prints about the
// generic timer (drivers/clocksource/arm_arch_timer.c).
#include "platform/kernel_log_lines.hpp"

#include <algorithm>
#include <charconv>

#include "core/format.hpp"

namespace tscaudit {
void parse_arch_timer_log_line(std::string_view line, KernelLogFacts& f) {
  const std::size_t at = line.find("arch_timer: ");
  if (at == std::string_view::npos) return;
  const std::string_view rest = line.substr(at + 12);
  // arch_timer_banner(): "cp15 timer(s) running at 25.00MHz (phys)."
  constexpr std::string_view kRunning = "timer(s) running at ";
  if (const std::size_t p = rest.find(kRunning); p != std::string_view::npos) {
    const std::string_view number = rest.substr(p + kRunning.size());
    double mhz = 0;
    const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), mhz, std::chars_format::fixed);
    const std::string_view after(ptr, static_cast<std::size_t>(number.data() + number.size() - ptr));
    if (ec == std::errc{} && mhz > 0 && after.substr(0, 3) == "MHz" && !f.arch_timer_mhz) {
      f.arch_timer_mhz = mhz;
      f.arch_timer_line = printable_text(line);
    }
    return;
  }
  // arch_timer_check_ool_workaround(): "Enabling %s workaround for %s".
  for (const std::string_view kind : {"Enabling local workaround for ", "Enabling global workaround for "}) {
    if (rest.substr(0, kind.size()) == kind) {
      const std::string desc = printable_text(trim(rest.substr(kind.size()), kBlanks));
      if (!desc.empty() &&
          std::find(f.timer_workarounds.begin(), f.timer_workarounds.end(), desc) == f.timer_workarounds.end()) {
        f.timer_workarounds.push_back(desc);
      }
      return;
    }
  }
  // arch_counter_set_user_access(): "CPU%d: Trapping CNTVCT access".
  constexpr std::string_view kTrapping = ": Trapping CNTVCT access";
  if (rest.substr(0, 3) == "CPU" && rest.find(kTrapping) != std::string_view::npos) {
    int cpu = -1;
    const std::string_view digits = rest.substr(3, rest.find(kTrapping) - 3);
    const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), cpu);
    if (ec == std::errc{} && ptr == digits.data() + digits.size() && cpu >= 0) {
      auto& cpus = f.cntvct_trapped_cpus;
      if (std::find(cpus.begin(), cpus.end(), cpu) == cpus.end()) {
        cpus.insert(std::upper_bound(cpus.begin(), cpus.end(), cpu), cpu);
      }
    }
  }
}

}  // namespace tscaudit
