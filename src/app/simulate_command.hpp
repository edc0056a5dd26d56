// `tscsync simulate`: synthetic rounds with known truth, in the run format.
#pragma once

#include <string>

#include "simulate/simulate.hpp"

namespace tscsync {

struct SimulateOptions {
  SimulationSpec spec;
  std::string out;              // the rounds: a file or "-"
  std::string truth_out = "-";  // the truth as JSON: a file or "-"
};

/// Generates the rounds and writes them and the truth. \returns 0.
/// \throws UsageError (a parameter out of range, both outputs on stdout), IoError.
int run_simulate(const SimulateOptions& options);

}  // namespace tscsync
