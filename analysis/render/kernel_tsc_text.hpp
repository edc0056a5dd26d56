// The kernel log's TSC events (core/kernel_tsc.hpp) in words: `info` shows them, and its
// JSON carries them beside their data (formats/kernel_tsc_json.hpp). Pure.
#pragma once

#include <string>
#include <vector>

#include "core/kernel_tsc.hpp"

namespace tscaudit {

/// "CPU 5" or "CPUs 2-3,7" (taskset syntax).
std::string cpus_phrase(const std::vector<int>& cpus);

/// What the event says, in a sentence without its end: "the kernel measured 1482 cycles of
/// TSC warp between CPU 0 and CPU 5 when it brought CPU 5 up, and turned the TSC
/// clocksource off".
std::string kernel_tsc_event_text(const KernelTscEvent& e);

/// The event's lines, each in double quotes, separated by a space.
std::string kernel_tsc_event_quote(const KernelTscEvent& e);

/// The event's text, then ": " and its quoted lines where it has any.
std::string kernel_tsc_event_line(const KernelTscEvent& e);

}  // namespace tscaudit
