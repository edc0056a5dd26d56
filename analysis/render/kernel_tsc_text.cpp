#include "render/kernel_tsc_text.hpp"

#include "core/cpu_list.hpp"
#include "core/errors.hpp"

namespace tscaudit {
namespace {

using OrderedJson = nlohmann::ordered_json;

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

OrderedJson kernel_optional_json(const std::optional<std::int64_t>& v) {
  return v ? OrderedJson(*v) : OrderedJson(nullptr);
}
OrderedJson kernel_cpu_json(int cpu) { return cpu >= 0 ? OrderedJson(cpu) : OrderedJson(nullptr); }

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

OrderedJson kernel_tsc_events_json(const KernelTscLog& log) {
  OrderedJson out = OrderedJson::array();
  for (const KernelTscEvent& e : log.events) {
    out.push_back({{"kind", kernel_tsc_kind_name(e.kind)},
                   {"cpu", kernel_cpu_json(e.cpu)},
                   {"other_cpu", kernel_cpu_json(e.other_cpu)},
                   {"cpus", format_cpu_list(e.cpus)},
                   {"value", kernel_optional_json(e.value)},
                   {"value2", kernel_optional_json(e.value2)},
                   {"reason", e.reason.empty() ? OrderedJson(nullptr) : OrderedJson(e.reason)},
                   {"timestamp_s", e.timestamp_s ? OrderedJson(*e.timestamp_s) : OrderedJson(nullptr)},
                   {"lines", e.lines},
                   {"text", kernel_tsc_event_text(e)}});
  }
  return out;
}

KernelTscLog kernel_tsc_log_from_json(const nlohmann::json& events, std::size_t left_out) {
  KernelTscLog log;
  log.left_out = left_out;
  if (!events.is_array()) return log;
  auto read_cpu = [](const nlohmann::json& v, int& cpu) {
    if (v.is_null()) return true;
    if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() > (1 << 30)) return false;
    cpu = v.get<int>();
    return true;
  };
  auto read_value = [](const nlohmann::json& v, std::optional<std::int64_t>& out) {
    if (v.is_null()) return true;
    if (!v.is_number_integer()) return false;
    out = v.get<std::int64_t>();
    return true;
  };
  for (const nlohmann::json& j : events) {
    KernelTscEvent e;
    const auto kind = j.is_object() && j.contains("kind") && j["kind"].is_string()
                          ? kernel_tsc_kind_from_name(j["kind"].get<std::string>())
                          : std::nullopt;
    bool ok = kind.has_value();
    if (ok) {
      e.kind = *kind;
      const nlohmann::json null;
      auto field = [&](const char* name) -> const nlohmann::json& { return j.contains(name) ? j[name] : null; };
      ok = read_cpu(field("cpu"), e.cpu) && read_cpu(field("other_cpu"), e.other_cpu) &&
           read_value(field("value"), e.value) && read_value(field("value2"), e.value2);
      const nlohmann::json& cpus = field("cpus");
      if (ok && cpus.is_string() && !cpus.get<std::string>().empty()) {
        try {
          e.cpus = sorted_cpus(parse_cpu_list(cpus.get<std::string>()));
        } catch (const UsageError&) {
          ok = false;
        }
      }
      if (ok && field("reason").is_string()) e.reason = field("reason").get<std::string>();
      if (ok && field("timestamp_s").is_number()) e.timestamp_s = field("timestamp_s").get<double>();
      const nlohmann::json& lines = field("lines");
      if (ok && lines.is_array()) {
        for (const nlohmann::json& l : lines) {
          if (l.is_string()) e.lines.push_back(l.get<std::string>());
        }
      }
    }
    if (!ok) {
      ++log.left_out;
      continue;
    }
    log.add(std::move(e));
  }
  return log;
}

}  // namespace tscaudit
