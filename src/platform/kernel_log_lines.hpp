// The kernel log's lines that each architecture's code prints, read one line at a time by
// parse_kernel_log (kernel_log.cpp). Both are pure and built everywhere: a log of either
// architecture reads the same on any machine.
#pragma once

#include <optional>
#include <string_view>

#include "platform/kernel_facts.hpp"

namespace tscaudit {

/// What parse_tsc_log_line carries from one line to the next.
struct TscLogState {
  /// The source of the TSC frequency so far: 0 none yet, 1 "tsc: Detected X MHz processor",
  /// 2 "tsc: Detected X MHz TSC", 3 "Refined TSC clocksource calibration: X MHz"; a later
  /// line of the same or a better source wins.
  int mhz_rank = 0;
  /// The first line of a warp ("TSC synchronization [CPU#S -> CPU#T]:") waiting for its
  /// second ("Measured N cycles TSC warp ...").
  std::optional<KernelTscEvent> warp;
};

/// x86-64 (x86_64_kernel_log.cpp): the TSC's lines of one normalized log line ("[0.5] text"
/// or "text"; `stamp_s` its timestamp) into `f`: the first line that marks the TSC
/// unstable, the TSC frequency from the best source seen so far, and the kernel's TSC
/// events (f.tsc_events).
void parse_tsc_log_line(std::string_view line, std::optional<double> stamp_s, KernelLogFacts& f, TscLogState& state);

/// After the last line: a warp's first line still waiting for its second becomes a warp
/// without its cycles.
void finish_tsc_log(KernelLogFacts& f, TscLogState& state);

/// aarch64 (aarch64_kernel_log.cpp): a line of Linux's arch_timer driver, "... arch_timer:
/// REST", into `f`: the frequency banner, the errata workarounds enabled, the CPUs whose
/// CNTVCT reads are trapped. Other lines leave `f` as it is.
void parse_arch_timer_log_line(std::string_view line, KernelLogFacts& f);

}  // namespace tscaudit
