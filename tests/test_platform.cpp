// The pure parts of the platform probe: which frequency is used and why, the CPUID
// frequency leaves in words, and the provenance a run carries.
#include <catch2/catch.hpp>

#include <cmath>

#include "platform.hpp"
#include "run.hpp"

using namespace tscsync;

namespace {

/// This machine's CPUID as far as frequency goes: leaf 15H and 16H zero, KVM's highest
/// leaf 40000001H.
CpuidFacts kvm_cpuid() {
  CpuidFacts c;
  c.vendor = "GenuineIntel";
  c.brand = "Intel(R) Xeon(R) Processor";
  c.family = 6;
  c.model = 207;
  c.stepping = 2;
  c.max_basic_leaf = 0x1c;
  c.invariant_tsc = c.rdtscp = c.tsc_adjust = c.tsc_deadline = true;
  c.hypervisor = "KVMKVMKVM";
  c.max_hypervisor_leaf = 0x40000001;
  return c;
}

Calibration calibration(double ticks_per_ns, double bracket_ppm) {
  Calibration c;
  c.cpu = 0;
  c.fit.valid = true;
  c.fit.readings = 50;
  c.fit.window_ns = 2e8;
  c.fit.ticks_per_ns = ticks_per_ns;
  c.fit.stderr_ppm = 0.002;
  c.fit.bracket_ppm = bracket_ppm;
  return c;
}

}  // namespace

TEST_CASE("the frequency leaves in words") {
  CpuidFacts c = kvm_cpuid();
  CHECK(describe_leaf_15h(c) == "not offered (reads all zero)");
  CHECK(describe_leaf_16h(c) == "not offered (reads zero)");
  CHECK(describe_leaf_40000010h(c) == "not offered (the hypervisor's highest leaf is 40000001H)");
  c.max_basic_leaf = 0xd;
  CHECK(describe_leaf_15h(c) == "not offered (the highest basic leaf is 0DH)");
  CHECK(describe_leaf_16h(c) == "not offered (the highest basic leaf is 0DH)");
  c.max_basic_leaf = 0x16;
  c.leaf15_denominator = 2;
  c.leaf15_numerator = 176;
  CHECK(describe_leaf_15h(c) == "TSC/crystal ratio 176/2, but the crystal frequency is not enumerated");
  c.leaf15_crystal_hz = 25'000'000;
  c.crystal_tsc_hz = 2'200'000'000;
  CHECK(describe_leaf_15h(c) == "25000000 Hz crystal x 176/2 = 2200000000 Hz");
  c.base_mhz = 2200;
  c.max_mhz = 3900;
  c.bus_mhz = 100;
  CHECK(describe_leaf_16h(c) == "base 2200 MHz, max 3900 MHz, bus 100 MHz");
  c.max_hypervisor_leaf = 0x40000010;
  CHECK(describe_leaf_40000010h(c) == "not offered (reads zero)");
  c.hypervisor_tsc_hz = 2'299'998'000;
  CHECK(describe_leaf_40000010h(c) == "2299998 kHz");
  c.hypervisor.reset();
  CHECK(describe_leaf_40000010h(c) == "not offered (no hypervisor)");
}

TEST_CASE("the frequency: CPUID 15H over the hypervisor leaf over the calibration") {
  CpuidFacts c = kvm_cpuid();
  const Calibration cal = calibration(2.299998, 0.25);

  const TscFrequency calibrated = choose_tsc_frequency(c, cal);
  CHECK(calibrated.source == "calibrated_monotonic_raw");
  CHECK(calibrated.hz == Approx(2.299998e9).epsilon(1e-15));
  CHECK(calibrated.uncertainty_ppm == Approx(0.25).epsilon(0));
  CHECK(calibrated.why ==
        "CPUID 15H not offered (reads all zero); hypervisor leaf 40000010H not offered (the hypervisor's highest "
        "leaf is 40000001H): calibrated against CLOCK_MONOTONIC_RAW");

  c.max_hypervisor_leaf = 0x40000010;
  c.hypervisor_tsc_hz = 2'299'998'000;
  const TscFrequency hv = choose_tsc_frequency(c, cal);
  CHECK(hv.source == "cpuid_40000010h");
  CHECK(hv.hz == Approx(2'299'998'000.0).epsilon(0));
  CHECK(hv.uncertainty_ppm == Approx(1e3 / 2.299998e9 * 1e6).epsilon(1e-12));
  CHECK(hv.why == "CPUID 15H not offered (reads all zero); the hypervisor's leaf 40000010H gives it, to 1 kHz");
  CHECK(hv.calibration.has_value());  // kept beside, for comparison

  c.leaf15_denominator = 2;
  c.leaf15_numerator = 184;
  c.leaf15_crystal_hz = 25'000'000;
  c.crystal_tsc_hz = 2'300'000'000;
  const TscFrequency leaf15 = choose_tsc_frequency(c, std::nullopt);
  CHECK(leaf15.source == "cpuid_15h");
  CHECK(leaf15.hz == Approx(2'300'000'000.0).epsilon(0));
  CHECK(leaf15.uncertainty_ppm == Approx(0).margin(0));
  CHECK(leaf15.why == "CPUID 15H enumerates it (25000000 Hz crystal x 184/2 = 2300000000 Hz): the hardware's own figure");

  Calibration failed;
  failed.fit.reason = "needs at least 3 readings, got 0";
  const TscFrequency none = choose_tsc_frequency(kvm_cpuid(), failed);
  CHECK(none.source == "unknown");
  CHECK(none.hz == Approx(0).margin(0));
  CHECK(none.why.find("; the calibration failed: needs at least 3 readings, got 0") != std::string::npos);
}

TEST_CASE("ppm against the kernel's figure") {
  CHECK(ppm_from(2'299'998'000.0, 2299.998) == Approx(0).margin(1e-9));
  CHECK(ppm_from(2'300'000'300.0, 2300.0) == Approx(0.13043478).epsilon(1e-6));
  CHECK(ppm_from(2'299'997'700.0, 2299.998) == Approx(-300.0 / 2299.998).epsilon(1e-9));
}

TEST_CASE("a run's provenance carries the kernel's few most important facts") {
  PlatformFacts p;
  p.cpuid = kvm_cpuid();
  p.tsc = choose_tsc_frequency(p.cpuid, calibration(2.2999980, 0.25));
  p.clocksource = "tsc";
  p.kernel_facts = read_kernel_facts(TSCSYNC_TEST_DATA "/platform/kvm_intel_2cpu");
  KernelLogFacts log;
  log.tsc_mhz = 2299.998;
  p.kernel_facts.log = Fact<KernelLogFacts>::good(log);
  Metadata meta;
  add_platform_metadata(p, meta);
  CHECK(meta.get("tsc_known_freq") == "yes");
  CHECK(meta.get("tsc_reliable") == "no");
  CHECK(meta.get("isolated_cpus") == "none");
  CHECK(meta.get("kernel_tsc_mhz") == "2299.998");
  CHECK(meta.get("tsc_hz") == "2299998000");
  CHECK(meta.get("tsc_hz_source") == "calibrated_monotonic_raw");

  p.kernel_facts = read_kernel_facts(TSCSYNC_TEST_DATA "/platform/bare_metal_intel_smt");
  Metadata metal;
  add_platform_metadata(p, metal);
  CHECK(metal.get("tsc_known_freq") == "no");
  CHECK(metal.get("isolated_cpus") == "2-3");
  CHECK(metal.get("kernel_tsc_mhz") == "unknown");  // no log read

  p.kernel_facts = read_kernel_facts(TSCSYNC_TEST_DATA "/platform/missing");
  Metadata missing;
  add_platform_metadata(p, missing);
  CHECK(missing.get("tsc_known_freq") == "unknown");
  CHECK(missing.get("tsc_reliable") == "unknown");
  CHECK(missing.get("isolated_cpus") == "unknown");
}
