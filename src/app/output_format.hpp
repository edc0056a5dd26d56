// What a command prints its results as (--format): a choice of the command line, which the
// commands turn into one renderer or another (analysis/render). Nothing below the
// application needs it.
#pragma once

namespace tscaudit {

/// text, json or csv (docs/commands.md: the commands that take --format, and which of them
/// take csv).
enum class OutputFormat { text, json, csv };

}  // namespace tscaudit
