// The kernel log's TSC events (core/kernel_tsc.hpp) in words, and as JSON both ways: `info`
// shows them, its JSON carries them, and a report rebuilt from an earlier report's
// info.json reads them back. Pure.
#pragma once

#include <nlohmann/json.hpp>
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

/// The events as an array of objects: kind, cpu, other_cpu (null where not named), cpus
/// (taskset syntax, "" where none), value, value2, reason (null where the kind has none),
/// timestamp_s (null when not stamped), lines, text (kernel_tsc_event_text).
nlohmann::ordered_json kernel_tsc_events_json(const KernelTscLog& log);

/// The events of kernel_tsc_events_json read back, with `left_out`; an element that is not
/// such an object (an unknown kind, a field of the wrong type) is left out and counted.
KernelTscLog kernel_tsc_log_from_json(const nlohmann::json& events, std::size_t left_out);

}  // namespace tscaudit
