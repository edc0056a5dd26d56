// Option values as typed: counts, reals, durations, formats, variants, and the command line
// kept for provenance. Every parser throws UsageError naming the option and the text.
#include <charconv>
#include <cmath>
#include <string_view>

#include "app/cli_values.hpp"

#include <algorithm>
#include "core/cpu_list.hpp"
#include "core/errors.hpp"
#include "core/format.hpp"
#include "measure/variant.hpp"

namespace tscaudit::cli {

std::uint64_t parse_count(const std::string& option, const std::string& text, std::uint64_t min, std::uint64_t max) {
  std::uint64_t value = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(first, last, value);
  const std::string range = "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
  if (text.empty() || ec == std::errc::invalid_argument || ptr != last) {
    throw UsageError(option + " '" + text + "' is not an unsigned decimal number (expected one in " + range + ")");
  }
  if (ec == std::errc::result_out_of_range || value < min || value > max) {
    throw UsageError(option + " " + text + " is out of range " + range);
  }
  return value;
}

double parse_real(const std::string& option, const std::string& text) {
  double value = 0;
  const char* last = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), last, value);
  if (text.empty() || ec != std::errc{} || ptr != last || !std::isfinite(value)) {
    throw UsageError(option + " '" + text + "' is not a finite decimal number");
  }
  return value;
}

double parse_duration(const std::string& option, const std::string& text, Seconds plain_unit) {
  // One rule for every duration option: a plain number in the option's own unit, or a
  // number with ms, s, m or h ("500ms", "90s", "2m", "1.5h").
  std::string number = text;
  double unit_s = plain_unit.seconds;
  auto strip = [&](const char* suffix, double seconds) {
    const std::string_view s(suffix);
    if (number.size() < s.size() || number.compare(number.size() - s.size(), s.size(), s) != 0) return false;
    number.resize(number.size() - s.size());
    unit_s = seconds;
    return true;
  };
  (void)(strip("ms", 0.001) || strip("s", 1) || strip("m", 60) || strip("h", 3600));
  double value = 0;
  const char* last = number.data() + number.size();
  const auto [ptr, ec] = std::from_chars(number.data(), last, value);
  if (number.empty() || ec != std::errc{} || ptr != last || !std::isfinite(value) || !(value > 0) ||
      !std::isfinite(value * unit_s)) {
    throw UsageError(option + " '" + text + "' is not a duration > 0 (" + plain_unit.name +
                     ", or a number with ms, s, m or h: 500ms, 90s, 2m, 1h)");
  }
  return value * unit_s;
}

double parse_duration_s(const std::string& option, const std::string& text) {
  return parse_duration(option, text, Seconds{1, "seconds"});
}

std::string quote_command_line(const std::vector<std::string>& args) {
  std::string out;
  for (const std::string& a : args) {
    if (!out.empty()) out += ' ';
    const bool plain =
        !a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./,=:+") ==
                          std::string::npos;
    if (plain) {
      out += a;
      continue;
    }
    if (!all_printable(a)) {
      // Bash's $'...': a line end, an escape sequence or a byte that is not ASCII is written
      // as \n or \xNN, so the line stays one printable line that a shell still runs as given.
      out += "$'";
      for (char c : a) {
        if (c == '\\' || c == '\'') {
          out += '\\';
          out += c;
        } else if (c == '\n') {
          out += "\\n";
        } else if (!is_printable_byte(c)) {
          append_hex_escape(out, c);
        } else {
          out += c;
        }
      }
      out += '\'';
      continue;
    }
    out += '\'';
    for (char c : a) {
      if (c == '\'') {
        out += "'\\''";
      } else {
        out += c;
      }
    }
    out += '\'';
  }
  return out;
}

OutputFormat parse_format(const std::string& text, bool csv_allowed) {
  if (text == "text") return OutputFormat::text;
  if (text == "json") return OutputFormat::json;
  if (text == "csv" && csv_allowed) return OutputFormat::csv;
  throw UsageError("--format '" + text + "' is not " + (csv_allowed ? "text, json or csv" : "text or json"));
}

Variant parse_variant_option(const std::string& option, const std::string& text) {
  const std::optional<Variant> v = parse_variant(text);
  if (v && is_host_variant(*v)) return *v;
  if (v) {
    // A name the analysis knows, of the other architecture: it cannot be measured here.
    throw UsageError("variant '" + text + "' for " + option + " reads the counter of " +
                     std::string(arch_name(variant_arch(*v))) + "; this is " +
                     std::string(arch_name(counter::kHostArch)) + ": choose from " + variant_list(kHostVariants));
  }
  throw UsageError("unknown variant '" + text + "' for " + option + " (choose from " + variant_list(kHostVariants) +
                   ")");
}

void choose_variants(const std::string& variant, const std::string& send, const std::string& recv,
                     ExchangeChoice& choice) {
  if (!variant.empty() && (!send.empty() || !recv.empty())) {
    throw UsageError("give --variant (both sides) or --send/--recv, not both");
  }
  if (!variant.empty()) choice.send = choice.recv = parse_variant_option("--variant", variant);
  if (!send.empty()) choice.send = parse_variant_option("--send", send);
  if (!recv.empty()) choice.recv = parse_variant_option("--recv", recv);
}

std::vector<int> parse_cpus_option(const std::string& text, bool every_cpu_by_default) {
  if (text.empty()) {
    throw UsageError(std::string("--cpus: empty CPU list") +
                     (every_cpu_by_default ? " (leave --cpus out to measure every CPU this process may use)" : ""));
  }
  try {
    return parse_cpu_list(text);
  } catch (const UsageError& e) {
    throw UsageError(std::string("--cpus: ") + e.what());
  }
}

std::pair<int, int> parse_cpu_pair(const std::string& text, const char* command) {
  const std::vector<int> pair = parse_cpus_option(text, false);
  if (pair.size() != 2) {
    throw UsageError("--cpus '" + printable(text) + "' names " + count_of(pair.size(), "CPU") + "; " + command +
                     " takes exactly two, A,B (A initiates)");
  }
  return {pair[0], pair[1]};
}

}  // namespace tscaudit::cli
