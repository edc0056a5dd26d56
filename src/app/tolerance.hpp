// A tolerance as typed on the command line (--tolerance, --max-bound): ticks or a time, turned
// into ticks once the counter's frequency is known.
#pragma once

#include <string>

namespace tscaudit {

/// "40" or "40ticks" are ticks; "15ns", "1.5us", "2ms" and "1s" a time, held in ns (converted
/// with the TSC frequency once it is known).
struct Tolerance {
  double value = 0;
  bool ns = false;
};

/// \throws UsageError naming the option and the text when it is not a number >= 0 with
///         an optional unit: "ticks", "ns", "us", "ms" or "s".
Tolerance parse_tolerance(const std::string& option, const std::string& text);

/// `t` in ticks; one given in ns is converted with `tsc_hz`.
/// \throws UsageError naming `option` when it is in ns and the frequency is unknown (<= 0).
double tolerance_in_ticks(const std::string& option, const Tolerance& t, double tsc_hz);

}  // namespace tscaudit
