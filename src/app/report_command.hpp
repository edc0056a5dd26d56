// `tscaudit report`: the main job. The platform facts, the all-pairs matrix with an
// ordering receive read and the check's verdict, the same matrix with plain rdtsc on both
// sides (what speculation does here), the read variants compared on one pair (`variants`),
// heatmaps and plots, per-pair details, and report.md plus a self-contained report.html,
// all in one directory.
#pragma once

#include <string>

#include "app/matrix_types.hpp"
#include "app/tolerance.hpp"
#include "app/variants_command.hpp"

namespace tscaudit {

struct ReportOptions {
  std::string out_dir = "report";
  MatrixOptions matrix;              // CPUs, rounds, visits, parallel; variants are the report's own
  bool plain = true;                 // also the plain-rdtsc matrix
  bool variants = true;              // also `variants` on the first two CPUs
  VariantsOptions variants_options;  // rounds; CPUs come from the matrix's list
  Tolerance max_bound;               // --max-bound: wider passes are inconclusive; 0: no limit
  std::string command_line;
};

/// \returns the check's exit code on the ordering-read matrix (exit_code_of: 0, 1, 5, 3),
///          or 3 when a part failed or was cut short (the report says which).
int run_report(const ReportOptions& options);

}  // namespace tscaudit
