// The command line: one table of options per command, parsed into plain structs.
#pragma once

#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "app/analyze_command.hpp"
#include "app/check_command.hpp"
#include "app/info_command.hpp"
#include "app/matrix_command.hpp"
#include "app/measure_command.hpp"
#include "app/monitor_command.hpp"
#include "app/report_command.hpp"
#include "app/simulate_command.hpp"
#include "app/variants_command.hpp"

namespace tscaudit::cli {

struct InfoCommand {
  OutputFormat format = OutputFormat::text;
  unsigned ntp_seconds = 0;  // > 0: also calibrate against CLOCK_REALTIME over this long
};
/// Help or version was printed; nothing else to do.
struct Printed {};

using Command = std::variant<Printed, InfoCommand, MeasureOptions, AnalyzeOptions, SimulateOptions, MatrixOptions,
                             CheckOptions, ReportOptions, VariantsOptions, MonitorOptions>;

/// Parses argv. Prints --help and --version itself (returning Printed).
/// \throws UsageError with a message naming the option and the value at fault.
Command parse(const std::vector<std::string>& args);

/// The command line as one shell-quoted string, for provenance.
std::string quote_command_line(const std::vector<std::string>& args);

/// Parses a decimal real option value ("1e6", "-150", "0.05"), locale-independent.
/// \throws UsageError naming the option and the value.
double parse_real(const std::string& option, const std::string& text);

/// Parses a duration option value: seconds ("90", "0.5", "90s") or minutes and hours
/// ("10m", "1.5h"). \throws UsageError naming the option and the value unless > 0.
double parse_duration_s(const std::string& option, const std::string& text);

/// Parses an unsigned decimal option value within [min, max].
/// \throws UsageError naming the option, the value and the range.
std::uint64_t parse_count(const std::string& option, const std::string& text, std::uint64_t min, std::uint64_t max);

/// --format: text or json, and csv where `csv_allowed`. \throws UsageError.
OutputFormat parse_format(const std::string& text, bool csv_allowed);

/// A read variant named on `option`. \throws UsageError listing the valid names.
Variant parse_variant_option(const std::string& option, const std::string& text);

/// --variant (both sides) or --send/--recv into `choice`; the defaults stay where none is
/// given (empty text). \throws UsageError when --variant comes with --send or --recv.
void choose_variants(const std::string& variant, const std::string& send, const std::string& recv,
                     ExchangeChoice& choice);

/// --cpus as given (taskset syntax). The same words in every command: "--cpus: empty CPU
/// list", "--cpus: bad CPU list '...' at character N: ...".
/// \param every_cpu_by_default  the command measures every CPU without --cpus (the hint says so)
/// \throws UsageError.
std::vector<int> parse_cpus_option(const std::string& text, bool every_cpu_by_default);

/// --cpus A,B of a command that measures one ordered pair. \throws UsageError naming the
/// command unless the list names exactly two CPUs.
std::pair<int, int> parse_cpu_pair(const std::string& text, const char* command);

}  // namespace tscaudit::cli
