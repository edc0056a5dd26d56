// `tscaudit compare A B`: whether two runs of one machine differ (docs/commands.md,
// "compare"), CPU by CPU, changed only where the hard offset bands are disjoint.
#pragma once

#include <string>

#include "app/output_format.hpp"

namespace tscaudit {

struct CompareOptions {
  std::string first, second;  // each a run directory, a report directory, or a matrix or check JSON file
  OutputFormat format = OutputFormat::text;
};

/// \returns 0: no proven change; 1: a CPU's offset changed (its bands are disjoint);
///          5: nothing to compare (no CPU besides the reference in both).
/// \throws InputError (exit 2) for an input that is neither a run nor JSON with per-CPU offsets.
int run_compare(const CompareOptions& options);

}  // namespace tscaudit
