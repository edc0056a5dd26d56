#include "render/state_text.hpp"

#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/cpu_list.hpp"
#include "core/format.hpp"
#include "core/human_units.hpp"
#include "order/order.hpp"
#include "render/text_wrap.hpp"

namespace tscaudit {
namespace {

const char* verdict_name(PublishedVerdict v) {
  switch (v) {
    case PublishedVerdict::synchronized: return "synchronized";
    case PublishedVerdict::not_synchronized: return "not synchronized";
    case PublishedVerdict::inconclusive: return "inconclusive";
  }
  return "unknown";
}

const char* from_name(PublishedFrom f) {
  switch (f) {
    case PublishedFrom::live: return "check";
    case PublishedFrom::quick: return "check --quick";
    case PublishedFrom::run_directory: return "check --from a run directory";
  }
  return "unknown";
}

std::string boot_id_text(const std::array<std::uint8_t, 16>& id) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < id.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += kHex[id[i] >> 4];
    out += kHex[id[i] & 15];
  }
  return out;
}

bool known_boot(const std::array<std::uint8_t, 16>& id) {
  for (std::uint8_t b : id) {
    if (b != 0) return true;
  }
  return false;
}

std::string published_utc(const PublishedState& s) {
  if (s.realtime_ns == 0) return "";
  return format_utc(std::chrono::system_clock::time_point(
      std::chrono::duration_cast<std::chrono::system_clock::duration>(std::chrono::nanoseconds(s.realtime_ns))));
}

/// The counter now means something beside the table only on the machine and boot it holds.
bool shows_now(const StateStanding& standing, bool have_counter) {
  return have_counter && standing.status != StateStatus::other_boot && standing.status != StateStatus::disrupted;
}

}  // namespace

const char* state_status_name(StateStatus status) {
  switch (status) {
    case StateStatus::current: return "current";
    case StateStatus::aged: return "aged";
    case StateStatus::other_boot: return "other boot";
    case StateStatus::disrupted: return "disrupted";
  }
  return "unknown";
}

std::string state_text(const std::string& path, const PublishedState& s, const StateStanding& standing,
                       bool have_counter, std::uint64_t counter_now) {
  const CounterTable& t = s.table;
  const bool now_column = shows_now(standing, have_counter);
  std::string out = wrap_lines(std::string(state_status_name(standing.status)) +
                               (standing.status == StateStatus::current ? "" : ": " + standing.reason) + "\n");
  std::string answer = std::string("published ") + verdict_name(s.verdict);
  if (s.verdict == PublishedVerdict::synchronized) answer += " within ±" + format_sig(s.bound_ns, 3) + " ns";
  if (std::isfinite(standing.age_seconds)) answer += ", " + duration_words(standing.age_seconds) + " ago";
  answer += ", valid for " + duration_words(s.valid_seconds) + " (every CPU within ±" + format_sig(s.tolerance_ns, 3) +
            " ns)";
  out += wrap_lines("  " + answer + "\n");
  out += wrap_lines("  check     " + printable_utf8_text(s.reason) + "\n");
  out += wrap_lines("  file      " + printable_text(path) + "\n");
  std::string moment = std::string("by ") + from_name(s.from);
  const std::string utc = published_utc(s);
  moment += utc.empty() ? ", its time unknown" : ", " + utc;
  moment += ", boot " + (known_boot(s.boot_id) ? boot_id_text(s.boot_id) : std::string("unknown"));
  moment += ", clocksource " + (s.clocksource.empty() ? std::string("unknown") : printable_text(s.clocksource));
  moment += ", online CPUs " + (s.online_cpus.empty() ? std::string("unknown") : format_cpu_list(s.online_cpus));
  out += wrap_lines("  moment    " + moment + "\n");
  const std::string quantum =
      std::to_string(t.quantum_ticks) + (t.quantum_ticks == 1 ? " tick" : " ticks");
  out += wrap_lines("  counter   " +
                    (t.counter_hz > 0 ? format_sig(t.counter_hz, 10) + " Hz" : std::string("frequency unknown")) +
                    ", quantum " + quantum + "; the table holds at CPU " + std::to_string(t.reference_cpu) +
                    "'s counter " + std::to_string(t.as_of_counter) + "\n");
  out += now_column ? "  CPU  offset then (ticks)      drift (ppb)                offset now (ticks)\n"
                    : "  CPU  offset then (ticks)      drift (ppb)\n";
  for (const CpuCounterBand& b : t.bands) {
    if (b.cpu < 0) continue;
    std::string line = "  " + pad_right(std::to_string(b.cpu), 5) +
                       pad_right(format_range(b.offset_lo_ticks, b.offset_hi_ticks), 25) +
                       pad_right(format_range(b.drift_lo_ppb, b.drift_hi_ppb), 27);
    TickBand now{};
    if (now_column && offset_at(t, b.cpu, counter_now, now)) line += format_range(now.lo_ticks, now.hi_ticks);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string state_json(const std::string& path, const PublishedState& s, const StateStanding& standing,
                       bool have_counter, std::uint64_t counter_now) {
  using Json = nlohmann::ordered_json;
  const CounterTable& t = s.table;
  const bool now_column = shows_now(standing, have_counter);
  Json j;
  j["schema"] = kStateSchema;
  j["file"] = path;
  j["status"] = state_status_name(standing.status);
  j["status_reason"] = standing.reason;
  j["age_seconds"] = std::isfinite(standing.age_seconds) ? Json(standing.age_seconds) : Json(nullptr);
  j["verdict"] = verdict_name(s.verdict);
  j["reason"] = s.reason;
  j["bound_ns"] = s.bound_ns;
  j["tolerance_ns"] = s.tolerance_ns;
  j["valid_seconds"] = std::isinf(s.valid_seconds) ? Json(nullptr) : Json(s.valid_seconds);
  j["from"] = from_name(s.from);
  j["published_utc"] = s.realtime_ns == 0 ? Json(nullptr) : Json(published_utc(s));
  j["boot_id"] = known_boot(s.boot_id) ? Json(boot_id_text(s.boot_id)) : Json(nullptr);
  j["clocksource"] = s.clocksource.empty() ? Json(nullptr) : Json(s.clocksource);
  j["online_cpus"] = s.online_cpus;
  j["reference_cpu"] = t.reference_cpu;
  j["counter_hz"] = t.counter_hz;
  j["quantum_ticks"] = t.quantum_ticks;
  j["as_of_counter"] = t.as_of_counter;
  j["counter_now"] = have_counter ? Json(counter_now) : Json(nullptr);
  Json cpus = Json::array();
  for (const CpuCounterBand& b : t.bands) {
    if (b.cpu < 0) continue;
    Json c;
    c["cpu"] = b.cpu;
    c["offset_lo_ticks"] = b.offset_lo_ticks;
    c["offset_hi_ticks"] = b.offset_hi_ticks;
    c["drift_lo_ppb"] = b.drift_lo_ppb;
    c["drift_hi_ppb"] = b.drift_hi_ppb;
    TickBand now{};
    const bool have_now = now_column && offset_at(t, b.cpu, counter_now, now);
    c["now_lo_ticks"] = have_now ? Json(now.lo_ticks) : Json(nullptr);
    c["now_hi_ticks"] = have_now ? Json(now.hi_ticks) : Json(nullptr);
    cpus.push_back(std::move(c));
  }
  j["cpus"] = std::move(cpus);
  return j.dump(2) + "\n";
}

}  // namespace tscaudit
