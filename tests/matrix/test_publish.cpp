// What a check publishes for programs (docs/machine.md §10.8): the state a decided matrix
// gives, and a state of the same boot tightening the next. Exact values.
#include <catch2/catch.hpp>

#include "banded_cell.hpp"

#include <cmath>
#include <limits>

#include "matrix/publish.hpp"
#include "order/published_state.hpp"

using namespace tscaudit;

namespace {

/// Two CPUs, 2 GHz: CPU 1 is [-100, 300] ticks from CPU 0 at tick 1,000,000 of CPU 0, drift
/// within ±50 ppb, both roles measured at the same instant.
MatrixResult two_cpus() {
  MatrixResult m;
  m.cpus = {0, 1};
  m.tsc_hz = 2e9;
  m.quantum_ticks = 1;
  std::vector<PairCell> cells(4);
  cells[1] = testing::banded_cell(-100, 300, 1'000'000, -50, 50);
  cells[2] = testing::banded_cell(-300, 100, 1'000'100, -50, 50);  // CPU 1's counter: the same instant, θ on
  m.cells = PairCells(cells);
  m.cpu = solve_cpu_offsets(m.cpus, m.cells, 1);
  return m;
}

MachineNow machine(std::uint8_t boot) {
  MachineNow now;
  now.boot_id.fill(boot);
  now.clocksource = "tsc";
  now.online_cpus = {0, 1};
  now.have_clocks = true;
  now.boottime_ns = 50'000'000'000;
  now.realtime_ns = 1'800'000'000'000'000'000;
  now.monotonic_ns = 49'000'000'000;
  now.monotonic_raw_ns = 48'000'000'000;
  now.have_counter = true;
  now.counter = 1'000'000 + 2'000'000'000;  // a second after the table's moment
  return now;
}

}  // namespace

TEST_CASE("published_state_of: the verdict, the bound, the table at the median instant, the moment on the clocks",
          "[publish]") {
  const MatrixResult m = two_cpus();
  CheckResult r;
  r.outcome = CheckOutcome::synchronized;
  r.bound_ticks = 300;
  const MachineNow now = machine(7);
  const std::optional<PublishedState> s = published_state_of(m, r, PublishedFrom::quick, "the reason", &now);
  REQUIRE(s);
  CHECK(s->verdict == PublishedVerdict::synchronized);
  CHECK(s->from == PublishedFrom::quick);
  CHECK(s->reason == "the reason");
  CHECK(s->bound_ns == Approx(150));
  CHECK(s->table.reference_cpu == 0);
  CHECK(s->table.as_of_counter == 1'000'000);
  const CpuCounterBand* b = s->table.band_of(1);
  REQUIRE(b != nullptr);
  // Moved by at most the drift band over the instants' uncertainty: millionths of a tick.
  CHECK(b->offset_lo_ticks == Approx(-100).margin(1e-3));
  CHECK(b->offset_hi_ticks == Approx(300).margin(1e-3));
  CHECK(b->offset_lo_ticks <= -100);
  CHECK(b->offset_hi_ticks >= 300);
  CHECK(b->drift_lo_ppb == Approx(-50.05));  // one part in a thousand outward (another counter's rate)
  CHECK(b->drift_hi_ppb == Approx(50.05));
  // No tolerance given: twice the widest reach, 600 ticks = 300 ns; the band's upper end
  // reaches it after (600 - 300) / 50.05e-9 ticks.
  CHECK(s->tolerance_ns == Approx(300));
  CHECK(s->valid_seconds == Approx(300 / 50.05e-9 / 2e9).epsilon(1e-4));
  // The moment: a second (2e9 ticks at 2 GHz) before the clocks were read.
  CHECK(s->boottime_ns == 49'000'000'000);
  CHECK(s->realtime_ns == 1'799'999'999'000'000'000);
  CHECK(s->monotonic_ns == 48'000'000'000);
  CHECK(s->monotonic_raw_ns == 47'000'000'000);
  CHECK(s->boot_id == now.boot_id);
  CHECK(s->online_cpus == std::vector<int>{0, 1});
  CHECK(s->clocksource == "tsc");
}

TEST_CASE("published_state_of: nothing for a check cut short, and no moment from a run directory", "[publish]") {
  const MatrixResult m = two_cpus();
  CheckResult r;
  r.outcome = CheckOutcome::incomplete;
  CHECK_FALSE(published_state_of(m, r, PublishedFrom::live, "", nullptr));
  r.outcome = CheckOutcome::not_synchronized;
  r.settings.tolerance_ticks = 1000;
  const std::optional<PublishedState> s = published_state_of(m, r, PublishedFrom::run_directory, "", nullptr);
  REQUIRE(s);
  CHECK(s->verdict == PublishedVerdict::not_synchronized);
  CHECK(s->bound_ns == Approx(0).margin(0));
  CHECK(s->tolerance_ns == Approx(500));  // the check's own tolerance, 1000 ticks
  CHECK(s->boottime_ns == 0);
  CHECK(s->realtime_ns == 0);
  CHECK(s->boot_id == std::array<std::uint8_t, 16>{});
  CHECK(s->online_cpus.empty());
}

namespace {

/// A state of boot 7 at `as_of` with CPU 1's band and drift band; clocks that agree with it.
PublishedState state_at(std::uint64_t as_of, double lo, double hi, double drift_lo, double drift_hi) {
  PublishedState s;
  s.boot_id.fill(7);
  s.clocksource = "tsc";
  s.online_cpus = {0, 1};
  s.boottime_ns = static_cast<std::int64_t>(as_of / 2);  // 2 GHz: ns are half the ticks
  s.monotonic_ns = s.boottime_ns - 1000;
  s.tolerance_ns = 1000;
  s.table.reference_cpu = 0;
  s.table.counter_hz = 2e9;
  s.table.as_of_counter = as_of;
  s.table.bands.resize(2);
  s.table.bands[0].cpu = 0;
  s.table.bands[1] = {1, lo, hi, drift_lo, drift_hi};
  return s;
}

}  // namespace

TEST_CASE("carry_forward: two states of one boot bound the drift over the time between them", "[publish]") {
  const std::uint64_t t0 = 1'000'000'000;
  const std::uint64_t t1 = t0 + 2'000'000'000'000;  // 1000 s later
  const PublishedState before = state_at(t0, -300, 300, -1e4, 1e4);
  PublishedState fresh = state_at(t1, -290, 310, -1e4, 1e4);
  REQUIRE(carry_forward(fresh, before));
  const CpuCounterBand& b = fresh.table.bands[1];
  // (−290 − 300) / 2e12 and (310 + 300) / 2e12, in ppb, and a billionth of a ppb outward.
  CHECK(b.drift_lo_ppb == Approx(-0.295).margin(1e-6));
  CHECK(b.drift_hi_ppb == Approx(0.305).margin(1e-6));
  CHECK(b.drift_lo_ppb <= -0.295);
  CHECK(b.drift_hi_ppb >= 0.305);
  // The old band carried forward, [−890, 910], leaves the fresh one as it was.
  CHECK(b.offset_lo_ticks == Approx(-290).epsilon(0));
  CHECK(b.offset_hi_ticks == Approx(310).epsilon(0));
  // ±1000 ns = 2000 ticks; the upper end reaches it after (2000 − 310) / 0.305e-9 ticks.
  CHECK(fresh.valid_seconds == Approx((2000 - 310) / (b.drift_hi_ppb * 1e-9) / 2e9));
  CHECK(fresh.table.bands[0].offset_lo_ticks == Approx(0).margin(0));  // the reference stays the reference
}

TEST_CASE("carry_forward: the old band, carried by a narrow drift band, cuts the fresh one", "[publish]") {
  const std::uint64_t t0 = 1'000'000'000;
  const std::uint64_t t1 = t0 + 2'000'000'000;  // 1 s later
  const PublishedState before = state_at(t0, 0, 100, -5, 5);
  PublishedState fresh = state_at(t1, -200, 200, -1e4, 1e4);
  REQUIRE(carry_forward(fresh, before));
  const CpuCounterBand& b = fresh.table.bands[1];
  CHECK(b.drift_lo_ppb == Approx(-5).epsilon(0));
  CHECK(b.drift_hi_ppb == Approx(5).epsilon(0));
  CHECK(b.offset_lo_ticks == Approx(-10));  // 0 − 5e-9 · 2e9, a millionth of a tick outward
  CHECK(b.offset_hi_ticks == Approx(110));
}

TEST_CASE("carry_forward: nothing carries over between states that are not one machine state", "[publish]") {
  const std::uint64_t t0 = 1'000'000'000;
  const std::uint64_t t1 = t0 + 2'000'000'000'000;
  const PublishedState before = state_at(t0, -300, 300, -1e4, 1e4);
  const PublishedState fresh = state_at(t1, -290, 310, -1e4, 1e4);
  const auto refused = [&](PublishedState f, PublishedState b) {
    const PublishedState as_was = f;
    const bool carried = carry_forward(f, b);
    CHECK(f.table.bands[1].drift_lo_ppb == Approx(as_was.table.bands[1].drift_lo_ppb).epsilon(0));
    CHECK(f.table.bands[1].offset_hi_ticks == Approx(as_was.table.bands[1].offset_hi_ticks).epsilon(0));
    return !carried;
  };
  PublishedState other = before;
  other.boot_id.fill(8);
  CHECK(refused(fresh, other));  // another boot
  PublishedState unknown = fresh;
  unknown.boot_id = {};
  CHECK(refused(unknown, unknown));  // no boot recorded
  PublishedState cpus = before;
  cpus.online_cpus = {0, 1, 2};
  CHECK(refused(fresh, cpus));  // a CPU came
  PublishedState source = before;
  source.clocksource = "hpet";
  CHECK(refused(fresh, source));
  PublishedState suspended = before;
  suspended.monotonic_ns -= 2'000'000'000;  // BOOTTIME ran 2 s ahead of MONOTONIC: a suspend
  CHECK(refused(fresh, suspended));
  CHECK(refused(before, fresh));  // the previous is not earlier
  PublishedState reference = before;
  reference.table.reference_cpu = 1;
  CHECK(refused(fresh, reference));
  // Bands that no line within both drift bands joins: the offset moved 1000 ticks in 1 s
  // (2e9 ticks), where ±0.1 ppb allows a fifth of a tick.
  const PublishedState far = state_at(t0, 1000, 1100, -0.1, 0.1);
  CHECK(refused(state_at(t0 + 2'000'000'000, -100, 100, -0.1, 0.1), far));
}
