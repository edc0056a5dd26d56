// Platform facts a run carries as provenance: CPU, TSC features, hypervisor, kernel,
// clocksource, and the TSC frequency with where it came from.
// CPUID lives here (and nowhere else); what /proc and /sys say is read by kernel_facts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "estimate/clock_fit.hpp"
#include "platform/kernel_facts.hpp"

namespace tscsync {

class Metadata;

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

/// Reads the CPUID facts of the CPU the caller runs on.
CpuidFacts read_cpuid();

/// The frequency leaves in words, for `info`. Pure. "not offered (...)" when the leaf says
/// nothing: beyond the highest leaf, or zero.
std::string describe_leaf_15h(const CpuidFacts& cpuid);
std::string describe_leaf_16h(const CpuidFacts& cpuid);
std::string describe_leaf_40000010h(const CpuidFacts& cpuid);

/// The clocks the TSC can be calibrated against.
enum class CalibrationClock {
  monotonic_raw,  // CLOCK_MONOTONIC_RAW: the clocksource scaled by the kernel's own
                  // frequency, never slewed. With clocksource tsc it is derived from the
                  // TSC itself, so this reproduces the kernel's figure (to its mult/shift
                  // rounding), not an independent one.
  realtime,       // CLOCK_REALTIME: slewed by NTP (adjtimex) towards an outside reference,
                  // and stepped when someone sets the time (a step spoils the fit)
};
const char* clock_name(CalibrationClock clock);  // "CLOCK_MONOTONIC_RAW", "CLOCK_REALTIME"

/// The TSC rate against one clock: least squares over paired readings (clock_fit.hpp).
struct Calibration {
  CalibrationClock clock = CalibrationClock::monotonic_raw;
  int cpu = -1;  // the CPU every reading was taken on; -1: pinning failed, unpinned
  RateFit fit;   // valid: rate, its standard error and the first/last bracket bound
  [[nodiscard]] double hz() const { return fit.ticks_per_ns * 1e9; }
};

/// Takes `samples` readings spread evenly over `window_ms` on a thread pinned to the
/// CPU the caller runs on, each the narrowest (lfence;rdtsc;lfence, clock_gettime,
/// lfence;rdtsc;lfence) bracket of `tries`, and fits them. Sleeps about window_ms.
Calibration calibrate_tsc(CalibrationClock clock, int window_ms, int samples = 50, int tries = 16);

/// The kernel's NTP state (adjtimex with no change): how CLOCK_REALTIME is disciplined.
struct NtpState {
  bool readable = false;
  bool synchronized = false;  // not TIME_ERROR: something (ntpd, chrony) steers the clock
  double frequency_ppm = 0;   // the frequency correction applied to CLOCK_REALTIME
  std::string problem;        // why not readable
};
NtpState read_ntp_state();

struct TscFrequency {
  double hz = 0;                           // 0 when nothing gave it
  std::string source;                      // cpuid_15h | cpuid_40000010h | calibrated_monotonic_raw | unknown
  double uncertainty_ppm = 0;              // 15h: 0; 40000010h: kHz rounding; calibrated: the hard
                                           // bound of the first and last brackets (see RateFit)
  std::string why;                         // why this source: what the better ones said
  std::optional<Calibration> calibration;  // against CLOCK_MONOTONIC_RAW, when one was made
};

/// CPUID 15H when it enumerates the frequency (the hardware's own crystal ratio), else
/// the hypervisor leaf 40000010H, else the calibration. Pure.
TscFrequency choose_tsc_frequency(const CpuidFacts& cpuid, const std::optional<Calibration>& calibration);

/// choose_tsc_frequency with a calibration over `calibration_ms` when no leaf gives the
/// frequency, or always when `always_calibrate` (to show both).
TscFrequency tsc_frequency(const CpuidFacts& cpuid, int calibration_ms = 200, bool always_calibrate = false);

/// (hz - kernel) / kernel in ppm, for hz against the kernel's "Detected X MHz" figure.
inline double ppm_from(double hz, double kernel_mhz) { return (hz / (kernel_mhz * 1e6) - 1) * 1e6; }

struct PlatformFacts {
  CpuidFacts cpuid;
  std::string host;
  std::string kernel;       // uname -r and -v
  std::string clocksource;  // current_clocksource, "" if unreadable
  TscFrequency tsc;
  KernelFacts kernel_facts;  // /proc, /sys and the kernel log
};

/// Everything above. Takes about `calibration_ms` when no CPUID leaf gives the frequency
/// (always, with `always_calibrate`).
PlatformFacts probe_platform(int calibration_ms = 200, bool always_calibrate = false);

/// Adds the facts as `# key: value` provenance.
void add_platform_metadata(const PlatformFacts& facts, Metadata& meta);

}  // namespace tscsync
