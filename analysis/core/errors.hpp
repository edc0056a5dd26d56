// Error kinds that map to the documented exit codes (docs/commands.md, "Exit codes"):
//   UsageError 2, InputError 2 (a file names line and column), IoError 3,
//   RuntimeError 3, UnsupportedError 4.
#pragma once

#include <stdexcept>
#include <string>

namespace tscaudit {

inline constexpr int kExitOk = 0;
inline constexpr int kExitCheckFailed = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitRuntime = 3;
inline constexpr int kExitUnsupported = 4;
inline constexpr int kExitInconclusive = 5;  // check: every pair passes, but not proven tightly enough

/// A command line the user got wrong (bad option value, bad CPU, bad variant).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A file the user gave us that we cannot read as what it claims to be, or cannot open at
/// all (missing, a directory, no permission).
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Output that could not be written; a read that failed once its file was open.
struct IoError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The run itself failed: a partner stopped answering, pinning failed midway.
struct RuntimeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The machine cannot do what was asked (no RDTSCP, not x86-64).
struct UnsupportedError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace tscaudit

namespace tscaudit {

/// The exit code of an error that ends a command: UsageError and InputError 2,
/// UnsupportedError 4, anything else (IoError, RuntimeError, bad_alloc ...) 3. Writing
/// the message is the application's (src/app/report_error.hpp).
int exit_code_of(const std::exception& e);

/// The system's words for errno value `err` (strerror), for messages.
std::string errno_text(int err);

}  // namespace tscaudit
