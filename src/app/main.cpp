// tscaudit: parse, dispatch, map errors to the documented exit codes.
#include <iostream>
#include <string>
#include <variant>
#include <vector>

#include "app/cli.hpp"
#include "app/command_list.hpp"
#include "app/progress.hpp"
#include "app/report_error.hpp"
#include "app/stop_signals.hpp"
#include "core/errors.hpp"
#include "formats/standard_output.hpp"

namespace {

/// Runs the parsed command through the command list (nothing to run after --help).
int run(const tscaudit::cli::Command& command) {
  const tscaudit::cli::CommandEntry* entry = tscaudit::cli::command_entry_of(command);
  return entry != nullptr ? entry->run(command) : tscaudit::kExitOk;
}

/// Whether `command` measures: a signal before it begins is then its to see (it answers
/// incomplete, as for one a moment later); any other command ends by it.
bool measures(const tscaudit::cli::Command& command) {
  using namespace tscaudit;
  if (std::holds_alternative<MeasureOptions>(command) || std::holds_alternative<VariantsOptions>(command) ||
      std::holds_alternative<MonitorOptions>(command)) {
    return true;
  }
  if (const auto* matrix = std::get_if<MatrixOptions>(&command)) return !matrix->dry_run;
  if (const auto* check = std::get_if<CheckOptions>(&command)) return !check->matrix.dry_run;
  if (const auto* report = std::get_if<ReportOptions>(&command)) return !report->matrix.dry_run;
  return false;
}

/// The signals' handling, before the program's other static initializers run (priority 101
/// is the first the compiler leaves to programs; only the executable has it, not the tests
/// that link the app's library): from here on a SIGINT or SIGTERM is recorded until the
/// command is known (parsing the command line takes about a millisecond), and a signal never
/// leaves a temporary behind.
__attribute__((constructor(101))) void handle_signals_first() { tscaudit::install_signal_handling(); }

}  // namespace

int main(int argc, char** argv) {
  using namespace tscaudit;
  const std::vector<std::string> args(argv, argv + argc);
  install_standard_output();
  try {
    const cli::Command command = cli::parse(args);
    settle_early_signal(measures(command));
    set_progress_command(cli::command_of(args));
    const int rc = run(command);
    // Results on a full disk are an I/O error, not exit 0; a reader that went away (`| head`)
    // ends the command quietly, its files written.
    if (!finish_standard_output()) return kExitOutputClosed;
    return rc;
  } catch (const UsageError& e) {
    settle_early_signal(false);  // a command line refused measures nothing
    // A command-line error ends with the help that answers it: the command's own.
    const std::string command = cli::command_of(args);
    std::cerr << "tscaudit: error: " << e.what() << "\n"
              << "see 'tscaudit " << (command.empty() ? "" : command + " ") << "--help'\n";
    return exit_code_of(e);
  } catch (const std::exception& e) {
    settle_early_signal(false);
    if (standard_output_closed(e)) return kExitOutputClosed;
    return report_error("tscaudit", e);
  }
}
