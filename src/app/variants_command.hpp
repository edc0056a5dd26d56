// `tscaudit variants`: which way of reading the TSC can be trusted on this machine, and
// what it costs. In one run: the read cost of every variant and of clock_gettime on one
// pinned CPU, the exchange of one pair under each (send, receive) combination, the
// same-CPU control, the run that switches from plain to an ordering receive read
// half-way, and the recommendation. Measuring and writing are shared with `report`.
#pragma once

#include <atomic>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/output_format.hpp"
#include "app/pictures.hpp"
#include "core/run.hpp"
#include "pair/analyze.hpp"
#include "render/variants_output.hpp"

namespace tscaudit {

/// Warm-up rounds before each visit's measured rounds (discarded).
inline constexpr std::uint64_t kVariantsWarmup = 2000;

struct VariantsOptions {
  std::string cpus;               // "A,B"; empty: the first two CPUs this process may use
  std::uint64_t rounds = 200000;  // per combination, both roles together
  std::uint64_t passes = 4;       // each combination's rounds are split over these, interleaved
  std::uint64_t warmup = kVariantsWarmup;
  bool all = false;                      // every (send, receive) combination, not only the default ones
  std::uint64_t control_rounds = 20000;  // same-CPU control; 0: none
  std::uint64_t switch_rounds = 50000;   // per half of the switching run; 0: none
  std::chrono::milliseconds timeout{2000};
  /// > 0: the measuring ends within this many seconds: each visit (and the control and the
  /// switching run) ends by its share of what is left, with fewer rounds where the reads are
  /// slow (cpuid under a hypervisor). 0: every round asked for, however long it takes.
  double budget_seconds = 0;
  OutputFormat format = OutputFormat::text;
  std::string out_dir;     // empty: print only
  bool save_runs = false;  // also keep every combination's rounds in out_dir/runs
  std::string command_line;
};

/// Everything a variants run produced.
struct VariantsOutcome {
  VariantsResult result;
  /// One per (combination, role) measured, shared with the summaries (result.exchanges)
  /// that were made from them: what --save-runs writes.
  std::vector<std::shared_ptr<const Run>> runs;
  double elapsed_seconds = 0;
  /// Why the measuring stopped before its last visit ("interrupted by SIGINT after 5 of 24
  /// visits"); empty when it did not. Nothing is analysed then: a comparison of variants
  /// measured over unequal passes would favour whichever ran last.
  std::string interrupted;
};

/// Validates the options against this machine: two distinct usable CPUs, rounds enough
/// for every pass and role. \returns the pair (a, b). \throws UsageError naming the fault.
std::pair<int, int> variants_cpus(const VariantsOptions& options);

/// Measures and decides. Progress on a terminal. `stop` (a signal caught, when non-zero)
/// ends the measuring at the next chunk edge, with VariantsOutcome::interrupted set.
/// \throws UsageError (bad CPUs or counts), RuntimeError (pinning failed).
VariantsOutcome measure_variants(const VariantsOptions& options, const std::atomic<int>* stop = nullptr);

/// Writes variants.json, variants.txt, the plots' inputs (variants_*.dat) and the plots
/// (PNG and SVG; none where gnuplot is not installed) into `dir`, which must exist; with
/// `save_runs` also runs/send-SEND_recv-RECV_A-B.csv per combination and role (A
/// initiates), and runs/switch-1_send-SEND_recv-RECV_A-B.csv and switch-2_... for the two
/// halves of the switching run (tscaudit-run/1: `tscaudit analyze` reads them).
/// \param pictures  when not null, receives what became of each plot.
/// \returns the problems that did not stop the writing: a plot that gnuplot failed to draw
///          (not one left out because gnuplot is not installed).
/// \throws IoError when a file cannot be written.
std::vector<std::string> write_variants_dir(const std::string& dir, const VariantsOutcome& outcome,
                                            bool save_runs = false, PictureReport* pictures = nullptr);

/// The file stem of a saved run: "send-SEND_recv-RECV_A-B" from its header (the names
/// of the variants hold "_", so "send-" and "_recv-" mark where each begins).
std::string saved_run_stem(const Run& run);

/// \returns 0, or 3 when a visit failed (the results are still printed, the failure named).
int run_variants(const VariantsOptions& options);

}  // namespace tscaudit
