// The text format of a run (docs/formats.md, "The run format"): the saved output of `measure`
// and the import format of `analyze`.
//
//   # schema: tscaudit-run/1
//   # key: value              header metadata (provenance, configuration)
//   seq,t1,t2,t3,t4,flags     column header; comma- or tab-separated
//   0,1234,1300,1310,1400,0   one round per line, unsigned decimal ticks
//   ...
//   # key: value              trailer metadata; the last is `# status: complete`
//
// Lines starting with `#` are comments; `# key: value` lines (key of [a-z0-9_]) are
// metadata. Required columns t1,t2,t3,t4; optional seq, flags, a, b, send, recv; other
// columns are read past. A run is complete only when its trailer says
// `status: complete`: a file cut short anywhere lacks that line. A last line without
// its line end is left out (Run::cut_line) in our own runs, which end every line, even
// when it parses ("4000" cut to "40"); in an import it is kept when it is a whole round.
//
// What the reader refuses (InputError "SOURCE:LINE:COLUMN: what", exit 2), beyond the
// line rules of text_lines.hpp (64 KiB per line, LF or CRLF ends, a BOM only at the start):
//   - a field that is not an unsigned decimal number of at most 64 bits (no sign, no
//     spaces inside, no hex, no fraction); a row with fewer or more fields than the header;
//   - quantum_ticks outside [1, kMaxMetadataQuantumTicks], tsc_hz outside
//     [0, kMaxMetadataTscHz] (0: unknown), more than kMaxMetadataKeys keys in a section;
//   - a seq that an earlier row already has (seqs may go backwards, not repeat).
// What it keeps, as evidence for the analysis: a round in which a counter runs backwards
// (t4 - t1 < 0 or t3 - t2 < 0, modulo 2^64), in an import as in our own runs, and rounds
// out of time order across rows.

#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/run.hpp"
#include "formats/text_lines.hpp"

namespace tscaudit {

inline constexpr std::string_view kRunSchema = "tscaudit-run/1";

/// Most distinct metadata keys in the header, and in the trailer. A measured run has
/// about 35; the limit keeps a file of a million `# kN: v` lines from a quadratic
/// lookup (Metadata is a vector) and from holding a million values of 64 KiB.
inline constexpr std::size_t kMaxMetadataKeys = 1000;
/// Largest `quantum_ticks` accepted: 1e9 ticks (0.4 s at 2.3 GHz) is beyond any counter
/// worth analyzing; the bound keeps q + ticks far from int64 overflow.
inline constexpr std::uint64_t kMaxMetadataQuantumTicks = 1'000'000'000;
/// Largest `tsc_hz` accepted (1 THz); 0 means unknown (what `measure` writes then).
inline constexpr std::uint64_t kMaxMetadataTscHz = 1'000'000'000'000;

/// Receives the text in pieces of up to about 1 MiB.
using TextSink = std::function<void(std::string_view)>;

/// Writes `run` (header metadata, column header, rounds, trailer metadata) to `sink`.
/// The schema line comes first whether or not the header holds it. Numbers go through
/// std::to_chars: no locale can change them.
void write_run(const Run& run, const TextSink& sink);

/// Parses a run or an imported table. `source` names the input in messages.
/// \throws InputError "SOURCE:LINE:COLUMN: what is wrong" for any malformed line (see
///         above), "SOURCE: what" for an empty text, a missing column header row or a
///         table without rounds.
Run parse_run(std::string_view text, std::string_view source);

/// Reads and parses a file ("-" reads standard input) in chunks of kReadChunkBytes:
/// the file's text is never held whole, only the rounds.
/// \throws InputError when it cannot be opened (missing, a directory, no permission: the
///         user named it) or is malformed; IoError on a read error once it is open.
Run read_run_file(const std::string& path);

/// The same over an open stream, `chunk_bytes` at a time (any size >= 1: lines may span
/// chunks). `size_hint` (bytes, 0 if unknown) reserves room for the rounds.
Run read_run_stream(std::FILE* file, std::string_view source, std::size_t chunk_bytes, std::size_t size_hint);

/// Why the run is not complete (no status line: cut short, with the trailer's `cut_short`
/// reason when it gives one; a status other than complete: aborted, with its error), or
/// nullopt when it is complete. An import (no `# schema:` line) carries no status line, so
/// it is complete unless it says otherwise (a `# status:` trailer line) or its last line,
/// without a line end, was not a whole round (docs/formats.md, "Import rules").
std::optional<std::string> incomplete_reason(const Run& run);

}  // namespace tscaudit
