// The text format of a run (README "The run format"): the saved output of `measure`
// and the import format of `analyze`.
//
//   # schema: tscsync-run/1
//   # key: value              header metadata (provenance, configuration)
//   seq,t1,t2,t3,t4,flags     column header; comma- or tab-separated
//   0,1234,1300,1310,1400,0   one round per line, unsigned decimal ticks
//   ...
//   # key: value              trailer metadata; the last is `# status: complete`
//
// Lines starting with `#` are comments; `# key: value` lines (key of [a-z0-9_]) are
// metadata. Required columns t1,t2,t3,t4; optional seq, flags, a, b, send, recv; other
// columns are read past. A run is complete only when its trailer says
// `status: complete`: a file cut short anywhere lacks that line.
#pragma once

#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "run.hpp"
#include "text_lines.hpp"

namespace tscsync {

inline constexpr std::string_view kRunSchema = "tscsync-run/1";

/// Receives the text in pieces of up to about 1 MiB.
using TextSink = std::function<void(std::string_view)>;

/// Writes `run` (header metadata, column header, rounds, trailer metadata) to `sink`.
/// The schema line comes first whether or not the header holds it. Numbers go through
/// std::to_chars: no locale can change them.
void write_run(const Run& run, const TextSink& sink);

/// Parses a run or an imported table. `source` names the input in messages.
/// \throws InputError "SOURCE:LINE:COLUMN: what is wrong" for any malformed line,
///         a missing required column, or a table without rounds.
Run parse_run(std::string_view text, std::string_view source);

/// Reads and parses a file ("-" reads standard input) in chunks of kReadChunkBytes:
/// the file's text is never held whole, only the rounds.
/// \throws IoError when it cannot be read, InputError when it is malformed.
Run read_run_file(const std::string& path);

/// The same over an open stream, `chunk_bytes` at a time (any size >= 1: lines may span
/// chunks). `size_hint` (bytes, 0 if unknown) reserves room for the rounds.
Run read_run_stream(std::FILE* file, std::string_view source, std::size_t chunk_bytes, std::size_t size_hint);

/// Why the run is not complete (no status line: cut short; a status other than
/// complete: aborted, with its error), or nullopt when it is complete.
std::optional<std::string> incomplete_reason(const Run& run);

}  // namespace tscsync
