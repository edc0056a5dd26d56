// `tscsync measure`: one ordered pair, every round saved.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "exchange.hpp"
#include "platform.hpp"
#include "run.hpp"

namespace tscsync {

struct MeasureOptions {
  ExchangeChoice choice;
  ExchangeConfig config;
  std::string out;           // file path, or "-" for standard output
  std::string command_line;  // as typed, for provenance
};

/// Now, UTC, to the millisecond: "2026-11-22T18:44:35.331Z" (start_utc, end_utc).
std::string utc_now();

/// \throws UnsupportedError when a chosen variant needs RDTSCP and the CPU lacks it.
void require_supported_variants(const ExchangeChoice& choice, const CpuidFacts& cpuid);

/// The provenance every saved run of the ordered pair a -> b starts with: schema, tool
/// version, command line, platform facts, CPUs, variants, transport. The caller adds
/// what is its own (rounds, warm-up, quantum, start time).
Metadata run_header(const PlatformFacts& platform, const ExchangeChoice& choice, int cpu_a, int cpu_b,
                    const std::string& command_line);

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

/// Validates, measures, writes the run and prints the summary to stderr.
/// \returns the exit code: 0 for a complete run, 3 when the run was cut short (the
///          rounds done are still written, with `status: aborted` and the reason).
/// \throws UsageError (bad CPU), UnsupportedError (RDTSCP missing), IoError (output).
int run_measure(const MeasureOptions& options);

/// Turns what the two threads recorded into a Run: drops the warm-up rounds, merges
/// t1..t4 by round index, sets the interference flags per chunk and the stall flags.
/// Header metadata is left to the caller; the trailer gets the counts and the status.
/// Pure: tested on fabricated records.
Run assemble_run(const ExchangeResult& result, const ExchangeConfig& config);

}  // namespace tscsync
