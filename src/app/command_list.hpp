// The commands, once: each one's name, its one-line summary and its place in the order
// `tscaudit --help` lists them (docs/commands.md, "Conventions": the order people use them
// in). The parser (cli.cpp), the help, main's dispatch and the generated reference (the man
// page, docs/commands.md, the shells' completions: cli_reference.hpp) all read this table.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include "app/command.hpp"

namespace tscaudit::cli {

struct CommandEntry {
  std::string_view name;
  std::string_view summary;  // one line of the top-level help
  /// The alternative of Command that the command's option table builds.
  std::size_t alternative;
  /// Runs the command on its options (`command` holds that alternative); the exit code.
  int (*run)(const Command& command);
};

/// report first (the main job, everything at once), check (the answer for scripts), compare
/// (whether two runs differ), state (what programs see of the published table), info
/// (the platform, the first thing to look at when an answer surprises), variants and matrix
/// (the two halves of a report, one at a time), monitor (one pair for hours), then the tools
/// behind them: measure one pair, analyze what was saved, simulate input.
const std::array<CommandEntry, 11>& command_list();

/// The entry named `name`, or nullptr.
const CommandEntry* find_command(std::string_view name);

/// The entry whose options `command` holds, or nullptr (Printed).
const CommandEntry* command_entry_of(const Command& command);

}  // namespace tscaudit::cli
