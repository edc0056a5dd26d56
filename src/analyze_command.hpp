// `tscsync analyze FILE...`: the analysis of saved runs and imported rounds.
#pragma once

#include <string>
#include <vector>

#include "format.hpp"

namespace tscsync {

struct AnalyzeOptions {
  std::vector<std::string> files;  // "-" reads standard input
  OutputFormat format = OutputFormat::text;
  std::string out = "-";
};

/// Reads and analyses every file, then prints the results. A run that is not complete is
/// analysed and flagged (stderr and output). \returns 0.
/// \throws IoError (unreadable file, unwritable output), InputError (malformed file:
///         line and column).
int run_analyze(const AnalyzeOptions& options);

}  // namespace tscsync
