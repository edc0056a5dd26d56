// The last words of a command that failed: its error on stderr, and the exit code
// (core/errors.hpp) that the process returns.
#pragma once

#include <exception>
#include <iostream>
#include <ostream>
#include <string>
#include <string>

namespace tscaudit {

/// Writes `e` to `err` as "PROGRAM: error: ...", with a pointer to --help after a
/// UsageError and as "PROGRAM: unsupported: ..." for an UnsupportedError, and returns
/// exit_code_of(e).
int report_error(const char* program, const std::exception& e, std::ostream& err = std::cerr);

/// A note, warning or problem on standard error, one line of text with no line end: wrapped
/// at 100 columns as all text output is (docs/commands.md, "Conventions").
void print_note(const std::string& line);

}  // namespace tscaudit
