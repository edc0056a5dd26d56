// The kernel log's lines that each architecture's code prints, read one line at a time by
// parse_kernel_log (kernel_log.cpp). Both are pure and built everywhere: a log of either
// architecture reads the same on any machine.
#pragma once

#include <string_view>

#include "platform/kernel_facts.hpp"

namespace tscaudit {

/// x86-64 (x86_64_kernel_log.cpp): the TSC's lines of one normalized log line, into `f`:
/// the first line that marks the TSC unstable, and the TSC frequency from the best source
/// seen so far. `mhz_rank` carries that source from line to line: 0 none yet, 1 "tsc:
/// Detected X MHz processor", 2 "tsc: Detected X MHz TSC", 3 "Refined TSC clocksource
/// calibration: X MHz"; a later line of the same or a better source wins.
void parse_tsc_log_line(std::string_view line, KernelLogFacts& f, int& mhz_rank);

/// aarch64 (aarch64_kernel_log.cpp): a line of Linux's arch_timer driver, "... arch_timer:
/// REST", into `f`: the frequency banner, the errata workarounds enabled, the CPUs whose
/// CNTVCT reads are trapped. Other lines leave `f` as it is.
void parse_arch_timer_log_line(std::string_view line, KernelLogFacts& f);

}  // namespace tscaudit
