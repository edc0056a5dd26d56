// `tscsync simulate --topology`: a whole simulated machine written as a directory of runs.
#include "app/simulate_command.hpp"

#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "core/errors.hpp"
#include "formats/output_file.hpp"
#include "formats/run_format.hpp"
#include "platform/topology.hpp"
#include "version.hpp"

namespace tscsync {
namespace {

/// The one place that decides how a simulated pair's rounds are stored: today a
/// tscsync-run/1 file DIR/pair_A_B.csv, as `measure` writes one pair, written aside and
/// renamed into place whole.
/// \returns the path written.
std::string write_simulated_pair(const std::string& dir, const MachinePairRun& pair) {
  const std::string path = dir + "/pair_" + std::to_string(pair.truth.a) + "_" + std::to_string(pair.truth.b) + ".csv";
  OutputFile file(path);
  write_run(pair.run, [&](std::string_view text) { file.write(text); });
  file.commit();
  return path;
}

/// A directory of runs mixing two simulations would be read as one machine: refuse any
/// directory that holds something already.
void require_empty_directory(const std::string& dir) {
  std::error_code ec;
  const auto status = std::filesystem::status(dir, ec);
  if (ec || !std::filesystem::exists(status)) return;  // absent: created below
  if (!std::filesystem::is_directory(status)) {
    throw UsageError("--out " + dir + " exists and is not a directory (with --topology, --out names a directory)");
  }
  if (!std::filesystem::is_empty(dir, ec) || ec) {
    throw UsageError("--out " + dir +
                     " is not empty: a simulated machine goes into a new or empty directory, so that no "
                     "earlier run is mistaken for one of its pairs");
  }
}

}  // namespace

int run_simulate_machine(const SimulateOptions& options) {
  const TopologyResult topology = load_topology(parse_topology_source(options.topology), true);
  if (!topology.ok) throw UsageError("--topology: " + topology.problem);
  MachineSpec spec = options.machine;
  spec.base = options.spec;
  spec.cpus = topology.summary.places;
  const SimulatedMachine machine(spec);  // validates: CPUs and packages named must exist
  const auto pairs = machine.ordered_pairs();

  require_empty_directory(options.out);
  make_directories(options.out);
  std::vector<std::string> written;
  try {
    std::vector<MachinePairTruth> truth;
    truth.reserve(pairs.size());
    for (const auto& [a, b] : pairs) {
      MachinePairRun pair = machine.simulate_pair(a, b, 0);
      pair.run.header.set("tool_version", std::string(kToolVersion));
      written.push_back(write_simulated_pair(options.out, pair));
      truth.push_back(pair.truth);
    }
    write_text_file(options.out + "/topology.xml", topology.xml);
    written.push_back(options.out + "/topology.xml");
    // Last: its presence says every pair was written.
    write_text_file(options.out + "/truth.json", machine.truth_json(truth).dump(2) + "\n");
  } catch (...) {
    // A value that fails one pair (an offset that would read a counter below 0), a full
    // disk: leave no directory of half a machine that could pass for a whole one.
    std::error_code ignored;
    for (const std::string& path : written) std::filesystem::remove(path, ignored);
    throw;
  }
  std::fprintf(stderr, "wrote %s: %zu CPUs, %zu ordered pairs of %llu rounds, topology.xml, truth.json\n",
               options.out.c_str(), spec.cpus.size(), pairs.size(),
               static_cast<unsigned long long>(spec.rounds_per_pair));
  return 0;
}

}  // namespace tscsync
