// The command line: one table of options per command, parsed into plain structs.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "app/cli_values.hpp"
#include "app/command.hpp"
#include "render/text_wrap.hpp"

namespace tscaudit::cli {

/// Parses argv. Prints --help and --version itself (returning Printed).
/// \throws UsageError with a message naming the option and the value at fault.
Command parse(const std::vector<std::string>& args);

/// The subcommand that args (args[0] the program) name, or "" when none: for the hint
/// that follows an error, "see 'tscaudit check --help'".
std::string command_of(const std::vector<std::string>& args);

/// The help `tscaudit [COMMAND] --help` prints (COMMAND "" for the top level), laid out for
/// `width` columns (the tests compare it with a layout too wide to wrap).
std::string help_text(const std::string& command, std::size_t width = kTextColumns);

/// One option as its command's table registers it: what `--help` prints of it, in parts.
struct OptionDoc {
  std::string name;           // "--budget"; a positional's placeholder ("FILE")
  std::string placeholder;    // what it takes ("SECONDS"); empty for a flag
  std::string description;    // without the default
  std::string default_value;  // "90s"; empty when it has none
  bool positional = false, required = false, repeatable = false;
  /// Whether the option takes a value (the word after it): what a completion offers there.
  [[nodiscard]] bool takes_value() const { return !placeholder.empty(); }
};

/// One command: its name and summary (the command list's), the usage line's arguments, and
/// its options in the order `--help` lists them (--help itself left out).
struct CommandDoc {
  std::string name, summary;
  std::vector<OptionDoc> options;
};

/// Every command of the command list, in its order: what the reference parts of the man
/// page, docs/commands.md and the shells' completions are generated from (cli_reference.hpp).
std::vector<CommandDoc> command_docs();

}  // namespace tscaudit::cli
