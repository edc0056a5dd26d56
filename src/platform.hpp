// Platform facts a run carries as provenance: CPU, TSC features, hypervisor, kernel,
// clocksource, and the TSC frequency with where it came from.
// CPUID lives here (and nowhere else); sysfs reads take a root for fixtures.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tscsync {

class Metadata;

struct CpuidFacts {
  std::string vendor;          // "GenuineIntel", "AuthenticAMD"
  std::string brand;           // brand string, trimmed
  unsigned family = 0;         // display family
  unsigned model = 0;          // display model
  unsigned stepping = 0;
  bool invariant_tsc = false;  // CPUID 80000007H EDX[8]
  bool rdtscp = false;         // CPUID 80000001H EDX[27]
  std::optional<std::string> hypervisor;  // CPUID 40000000H signature, when CPUID 1 ECX[31]
  std::uint64_t crystal_tsc_hz = 0;       // CPUID 15H ECX*EBX/EAX when all are non-zero
  std::uint64_t hypervisor_tsc_hz = 0;    // CPUID 40000010H EAX (kHz) * 1000 when offered
};

/// Reads the CPUID facts of the CPU the caller runs on.
CpuidFacts read_cpuid();

struct TscFrequency {
  double hz = 0;
  std::string source;            // cpuid_15h | cpuid_40000010h | calibrated_monotonic_raw
  double uncertainty_ppm = 0;    // one-sided bound of the bracketing error (0 if unknown)
};

/// CPUID 15H when valid, else the hypervisor leaf, else a calibration against
/// CLOCK_MONOTONIC_RAW over `calibration_ms`: the narrowest (rdtsc, clock, rdtsc)
/// bracket of several at each end. Note: when the clocksource is tsc that clock is
/// itself derived from the TSC by the kernel, so the calibration reproduces the kernel's
/// own figure (ppm level) rather than an independent one.
TscFrequency tsc_frequency(const CpuidFacts& cpuid, int calibration_ms = 200);

struct PlatformFacts {
  CpuidFacts cpuid;
  std::string host;
  std::string kernel;       // uname -r and -v
  std::string clocksource;  // current_clocksource, "" if unreadable
  TscFrequency tsc;
};

/// Everything above. Takes about `calibration_ms` when no CPUID leaf gives the frequency.
PlatformFacts probe_platform(int calibration_ms = 200);

/// Adds the facts as `# key: value` provenance.
void add_platform_metadata(const PlatformFacts& facts, Metadata& meta);

/// Reads the first line of a small text file, without its newline; nullopt if unreadable.
std::optional<std::string> read_first_line(const std::string& path);

}  // namespace tscsync
