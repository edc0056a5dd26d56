// The kernel log's TSC events (core/kernel_tsc.hpp) as JSON, the writer and its reader side
// by side: info.json carries them in kernel_facts.log (docs/json.md, "Info"), and a
// report rebuilt from an earlier report reads them back from its info.json.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "core/kernel_tsc.hpp"

namespace tscaudit {

/// The words of an event (render/kernel_tsc_text.hpp's kernel_tsc_event_text), which the
/// JSON carries beside its data for a person reading it; the reader does not read them.
using KernelTscEventWords = std::string (*)(const KernelTscEvent&);

/// The events as an array of objects: kind, cpu, other_cpu (null where not named), cpus
/// (taskset syntax, "" where none), value, value2, reason (null where the kind has none),
/// timestamp_s (null when not stamped), lines, text (`words` of the event).
nlohmann::ordered_json kernel_tsc_events_json(const KernelTscLog& log, KernelTscEventWords words);

/// The events of kernel_tsc_events_json read back, with `left_out`; an element that is not
/// such an object (an unknown kind, a field of the wrong type) is left out and counted.
KernelTscLog kernel_tsc_log_from_json(const nlohmann::json& events, std::size_t left_out);

/// The kernel log's TSC events that an info.json (`info_json`, read from `path`) recorded in
/// kernel_facts.log: tsc_events, with tsc_events_left_out (0 where absent or not a whole
/// number); nullopt where it recorded none (its log unreadable, or an info.json from before
/// they were recorded) or the text is not JSON.
/// \throws InputError "PATH:LINE:COLUMN: nested deeper than 64" (check_json_depth).
std::optional<KernelTscLog> kernel_tsc_from_info_json(std::string_view info_json, const std::string& path);

}  // namespace tscaudit
