// A published state's standing against the machine now (order/published_state.hpp): each
// status, the order in which they are asked (a state wrong in every way is told the first),
// facts not readable raising nothing, the exact reasons; and valid_seconds_of on hand-made
// tables, worked out here.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "order/published_state.hpp"

using namespace tscaudit;

namespace {

/// Published at boottime 5 s (monotonic 4 s, raw 4 s), the counter at 10^10 at 2 GHz, valid
/// for 100 s within ±50 ns, on CPUs 0-3 under the tsc clocksource.
PublishedState state() {
  PublishedState s;
  for (std::uint8_t i = 0; i < 16; ++i) s.boot_id[i] = static_cast<std::uint8_t>(i + 1);
  s.clocksource = "tsc";
  s.online_cpus = {0, 1, 2, 3};
  s.boottime_ns = 5'000'000'000;
  s.monotonic_ns = 4'000'000'000;
  s.monotonic_raw_ns = 4'000'000'000;
  s.valid_seconds = 100;
  s.tolerance_ns = 50;
  s.table.counter_hz = 2e9;
  s.table.as_of_counter = 10'000'000'000;
  return s;
}

/// The same machine `seconds` later, nothing changed, every fact readable.
MachineNow later(double seconds) {
  const PublishedState s = state();
  MachineNow n;
  n.boot_id = s.boot_id;
  n.clocksource = "tsc";
  n.online_cpus = {0, 1, 2, 3};
  n.have_clocks = true;
  const auto ns = static_cast<std::int64_t>(seconds * 1e9);
  n.boottime_ns = s.boottime_ns + ns;
  n.monotonic_ns = s.monotonic_ns + ns;
  n.monotonic_raw_ns = s.monotonic_raw_ns + ns;
  n.have_counter = true;
  n.counter = s.table.as_of_counter + static_cast<std::uint64_t>(seconds * 2e9);
  return n;
}

}  // namespace

TEST_CASE("state_standing: current while nothing changed and younger than valid_seconds") {
  const StateStanding r = state_standing(state(), later(10));
  CHECK(r.status == StateStatus::current);
  CHECK(r.age_seconds == Approx(10).margin(1e-12));
  CHECK(r.reason.empty());
}

TEST_CASE("state_standing: each status, asked in order: the first that holds is told") {
  // Every fact wrong at once; then each put right in turn, in the documented order.
  MachineNow n = later(200);  // aged: 200 s > 100 s
  std::vector<std::function<void(PublishedState&, MachineNow&)>> wrong = {
      [](PublishedState& s, MachineNow&) { s.boot_id = {}; },
      [](PublishedState&, MachineNow& m) { m.boot_id[0] = 0xee; },
      [](PublishedState&, MachineNow& m) {
        m.online_cpus = {0, 1, 2};
      },
      [](PublishedState&, MachineNow& m) { m.clocksource = "hpet"; },
      [](PublishedState&, MachineNow& m) { m.boottime_ns += 2'000'000'000; },  // 2 s suspended
      [](PublishedState&, MachineNow& m) { m.counter += 400'000'000; },        // 1000 ppm over 200 s, and more
  };
  const std::vector<std::pair<StateStatus, std::string>> told = {
      {StateStatus::other_boot,
       "the state records no boot (made from a run directory): it cannot be known to describe this boot"},
      {StateStatus::other_boot, "published during another boot: the counters were set again since"},
      {StateStatus::disrupted, "the online CPUs changed since publishing (then 0-3, now 0-2)"},
      {StateStatus::disrupted, "the kernel's clocksource changed since publishing (then tsc, now hpet)"},
      {StateStatus::disrupted,
       "the machine was suspended since publishing (2 s): a counter may have been reset or moved"},
      {StateStatus::disrupted, "the counter's rate changed since publishing: 1000 ppm from the published 2000 MHz"},
      {StateStatus::aged, "older (200 s) than the 100 s for which the drift bands keep every CPU within ±50 ns"},
  };
  for (std::size_t first = 0; first < told.size(); ++first) {
    INFO("wrong from " << first);
    PublishedState s = state();
    MachineNow m = n;
    for (std::size_t k = first; k < wrong.size(); ++k) wrong[k](s, m);
    if (first < 4) m.counter += 1;  // the rate's wrong count is exactly 1000 ppm: make it more
    const StateStanding r = state_standing(s, m);
    if (first == 5) {
      // Exactly 1000 ppm is within the limit: the rate is the next test.
      m.counter += 2'000'000;
      const StateStanding more = state_standing(s, m);
      CHECK(more.status == StateStatus::disrupted);
      CHECK(more.reason == "the counter's rate changed since publishing: 1005 ppm from the published 2000 MHz");
      continue;
    }
    CHECK(r.status == told[first].first);
    CHECK(r.reason == told[first].second);
  }
}

TEST_CASE("state_standing: the thresholds of a suspend, a rate change and the age") {
  MachineNow m = later(10);
  m.boottime_ns += 100'000'000;  // exactly 100 ms: not a suspend
  CHECK(state_standing(state(), m).status == StateStatus::current);
  m.boottime_ns += 1;
  CHECK(state_standing(state(), m).status == StateStatus::disrupted);

  // 999 ppm fast, and slow: not a change; 1001 ppm: a change, either way.
  for (const double ppm : {999.0, -999.0}) {
    MachineNow r = later(10);
    r.counter = state().table.as_of_counter + static_cast<std::uint64_t>(10 * 2e9 * (1 + ppm * 1e-6));
    CHECK(state_standing(state(), r).status == StateStatus::current);
  }
  MachineNow slow = later(10);
  slow.counter = state().table.as_of_counter + static_cast<std::uint64_t>(10 * 2e9 * (1 - 1001e-6));
  const StateStanding s = state_standing(state(), slow);
  CHECK(s.status == StateStatus::disrupted);
  CHECK(s.reason == "the counter's rate changed since publishing: -1001 ppm from the published 2000 MHz");
  // Under a second on CLOCK_MONOTONIC_RAW the rate is not judged, however far off; from a
  // second on it is.
  MachineNow young = later(0.5);
  young.counter += 100'000'000;
  CHECK(state_standing(state(), young).status == StateStatus::current);
  MachineNow second = later(1);
  second.counter += 100'000'000;  // 5 %
  const StateStanding fast = state_standing(state(), second);
  CHECK(fast.status == StateStatus::disrupted);
  CHECK(fast.reason == "the counter's rate changed since publishing: 50000 ppm from the published 2000 MHz");

  CHECK(state_standing(state(), later(100)).status == StateStatus::current);
  CHECK(state_standing(state(), later(100.001)).status == StateStatus::aged);
  PublishedState forever = state();
  forever.valid_seconds = std::numeric_limits<double>::infinity();
  CHECK(state_standing(forever, later(1e6)).status == StateStatus::current);
}

TEST_CASE("state_standing: a fact not readable now raises nothing") {
  // Nothing readable: current, age unknown.
  const StateStanding none = state_standing(state(), MachineNow{});
  CHECK(none.status == StateStatus::current);
  CHECK(std::isnan(none.age_seconds));
  // Each fact unreadable while it would otherwise be told.
  MachineNow m = later(10);
  m.boot_id = {};
  m.online_cpus = {};
  m.clocksource = "";
  CHECK(state_standing(state(), m).status == StateStatus::current);
  MachineNow no_counter = later(10);
  no_counter.counter += 1'000'000'000;  // 5 % fast
  CHECK(state_standing(state(), no_counter).status == StateStatus::disrupted);
  no_counter.have_counter = false;
  CHECK(state_standing(state(), no_counter).status == StateStatus::current);
  MachineNow no_clocks = later(1000);  // aged and suspended if the clocks were read
  no_clocks.boottime_ns += 5'000'000'000;
  no_clocks.have_clocks = false;
  CHECK(state_standing(state(), no_clocks).status == StateStatus::current);
  // What the state does not record raises nothing either: no CPUs, no clocksource, no clocks.
  PublishedState bare = state();
  bare.online_cpus = {};
  bare.clocksource = "";
  bare.monotonic_ns = 0;
  bare.monotonic_raw_ns = 0;
  MachineNow other = later(10);
  other.online_cpus = {0};
  other.clocksource = "hpet";
  other.boottime_ns += 5'000'000'000;
  other.counter += 1'000'000'000;
  CHECK(state_standing(bare, other).status == StateStatus::current);
}

TEST_CASE("valid_seconds_of: until the first band's widening reaches the tolerance, in seconds") {
  CounterTable t;
  t.reference_cpu = 0;
  t.counter_hz = 1e9;
  t.bands = {{0, 0, 0, 0, 0}, {1, -20, 30, -100, 200}, {-1, 0, 0, 0, 0}, {3, -90, 90, 0, 0}};
  // CPU 1: its top reaches +100 after (100 − 30) / 2e-7 = 3.5e8 ticks, its bottom −100 after
  // (100 − 20) / 1e-7 = 8e8: 0.35 s. CPU 3 does not move.
  CHECK(valid_seconds_of(t, 100) == Approx(0.35).epsilon(1e-12));
  // A drift band away from one side limits only the other.
  t.bands[1] = {1, -20, 30, 50, 200};
  CHECK(valid_seconds_of(t, 100) == Approx(0.35).epsilon(1e-12));
  t.bands[1] = {1, -20, 30, -100, -50};
  CHECK(valid_seconds_of(t, 100) == Approx(0.8).epsilon(1e-12));
  // No drift band moves anything: no limit.
  t.bands[1] = {1, -20, 30, 0, 0};
  CHECK(std::isinf(valid_seconds_of(t, 100)));
  // A band at the tolerance with drift toward it, or already beyond it: 0.
  t.bands[1] = {1, -20, 100, 0, 1};
  CHECK(valid_seconds_of(t, 100) == Approx(0).margin(0));
  t.bands[1] = {1, -20, 30, 0, 0};
  CHECK(valid_seconds_of(t, 89) == Approx(0).margin(0));  // CPU 3's 90 > 89
  // At 2 GHz the same ticks are half the seconds.
  t.bands[1] = {1, -20, 30, -100, 200};
  t.counter_hz = 2e9;
  CHECK(valid_seconds_of(t, 100) == Approx(0.175).epsilon(1e-12));
}

TEST_CASE("state_standing: clocks anywhere in int64, as a state file may hold them, do not overflow") {
  // A state published at the far past of CLOCK_BOOTTIME and read at its far future: 1.8e10 s
  // old (the difference does not fit in 64 bits), so aged, not current by a wrapped age.
  PublishedState s = state();
  s.boottime_ns = -9'000'000'000'000'000'000;
  s.monotonic_ns = -9'000'000'000'000'000'000;
  s.monotonic_raw_ns = -9'000'000'000'000'000'000;
  MachineNow m = later(10);
  m.boottime_ns = 9'000'000'000'000'000'000;
  m.monotonic_ns = 9'000'000'000'000'000'000;
  m.monotonic_raw_ns = 9'000'000'000'000'000'000;
  m.have_counter = false;
  const StateStanding r = state_standing(s, m);
  CHECK(r.status == StateStatus::aged);
  CHECK(r.age_seconds == Approx(1.8e10));
  CHECK(r.reason == "older (18000000000 s) than the 100 s for which the drift bands keep every CPU within ±50 ns");
  // Suspended by 1.8e10 s: boottime from one end to the other while monotonic stood still.
  m.monotonic_ns = s.monotonic_ns;
  const StateStanding suspended = state_standing(s, m);
  CHECK(suspended.status == StateStatus::disrupted);
  CHECK(suspended.reason ==
        "the machine was suspended since publishing (18000000000 s): a counter may have been reset or moved");
  // A tolerance of any finite size is told in whole ns.
  s.tolerance_ns = 1e20;
  m.monotonic_ns = m.boottime_ns;
  CHECK(state_standing(s, m).reason ==
        "older (18000000000 s) than the 100 s for which the drift bands keep every CPU within ±100000000000000000000 ns");
}
