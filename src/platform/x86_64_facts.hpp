// x86-64's CPU facts: what CPUID says about the TSC, and the TSC frequency chosen from
// them. The struct and the decisions are pure and compiled on every architecture (so the
// tests hold them on any machine); read_cpuid() is x86-64's alone (x86_64_cpuid.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "platform/frequency.hpp"

namespace tscaudit {

struct CpuidFacts {
  std::string vendor;   // "GenuineIntel", "AuthenticAMD"
  std::string brand;    // brand string, trimmed
  unsigned family = 0;  // display family
  unsigned model = 0;   // display model
  unsigned stepping = 0;
  unsigned max_basic_leaf = 0;            // CPUID 0 EAX
  bool invariant_tsc = false;             // CPUID 80000007H EDX[8]
  bool rdtscp = false;                    // CPUID 80000001H EDX[27]
  bool tsc_adjust = false;                // CPUID 7.0 EBX[1]: IA32_TSC_ADJUST (MSR 3BH) exists
  bool tsc_deadline = false;              // CPUID 1 ECX[24]: APIC timer in TSC-deadline mode
  std::optional<std::string> hypervisor;  // CPUID 40000000H signature, when CPUID 1 ECX[31]
  unsigned max_hypervisor_leaf = 0;       // CPUID 40000000H EAX, when a hypervisor is present
  // CPUID 15H, raw (all 0 when the leaf is beyond max_basic_leaf): TSC = crystal * b / a.
  unsigned leaf15_denominator = 0;   // EAX
  unsigned leaf15_numerator = 0;     // EBX
  unsigned leaf15_crystal_hz = 0;    // ECX; 0 when the crystal is not enumerated
  std::uint64_t crystal_tsc_hz = 0;  // CPUID 15H ECX*EBX/EAX when all are non-zero
  // CPUID 16H (Intel), MHz; all 0 when not offered. Marketing figures, not the TSC rate.
  unsigned base_mhz = 0;                // EAX[15:0]
  unsigned max_mhz = 0;                 // EBX[15:0]
  unsigned bus_mhz = 0;                 // ECX[15:0]
  std::uint64_t hypervisor_tsc_hz = 0;  // CPUID 40000010H EAX (kHz) * 1000 when offered
};

/// Reads the CPUID facts of the CPU the caller runs on. x86-64 only (x86_64_cpuid.cpp).
CpuidFacts read_cpuid();

/// The frequency leaves in words, for `info`. Pure. "not offered (...)" when the leaf says
/// nothing: beyond the highest leaf, or zero.
std::string describe_leaf_15h(const CpuidFacts& cpuid);
std::string describe_leaf_16h(const CpuidFacts& cpuid);
std::string describe_leaf_40000010h(const CpuidFacts& cpuid);

/// CPUID 15H when it enumerates the frequency (the hardware's own crystal ratio), else
/// the hypervisor leaf 40000010H, else the calibration. Pure.
TscFrequency choose_tsc_frequency(const CpuidFacts& cpuid, const std::optional<Calibration>& calibration);

}  // namespace tscaudit
