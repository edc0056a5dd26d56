// The state file that `check --publish` writes and libtscaudit's tscaudit_state_open reads
// (docs/formats.md, "The state file"): a PublishedState as fixed little-endian binary, so
// that a program reads it in microseconds with no parser, and checks it whole.
//
//   offset  bytes  field
//        0      8  magic "TSCSTATE"
//        8      2  major version (1): a reader refuses another major
//       10      2  minor version (0): a later minor only adds at the ends of the header and
//                  of the records, which a reader of an earlier one skips
//       12      4  header_bytes: where the records start (448 in 1.0)
//       16      8  file_bytes: the whole file; a file of another size is cut short or torn
//       24      8  checksum: FNV-1a 64 of the whole file with these 8 bytes read as 0
//       32      4  verdict (PublishedVerdict)          36   4  from (PublishedFrom)
//       40      8  bound_ns (f64)   48  8  tolerance_ns (f64)   56  8  valid_seconds (f64, may be +inf)
//       64     32  boottime_ns, realtime_ns, monotonic_ns, monotonic_raw_ns (i64 each; 0 unknown)
//       96     16  boot_id (all 0: unknown)
//      112     32  clocksource, NUL-terminated
//      144    256  reason, NUL-terminated
//      400      4  reference_cpu (i32)                 404  4  0
//      408      8  quantum_ticks (i64, >= 1)           416  8  counter_hz (f64, >= 0)
//      424      8  as_of_counter (u64)
//      432      4  cpu_records                         436  4  record_bytes (40 in 1.0)
//      440      4  online_cpus                         444  4  0
//      header_bytes: cpu_records records of record_bytes each, CPU numbers ascending:
//        0  4  cpu (i32, 0 .. 65535)   4  4  0
//        8 32  offset_lo_ticks, offset_hi_ticks, drift_lo_ppb, drift_hi_ppb (f64 each, finite, lo <= hi)
//      then online_cpus CPU numbers (u32 each, ascending, < 65536).
//
// Written whole and renamed into place (src/io), so a reader sees the old file or the new
// one; the size and the checksum still refuse a file cut short, torn or damaged otherwise.
// Pure: bytes in, values out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "order/published_state.hpp"

namespace tscaudit {

inline constexpr std::uint16_t kStateMajor = 1;
inline constexpr std::uint16_t kStateMinor = 0;
inline constexpr std::size_t kStateHeaderBytes = 448;
inline constexpr std::size_t kStateRecordBytes = 40;
/// The largest CPU number a state file holds, plus one.
inline constexpr int kStateMaxCpus = 65536;
/// The largest file a reader takes: 65536 records and CPUs, with room for later minors.
inline constexpr std::size_t kStateMaxBytes = 16u << 20;

/// The file's bytes. \pre the state is what a check proved: its table's bands finite with
/// lo <= hi, CPU numbers and online CPUs in [0, kStateMaxCpus), the reference CPU banded.
/// Strings longer than their fields are cut at a UTF-8 character's start.
std::vector<std::uint8_t> encode_state(const PublishedState& state);

/// Reads a state file. false, with `error` one line saying what is wrong (cut short,
/// another major version, a checksum that does not match, a field out of range: each names
/// the field or the byte offset), when `bytes` is not a state file this reader can use; `out`
/// is then unspecified. Never throws but std::bad_alloc.
bool decode_state(std::span<const std::uint8_t> bytes, PublishedState& out, std::string& error);

/// FNV-1a 64 of `bytes` with the 8 checksum bytes (offset 24) read as 0.
std::uint64_t state_checksum(std::span<const std::uint8_t> bytes);

}  // namespace tscaudit
