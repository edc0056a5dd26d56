// `tscaudit measure`: one ordered pair, every round saved.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/run.hpp"
#include "measure/exchange.hpp"
#include "platform/platform.hpp"

namespace tscaudit {

struct MeasureOptions {
  ExchangeChoice choice;
  ExchangeConfig config;
  std::string out;           // file path, or "-" for standard output
  std::string command_line;  // as typed, for provenance
};

/// Validates, measures, writes the run and prints the summary to stderr.
/// \returns the exit code: 0 for a complete run, 3 when the run was cut short (the
///          rounds done are still written, with `status: aborted` and the reason).
/// \throws UsageError (bad CPU), UnsupportedError (RDTSCP missing), IoError (output).
int run_measure(const MeasureOptions& options);

}  // namespace tscaudit
