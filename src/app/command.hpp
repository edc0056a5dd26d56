// A command as the command line parsed it: the options struct of the command to run, or
// Printed when --help or --version was printed. What the parser (cli.hpp), the option tables
// (cli_commands.hpp) and main() share.
#pragma once

#include <variant>

#include "app/analyze_command.hpp"
#include "app/check_command.hpp"
#include "app/compare_command.hpp"
#include "app/info_command.hpp"
#include "app/matrix_command.hpp"
#include "app/measure_command.hpp"
#include "app/monitor_command.hpp"
#include "app/report_command.hpp"
#include "app/simulate_command.hpp"
#include "app/state_command.hpp"
#include "app/variants_command.hpp"

namespace tscaudit::cli {

struct InfoCommand {
  OutputFormat format = OutputFormat::text;
  unsigned ntp_seconds = 0;  // > 0: also calibrate against CLOCK_REALTIME over this long
};
/// Help or version was printed; nothing else to do.
struct Printed {};

using Command =
    std::variant<Printed, InfoCommand, MeasureOptions, AnalyzeOptions, SimulateOptions, MatrixOptions, CheckOptions,
                 CompareOptions, ReportOptions, VariantsOptions, MonitorOptions, StateOptions>;

}  // namespace tscaudit::cli
