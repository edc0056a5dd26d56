// Each read variant on one pinned CPU: never decreasing; RDTSCP's TSC_AUX names the CPU.
// The calibration and the MSR read: invariants only, never a value.
#include <catch2/catch.hpp>

#include <cmath>
#include <thread>

#include "core/errors.hpp"
#include "hw_requirements.hpp"
#include "measure/variant.hpp"
#include "on_thread.hpp"
#include "platform/affinity.hpp"
#include "platform/msr.hpp"
#include "platform/platform.hpp"
#include "skip.hpp"

using namespace tscaudit;

namespace {

/// Runs `f` on a new thread pinned to `cpu` and returns what it returns.
template <class F>
auto on_cpu(int cpu, F f) {
  return test::on_new_thread([&] { pin_this_thread(cpu); }, f);
}

}  // namespace

TEST_CASE("every variant's reads never decrease on one pinned CPU") {
  const int cpu = test::usable_cpus().front();
  for (Variant v : test::supported_host_variants()) {
    // cpuid_rdtsc exits to the hypervisor on every read under a VM: fewer reads.
    const std::size_t n = v == Variant::cpuid_rdtsc ? 20000 : 1000000;
    const std::size_t decreases = on_cpu(cpu, [&] {
      return visit_variant(v, [&](auto policy) {
        using P = decltype(policy);
        std::size_t down = 0;
        std::uint64_t prev = P::read();
        for (std::size_t i = 0; i < n; ++i) {
          const std::uint64_t now = P::read();
          down += now < prev;
          prev = now;
        }
        return down;
      });
    });
    INFO("variant " << variant_name(v) << " on CPU " << cpu);
    CHECK(decreases == 0);
  }
}

#if defined(__x86_64__)
TEST_CASE("RDTSCP's TSC_AUX holds the CPU the thread is pinned to") {
  for (int cpu : test::usable_cpus()) {
    const std::uint32_t aux = on_cpu(cpu, [] {
      std::uint32_t a = 0;
      counter::Rdtscp::read(a);
      return a;
    });
    INFO("CPU " << cpu << ", TSC_AUX " << aux);
    CHECK(static_cast<int>(aux & 0xfff) == cpu);  // Linux: (node << 12) | cpu
  }
}
#endif

TEST_CASE("another architecture's variant is refused with the reason, never executed") {
  for (Variant v : kAllVariants) {
    INFO(variant_name(v));
    if (is_host_variant(v)) continue;
    const std::optional<std::string> why = variant_unsupported_here(v);
    REQUIRE(why.has_value());
    CHECK(why->find("reads the counter of " + std::string(arch_name(variant_arch(v)))) != std::string::npos);
    CHECK_THROWS_AS(visit_variant(v, [](auto) { return 0; }), UnsupportedError);
  }
}

TEST_CASE("cntvctss runs exactly where HWCAP2_ECV says it can") {
  if (counter::kHostArch != CounterArch::aarch64) {
    test::skip_test("cntvctss is an aarch64 read; this is x86-64");
    return;
  }
  PlatformFacts facts;
  read_cpu_facts(facts);
  const std::optional<std::string> why = variant_unsupported_here(Variant::cntvctss);
  CHECK(why.has_value() == !facts.arm.registers.ecv);
  if (why) CHECK(why->find("HWCAP2_ECV is clear") != std::string::npos);
}

TEST_CASE("the calibration against CLOCK_MONOTONIC_RAW: a positive rate with a finite spread") {
  const Calibration c = calibrate_tsc(CalibrationClock::monotonic_raw, 50);
  INFO(c.fit.reason);
  REQUIRE(c.fit.valid);
  CHECK(c.fit.readings == 50);
  CHECK(c.hz() > 0);
  CHECK(std::isfinite(c.fit.stderr_ppm));
  CHECK(c.fit.stderr_ppm >= 0);
  CHECK(c.fit.bracket_lo_ticks_per_ns <= c.fit.bracket_hi_ticks_per_ns);
}

TEST_CASE("TSC_ADJUST on each CPU: a value or a reason, never both") {
  for (int cpu : test::usable_cpus()) {
    const MsrRead m = read_msr(cpu, kMsrTscAdjust);
    INFO("CPU " << cpu << ": " << m.problem);
    CHECK(m.value.has_value() == m.problem.empty());
  }
}
