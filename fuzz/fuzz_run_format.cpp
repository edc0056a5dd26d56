// Fuzz harness of the run reader (analysis/formats/run_format.hpp). Each input is read twice,
// whole by parse_run and in chunks by read_run_stream (a stream over the same bytes), and
// the two must agree: the same run, or the same message. Findings:
//  - any exception but InputError, a crash, a sanitizer report;
//  - the readers disagree;
//  - a message that breaks the reader contract (fuzz_support.hpp: check_input_error);
//  - a run read although a line is longer than kMaxLineBytes;
//  - a run that does not read back the same after write_run.
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/errors.hpp"
#include "formats/run_format.hpp"
#include "formats/text_fields.hpp"
#include "fuzz_support.hpp"

namespace {

using tscaudit::fuzz::finding;
using tscaudit::fuzz::kSource;
using tscaudit::fuzz::outcome_of;

constexpr std::string_view kTarget = "run_format";

/// A run, or the message of the InputError that refused it.
using Outcome = tscaudit::fuzz::Outcome<tscaudit::Run>;

/// Writes `run` and reads it back: the rounds and metadata must survive.
void check_round_trip(const tscaudit::Run& run) {
  std::string text;
  tscaudit::write_run(run, [&](std::string_view piece) { text += piece; });
  const Outcome back =
      outcome_of(kTarget, "parse_run of write_run's text", [&] { return tscaudit::parse_run(text, kSource); });
  if (const auto* message = std::get_if<std::string>(&back)) {
    finding(kTarget, "write_run wrote a run that parse_run refuses: " + *message);
  }
  const tscaudit::Run& reread = std::get<tscaudit::Run>(back);
  if (reread.rounds != run.rounds) finding(kTarget, "the rounds differ after write_run and parse_run");
  if (tscaudit::fuzz::as_written(reread.header) != tscaudit::fuzz::as_written(run.header)) {
    finding(kTarget, "the header metadata differs after write_run and parse_run");
  }
  if (tscaudit::fuzz::as_written(reread.trailer) != tscaudit::fuzz::as_written(run.trailer)) {
    finding(kTarget, "the trailer metadata differs after write_run and parse_run");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::size_t chunk_bytes = tscaudit::fuzz::chunk_bytes_of(data, size);

  const Outcome whole = outcome_of(kTarget, "parse_run", [&] { return tscaudit::parse_run(text, kSource); });
  std::FILE* file = tscaudit::fuzz::open_memory_stream(text);
  if (file == nullptr) finding(kTarget, "fmemopen failed (not a finding in the reader: the harness cannot run)");
  const Outcome chunked = outcome_of(kTarget, "read_run_stream",
                                     [&] { return tscaudit::read_run_stream(file, kSource, chunk_bytes, size); });
  std::fclose(file);

  const auto* whole_message = std::get_if<std::string>(&whole);
  const auto* chunked_message = std::get_if<std::string>(&chunked);
  if (size == 0) {
    // By design the stream reader calls an empty input an empty file and parse_run finds
    // no header row; both must refuse it.
    if (whole_message == nullptr || chunked_message == nullptr) finding(kTarget, "an empty input was read as a run");
    return 0;
  }
  if (whole_message != nullptr || chunked_message != nullptr) {
    if (whole_message == nullptr || chunked_message == nullptr) {
      finding(kTarget, "one reader refused the input and the other did not: " +
                           (whole_message != nullptr
                                ? "parse_run: " + *whole_message
                                : "read_run_stream (chunk " + std::to_string(chunk_bytes) + "): " + *chunked_message));
    }
    if (*whole_message != *chunked_message) {
      finding(kTarget, "the readers refuse with different messages: parse_run '" + *whole_message +
                           "', read_run_stream (chunk " + std::to_string(chunk_bytes) + ") '" + *chunked_message + "'");
    }
    if (const std::string problem = tscaudit::fuzz::check_input_error(*whole_message, text); !problem.empty()) {
      finding(kTarget, problem + ": '" + *whole_message + "'");
    }
    return 0;
  }
  const tscaudit::Run& run = std::get<tscaudit::Run>(whole);
  tscaudit::fuzz::check_readings_agree(kTarget, "run", run, std::get<tscaudit::Run>(chunked), &tscaudit::Run::rounds,
                                      chunk_bytes, text);
  check_round_trip(run);
  return 0;
}
