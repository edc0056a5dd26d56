// Durations and sizes for people to read ("2 min 14 s", "1.6 GB"), not for files to parse.
#pragma once

#include <cstdint>
#include <string>

namespace tscaudit {

/// A duration, in the two largest units that matter: "0.3 s", "9.9 s" (one decimal below
/// 10 s), "45 s", "2 min 14 s", "3 h 5 min", "2 d 3 h" (whole units, rounded to the second
/// first). "?" for a negative or non-finite value.
std::string human_duration(double seconds);

/// A duration with three significant digits in the unit that reads best: "40.2 ns",
/// "3.1 µs", "66.5 ms", "42 s", "3.5 min", "2.1 h", "4.2 days"; "no limit" for infinity,
/// "unknown" for NaN.
std::string duration_words(double seconds);

/// A size in decimal units with one decimal: "512 B", "4.1 kB", "261.1 MB", "10.4 GB", "1.2 TB".
std::string human_bytes(std::uint64_t bytes);

}  // namespace tscaudit
