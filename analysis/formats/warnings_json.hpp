// The platform warnings as JSON (docs/formats.md: info.json's and matrix.json's `warnings`,
// a run directory's manifest's `platform.warnings`): [{"code", "message", "advice"}]. The
// writer and its reader side by side.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "core/warning.hpp"

namespace tscaudit {

/// `warnings` in order, each {"code", "message", "advice"}.
nlohmann::ordered_json warnings_json(const std::vector<Warning>& warnings);

/// The warnings of warnings_json read back, each field made printable (printable_text: a
/// manifest is repeated in messages and reports whatever it holds). Not an array: none. An
/// element that is not an object, or a field that is missing or not a string, reads as "".
std::vector<Warning> warnings_from_json(const nlohmann::ordered_json& j);

}  // namespace tscaudit
