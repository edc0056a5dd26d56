// The last words of a command that failed: its error on stderr, and the exit code
// (core/errors.hpp) that the process returns.
#pragma once

#include <exception>
#include <iostream>
#include <ostream>

namespace tscaudit {

/// Writes `e` to `err` as "PROGRAM: error: ...", with a pointer to --help after a
/// UsageError and as "PROGRAM: unsupported: ..." for an UnsupportedError, and returns
/// exit_code_of(e).
int report_error(const char* program, const std::exception& e, std::ostream& err = std::cerr);

}  // namespace tscaudit
