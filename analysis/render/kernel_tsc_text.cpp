#include "render/kernel_tsc_text.hpp"

#include "core/cpu_list.hpp"

namespace tscaudit {
namespace {

std::string kernel_cpu_word(int cpu) {
  return cpu >= 0 ? "CPU " + std::to_string(cpu) : std::string("a CPU not named");
}

/// "1482 cycles", or "an unknown number of cycles" where the line was not seen.
std::string kernel_cycles_text(const std::optional<std::int64_t>& v) {
  return v ? std::to_string(*v) + (*v == 1 ? " cycle" : " cycles") : std::string("an unknown number of cycles");
}

std::string kernel_number_text(const std::optional<std::int64_t>& v) {
  return v ? std::to_string(*v) : std::string("?");
}

}  // namespace

std::string cpus_phrase(const std::vector<int>& cpus) {
  return (cpus.size() == 1 ? "CPU " : "CPUs ") + format_cpu_list(cpus);
}

std::string kernel_tsc_event_text(const KernelTscEvent& e) {
  switch (e.kind) {
    case KernelTscEventKind::warp: {
      const std::string between = e.cpu >= 0 && e.other_cpu >= 0
                                      ? "between CPU " + std::to_string(e.cpu) + " and CPU " +
                                            std::to_string(e.other_cpu) + " when it brought CPU " +
                                            std::to_string(e.other_cpu) + " up"
                                      : std::string("between two CPUs (the line naming them is not in the log)");
      return "the kernel measured " + kernel_cycles_text(e.value) + " of TSC warp " + between +
             ", and turned the TSC clocksource off";
    }
    case KernelTscEventKind::warp_random:
      return "the kernel saw the TSC warp randomly between the CPUs (each one went back behind the other)";
    case KernelTscEventKind::unstable:
      return "the kernel marked the TSC unstable" + (e.reason.empty() ? std::string() : " (" + e.reason + ")");
    case KernelTscEventKind::unstable_after_boot:
      return "the kernel found the TSC unstable after boot, and blamed the BIOS";
    case KernelTscEventKind::watchdog_unstable:
      return "the clocksource watchdog" + (e.cpu >= 0 ? " on CPU " + std::to_string(e.cpu) : std::string()) +
             " found the TSC out of step with its reference clock, and marked it unstable";
    case KernelTscEventKind::cpus_ahead:
    case KernelTscEventKind::cpus_behind:
      return "the kernel found the TSC of " + cpus_phrase(e.cpus) +
             (e.kind == KernelTscEventKind::cpus_ahead ? " ahead of " : " behind ") + kernel_cpu_word(e.cpu) +
             "'s (its per-CPU check after the TSC was marked unstable)";
    case KernelTscEventKind::sync_skipped:
      return "the kernel skipped its synchronization check of the TSCs at each CPU's bring-up, the TSC being "
             "marked reliable";
    case KernelTscEventKind::adjust_differs:
      return "the firmware left TSC_ADJUST different among the CPUs of a socket; the kernel made them equal";
    case KernelTscEventKind::adjust_forced:
      return "the firmware left " + kernel_cpu_word(e.cpu) + "'s TSC_ADJUST at " + kernel_number_text(e.value) +
             "; the kernel set it to 0";
    case KernelTscEventKind::adjust_not_forced:
      return kernel_cpu_word(e.cpu) + "'s TSC_ADJUST was " + kernel_number_text(e.value) +
             " at boot; the kernel left it (the sockets' TSCs are reset at different times here)";
    case KernelTscEventKind::adjust_compensated: {
      const std::int64_t w = e.value.value_or(0);
      const std::string where = !e.value ? std::string("off by an unknown number of cycles")
                                : w >= 0 ? kernel_cycles_text(w) + " behind the other CPU's"
                                         : kernel_cycles_text(-w) + " ahead of the other CPU's";
      return "the kernel found " + kernel_cpu_word(e.cpu) + "'s TSC " + where + " when it brought it up, and wrote " +
             kernel_number_text(e.value2) + " to its TSC_ADJUST to compensate";
    }
    case KernelTscEventKind::adjust_restored:
      return kernel_cpu_word(e.cpu) + "'s TSC_ADJUST changed from " + kernel_number_text(e.value) + " to " +
             kernel_number_text(e.value2) + " while the system ran (firmware wrote it); the kernel restored " +
             kernel_number_text(e.value);
  }
  return "?";
}

std::string kernel_tsc_event_quote(const KernelTscEvent& e) {
  std::string s;
  for (const std::string& line : e.lines) s += (s.empty() ? "\"" : " \"") + line + "\"";
  return s;
}

std::string kernel_tsc_event_line(const KernelTscEvent& e) {
  const std::string quote = kernel_tsc_event_quote(e);
  return kernel_tsc_event_text(e) + (quote.empty() ? std::string() : ": " + quote);
}

}  // namespace tscaudit
