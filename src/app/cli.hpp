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

}  // namespace tscaudit::cli
