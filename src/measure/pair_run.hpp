// One ordered pair's rounds as a Run: what the two measuring threads recorded, merged,
// flagged and wrapped in the provenance every saved run carries. Shared by every command
// that measures (measure, matrix, variants, report).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/run.hpp"
#include "measure/exchange.hpp"
#include "platform/platform.hpp"

namespace tscaudit {

/// \throws UnsupportedError when this machine cannot execute a chosen variant
/// (variant_unsupported: RDTSCP or FEAT_ECV missing, or another architecture's read).
void require_supported_variants(const ExchangeChoice& choice, const PlatformFacts& platform);

/// The provenance every saved run of the ordered pair a -> b starts with: schema, tool
/// version, command line, platform facts, CPUs, variants, transport. The caller adds
/// what is its own (rounds, warm-up, quantum, start time).
Metadata run_header(const PlatformFacts& platform, const ExchangeChoice& choice, int cpu_a, int cpu_b,
                    const std::string& command_line);

/// The quantum of one visit's rounds: the larger of what the two sides' quantum reads
/// showed (estimate_quantum), at least 1.
std::uint64_t visit_quantum_ticks(const ExchangeResult& result);

/// One ordered pair measured in several visits (matrix, variants) and kept as one run:
/// the rounds of every visit, seq counting on across them, the largest quantum either
/// side saw, and the error of each visit that failed.
struct VisitsRun {
  int a = 0;
  int b = 0;
  Run run;
  std::uint64_t quantum_ticks = 1;
  std::vector<std::string> errors;  // as the caller words them
};

/// Appends one visit's rounds. \returns the visit's error, if it failed (not recorded:
/// the caller words it and adds it to `errors`).
std::optional<std::string> append_visit(VisitsRun& d, const ExchangeResult& result, const ExchangeConfig& config);

/// The header `measure` would write (run_header plus rounds, visits, rounds per visit,
/// warm-up, quantum, flags legend) and the trailer: rounds written, and status complete,
/// or aborted with every error.
void finish_visits_run(VisitsRun& d, const PlatformFacts& platform, const ExchangeChoice& choice,
                       const std::string& command_line, std::uint64_t visits, std::uint64_t rounds_per_visit,
                       std::uint64_t warmup);

/// Turns what the two threads recorded into a Run: drops the warm-up rounds, merges
/// t1..t4 by round index, sets the interference flags per chunk and the stall flags.
/// Header metadata is left to the caller; the trailer gets the counts and the status.
/// Pure: tested on fabricated records.
Run assemble_run(const ExchangeResult& result, const ExchangeConfig& config);

}  // namespace tscaudit
