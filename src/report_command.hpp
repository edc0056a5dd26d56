// `tscsync report`: the main job. The platform facts, the all-pairs matrix with an
// ordering receive read and the check's verdict, the same matrix with plain rdtsc on both
// sides (what speculation does here), heatmaps, per-pair details, and report.md plus a
// self-contained report.html, all in one directory.
#pragma once

#include <string>

#include "matrix_command.hpp"

namespace tscsync {

struct ReportOptions {
  std::string out_dir = "report";
  MatrixOptions matrix;      // CPUs, rounds, visits, parallel; variants are the report's own
  bool plain = true;         // also the plain-rdtsc matrix
  std::string command_line;
};

/// \returns 0 when the report is complete (whatever its verdict), 3 when a part failed
///          (the report says which).
int run_report(const ReportOptions& options);

}  // namespace tscsync
