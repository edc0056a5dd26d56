// The counter's frequency and where it came from, and the calibration that checks it:
// the types the architectures' fact files (x86_64_facts.hpp, aarch64_facts.hpp) choose
// from. Pure declarations; the calibration itself is measured by platform.hpp.
#pragma once

#include <optional>
#include <string>

#include "estimate/clock_fit.hpp"

namespace tscaudit {

/// The clocks the counter can be calibrated against.
enum class CalibrationClock {
  monotonic_raw,  // CLOCK_MONOTONIC_RAW: the clocksource scaled by the kernel's own
                  // frequency, never slewed. With clocksource tsc (or arch_sys_counter) it
                  // is derived from the counter itself, so this reproduces the kernel's
                  // figure (to its mult/shift rounding), not an independent one.
  realtime,       // CLOCK_REALTIME: slewed by NTP (adjtimex) towards an outside reference,
                  // and stepped when someone sets the time (a step spoils the fit)
};
const char* clock_name(CalibrationClock clock);  // "CLOCK_MONOTONIC_RAW", "CLOCK_REALTIME"

/// The counter's rate against one clock: least squares over paired readings (clock_fit.hpp).
struct Calibration {
  CalibrationClock clock = CalibrationClock::monotonic_raw;
  int cpu = -1;  // the CPU every reading was taken on; -1: pinning failed, unpinned
  RateFit fit;   // valid: rate, its standard error and the first/last bracket bound
  [[nodiscard]] double hz() const { return fit.ticks_per_ns * 1e9; }
};

/// The frequency of the counter the variants read: the TSC's on x86-64, CNTVCT_EL0's on
/// aarch64 (the runs call it tsc_hz on both).
struct TscFrequency {
  double hz = 0;                           // 0 when nothing gave it
  std::string source;                      // cpuid_15h | cpuid_40000010h | cntfrq_el0 |
                                           // calibrated_monotonic_raw | unknown
  double uncertainty_ppm = 0;              // 15h, cntfrq_el0: 0; 40000010h: kHz rounding; calibrated:
                                           // the hard bound of the first and last brackets (see RateFit)
  std::string why;                         // why this source: what the better ones said
  std::optional<Calibration> calibration;  // against CLOCK_MONOTONIC_RAW, when one was made
};

/// (hz - kernel) / kernel in ppm, for hz against the kernel's "Detected X MHz" figure.
inline double ppm_from(double hz, double kernel_mhz) { return (hz / (kernel_mhz * 1e6) - 1) * 1e6; }

}  // namespace tscaudit
