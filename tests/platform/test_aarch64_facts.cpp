// The aarch64 facts, decided on fixture strings and trees (tests/data/platform/arm64_*, whose
// README says how they were made) on any machine: MIDR decoding, where the MIDRs come from,
// the device tree's timer errata, the kernel's arch_timer lines, the counter errata, the
// frequency check, emulation, the warnings, which variants can run, and info's output.
#include <catch2/catch.hpp>

#include "app/info_command.hpp"
#include "core/run.hpp"
#include "platform/aarch64_facts.hpp"
#include "platform/emulation.hpp"
#include "platform/platform.hpp"
#include "platform/platform_warnings.hpp"
#include "unwrap_text.hpp"
#include "warning_codes.hpp"

using namespace tscaudit;

namespace {

const std::string kData = TSCAUDIT_TEST_DATA "/platform/";

std::string file_text(const std::string& path) {
  const Fact<std::string> f = read_text_file(path);
  REQUIRE(f.ok());
  return f.value;
}

/// The registers of a CPU without FEAT_ECV whose firmware programmed `cntfrq_hz`.
ArmRegisters registers(std::uint64_t cntfrq_hz) {
  ArmRegisters r;
  r.read = true;
  r.cntfrq_hz = cntfrq_hz;
  r.hwcap_cpuid = true;
  return r;
}

Calibration calibration(double hz) {
  Calibration c;
  c.cpu = 0;
  c.fit.valid = true;
  c.fit.readings = 50;
  c.fit.window_ns = 2e8;
  c.fit.ticks_per_ns = hz / 1e9;
  c.fit.bracket_ppm = 3;
  return c;
}

using test::codes;

/// The kernel log of a HiKey960-like board: the A73s trap the counter.
constexpr const char* kBigLittleLog =
    "[    0.000000] Linux version 6.1.0\n"
    "[    0.000000] arch_timer: cp15 timer(s) running at 1.92MHz (phys).\n"
    "[    0.000000] clocksource: arch_sys_counter: mask: 0xffffffffffffff max_cycles: 0x1ab, max_idle_ns: 1 ns\n"
    "[    0.688442] arch_timer: Enabling local workaround for ARM erratum 858921\n"
    "[    0.688453] arch_timer: CPU4: Trapping CNTVCT access\n"
    "[    0.719930] arch_timer: Enabling local workaround for ARM erratum 858921\n"
    "[    0.719938] arch_timer: CPU5: Trapping CNTVCT access\n"
    "[    0.752028] arch_timer: CPU7: Trapping CNTVCT access\n"
    "[    0.752030] arch_timer: CPU6: Trapping CNTVCT access\n";

/// The big.LITTLE fixture (A53 and trapping A73 cores, a 1.92 MHz counter) as the platform
/// probe would fill it on that board, its clocksource arch_sys_counter.
PlatformFacts big_little_platform() {
  PlatformFacts p;
  p.arch = CounterArch::aarch64;
  const std::string big = kData + "arm64_big_little_a73";
  p.arm = arm_facts(big, file_text(big + "/proc/cpuinfo"), registers(1'920'000));
  p.kernel_facts = read_kernel_facts(big);
  p.kernel_facts.log = Fact<KernelLogFacts>::good(parse_kernel_log(kBigLittleLog));
  p.clocksource = "arch_sys_counter";
  p.tsc = choose_arm_frequency(p.arm, calibration(1'920'000));
  return p;
}

}  // namespace

TEST_CASE("aarch64: a MIDR in words, known or not") {
  CHECK(describe_midr(Midr{0x413fd0c1}) == "Arm Neoverse N1 r3p1 (MIDR 0x413fd0c1)");
  CHECK(describe_midr(Midr{0x410fd092}) == "Arm Cortex-A73 r0p2 (MIDR 0x410fd092)");
  CHECK(describe_midr(Midr{0x410fd4f0}) == "Arm Neoverse V2 r0p0 (MIDR 0x410fd4f0)");
  CHECK(describe_midr(Midr{0x000f0510}) == "software QEMU max CPU r0p0 (MIDR 0x000f0510)");  // qemu-aarch64 7.2
  CHECK(describe_midr(Midr{0x6d0f0120}) == "implementer 0x6d part 0x012 r0p0 (MIDR 0x6d0f0120)");
  CHECK(describe_midr(Midr{0x410fdfff}) == "Arm part 0xdff r0p15 (MIDR 0x410fdfff)");
  const Midr n1{0x413fd0c1};
  CHECK(n1.implementer() == 0x41);
  CHECK(n1.variant() == 3);
  CHECK(n1.architecture() == 0xf);
  CHECK(n1.part() == 0xd0c);
  CHECK(n1.revision() == 1);
  CHECK(midr_implementer_name(0xc0) == "Ampere");
  CHECK(midr_part_name(0x61, 0x033) == "M2 Avalanche");
}

TEST_CASE("aarch64: the MIDRs of /proc/cpuinfo, and what is not arm64's cpuinfo") {
  const std::string path = kData + "arm64_big_little_a73/proc/cpuinfo";
  const Fact<std::vector<CpuMidr>> big_little = parse_cpuinfo_midrs(file_text(path), path);
  REQUIRE(big_little.ok());
  REQUIRE(big_little.value.size() == 8);
  CHECK(big_little.value[0] == CpuMidr{0, Midr{0x410fd034}});
  CHECK(big_little.value[7] == CpuMidr{7, Midr{0x410fd092}});

  // An x86-64 kernel's cpuinfo (what an emulated binary reads) has no MIDR: absent.
  const std::string x86 = kData + "kvm_intel_2cpu/proc/cpuinfo";
  const Fact<std::vector<CpuMidr>> none = parse_cpuinfo_midrs(file_text(x86), x86);
  CHECK(none.state == FactState::absent);
  CHECK(none.reason == x86 + ": no 'CPU implementer' lines");

  const Fact<std::vector<CpuMidr>> cut =
      parse_cpuinfo_midrs("processor\t: 0\nCPU implementer\t: 0x41\nCPU variant\t: 0x0\n", "cpuinfo");
  CHECK(cut.state == FactState::malformed);
  CHECK(cut.reason == "cpuinfo: processor 0 lacks one of CPU implementer, variant, part and revision");
  const Fact<std::vector<CpuMidr>> bad = parse_cpuinfo_midrs("processor\t: 0\nCPU part\t: 0xzz\n", "cpuinfo");
  CHECK(bad.state == FactState::malformed);
  CHECK(bad.reason == "cpuinfo: CPU part '0xzz' is not a number");
}

TEST_CASE("aarch64: the MIDRs of sysfs, and the device tree's timer errata") {
  const Fact<std::vector<CpuMidr>> sysfs = read_sysfs_midrs(kData + "arm64_big_little_a73");
  REQUIRE(sysfs.ok());
  REQUIRE(sysfs.value.size() == 8);
  CHECK(sysfs.value[4] == CpuMidr{4, Midr{0x410fd092}});
  const Fact<std::vector<CpuMidr>> older = read_sysfs_midrs(kData + "arm64_fsl_a008585");
  CHECK(older.state == FactState::absent);
  CHECK(older.reason == "no " + kData + "arm64_fsl_a008585/sys/devices/system/cpu/cpu0/regs/identification/midr_el1");

  const Fact<std::vector<std::string>> fsl = read_timer_dt_errata(kData + "arm64_fsl_a008585");
  REQUIRE(fsl.ok());
  CHECK(fsl.value == std::vector<std::string>{"fsl,erratum-a008585"});
  const Fact<std::vector<std::string>> sun50i = read_timer_dt_errata(kData + "arm64_sun50i_a64");
  REQUIRE(sun50i.ok());
  CHECK(sun50i.value == std::vector<std::string>{"allwinner,erratum-unknown1"});  // in timer@0
  const Fact<std::vector<std::string>> clean = read_timer_dt_errata(kData + "arm64_big_little_a73");
  REQUIRE(clean.ok());
  CHECK(clean.value.empty());
  const Fact<std::vector<std::string>> acpi = read_timer_dt_errata(kData + "arm64_neoverse_n1_acpi");
  CHECK(acpi.state == FactState::absent);
  CHECK(acpi.reason == "no " + kData + "arm64_neoverse_n1_acpi/proc/device-tree");
}

TEST_CASE("aarch64: the MIDRs come from sysfs, else cpuinfo, else the emulated mrs of one CPU") {
  const std::string big = kData + "arm64_big_little_a73";
  const ArmFacts from_sysfs = arm_facts(big, file_text(big + "/proc/cpuinfo"), registers(1'920'000));
  CHECK(from_sysfs.midrs.size() == 8);
  CHECK(from_sysfs.midr_source == big + "/sys/devices/system/cpu/cpuN/regs/identification/midr_el1");

  const std::string fsl = kData + "arm64_fsl_a008585";
  const ArmFacts from_cpuinfo = arm_facts(fsl, file_text(fsl + "/proc/cpuinfo"), registers(25'000'000));
  CHECK(from_cpuinfo.midrs.size() == 4);
  CHECK(from_cpuinfo.midr_source ==
        fsl + "/proc/cpuinfo (no " + fsl + "/sys/devices/system/cpu/cpu0/regs/identification/midr_el1)");

  // Under qemu-user: the host's sysfs and an x86-64 cpuinfo; the emulated CPU answers mrs.
  ArmRegisters qemu = registers(62'500'000);
  qemu.midr = Midr{0x000f0510};
  const std::string x86 = kData + "kvm_intel_2cpu";
  const ArmFacts emulated = arm_facts(x86, file_text(x86 + "/proc/cpuinfo"), qemu);
  REQUIRE(emulated.midrs.size() == 1);
  CHECK(emulated.midrs[0] == CpuMidr{-1, Midr{0x000f0510}});
  CHECK(emulated.midr_source.rfind("mrs midr_el1 on one CPU, which the kernel (or an emulator) answers (no ", 0) == 0);
  CHECK(emulated.timer_dt_errata.state == FactState::absent);

  ArmRegisters no_cpuid = registers(62'500'000);
  no_cpuid.hwcap_cpuid = false;
  const ArmFacts unknown = arm_facts(x86, file_text(x86 + "/proc/cpuinfo"), no_cpuid);
  CHECK(unknown.midrs.empty());
  CHECK(unknown.midr_source.find("the kernel does not emulate mrs midr_el1 (no HWCAP_CPUID)") != std::string::npos);
}

TEST_CASE("aarch64: the kernel log's arch_timer lines") {
  const KernelLogFacts log = parse_kernel_log(kBigLittleLog);
  REQUIRE(log.arch_timer_mhz.has_value());
  CHECK(*log.arch_timer_mhz == Approx(1.92).epsilon(0));
  CHECK(log.arch_timer_line == "[0.000000] arch_timer: cp15 timer(s) running at 1.92MHz (phys).");
  CHECK(log.timer_workarounds == std::vector<std::string>{"ARM erratum 858921"});
  CHECK(log.cntvct_trapped_cpus == std::vector<int>{4, 5, 6, 7});
  CHECK(log.last_clocksource_switch == std::nullopt);
  CHECK_FALSE(log.tsc_mhz.has_value());

  // klogctl's raw records, and the Freescale workaround under the driver's own spelling.
  const KernelLogFacts fsl = parse_kernel_log(
      "<6>[    0.000000] arch_timer: Enabling global workaround for Freescale erratum a005858\n"
      "<6>[    0.000000] arch_timer: CPU0: Trapping CNTVCT access\n"
      "<6>[    0.000000] arch_timer: cp15 and mmio timer(s) running at 25.00MHz (phys/phys).\n"
      "<6>[    0.000000] arch_timer: CPUx: Trapping CNTVCT access\n");
  CHECK(fsl.timer_workarounds == std::vector<std::string>{"Freescale erratum a005858"});
  CHECK(fsl.cntvct_trapped_cpus == std::vector<int>{0});  // "CPUx" is not a CPU
  CHECK(fsl.arch_timer_mhz.value_or(0) == Approx(25.0).epsilon(0));
}

TEST_CASE("aarch64: the counter errata, from MIDRs, the device tree and the kernel's words") {
  const std::string big = kData + "arm64_big_little_a73";
  const ArmFacts a73 = arm_facts(big, file_text(big + "/proc/cpuinfo"), registers(1'920'000));
  const Fact<KernelLogFacts> unreadable = Fact<KernelLogFacts>::fail(FactState::unreadable, "klogctl: denied");
  std::vector<CounterErratum> e = counter_errata(a73, unreadable);
  REQUIRE(e.size() == 1);
  CHECK(e[0].id == "arm_858921");
  CHECK(e[0].name == "Cortex-A73 erratum 858921");
  CHECK(e[0].evidence == "MIDR of CPUs 4-7 (Cortex-A73)");
  e = counter_errata(a73, Fact<KernelLogFacts>::good(parse_kernel_log(kBigLittleLog)));
  REQUIRE(e.size() == 1);
  CHECK(e[0].evidence ==
        "MIDR of CPUs 4-7 (Cortex-A73); kernel log \"arch_timer: Enabling ... workaround for ARM erratum 858921\"");

  const std::string fsl = kData + "arm64_fsl_a008585";
  e = counter_errata(arm_facts(fsl, file_text(fsl + "/proc/cpuinfo"), registers(25'000'000)), unreadable);
  REQUIRE(e.size() == 1);
  CHECK(e[0].id == "fsl_a008585");
  CHECK(e[0].evidence == "device tree timer property fsl,erratum-a008585");

  e = counter_errata(arm_facts(kData + "arm64_sun50i_a64", "", registers(24'000'000)), unreadable);
  REQUIRE(e.size() == 1);
  CHECK(e[0].id == "allwinner_a64");
  CHECK(e[0].what.find("bit 10 and above roll over") != std::string::npos);

  // HiSilicon's is known by its device-tree property or the ACPI OEM table: here by the log.
  const ArmFacts n1 = arm_facts(kData + "arm64_neoverse_n1_acpi", "", registers(100'000'000));
  CHECK(counter_errata(n1, unreadable).empty());
  e = counter_errata(n1, Fact<KernelLogFacts>::good(parse_kernel_log(
                             "[0.0] arch_timer: Enabling global workaround for HiSilicon erratum 161010101\n")));
  REQUIRE(e.size() == 1);
  CHECK(e[0].id == "hisilicon_161010101");
  CHECK(e[0].evidence == "kernel log \"arch_timer: Enabling ... workaround for HiSilicon erratum 161010101\"");
}

TEST_CASE("aarch64: CNTFRQ_EL0 checked against the calibration") {
  ArmFacts a;
  a.registers = registers(25'000'000);
  TscFrequency f = choose_arm_frequency(a, calibration(25'000'100.0));  // +4 ppm
  CHECK(f.hz == Approx(25e6).epsilon(0));
  CHECK(f.source == "cntfrq_el0");
  CHECK(f.uncertainty_ppm == Approx(0).margin(0));
  CHECK(f.why ==
        "CNTFRQ_EL0, the frequency firmware programs for the system counter; the calibration against "
        "CLOCK_MONOTONIC_RAW agrees (+4 ppm)");

  // Firmware wrote 19.2 MHz; the counter runs at 24 MHz: the kernel was told otherwise.
  a.registers = registers(19'200'000);
  f = choose_arm_frequency(a, calibration(24e6));
  CHECK(f.hz == Approx(24e6));
  CHECK(f.source == "calibrated_monotonic_raw");
  CHECK(f.uncertainty_ppm == Approx(3).epsilon(0));
  CHECK(f.why.rfind("CNTFRQ_EL0 says 19200000 Hz, but the counter runs at 24000000 Hz against CLOCK_MONOTONIC_RAW "
                    "(+250000 ppm): firmware programmed CNTFRQ_EL0 wrong",
                    0) == 0);

  a.registers = registers(0);
  f = choose_arm_frequency(a, calibration(24e6));
  CHECK(f.source == "calibrated_monotonic_raw");
  CHECK(f.why == "CNTFRQ_EL0 reads 0: calibrated against CLOCK_MONOTONIC_RAW");
  f = choose_arm_frequency(a, std::nullopt);
  CHECK(f.source == "unknown");
  CHECK(f.hz == Approx(0).margin(0));
  a.registers = registers(62'500'000);
  f = choose_arm_frequency(a, std::nullopt);
  CHECK(f.source == "cntfrq_el0");
  CHECK(f.why.find("not checked (not calibrated)") != std::string::npos);
}

TEST_CASE("emulation: a binary on another architecture's kernel, by its /proc/cpuinfo") {
  const std::string x86 = file_text(kData + "kvm_intel_2cpu/proc/cpuinfo");
  const std::string arm = file_text(kData + "arm64_big_little_a73/proc/cpuinfo");
  const std::optional<std::string> qemu = emulation_evidence(CounterArch::aarch64, x86);
  REQUIRE(qemu.has_value());
  CHECK(qemu->rfind("this aarch64 binary runs on an x86-64 kernel (/proc/cpuinfo has its vendor_id lines): a "
                    "user-mode emulator such as qemu-user translates every instruction",
                    0) == 0);
  CHECK_FALSE(emulation_evidence(CounterArch::aarch64, arm).has_value());
  CHECK_FALSE(emulation_evidence(CounterArch::x86_64, x86).has_value());
  const std::optional<std::string> fex = emulation_evidence(CounterArch::x86_64, arm);
  REQUIRE(fex.has_value());
  CHECK(fex->rfind("this x86-64 binary runs on an arm64 kernel (/proc/cpuinfo has its CPU implementer lines)", 0) == 0);
  CHECK_FALSE(emulation_evidence(CounterArch::aarch64, "").has_value());
}

TEST_CASE("aarch64: the warnings, and emulated first") {
  PlatformFacts p = big_little_platform();
  const std::vector<Warning> w = platform_warnings(p);
  CHECK(codes(w) == std::vector<std::string>{"counter_erratum", "counter_trapped"});
  CHECK(w[0].message.rfind("Cortex-A73 erratum 858921: a read of the counter may return a wrong value", 0) == 0);
  CHECK(w[0].advice.find("CNTKCTL_EL1.EL0VCTEN is cleared") != std::string::npos);
  CHECK(w[1].message ==
        "the kernel traps user-space reads of CNTVCT_EL0 on CPUs 4-7 (kernel log: \"arch_timer: CPUn: Trapping "
        "CNTVCT access\")");

  p.emulation = "this aarch64 binary runs on an x86-64 kernel";
  CHECK(codes(platform_warnings(p)).front() == "emulated");

  // A wrong CNTFRQ_EL0, and the kernel keeping time with something else.
  PlatformFacts n1;
  n1.arch = CounterArch::aarch64;
  n1.arm = arm_facts(kData + "arm64_neoverse_n1_acpi", "", registers(19'200'000));
  n1.kernel_facts = read_kernel_facts(kData + "arm64_neoverse_n1_acpi");
  n1.tsc = choose_arm_frequency(n1.arm, calibration(24e6));
  const std::vector<Warning> w2 = platform_warnings(n1);
  CHECK(codes(w2) == std::vector<std::string>{"cntfrq_mismatch", "clocksource_not_arch_sys_counter"});
  CHECK(w2[1].message == "the kernel keeps time with jiffies, not arch_sys_counter (the generic timer)");
}

TEST_CASE("which variants a machine can run, by architecture and feature") {
  PlatformFacts arm;
  arm.arch = CounterArch::aarch64;
  arm.arm.registers = registers(25'000'000);
  CHECK_FALSE(variant_unsupported(ReadVariant::isb_cntvct_dep, arm).has_value());
  CHECK(variant_unsupported(ReadVariant::cntvctss, arm) ==
        "it needs FEAT_ECV's self-synchronized counter CNTVCTSS_EL0, which this CPU does not report (HWCAP2_ECV is "
        "clear in AT_HWCAP2)");
  arm.arm.registers.ecv = true;
  CHECK_FALSE(variant_unsupported(ReadVariant::cntvctss, arm).has_value());
  CHECK(variant_unsupported(ReadVariant::rdtsc, arm) ==
        "it reads the counter of x86-64, and this machine is aarch64");

  PlatformFacts x86;
  x86.cpuid.rdtscp = false;
  CHECK(variant_unsupported(ReadVariant::cntvct, x86) == "it reads the counter of aarch64, and this machine is x86-64");
  CHECK(variant_unsupported(ReadVariant::rdtscp_lfence, x86) ==
        "it needs RDTSCP, which this CPU does not report (CPUID 80000001H EDX[27])");
  CHECK_FALSE(variant_unsupported(ReadVariant::lfence_rdtsc, x86).has_value());
}

TEST_CASE("aarch64: a run's provenance") {
  PlatformFacts p = big_little_platform();
  p.host = "board";
  p.emulation = "evidence";
  Metadata meta;
  add_platform_metadata(p, meta);
  CHECK(meta.get("arch") == "aarch64");
  CHECK(meta.get("cpu_vendor") == "Arm");
  CHECK(meta.get("cpu_model") == "Arm Cortex-A53 r0p4 (MIDR 0x410fd034)");
  CHECK(meta.get("counter") == "cntvct_el0");
  CHECK(meta.get("cntfrq_hz") == "1920000");
  CHECK(meta.get("tsc_hz") == "1920000");
  CHECK(meta.get("tsc_hz_source") == "cntfrq_el0");
  CHECK(meta.get("kernel_timer_mhz") == "1.92");
  CHECK(meta.get("emulated") == "evidence");
  CHECK_FALSE(meta.get("invariant_tsc").has_value());
  CHECK_FALSE(meta.get("kernel_tsc_mhz").has_value());
}

TEST_CASE("aarch64: info's text and JSON on the big.LITTLE fixture") {
  InfoReport r;
  r.platform = big_little_platform();
  PlatformFacts& p = r.platform;
  p.host = "hikey";
  p.kernel = "6.1.0";
  r.cpus = {{0, 1, 2, 3, 4, 5, 6, 7}, {0, 1, 2, 3, 4, 5, 6, 7}, {0, 1}};
  r.quanta = {{0, {}, ""}};
  r.quanta[0].estimate.quantum_ticks = 1;
  r.quanta[0].estimate.modal_delta = 1;
  r.warnings = platform_warnings(p);

  const std::string text = test::unwrapped(info_text(r));  // whole lines, as before their wrapping
  for (const char* line : {
           "cpu 0-3             Arm Cortex-A53 r0p4 (MIDR 0x410fd034)\n",
           "cpu 4-7             Arm Cortex-A73 r0p2 (MIDR 0x410fd092)\n",
           "counter             cntvct_el0, the generic timer's virtual count (the physical count less CNTVOFF_EL2, "
           "which a hypervisor sets)\n",
           "cntfrq_el0          1920000 Hz: one tick is 520.8 ns\n",
           "cntvctss            no (HWCAP2_ECV is clear): the cntvctss variant cannot run\n",
           "counter access      trapped on CPUs 4-7: Linux clears CNTKCTL_EL1.EL0VCTEN there for a counter erratum "
           "and emulates every user-space read in its trap handler, so a read costs microseconds (\"arch_timer: CPUn: "
           "Trapping CNTVCT access\")\n",
           "clocksource         arch_sys_counter (available: arch_sys_counter)\n",
           "kernel timer        1.92 MHz (\"[0.000000] arch_timer: cp15 timer(s) running at 1.92MHz (phys).\")\n",
           "counter frequency   1.920000 MHz (cntfrq_el0, +/- 0 ppm)\n",
           "  vs kernel         +0 ppm from the kernel's 1.92 MHz (which is rounded to 10 kHz: +/- 2600 ppm)\n",
           "quantum cpu 0       1 tick (520.8 ns) (modal back-to-back delta 1, 0 % zero deltas)\n",
           "warning             counter_erratum: Cortex-A73 erratum 858921: ",
       }) {
    INFO(line);
    CHECK(text.find(line) != std::string::npos);
  }
  CHECK(text.find("counter erratum     Cortex-A73 erratum 858921: a read of the counter may return a wrong value") !=
        std::string::npos);
  // Nothing of x86-64's.
  for (const char* x86 : {"invariant tsc", "rdtscp", "cpuid 15h", "tsc unstable", "tsc_adjust"}) {
    INFO(x86);
    CHECK(text.find(x86) == std::string::npos);
  }

  const nlohmann::ordered_json j = info_json(r);
  CHECK(j["arch"] == "aarch64");
  CHECK(j["emulation"].is_null());
  CHECK(j["invariant_tsc"].is_null());
  CHECK(j["cpuid"].is_null());
  CHECK(j["cpu"]["midrs"].size() == 8);
  CHECK(j["cpu"]["midrs"][4]["part"] == 0xd09);
  CHECK(j["aarch64"]["cntfrq_hz"] == 1920000);
  CHECK(j["aarch64"]["ecv"] == false);
  CHECK(j["aarch64"]["counter_errata"][0]["id"] == "arm_858921");
  CHECK(j["tsc_hz_source"] == "cntfrq_el0");
  CHECK(j["tsc_frequency"]["kernel_mhz"] == 1.92);
  CHECK(j["kernel_facts"]["log"]["cntvct_trapped_cpus"] == "4-7");
  CHECK(j["warnings"][0]["code"] == "counter_erratum");
}

TEST_CASE("aarch64: an arch_timer line with control bytes and bytes that are not UTF-8 is kept printable") {
  const KernelLogFacts log = parse_kernel_log(
      "[0.000000] arch_timer: cp15 timer(s) running at 25.00MHz (phys).\x1b[2J\xff\n"
      "[0.000000] arch_timer: Enabling global workaround for \x07\xc3(erratum\n");
  REQUIRE(log.arch_timer_mhz.has_value());
  CHECK(log.arch_timer_line == "[0.000000] arch_timer: cp15 timer(s) running at 25.00MHz (phys).\\x1b[2J\\xff");
  CHECK(log.timer_workarounds == std::vector<std::string>{"\\x07\\xc3(erratum"});
}
