// check --history DIR: the last answer of each boot, kept in DIR, and whether this boot's
// per-CPU offsets differ from the previous boot's (docs/commands.md, "Boot history"). A
// record is the check's JSON (`check --format json`) with the times it ended and was kept,
// its failures cut to the first 20, named boot-BOOT_ID.json after the kernel's boot id:
// `tscaudit compare` reads any two of them.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "matrix/offset_compare.hpp"

namespace tscaudit {

/// How many boots' records DIR keeps: the newest, by the time each was kept. A record is
/// some 110 bytes per CPU (8 kB for 64 CPUs).
inline constexpr std::size_t kBootsKept = 16;

/// DIR, ready before anything is measured: made, writable, and this boot's id read.
struct BootHistoryDir {
  std::string dir;
  std::string boot_id;  // as the kernel writes it: "0c3f1e2a-...-..."
  /// This boot's record in DIR: DIR/boot-BOOT_ID.json.
  [[nodiscard]] std::string record_path() const;
};

/// Makes DIR (and its parents) and reads this boot's id.
/// \throws UnsupportedError when the boot id cannot be read (no /proc); IoError naming DIR
///         when it cannot be made or written.
BootHistoryDir open_boot_history(const std::string& dir);

/// The previous boot's record against this boot's table.
struct BootComparison {
  std::string previous;         // the previous boot's record; "" when DIR holds none
  OffsetComparison comparison;  // previous (first) against this boot (second)
  std::size_t skipped = 0;      // files named boot-*.json that are no readable record
  /// Whether the two were compared: a previous record with CPUs in common with this one.
  [[nodiscard]] bool compared() const { return !previous.empty() && comparison.compared > 0; }
};

/// Compares the newest record in DIR of another boot (by the time it was kept) with
/// `now`, CPU by CPU (compare_offsets). A file that is no readable record, or a record
/// without a per-CPU table, is passed over and counted in `skipped`. Reads only.
BootComparison compare_with_previous_boot(const BootHistoryDir& history, const OffsetTable& now);

/// Writes `record` (the check's JSON; it must hold "kept_unix_s", the Unix time it is kept)
/// as this boot's, aside then renamed (a second check in one boot replaces the
/// first's), then removes the oldest records of other boots beyond kBootsKept in all.
/// Files that are no readable record are left in place.
/// \returns the record's path. \throws IoError when it cannot be written.
std::string keep_boot_record(const BootHistoryDir& history, const nlohmann::ordered_json& record);

}  // namespace tscaudit
