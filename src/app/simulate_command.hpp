// `tscsync simulate`: synthetic rounds with known truth, in the run format: one pair into
// a file, or with a topology a whole machine into a directory.
#pragma once

#include <string>

#include "simulate/machine.hpp"
#include "simulate/simulate.hpp"

namespace tscsync {

struct SimulateOptions {
  SimulationSpec spec;
  std::string out;              // the rounds: a file or "-"; with a topology, the directory
  std::string truth_out = "-";  // the truth as JSON: a file or "-" (one pair only)
  /// --topology ("synthetic:..." or an hwloc XML file): a whole machine, every ordered pair
  /// of its CPUs, into the directory `out`. Empty: one pair.
  std::string topology;
  /// The machine's model, but for its CPUs (they come from the topology). Its base is
  /// `spec` (quantum, turnaround, gap, tsc_hz, quantum metadata).
  MachineSpec machine;
};

/// Generates the rounds and writes them and the truth. \returns 0.
/// \throws UsageError (a parameter out of range, both outputs on stdout, a topology that
///         cannot be read, a CPU or package it does not have, an output directory that
///         is not empty), IoError.
int run_simulate(const SimulateOptions& options);

/// The whole machine (options.topology set): DIR/pair_A_B.csv for every ordered pair,
/// DIR/topology.xml and DIR/truth.json (docs/commands.md, "simulate"). \returns 0.
int run_simulate_machine(const SimulateOptions& options);

}  // namespace tscsync
