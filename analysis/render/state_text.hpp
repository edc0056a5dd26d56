// `tscaudit state`: what programs that read a published state see now (docs/commands.md,
// "state"), as text and as JSON (tscaudit-state/1, docs/json.md). Pure: the state, its
// standing and the counter now in, text out.
#pragma once

#include <cstdint>
#include <string>

#include "order/published_state.hpp"

namespace tscaudit {

inline constexpr const char* kStateSchema = "tscaudit-state/1";

/// "current", "aged", "other boot", "disrupted".
const char* state_status_name(StateStatus status);

/// The answer first (the status, and why when not current; the check's verdict and bound;
/// when published, how long ago, for how long valid), then the facts of the moment and one
/// line per CPU: its band then, its drift band, and its band at `counter_now` (the widening
/// a program sees now; no such column when `have_counter` is false). Every line within 100
/// columns. `path` names the file.
std::string state_text(const std::string& path, const PublishedState& state, const StateStanding& standing,
                       bool have_counter, std::uint64_t counter_now);

/// The same as JSON (tscaudit-state/1), indented, with a final line end.
std::string state_json(const std::string& path, const PublishedState& state, const StateStanding& standing,
                       bool have_counter, std::uint64_t counter_now);

}  // namespace tscaudit
