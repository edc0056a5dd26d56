// The pure parts of the platform probe: which frequency is used and why, the CPUID
// frequency leaves in words, the provenance a run carries, and `info`'s output on
// fabricated facts.
#include <catch2/catch.hpp>

#include <cmath>

#include "app/info_command.hpp"
#include "core/run.hpp"
#include "platform/platform.hpp"
#include "unwrap_text.hpp"

using namespace tscaudit;

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
  CHECK(leaf15.why ==
        "CPUID 15H enumerates it (25000000 Hz crystal x 184/2 = 2300000000 Hz): the hardware's own figure");

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
  p.kernel_facts = read_kernel_facts(TSCAUDIT_TEST_DATA "/platform/kvm_intel_2cpu");
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

  p.kernel_facts = read_kernel_facts(TSCAUDIT_TEST_DATA "/platform/bare_metal_intel_smt");
  Metadata metal;
  add_platform_metadata(p, metal);
  CHECK(metal.get("tsc_known_freq") == "no");
  CHECK(metal.get("isolated_cpus") == "2-3");
  CHECK(metal.get("kernel_tsc_mhz") == "unknown");  // no log read

  p.kernel_facts = read_kernel_facts(TSCAUDIT_TEST_DATA "/platform/missing");
  Metadata missing;
  add_platform_metadata(p, missing);
  CHECK(missing.get("tsc_known_freq") == "unknown");
  CHECK(missing.get("tsc_reliable") == "unknown");
  CHECK(missing.get("isolated_cpus") == "unknown");
}

TEST_CASE("info's text and JSON on the bare-metal fixture") {
  InfoReport r;
  r.platform.host = "metal";
  r.platform.kernel = "6.1.0-18-amd64";
  r.platform.cpuid = kvm_cpuid();
  r.platform.cpuid.hypervisor.reset();
  r.platform.clocksource = "tsc";
  r.platform.tsc = choose_tsc_frequency(r.platform.cpuid, calibration(2.9000021, 0.2));
  r.platform.kernel_facts = read_kernel_facts(TSCAUDIT_TEST_DATA "/platform/bare_metal_intel_smt");
  KernelLogFacts log = parse_kernel_log(
      "[    0.000000] Linux version 6.1\n[    2.1] tsc: Refined TSC clocksource calibration: 2900.002 MHz\n");
  r.platform.kernel_facts.log = Fact<KernelLogFacts>::good(log);
  r.cpus = {{0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1}};
  r.quanta = {{0, {}, ""}, {1, {}, "cannot pin"}};
  r.quanta[0].estimate.quantum_ticks = 1;
  r.quanta[0].estimate.modal_delta = 22;
  r.topology.ok = true;
  r.topology.summary = {1, 0, 1, 1, 2, 4, {{0, 1, 2, 3}}, {}};
  r.tsc_adjust = {{0, {0, ""}},
                  {1, {0, ""}},
                  {2, {std::nullopt, "no /dev/cpu/2/msr: msr module not loaded (modprobe msr)"}},
                  {3, {std::nullopt, "no /dev/cpu/3/msr: msr module not loaded (modprobe msr)"}}};
  r.warnings = platform_warnings(r.platform.cpuid, r.platform.kernel_facts);

  const std::string text = test::unwrapped(info_text(r));  // whole lines, as before their wrapping
  for (const char* line :
       {"tsc frequency       2900.002 MHz (calibrated_monotonic_raw, +/- 0.2 ppm)\n",
        "  vs kernel         +0.0345 ppm from the kernel's 2900.002 MHz (which is rounded to 1 kHz: +/- 0.17 ppm)\n",
        // NOLINTNEXTLINE(bugprone-suspicious-missing-comma): one line, longer than the source's
        "kernel tsc flags    constant_tsc nonstop_tsc tsc_adjust tsc_deadline_timer rdtscp; not set: tsc_known_freq "
        "tsc_reliable\n",
        "clocksource         tsc (available: tsc hpet acpi_pm)\n",
        "tsc unstable        not seen in the log (which reaches back to boot)\n",
        "topology            1 package, 1 NUMA node, 1 L3 domain (0-3), 2 cores, 4 PUs\n",
        "smt                 on, active; siblings 0,2 1,3\n", "isolated cpus       2-3\n",
        "boot parameters     isolcpus=2,3 nohz_full=2,3 rcu_nocbs=2,3 intel_idle.max_cstate=6\n",
        "governor cpu 0-3    powersave\n", "cpuidle driver      intel_idle\n",
        "cpuidle cpu 0-2     POLL 0 us, C1 2 us, C1E 10 us, C6 133 us\n",
        "cpuidle cpu 3       POLL 0 us, C1 2 us, C1E 10 us, C6 133 us (disabled)\n", "tsc_adjust cpu 0-1  0 ticks\n",
        "tsc_adjust cpu 2-3  unreadable: no /dev/cpu/N/msr: msr module not loaded (modprobe msr)\n",
        "quantum cpu 0       1 tick (modal back-to-back delta 22, 0 % zero deltas)\n",
        "quantum cpu 1       unknown: cannot pin\n",
        "warning             powersave_governor: CPUs 0-3 use the powersave cpufreq governor\n"}) {
    INFO(line);
    CHECK(text.find(line) != std::string::npos);
  }
  // Warnings come last.
  CHECK(text.rfind("quantum cpu") < text.find("warning "));
  CHECK(text.substr(text.rfind("\n", text.size() - 2) + 1, 10) == "  advice  ");

  const nlohmann::ordered_json j = info_json(r);
  CHECK(j["schema"] == "tscaudit-info/1");
  CHECK(j["invariant_tsc"] == true);
  CHECK(j["hypervisor"].is_null());
  CHECK(j["clocksource"] == "tsc");
  CHECK(j["tsc_hz_source"] == "calibrated_monotonic_raw");
  CHECK(j["quantum_ticks"] == 1);
  CHECK(j["tsc_frequency"]["kernel_mhz"] == 2900.002);
  CHECK(j["kernel_facts"]["cmdline"]["isolcpus"] == "2,3");
  CHECK(j["kernel_facts"]["isolated"] == "2-3");
  CHECK(j["kernel_facts"]["cpus"][3]["idle_states"][3]["disabled"] == true);
  CHECK(j["kernel_facts"]["cpus"][0]["thread_siblings"] == "0,2");
  CHECK(j["topology"]["l3_cpus"][0] == "0-3");
  CHECK(j["tsc_adjust"][0]["value"] == 0);
  CHECK(j["tsc_adjust"][2]["value"].is_null());
  CHECK(j["tsc_adjust"][2]["problem"] == "no /dev/cpu/2/msr: msr module not loaded (modprobe msr)");
  REQUIRE(j["warnings"].size() == 3);
  CHECK(j["warnings"][1]["code"] == "deep_cstates");
  CHECK(j["cpuid"]["leaf_15h"]["text"] == "not offered (reads all zero)");

  // A fact that could not be read shows its state and reason in place of its value.
  r.platform.kernel_facts = read_kernel_facts(TSCAUDIT_TEST_DATA "/platform/missing");
  const nlohmann::ordered_json m = info_json(r);
  CHECK(m["kernel_facts"]["isolated"]["state"] == "absent");
  CHECK(m["kernel_facts"]["isolated"]["reason"] == "no " TSCAUDIT_TEST_DATA
                                                   "/platform/missing/sys/devices/system/cpu/isolated");
}
