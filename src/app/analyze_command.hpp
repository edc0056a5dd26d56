// `tscaudit analyze FILE...`: the analysis of saved runs, imported rounds and the interval
// logs of `tscaudit monitor`, in any mix.
#pragma once

#include <string>
#include <vector>

#include "app/output_format.hpp"

namespace tscaudit {

struct AnalyzeOptions {
  std::vector<std::string> files;  // "-" reads standard input
  OutputFormat format = OutputFormat::text;
  std::string out = "-";
  /// Not empty: for every interval log, its time series (.dat) and picture (.png, .svg)
  /// go into this directory (made if missing).
  std::string plot_dir;
};

/// Reads and analyses every file, then prints the results. A file whose first line is an
/// interval log's schema line is read as one (analyze_interval_log); any other as a run
/// or imported table (analyze_run). A run or log that is not complete is analyzed and
/// flagged (stderr and output). \returns 0.
/// \throws IoError (unreadable file, unwritable output or plot directory), InputError
///         (malformed file: line and column).
int run_analyze(const AnalyzeOptions& options);

}  // namespace tscaudit
