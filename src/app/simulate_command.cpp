#include "app/simulate_command.hpp"

#include "app/stop_signals.hpp"
#include "core/errors.hpp"
#include "formats/run_format.hpp"
#include "formats/standard_output.hpp"
#include "io/output_file.hpp"
#include "version.hpp"

namespace tscaudit {

int run_simulate(const SimulateOptions& options) {
  if (!options.topology.empty()) return run_simulate_machine(options);
  if (options.out == "-" && options.truth_out == "-") {
    throw UsageError("--out - and --truth - would both write to standard output; give one of them a file");
  }
  // SIGINT and SIGTERM are seen once the rounds are made, before anything is written.
  const StopSignals signals;
  SimulationTruth truth;
  Run run = simulate(options.spec, truth);  // validates the spec first
  if (const int s = StopSignals::caught()) throw RuntimeError("interrupted by " + signal_name(s) + ": nothing written");
  run.header.set("tool_version", std::string(kToolVersion));
  OutputFile rounds(options.out);
  OutputFile truth_file(options.truth_out);
  // A reader of standard output that went away (`--out - | head`) ends what goes there, not
  // the other file: it is written whole, then the command ends quietly
  // (formats/standard_output.hpp).
  const auto unless_reader_gone = [](const auto& write) {
    try {
      write();
    } catch (const IoError& e) {
      if (!standard_output_closed(e)) throw;
    }
  };
  unless_reader_gone([&] { write_run(run, [&](std::string_view text) { rounds.write(text); }); });
  unless_reader_gone([&] { truth_file.write(truth_json(options.spec, truth).dump(2) + "\n"); });
  rounds.commit();
  truth_file.commit();
  return 0;
}

}  // namespace tscaudit
