// The command line: one table of options per command, parsed into plain structs.
#pragma once

#include <cstddef>
#include <cstdint>
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

/// The unit of a duration option's plain number: {1, "seconds"}, {0.001, "milliseconds"}.
struct Seconds {
  double seconds;
  const char* name;
};

/// Parses a duration option value, the same rule for every duration option: a plain number
/// in the option's own unit, or a number with ms, s, m or h ("500ms", "90s", "10m", "1.5h").
/// Returns seconds. \throws UsageError naming the option and the value unless > 0.
double parse_duration(const std::string& option, const std::string& text, Seconds plain_unit);

/// parse_duration() of an option whose plain number is seconds.
double parse_duration_s(const std::string& option, const std::string& text);

/// The subcommand that args (args[0] the program) name, or "" when none: for the hint
/// that follows an error, "see 'tscaudit check --help'".
std::string command_of(const std::vector<std::string>& args);

/// Every line of every --help fits a terminal this wide.
inline constexpr std::size_t kHelpWidth = 100;

/// The help `tscaudit [COMMAND] --help` prints (COMMAND "" for the top level), laid out for
/// `width` columns (the tests compare it with a layout too wide to wrap).
std::string help_text(const std::string& command, std::size_t width = kHelpWidth);

/// Wraps `text` at spaces into lines of at most `width` characters (a word longer than
/// that stands alone on its line); a newline in `text` always breaks. No word is split.
std::vector<std::string> wrap_words(const std::string& text, std::size_t width);

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
