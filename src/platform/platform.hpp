// Platform facts a run carries as provenance: the architecture and its CPU facts (CPUID on
// x86-64, MIDR_EL1, CNTFRQ_EL0 and the counter errata on aarch64), the kernel, the
// clocksource, emulation, and the counter's frequency with where it came from. The
// architectures' facts are in x86_64_facts.hpp and aarch64_facts.hpp (pure, compiled
// everywhere); their registers are read by x86_64_cpuid.cpp or aarch64_registers.cpp, the
// one of the two this binary is built with. What /proc and /sys say is read by kernel_facts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/read_variant.hpp"
#include "platform/aarch64_facts.hpp"
#include "platform/frequency.hpp"
#include "platform/kernel_facts.hpp"
#include "platform/x86_64_facts.hpp"

namespace tscaudit {

class Metadata;

/// Takes `samples` readings spread evenly over `window_ms` on a thread pinned to the
/// CPU the caller runs on, each the narrowest (counter::BracketRead, clock_gettime,
/// counter::BracketRead) bracket of `tries`, and fits them. Sleeps about window_ms.
Calibration calibrate_tsc(CalibrationClock clock, int window_ms, int samples = 50, int tries = 16);

/// The kernel's NTP state (adjtimex with no change): how CLOCK_REALTIME is disciplined.
struct NtpState {
  bool readable = false;
  bool synchronized = false;  // not TIME_ERROR: something (ntpd, chrony) steers the clock
  double frequency_ppm = 0;   // the frequency correction applied to CLOCK_REALTIME
  std::string problem;        // why not readable
};
NtpState read_ntp_state();

struct PlatformFacts {
  CounterArch arch = CounterArch::x86_64;  // the architecture this binary runs as
  CpuidFacts cpuid;                        // x86-64 only
  ArmFacts arm;                            // aarch64 only
  std::string host;
  std::string kernel;                      // uname -r and -v
  std::string clocksource;                 // current_clocksource, "" if unreadable
  TscFrequency tsc;                        // the counter's frequency (the TSC's, or CNTVCT_EL0's)
  KernelFacts kernel_facts;                // /proc, /sys and the kernel log
  std::optional<std::string> emulation;    // the evidence of a user-mode emulator (emulation.hpp)
};

/// The CPU facts of the machine this runs on: the architecture and `cpuid` (x86-64) or
/// `arm` (aarch64). Cheap: no calibration. Defined by the architecture's register file.
void read_cpu_facts(PlatformFacts& facts);

/// The counter's frequency chosen from the facts of `facts.arch` and the calibration:
/// choose_tsc_frequency or choose_arm_frequency. Pure.
TscFrequency choose_counter_frequency(const PlatformFacts& facts, const std::optional<Calibration>& calibration);

/// choose_counter_frequency with a calibration over `calibration_ms` when the CPU facts do
/// not give the frequency, always on aarch64 (to check CNTFRQ_EL0), and always when
/// `always_calibrate` (to show both).
TscFrequency counter_frequency(const PlatformFacts& facts, int calibration_ms = 200, bool always_calibrate = false);

/// Everything above. Takes about `calibration_ms` when the CPU facts do not give the
/// frequency, on aarch64, or with `always_calibrate`.
PlatformFacts probe_platform(int calibration_ms = 200, bool always_calibrate = false);

/// Why this machine cannot execute `v`: another architecture's read, an rdtscp variant
/// without RDTSCP, cntvctss without FEAT_ECV; nullopt when it can. Pure.
std::optional<std::string> variant_unsupported(ReadVariant v, const PlatformFacts& facts);

/// variant_unsupported of this machine's CPU facts (read_cpu_facts).
std::optional<std::string> variant_unsupported_here(ReadVariant v);

/// Adds the facts as `# key: value` provenance.
void add_platform_metadata(const PlatformFacts& facts, Metadata& meta);

}  // namespace tscaudit
