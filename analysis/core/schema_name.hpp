// The names of the tool's file schemas: "tscaudit-<kind>/<version>" ("tscaudit-run/1",
// "tscaudit-rundir/1", "tscaudit-monitor/1", ...). The tool was called tscsync before, and
// what it wrote then carries "tscsync-<kind>/<version>": the same formats under the old
// name. Readers take both, so that no evidence written by the old tool is refused
// (docs/formats.md, "Schema names").
#pragma once

#include <string>
#include <string_view>

namespace tscaudit {

inline constexpr std::string_view kSchemaPrefix = "tscaudit-";
inline constexpr std::string_view kFormerSchemaPrefix = "tscsync-";

/// `name` as this version spells it: the former prefix replaced by the current one, any
/// other name unchanged. Compare the result with the k...Schema constants.
inline std::string current_schema_name(std::string_view name) {
  if (name.starts_with(kFormerSchemaPrefix)) {
    return std::string(kSchemaPrefix) + std::string(name.substr(kFormerSchemaPrefix.size()));
  }
  return std::string(name);
}

}  // namespace tscaudit
