// `tscaudit state [FILE]`: what programs that read the published state see now (docs/
// commands.md, "state"): its status against the machine now, the check it holds, and each
// CPU's band then and now.
#pragma once

#include <string>

#include "app/output_format.hpp"

namespace tscaudit {

struct StateOptions {
  std::string file;  // the state file; the default path (TSCAUDIT_STATE_PATH) when not given
  OutputFormat format = OutputFormat::text;
};

/// The default path of the published state: where the shipped timer publishes and where
/// libtscaudit's tscaudit_state_open(NULL, ...) reads (include/tscaudit.h).
inline constexpr const char* kDefaultStatePath = "/var/lib/tscaudit/state";

/// \returns 0 when the state was shown (its status is in the output, whatever it is).
/// \throws InputError (exit 2) when FILE is missing, not a regular file, or not a state file
///         this tool reads, naming the file and what is wrong.
int run_state(const StateOptions& options);

}  // namespace tscaudit
