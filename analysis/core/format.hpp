// Number formatting for output files and messages: std::to_chars only, so no global
// locale can change a decimal point or insert thousands separators.
#pragma once

#include <chrono>
#include <string>

namespace tscsync {

/// What a command prints its results as (--format).
enum class OutputFormat { text, json, csv };

/// `value` with `significant` significant digits, shortest form ("2.3e+09", "0.0123").
std::string format_sig(double value, int significant = 4);

/// `value` with exactly `decimals` digits after the point ("217.4").
std::string format_fixed(double value, int decimals);

/// "[lo, hi]", each with `significant` significant digits: a band or an interval.
std::string format_range(double lo, double hi, int significant = 4);

/// "47 ticks (20.4 ns)", or "47 ticks" when the frequency is unknown (tsc_hz <= 0).
std::string ticks_with_ns(double ticks, double tsc_hz);

/// A moment as UTC to the millisecond, ISO 8601: "2026-11-22T18:44:35.331Z" (the
/// start_utc and end_utc of saved runs, and the time a report was made).
std::string format_utc(std::chrono::system_clock::time_point t);

}  // namespace tscsync
