// A private temporary directory for what a command writes only for itself (the embedded
// plot scripts, the rounds of a run without --out).
#pragma once

#include <string>
#include <string_view>

namespace tscaudit {

struct TempDir {
  std::string path;     // the new directory; empty when it could not be made
  std::string problem;  // why not: "cannot make a directory for WHAT in PARENT: reason"
};

/// Makes a new directory `$TMPDIR/<prefix>-XXXXXX` (mode 0700, mkdtemp(3); /tmp where
/// TMPDIR is unset or empty). The caller removes it. `what` names its use in the problem.
TempDir make_temp_dir(std::string_view prefix, std::string_view what);

}  // namespace tscaudit
