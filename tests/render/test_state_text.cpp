// `tscaudit state`'s text and JSON: exact output for a state of this boot and another's.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>

#include "render/state_text.hpp"

using namespace tscaudit;

namespace {

PublishedState example() {
  PublishedState s;
  s.verdict = PublishedVerdict::synchronized;
  s.from = PublishedFrom::quick;
  s.bound_ns = 150;
  s.tolerance_ns = 300;
  s.valid_seconds = 2.997;
  s.reason = "synchronized to within \u00b1150 ns (300 ticks): all 2 ordered pairs of 2 CPUs have offset bands that "
             "contain 0";
  s.realtime_ns = 1'800'000'000'000'000'000;
  s.boottime_ns = 10'000'000'000;
  s.boot_id = {0x87, 0x55, 0xe7, 0x93, 0xf5, 0xc4, 0x44, 0x5a, 0xa4, 0xcd, 0xc7, 0x80, 0x89, 0x71, 0xc9, 0x25};
  s.clocksource = "tsc";
  s.online_cpus = {0, 1};
  s.table.reference_cpu = 0;
  s.table.counter_hz = 2e9;
  s.table.quantum_ticks = 26;
  s.table.as_of_counter = 1'000'000;
  s.table.bands.resize(2);
  s.table.bands[0].cpu = 0;
  s.table.bands[1] = {1, -100, 300, -50.05, 50.05};
  return s;
}

}  // namespace

TEST_CASE("state_text: a current state, with each CPU's band now", "[state]") {
  StateStanding current;
  current.age_seconds = 1.5;
  const std::string text = state_text("s", example(), current, true, 1'000'000 + 3'000'000'000);
  CHECK(text ==
        "current\n"
        "  published synchronized within \u00b1150 ns, 1.5 s ago, valid for 3 s (every CPU within \u00b1300 ns)\n"
        "  check     synchronized to within \u00b1150 ns (300 ticks): all 2 ordered pairs of 2 CPUs have offset\n"
        "            bands that contain 0\n"
        "  file      s\n"
        "  moment    by check --quick, 2027-01-15T08:00:00.000Z, boot 8755e793-f5c4-445a-a4cd-c7808971c925,\n"
        "            clocksource tsc, online CPUs 0-1\n"
        "  counter   2000000000 Hz, quantum 26 ticks; the table holds at CPU 0's counter 1000000\n"
        "  CPU  offset then (ticks)      drift (ppb)                offset now (ticks)\n"
        "  0    [0, 0]                   [0, 0]                     [0, 0]\n"
        "  1    [-100, 300]              [-50.05, 50.05]            [-250.2, 450.2]\n");
}

TEST_CASE("state_text and state_json: another boot's state shows no band now, and says why", "[state]") {
  StateStanding other;
  other.status = StateStatus::other_boot;
  other.reason = "published during another boot: the counters were set again since";
  other.age_seconds = std::numeric_limits<double>::quiet_NaN();
  PublishedState s = example();
  s.reason = "a hostile \x1b[2J reason";
  const std::string text = state_text("s", s, other, true, 5);
  CHECK(text.substr(0, text.find('\n')) ==
        "other boot: published during another boot: the counters were set again since");
  CHECK(text.find("a hostile \\x1b[2J reason") != std::string::npos);
  CHECK(text.find("offset now") == std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(state_json("s", s, other, true, 5));
  CHECK(j["schema"] == "tscaudit-state/1");
  CHECK(j["status"] == "other boot");
  CHECK(j["age_seconds"].is_null());
  CHECK(j["verdict"] == "synchronized");
  CHECK(j["valid_seconds"] == 2.997);
  CHECK(j["boot_id"] == "8755e793-f5c4-445a-a4cd-c7808971c925");
  CHECK(j["published_utc"] == "2027-01-15T08:00:00.000Z");
  REQUIRE(j["cpus"].size() == 2);
  CHECK(j["cpus"][1]["cpu"] == 1);
  CHECK(j["cpus"][1]["offset_lo_ticks"] == -100.0);
  CHECK(j["cpus"][1]["drift_hi_ppb"] == 50.05);
  CHECK(j["cpus"][1]["now_lo_ticks"].is_null());
}
