// The quick check's plan and decision on simulated machines with known truth: the same
// analysis and decision as `check`, over quick_design's pairs, with rounds cut to the quick
// check's sizes (2048 a pair). The measuring itself is the hardware tests' (hw/test_quick_hw.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "quick/quick_check.hpp"
#include "simulate/machine.hpp"

using namespace tscaudit;

namespace {

/// `packages` × `per_package` CPUs, one core each.
std::vector<CpuPlace> places_of(int packages, int per_package) {
  std::vector<CpuPlace> places;
  for (int p = 0; p < packages; ++p) {
    for (int c = 0; c < per_package; ++c) {
      CpuPlace place;
      place.cpu = static_cast<int>(places.size());
      place.package = p;
      place.core = place.cpu;
      places.push_back(place);
    }
  }
  return places;
}

/// The quick check's decision over `machine`'s pairs, rounds as the quick check takes them.
QuickAnswer decide_on(const SimulatedMachine& machine, const QuickPlan& plan, const QuickOptions& options = {}) {
  const auto source = [&](int a, int b) -> std::optional<Run> { return machine.simulate_pair(a, b).run; };
  return decide_quick(plan, source, machine.spec().base.tsc_hz, options);
}

MachineSpec spec_of(std::vector<CpuPlace> places, std::uint64_t seed) {
  MachineSpec spec;
  spec.cpus = std::move(places);
  spec.seed = seed;
  spec.rounds_per_pair = 2048;
  return spec;
}

}  // namespace

TEST_CASE("quick plan: two CPUs are two slots, one role each, with the default budget") {
  const QuickPlan q = plan_quick(places_of(1, 2), 0);
  CHECK(q.order.cpu_numbers() == std::vector<int>{0, 1});
  REQUIRE(q.plan.slots.size() == 2);
  CHECK(q.plan.slots[0].pairs.size() == 1);
  CHECK(q.plan.ordered_pairs == 2);
  CHECK(q.budget_seconds == Approx(0.010).margin(0));
  CHECK(q.max_rounds == 50000);  // 5 ms a slot at most 1e7 rounds a second
  const QuickPlan given = plan_quick(places_of(1, 2), 0.001);
  CHECK(given.budget_seconds == Approx(0.001).margin(0));
  CHECK(given.max_rounds == 5000);
}

TEST_CASE("quick check: a synchronized simulated machine of 16 CPUs is synchronized, with a bound") {
  const SimulatedMachine machine(spec_of(places_of(2, 8), 11));
  const QuickPlan plan = plan_quick(machine.spec().cpus, 0);
  const QuickAnswer a = decide_on(machine, plan);
  INFO(a.reason);
  CHECK(a.check.outcome == CheckOutcome::synchronized);
  CHECK(a.reason.rfind("synchronized to within", 0) == 0);
  CHECK(a.matrix.size() == 16);
  CHECK(a.pairs == plan.plan.ordered_pairs);
  CHECK(a.check.bound_ticks > 0);
  CHECK(a.proven_offset_ticks == Approx(0).margin(0));
  CHECK(a.worst_a >= 0);
  CHECK(a.worst_b >= 0);
  CHECK(a.worst_a != a.worst_b);
}

TEST_CASE("quick check: one CPU 400 ticks ahead is proven, named, and its bound holds the truth") {
  MachineSpec spec = spec_of(places_of(2, 8), 12);
  spec.cpu_offset_ticks[5] = 400;
  const SimulatedMachine machine(spec);
  const QuickAnswer a = decide_on(machine, plan_quick(spec.cpus, 0));
  INFO(a.reason);
  CHECK(a.check.outcome == CheckOutcome::not_synchronized);
  CHECK(a.reason.find("CPU 5") != std::string::npos);
  CHECK(a.check.cpus_off == std::vector<int>{5});
  CHECK((a.worst_a == 5 || a.worst_b == 5));
  // The proof is a lower bound of the true 400 ticks.
  CHECK(a.proven_offset_ticks > 0);
  CHECK(a.proven_offset_ticks <= 400);
}

TEST_CASE("quick check: a package 600 ticks off is found across the hubs and chords") {
  MachineSpec spec = spec_of(places_of(2, 8), 13);
  spec.package_offset_ticks[1] = 600;
  const SimulatedMachine machine(spec);
  const QuickAnswer a = decide_on(machine, plan_quick(spec.cpus, 0));
  INFO(a.reason);
  CHECK(a.check.outcome == CheckOutcome::not_synchronized);
  REQUIRE_FALSE(a.check.diagnosis.findings.empty());
  CHECK(a.check.diagnosis.findings.front().name == "package 1");
  CHECK(a.proven_offset_ticks <= 600);
  CHECK(a.proven_offset_ticks > 0);
}

TEST_CASE("quick check: the tolerance and the largest bound are taken in ns at the counter's frequency") {
  MachineSpec spec = spec_of(places_of(1, 4), 14);
  spec.cpu_offset_ticks[2] = 230;  // 100 ns at 2.3 GHz
  const SimulatedMachine machine(spec);
  const QuickPlan plan = plan_quick(spec.cpus, 0);
  QuickOptions wide;
  wide.tolerance_ns = 1000;  // 2300 ticks: passes
  CHECK(decide_on(machine, plan, wide).check.outcome == CheckOutcome::synchronized);
  QuickOptions tight;
  tight.max_bound_ns = 1;  // a synchronized machine proven within 1 ns: never, so inconclusive
  const SimulatedMachine same(spec_of(places_of(1, 4), 15));
  const QuickAnswer a = decide_on(same, plan, tight);
  INFO(a.reason);
  CHECK(a.check.outcome == CheckOutcome::inconclusive);
  CHECK(a.check.settings.max_bound_ticks == Approx(2.3).epsilon(1e-12));
}
