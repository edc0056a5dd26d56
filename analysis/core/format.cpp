#include "core/format.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace tscaudit {

std::string format_sig(double value, int significant) {
  if (!std::isfinite(value)) return std::isnan(value) ? "nan" : (value > 0 ? "inf" : "-inf");
  std::array<char, 512> buf{};
  const auto [ptr, ec] =
      std::to_chars(buf.data(), buf.data() + buf.size(), value, std::chars_format::general, significant);
  if (ec != std::errc{}) return "nan";
  std::string general(buf.data(), ptr);
  const std::size_t e = general.find('e');
  if (e == std::string::npos) return general;
  // Exponent form: the value rounded to its significant digits, written out in full.
  const int exponent = std::stoi(general.substr(e + 1));
  const double rounded = std::strtod(general.c_str(), nullptr);
  const int decimals = exponent >= 0 ? 0 : std::min(kMaxDecimals, std::max(0, significant - 1 - exponent));
  std::string fixed = format_fixed(rounded, decimals);
  if (fixed.find('.') != std::string::npos) {
    while (fixed.back() == '0') fixed.pop_back();
    if (fixed.back() == '.') fixed.pop_back();
  }
  if (fixed == "-0") fixed = "0";
  return fixed;
}

std::string format_fixed(double value, int decimals) {
  std::array<char, 512> buf{};
  const auto [ptr, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), value, std::chars_format::fixed, decimals);
  return ec == std::errc{} ? std::string(buf.data(), ptr) : std::string("nan");
}

// Strings are built by appending: GCC 12 at -O3 warns falsely (-Wrestrict, its bug
// 105651) on `"literal" + std::string`, which breaks -DTSCAUDIT_WERROR=ON builds.
std::string count_of(std::size_t count, std::string_view singular, std::string_view plural) {
  std::string out = std::to_string(count) + " ";
  if (count == 1) return out.append(singular);
  if (plural.empty()) return out.append(singular).append("s");
  return out.append(plural);
}

std::string format_range(double lo, double hi, int significant) {
  std::string s = "[";
  s += format_sig(lo, significant);
  s += ", ";
  s += format_sig(hi, significant);
  s += "]";
  return s;
}

std::string ticks_text(double ticks, int significant) {
  std::string s = format_sig(ticks, significant);
  return s + (s == "1" || s == "-1" ? " tick" : " ticks");
}

std::string ticks_with_ns(double ticks, double tsc_hz) {
  std::string s = ticks_text(ticks, 4);
  if (tsc_hz > 0) {
    s += " (";
    s += format_fixed(ticks / tsc_hz * 1e9, 1);
    s += " ns)";
  }
  return s;
}

bool coarse_ticks(double tsc_hz) { return tsc_hz > 0 && tsc_hz <= 1e9; }

std::string ticks_with_ns_if_coarse(double ticks, double tsc_hz) {
  return coarse_ticks(tsc_hz) ? ticks_with_ns(ticks, tsc_hz) : ticks_text(ticks, 4);
}

std::string band_ns_if_coarse(double lo_ticks, double hi_ticks, double tsc_hz) {
  if (!coarse_ticks(tsc_hz)) return "";
  return " (" + format_range(lo_ticks / tsc_hz * 1e9, hi_ticks / tsc_hz * 1e9) + " ns)";
}

std::string format_utc(std::chrono::system_clock::time_point t) {
  using namespace std::chrono;
  const auto ms = floor<milliseconds>(t);
  const auto day = floor<days>(ms);
  const year_month_day ymd{day};
  const hh_mm_ss hms{ms - day};
  std::array<char, 48> buf{};
  std::snprintf(buf.data(), buf.size(), "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                static_cast<int>(hms.hours().count()), static_cast<int>(hms.minutes().count()),
                static_cast<int>(hms.seconds().count()), static_cast<int>(hms.subseconds().count()));
  return buf.data();
}

void append_hex_escape(std::string& out, char c) {
  static constexpr char kHex[] = "0123456789abcdef";
  const auto u = static_cast<unsigned char>(c);
  out += "\\x";
  out += kHex[u >> 4];
  out += kHex[u & 0xf];
}

std::string printable_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (is_printable_byte(c)) {
      out += c;
    } else {
      append_hex_escape(out, c);
    }
  }
  return out;
}

std::string printable_utf8_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    // The length of a well-formed sequence starting here, 0 when none does.
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if (lead >= 0xC2 && lead <= 0xDF) {
      n = 2;
      cp = lead & 0x1Fu;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      n = 3;
      cp = lead & 0x0Fu;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      n = 4;
      cp = lead & 0x07u;
    }
    for (std::size_t k = 1; n > 0 && k < n; ++k) {
      const unsigned c = i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0u;
      if ((c & 0xC0u) != 0x80u) {
        n = 0;
      } else {
        cp = cp << 6 | (c & 0x3Fu);
      }
    }
    const bool shortest = n == 2 || (n == 3 && cp >= 0x800) || (n == 4 && cp >= 0x10000);
    if (n > 0 && shortest && cp >= 0xA0 && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF)) {
      out.append(text.substr(i, n));
      i += n;
      continue;
    }
    if (is_printable_byte(text[i])) {
      out += text[i];
    } else {
      append_hex_escape(out, text[i]);
    }
    ++i;
  }
  return out;
}

std::string printable(std::string_view field, std::size_t max_bytes) {
  std::string out = printable_text(field.substr(0, max_bytes));
  if (field.size() > max_bytes) out += "...";
  return out;
}

}  // namespace tscaudit
