// The kernel log's TSC events as JSON (formats/kernel_tsc_json.hpp): the writer's exact
// document, the round trip, what the reader leaves out, and info.json's events read back.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "formats/kernel_tsc_json.hpp"
#include "render/kernel_tsc_text.hpp"

using namespace tscaudit;

namespace {

KernelTscEvent tsc_json_event(KernelTscEventKind kind, int cpu = -1, int other = -1, std::vector<int> cpus = {},
                              std::optional<std::int64_t> value = std::nullopt) {
  KernelTscEvent e;
  e.kind = kind;
  e.cpu = cpu;
  e.other_cpu = other;
  e.cpus = std::move(cpus);
  e.value = value;
  return e;
}

KernelTscLog tsc_json_log(std::vector<KernelTscEvent> events) {
  KernelTscLog log;
  for (KernelTscEvent& e : events) log.add(std::move(e));
  return log;
}

std::string tsc_json_words(const KernelTscEvent& e) { return "event " + std::string(kernel_tsc_kind_name(e.kind)); }

}  // namespace

TEST_CASE("kernel TSC events in JSON, and read back", "[kernel_tsc_json]") {
  KernelTscEvent w = tsc_json_event(KernelTscEventKind::warp, 0, 5, {}, 1482);
  w.lines = {"[0.512345] TSC synchronization [CPU#0 -> CPU#5]:", "[0.512350] Measured 1482 cycles TSC warp"};
  w.timestamp_s = 0.51235;
  KernelTscEvent ahead = tsc_json_event(KernelTscEventKind::cpus_ahead, 1, -1, {2, 3});
  ahead.lines = {"CPUs 2-3 ahead of CPU 1 for clocksource tsc."};
  KernelTscEvent unstable = tsc_json_event(KernelTscEventKind::unstable);
  unstable.reason = "check_tsc_sync_source failed";
  const KernelTscLog log = tsc_json_log({w, ahead, unstable});
  const nlohmann::ordered_json j = kernel_tsc_events_json(log, kernel_tsc_event_text);
  CHECK(j.dump() ==
        R"j([{"kind":"warp","cpu":0,"other_cpu":5,"cpus":"","value":1482,"value2":null,"reason":null,)j"
        R"j("timestamp_s":0.51235,"lines":["[0.512345] TSC synchronization [CPU#0 -> CPU#5]:",)j"
        R"j("[0.512350] Measured 1482 cycles TSC warp"],"text":"the kernel measured 1482 cycles of TSC warp )j"
        R"j(between CPU 0 and CPU 5 when it brought CPU 5 up, and turned the TSC clocksource off"},)j"
        R"j({"kind":"cpus_ahead","cpu":1,"other_cpu":null,"cpus":"2-3","value":null,"value2":null,"reason":null,)j"
        R"j("timestamp_s":null,"lines":["CPUs 2-3 ahead of CPU 1 for clocksource tsc."],"text":"the kernel found )j"
        R"j(the TSC of CPUs 2-3 ahead of CPU 1's (its per-CPU check after the TSC was marked unstable)"},)j"
        R"j({"kind":"unstable","cpu":null,"other_cpu":null,"cpus":"","value":null,"value2":null,)j"
        R"j("reason":"check_tsc_sync_source failed","timestamp_s":null,"lines":[],)j"
        R"j("text":"the kernel marked the TSC unstable (check_tsc_sync_source failed)"}])j");
  // Read back: the same JSON again, and what was left out carried over.
  const KernelTscLog back = kernel_tsc_log_from_json(nlohmann::json::parse(j.dump()), 3);
  CHECK(kernel_tsc_events_json(back, kernel_tsc_event_text) == j);
  CHECK(back.left_out == 3);
  // An element it cannot read is left out and counted; so is a field of the wrong type.
  const KernelTscLog odd = kernel_tsc_log_from_json(
      nlohmann::json::parse(R"([{"kind":"warp","cpu":0,"other_cpu":5,"value":7},{"kind":"frobnicated"},)"
                            R"({"kind":"warp","cpu":"zero"},{"kind":"cpus_ahead","cpu":0,"cpus":"2-x"},3])"),
      0);
  REQUIRE(odd.events.size() == 1);
  CHECK(odd.events[0].value == 7);
  CHECK(odd.events[0].other_cpu == 5);
  CHECK(odd.left_out == 4);
  CHECK(kernel_tsc_log_from_json(nlohmann::json::object(), 0).events.empty());
}

TEST_CASE("kernel TSC events: the words are the caller's, and the reader ignores them", "[kernel_tsc_json]") {
  const KernelTscLog log = tsc_json_log({tsc_json_event(KernelTscEventKind::adjust_forced, 2, -1, {}, -77)});
  const nlohmann::ordered_json j = kernel_tsc_events_json(log, tsc_json_words);
  CHECK(j.dump() ==
        R"([{"kind":"adjust_forced","cpu":2,"other_cpu":null,"cpus":"","value":-77,"value2":null,"reason":null,)"
        R"("timestamp_s":null,"lines":[],"text":"event adjust_forced"}])");
  const KernelTscLog back = kernel_tsc_log_from_json(nlohmann::json::parse(j.dump()), 0);
  REQUIRE(back.events.size() == 1);
  CHECK(back.events[0].kind == KernelTscEventKind::adjust_forced);
  CHECK(back.events[0].cpu == 2);
  CHECK(back.events[0].other_cpu == -1);
  CHECK(back.events[0].value == -77);
  CHECK_FALSE(back.events[0].value2.has_value());
  CHECK(back.left_out == 0);
}

TEST_CASE("kernel_tsc_from_info_json: kernel_facts.log's events and what was left out", "[kernel_tsc_json]") {
  const std::string info =
      R"({"schema":"tscaudit-info/1","kernel_facts":{"log":{"tsc_events":[{"kind":"warp","cpu":0,"other_cpu":5,)"
      R"("value":1482},{"kind":"nonsense"}],"tsc_events_left_out":2}}})";
  const std::optional<KernelTscLog> log = kernel_tsc_from_info_json(info, "r/info.json");
  REQUIRE(log.has_value());
  REQUIRE(log->events.size() == 1);
  CHECK(log->events[0].kind == KernelTscEventKind::warp);
  CHECK(log->events[0].other_cpu == 5);
  CHECK(log->events[0].value == 1482);
  CHECK(log->left_out == 3);  // the 2 recorded and the element it could not read
  // tsc_events_left_out missing, or not a whole number: none.
  CHECK(kernel_tsc_from_info_json(R"({"kernel_facts":{"log":{"tsc_events":[]}}})", "i")->left_out == 0);
  CHECK(kernel_tsc_from_info_json(R"({"kernel_facts":{"log":{"tsc_events":[],"tsc_events_left_out":-1}}})", "i")
            ->left_out == 0);
  // Nothing recorded: no log, not an empty one.
  for (const char* none : {"", "not json", "[]", R"({"kernel_facts":null})", R"({"kernel_facts":{"log":"x"}})",
                           R"({"kernel_facts":{"log":{}}})", R"({"kernel_facts":{"log":{"tsc_events":{}}}})"}) {
    INFO(none);
    CHECK_FALSE(kernel_tsc_from_info_json(none, "i").has_value());
  }
  const std::string deep = std::string(65, '[') + std::string(65, ']');
  CHECK_THROWS_WITH(kernel_tsc_from_info_json(deep, "r/info.json"), "r/info.json:1:65: nested deeper than 64");
}
