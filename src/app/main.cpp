// tscaudit: parse, dispatch, map errors to the documented exit codes.
#include <iostream>
#include <string>
#include <vector>

#include "app/cli.hpp"
#include "app/report_error.hpp"
#include "app/stop_signals.hpp"
#include "core/errors.hpp"
#include "formats/standard_output.hpp"

namespace {

int run(const tscaudit::cli::Command& command) {
  using namespace tscaudit;
  if (const auto* info = std::get_if<cli::InfoCommand>(&command)) return run_info(info->format, info->ntp_seconds);
  if (const auto* measure = std::get_if<MeasureOptions>(&command)) return run_measure(*measure);
  if (const auto* analyze = std::get_if<AnalyzeOptions>(&command)) return run_analyze(*analyze);
  if (const auto* simulate = std::get_if<SimulateOptions>(&command)) return run_simulate(*simulate);
  if (const auto* matrix = std::get_if<MatrixOptions>(&command)) return run_matrix(*matrix);
  if (const auto* check = std::get_if<CheckOptions>(&command)) return run_check(*check);
  if (const auto* report = std::get_if<ReportOptions>(&command)) return run_report(*report);
  if (const auto* variants = std::get_if<VariantsOptions>(&command)) return run_variants(*variants);
  if (const auto* monitor = std::get_if<MonitorOptions>(&command)) return run_monitor(*monitor);
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tscaudit;
  const std::vector<std::string> args(argv, argv + argc);
  install_standard_output();
  install_cleanup_on_signal();  // a signal never leaves a temporary behind
  try {
    const int rc = run(cli::parse(args));
    finish_standard_output();  // results on a full disk are an I/O error, not exit 0
    return rc;
  } catch (const UsageError& e) {
    // A command-line error ends with the help that answers it: the command's own.
    const std::string command = cli::command_of(args);
    std::cerr << "tscaudit: error: " << e.what() << "\n"
              << "see 'tscaudit " << (command.empty() ? "" : command + " ") << "--help'\n";
    return exit_code_of(e);
  } catch (const std::exception& e) {
    return report_error("tscaudit", e);
  }
}
