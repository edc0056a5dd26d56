#include "formats/kernel_tsc_json.hpp"

#include "core/cpu_list.hpp"
#include "core/errors.hpp"
#include "formats/json_bounds.hpp"

namespace tscaudit {
namespace {

using OrderedJson = nlohmann::ordered_json;

OrderedJson kernel_optional_json(const std::optional<std::int64_t>& v) {
  return v ? OrderedJson(*v) : OrderedJson(nullptr);
}
OrderedJson kernel_cpu_json(int cpu) { return cpu >= 0 ? OrderedJson(cpu) : OrderedJson(nullptr); }

}  // namespace

OrderedJson kernel_tsc_events_json(const KernelTscLog& log, KernelTscEventWords words) {
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
                   {"text", words(e)}});
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

std::optional<KernelTscLog> kernel_tsc_from_info_json(std::string_view info_json, const std::string& path) {
  check_json_depth(info_json, path);
  const nlohmann::json j = nlohmann::json::parse(info_json, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("kernel_facts")) return std::nullopt;
  const nlohmann::json& facts = j["kernel_facts"];
  if (!facts.is_object() || !facts.contains("log") || !facts["log"].is_object()) return std::nullopt;
  const nlohmann::json& log = facts["log"];
  if (!log.contains("tsc_events") || !log["tsc_events"].is_array()) return std::nullopt;
  const std::size_t left_out = log.contains("tsc_events_left_out") && log["tsc_events_left_out"].is_number_unsigned()
                                   ? log["tsc_events_left_out"].get<std::size_t>()
                                   : 0;
  return kernel_tsc_log_from_json(log["tsc_events"], left_out);
}

}  // namespace tscaudit
