// What every reader's fuzz harness shares: how a finding is reported, how a reader's
// outcome is taken and compared, and the checks that hold for any text reader (messages
// name the source, line and column; no line is held beyond kMaxLineBytes). Built both with libFuzzer (clang,
// scripts/fuzz.sh) and with g++ into the corpus replay of the normal suite (replay_main.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "core/errors.hpp"
#include "core/run.hpp"

// The entry point every harness defines: libFuzzer's, and replay_main's.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace tscaudit::fuzz {

/// The source name the harnesses give the readers, and so the first word of every message.
inline constexpr std::string_view kSource = "fuzz";

/// Reports a finding on stderr and aborts: libFuzzer saves the input as a crash
/// reproducer, the replay test fails.
[[noreturn]] void finding(std::string_view target, const std::string& what);

/// What a reader gave: its reading (a Run, an IntervalLog), or the message of the
/// InputError that refused the text.
template <class Reading>
using Outcome = std::variant<Reading, std::string>;

/// The outcome of `read()`. Any exception but InputError is a finding of `target`, naming
/// `reader`.
template <class Read>
Outcome<std::invoke_result_t<Read&>> outcome_of(std::string_view target, std::string_view reader, Read&& read) {
  try {
    return read();
  } catch (const InputError& e) {
    return std::string(e.what());
  } catch (const std::exception& e) {
    finding(target, std::string(reader) + " threw something other than InputError: " + e.what());
  } catch (...) {
    finding(target, std::string(reader) + " threw something other than a std::exception");
  }
}

/// The chunk size of the stream reader for an input: 1..256 bytes, from the first byte and
/// the length, so that mutating either moves the chunk edges while the committed corpus
/// stays plain files.
inline std::size_t chunk_bytes_of(const std::uint8_t* data, std::size_t size) {
  return 1 + (size == 0 ? 0 : (data[0] + size) % 256);
}

/// A read-only stream over `text` (fmemopen), for the readers that take a FILE*.
/// Empty text gets a stream at end of file. \returns nullptr only when fmemopen fails.
std::FILE* open_memory_stream(std::string_view text);

/// The 1-based number of the first line (split as text_lines.hpp splits: at '\n', one '\r'
/// before it dropped) longer than kMaxLineBytes, or 0 when there is none.
std::size_t first_long_line(std::string_view text);

/// When both readers read `text`: the whole reading and the chunked one (chunks of
/// `chunk_bytes`) must agree (the same rows, the member `rows`: rounds, intervals; header
/// and trailer metadata; cut line), and no line may be longer than kMaxLineBytes. `what`
/// names a reading in the findings ("run", "log").
template <class Reading, class Rows>
void check_readings_agree(std::string_view target, std::string_view what, const Reading& whole, const Reading& chunked,
                          Rows Reading::*rows, std::size_t chunk_bytes, std::string_view text) {
  if (whole.header.entries() != chunked.header.entries() || whole.*rows != chunked.*rows ||
      whole.trailer.entries() != chunked.trailer.entries() || whole.cut_line != chunked.cut_line) {
    finding(target,
            "the readers read different " + std::string(what) + "s (chunk " + std::to_string(chunk_bytes) + ")");
  }
  if (const std::size_t long_line = first_long_line(text); long_line != 0) {
    finding(target, "a " + std::string(what) + " was read although line " + std::to_string(long_line) +
                        " is longer than the limit");
  }
}

/// Checks an InputError message against the reader contract, and returns what is wrong
/// with it (empty when nothing is):
///  - it is "fuzz: what" or "fuzz:LINE:COLUMN: what";
///  - LINE is a line of `text` and COLUMN lies within it (at most its length + 1; a line
///    refused for its length names column kMaxLineBytes + 1), or LINE:1 is the line after
///    the last (where a missing line was expected: an empty file is "SOURCE:1:1: ...");
///  - no line beyond the first one longer than kMaxLineBytes was read: the error is on
///    that line or before it, and on it only the long-line message;
///  - every byte is printable ASCII: input is quoted with printable(), so no message can
///    carry escape sequences or binary garbage to a terminal.
std::string check_input_error(std::string_view message, std::string_view text);

/// `meta` as the writers write it and the readers read it back (run_format, interval_log):
/// the schema key aside (the writer puts its own first), a line end in a value becomes a
/// space, and reading back trims the spaces at both ends.
std::vector<std::pair<std::string, std::string>> as_written(const tscaudit::Metadata& meta);

}  // namespace tscaudit::fuzz
