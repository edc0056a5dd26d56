// aarch64's CPU facts: which cores these are (MIDR_EL1), the generic timer's frequency
// (CNTFRQ_EL0) and self-synchronized view (FEAT_ECV), the counter errata Linux works
// around, and the counter frequency chosen from them. Everything here is pure or reads
// files under a root directory, and is compiled on every architecture, so the tests hold
// it on x86-64 with fixture strings and trees; the registers themselves are read by
// aarch64_registers.cpp, built on aarch64 only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "platform/frequency.hpp"
#include "platform/kernel_facts.hpp"

namespace tscaudit {

/// MIDR_EL1, the Main ID Register: who made the core and which it is.
struct Midr {
  std::uint64_t value = 0;
  [[nodiscard]] unsigned implementer() const { return static_cast<unsigned>((value >> 24) & 0xff); }
  [[nodiscard]] unsigned variant() const { return static_cast<unsigned>((value >> 20) & 0xf); }  // the rN of rNpM
  [[nodiscard]] unsigned architecture() const { return static_cast<unsigned>((value >> 16) & 0xf); }
  [[nodiscard]] unsigned part() const { return static_cast<unsigned>((value >> 4) & 0xfff); }
  [[nodiscard]] unsigned revision() const { return static_cast<unsigned>(value & 0xf); }  // the pM
};

/// The implementer's name ("Arm", "Ampere", "Apple", ...), "" when the table lacks it.
std::string_view midr_implementer_name(unsigned implementer);
/// The part's name ("Neoverse N1", "Cortex-A73", ...), "" when the table lacks it.
std::string_view midr_part_name(unsigned implementer, unsigned part);
/// "Arm Neoverse N1 r3p1 (MIDR 0x413fd0c1)"; an unknown implementer or part by its number
/// ("implementer 0x6d part 0x012 r0p0 (MIDR ...)").
std::string describe_midr(Midr midr);

/// The MIDR of one CPU.
struct CpuMidr {
  int cpu = 0;
  Midr midr;
  friend bool operator==(const CpuMidr& a, const CpuMidr& b) { return a.cpu == b.cpu && a.midr.value == b.midr.value; }
};

/// The MIDR of every CPU the kernel lists in ROOT/sys/devices/system/cpu/cpuN/regs/
/// identification/midr_el1 (Linux on arm64, since 4.11). Absent without the files (an
/// older kernel, or x86-64's /sys under an emulator).
Fact<std::vector<CpuMidr>> read_sysfs_midrs(const std::string& root = "/");

/// The MIDR of every processor of arm64 /proc/cpuinfo text ("CPU implementer", "CPU
/// variant", "CPU part", "CPU revision"; the architecture field is 0xf, "defined by the
/// ID registers", as on every Armv8 core). Absent when the text has no such lines (an x86
/// kernel's cpuinfo); malformed when a processor lacks one or a value is not a number.
Fact<std::vector<CpuMidr>> parse_cpuinfo_midrs(std::string_view text, const std::string& path);

/// The erratum properties of the device tree's timer node, the ones Linux's arch_timer
/// driver acts on (fsl,erratum-a008585, hisilicon,erratum-161010101,
/// allwinner,erratum-unknown1), found in ROOT/proc/device-tree/timer or timer@*. Absent
/// where there is no device tree (ACPI machines, x86-64); an empty list where the timer
/// node has none.
Fact<std::vector<std::string>> read_timer_dt_errata(const std::string& root = "/");

/// What the CPU registers and the kernel's auxiliary vector say (aarch64_registers.cpp).
struct ArmRegisters {
  bool read = false;               // false: not read (not on aarch64)
  std::uint64_t cntfrq_hz = 0;     // CNTFRQ_EL0, as firmware programmed it
  bool hwcap_cpuid = false;        // HWCAP_CPUID: the kernel emulates MRS of the ID registers
  std::optional<Midr> midr;        // MIDR_EL1 of the CPU that read it, through that emulation
  bool ecv = false;                // HWCAP2_ECV: FEAT_ECV, CNTVCTSS_EL0 readable at EL0
  std::uint64_t hwcap = 0;         // getauxval(AT_HWCAP)
  std::uint64_t hwcap2 = 0;        // getauxval(AT_HWCAP2)
};

/// HWCAP2_ECV of Linux's arch/arm64/include/uapi/asm/hwcap.h (bit 19), and HWCAP_CPUID
/// (bit 11): written here for C libraries whose headers predate them.
inline constexpr std::uint64_t kHwcap2Ecv = std::uint64_t{1} << 19;
inline constexpr std::uint64_t kHwcapCpuid = std::uint64_t{1} << 11;

/// The aarch64 CPU facts of a PlatformFacts.
struct ArmFacts {
  ArmRegisters registers;
  /// Every CPU's MIDR, from the best source there is: sysfs, else /proc/cpuinfo, else the
  /// trapped and answered MRS of the one CPU that read it (then with cpu -1).
  std::vector<CpuMidr> midrs;
  std::string midr_source;  // where they came from, or why there are none
  Fact<std::vector<std::string>> timer_dt_errata;
};

/// Combines the sources (sysfs, /proc/cpuinfo text, the registers) into ArmFacts. Pure
/// but for reading files under `root`.
ArmFacts arm_facts(const std::string& root, std::string_view cpuinfo_text, const ArmRegisters& registers);

/// A counter erratum Linux works around, found on this machine.
struct CounterErratum {
  std::string id;        // stable identifier: arm_858921, hisilicon_161010101, fsl_a008585, allwinner_a64
  std::string name;      // "Cortex-A73 erratum 858921"
  std::string what;      // what the counter does wrong
  std::string evidence;  // where it was seen: the MIDR of CPUs ..., the device tree, the kernel log
};

/// The counter errata Linux's arch_timer driver works around, from the MIDRs (Cortex-A73:
/// 858921, all revisions), the device tree's timer properties and the kernel's own words
/// ("arch_timer: Enabling global workaround for ..."). In the order of the table; each
/// once, with every piece of evidence.
std::vector<CounterErratum> counter_errata(const ArmFacts& arm, const Fact<KernelLogFacts>& log);

/// CNTFRQ_EL0 and a calibration against CLOCK_MONOTONIC_RAW disagreeing by more than this
/// means firmware programmed CNTFRQ_EL0 wrong (and the kernel took its rate from elsewhere,
/// the device tree's clock-frequency).
inline constexpr double kCntfrqTolerancePpm = 1000;

/// CNTFRQ_EL0 when it is set and the calibration (when there is one) agrees within
/// kCntfrqTolerancePpm; else the calibration; else unknown. Pure.
TscFrequency choose_arm_frequency(const ArmFacts& arm, const std::optional<Calibration>& calibration);

}  // namespace tscaudit
