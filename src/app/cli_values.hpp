// Option values as typed: counts, reals, durations, formats, variants, CPU lists, and the
// command line kept for provenance. Every parser throws UsageError naming the option and the
// text (cli_values.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "app/output_format.hpp"
#include "core/format.hpp"
#include "measure/exchange.hpp"

namespace tscaudit::cli {

/// The command line as one shell-quoted string, for provenance: one line of printable ASCII
/// (an argument with other bytes in bash's $'...' with \n and \xNN) that a shell runs as given.
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
