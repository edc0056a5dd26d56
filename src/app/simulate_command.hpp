// `tscaudit simulate`: synthetic rounds with known truth, in the run format: one pair into
// a file, or with a topology a whole machine into a directory.
#pragma once

#include <cstdint>
#include <string>

#include "simulate/machine.hpp"
#include "simulate/simulate.hpp"

namespace tscaudit {

struct SimulateOptions {
  SimulationSpec spec;
  std::string out;              // the rounds: a file or "-"; with a topology, the directory
  std::string truth_out = "-";  // the truth as JSON: a file or "-" (one pair only)
  /// --topology ("synthetic:..." or an hwloc XML file): a whole machine, the pairs of the
  /// plan `check` would choose for it, into the run directory `out`. Empty: one pair.
  std::string topology;
  /// The machine's model, but for its CPUs (they come from the topology) and its rounds per
  /// visit (the plan's). Its base is `spec` (quantum, turnaround, gap, tsc_hz).
  MachineSpec machine;
  /// With a topology: rounds per visit instead of the plan's rule (0: the rule's).
  std::uint64_t rounds_per_visit = 0;
  /// With a topology: every ordered pair, whatever the size (no sparse design).
  bool all_pairs = false;
};

/// Generates the rounds and writes them and the truth. \returns 0.
/// \throws UsageError (a parameter out of range, both outputs on stdout, a topology that
///         cannot be read, a CPU or package it does not have, an output directory that
///         is not empty), IoError.
int run_simulate(const SimulateOptions& options);

/// The whole machine (options.topology set): a run directory DIR (manifest.json with the
/// plan, topology.xml, rounds/) holding every visit of the pairs of the default plan of
/// `check` for that topology, and DIR/truth.json (docs/commands.md, "simulate"). The same
/// options give the same bytes. \returns 0.
/// \throws UsageError as run_simulate, IoError.
int run_simulate_machine(const SimulateOptions& options);

}  // namespace tscaudit
