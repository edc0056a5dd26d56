// A run in the text format and back, for the tests of the format and of what writes runs.
#pragma once

#include <catch2/catch.hpp>

#include <string>

#include "formats/run_format.hpp"

namespace tscaudit::test {

/// `run` in the text format.
inline std::string run_text(const Run& run) {
  std::string text;
  write_run(run, [&](std::string_view s) { text += s; });
  return text;
}

/// Writes `run` and reads it back: the same rounds and metadata, complete, and the same
/// text again. Returns what was read.
inline Run check_round_trip(const Run& run) {
  const std::string text = run_text(run);
  Run back = parse_run(text, "mem");
  CHECK(back.rounds == run.rounds);
  CHECK(back.header.entries() == run.header.entries());
  CHECK(back.trailer.entries() == run.trailer.entries());
  CHECK_FALSE(incomplete_reason(back).has_value());
  CHECK(run_text(back) == text);
  return back;
}

}  // namespace tscaudit::test
