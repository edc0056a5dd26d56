// Number formatting for output files and messages: std::to_chars only, so no global
// locale can change a decimal point or insert thousands separators. And input quoted in a
// message, made printable.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

namespace tscaudit {

/// `value` with `significant` significant digits in plain decimals, never in exponent form
/// (docs/commands.md, "Conventions"): "2300000000", "0.0123", "10350000" for 1.0347e7 at 4
/// digits. At most kMaxDecimals digits after the point: a value smaller than that prints as
/// "0" ("-0" never), as 5.684e-14 ticks of a least-squares solution does.
std::string format_sig(double value, int significant = 4);

/// The most digits format_sig prints after the point (nanoseconds of a value in seconds).
inline constexpr int kMaxDecimals = 9;

/// `value` with exactly `decimals` digits after the point ("217.4").
std::string format_fixed(double value, int decimals);

/// "1 pair", "2 pairs": a count with its noun in the number it takes; `plural` where adding an
/// "s" is wrong ("1 CPU ... 2 CPUs" is right, "1 entry ... 2 entries" is not).
std::string count_of(std::size_t count, std::string_view singular, std::string_view plural = {});

/// "[lo, hi]", each with `significant` significant digits: a band or an interval.
std::string format_range(double lo, double hi, int significant = 4);

/// "47 ticks", "1 tick", with `significant` significant digits (format_sig).
std::string ticks_text(double ticks, int significant = 4);

/// "47 ticks (20.4 ns)", or "47 ticks" when the frequency is unknown (tsc_hz <= 0).
std::string ticks_with_ns(double ticks, double tsc_hz);

/// True when one tick of a counter at `tsc_hz` lasts 1 ns or more: a counter at 1 GHz or
/// slower, as Arm's generic timers (a 25 MHz counter steps 40 ns at a time). Then every
/// quantum and band is given in ns as well as in ticks (docs/method.md §2).
bool coarse_ticks(double tsc_hz);

/// ticks_with_ns for a coarse counter (coarse_ticks), else "47 ticks" alone.
std::string ticks_with_ns_if_coarse(double ticks, double tsc_hz);

/// " ([4760, 19240] ns)" of a band in ticks for a coarse counter, else "".
std::string band_ns_if_coarse(double lo_ticks, double hi_ticks, double tsc_hz);

/// A moment as UTC to the millisecond, ISO 8601: "2026-11-22T18:44:35.331Z" (the
/// start_utc and end_utc of saved runs, and the time a report was made).
std::string format_utc(std::chrono::system_clock::time_point t);

/// Whether `c` is printable ASCII (0x20 to 0x7e): the one test of what a message, a report or
/// a reason may quote as it is. Any other byte (a control byte, an escape sequence, a byte of
/// UTF-8 or of binary garbage) is escaped (append_hex_escape) or replaced where it is quoted.
constexpr bool is_printable_byte(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u >= 0x20 && u < 0x7f;
}

/// Whether every byte of `text` is printable ASCII (is_printable_byte).
constexpr bool all_printable(std::string_view text) {
  for (const char c : text) {
    if (!is_printable_byte(c)) return false;
  }
  return true;
}

/// Appends `c` as "\xNN", two lowercase hex digits: how every quotation escapes a byte.
void append_hex_escape(std::string& out, char c);

/// `field` with every byte outside printable ASCII as \xNN, cut to `max_bytes` (40) and
/// "...": safe to quote in a message whatever the input holds (binary garbage, escape
/// sequences).
std::string printable(std::string_view field, std::size_t max_bytes = 40);

/// `text` whole (not cut) with every byte outside printable ASCII as \xNN: control bytes
/// (a line end, an escape sequence) and every byte above 0x7e, so invalid UTF-8 too. For
/// what a file says that a message or a report repeats in full (an error line, a status).
std::string printable_text(std::string_view text);

/// printable_text, but well-formed UTF-8 of printable characters (U+00A0 and above: "±",
/// "θ") is kept as it is: for text the tool wrote itself that a file brings back (the check's
/// reason in a published state), where a hostile byte is still shown as \xNN.
std::string printable_utf8_text(std::string_view text);

}  // namespace tscaudit
