// Fields of text tables and `# key: value` metadata lines, shared by every reader (runs,
// imported tables, interval logs) so that each refuses bad input with the same words.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "core/format.hpp"  // printable, which every reader quotes its input with
#include "core/lines.hpp"  // trim, which the readers take spaces off fields with
#include "core/run.hpp"

namespace tscaudit {

/// Why a field is not a number; ok when it is one.
enum class FieldProblem { ok, empty, not_a_number, out_of_range };

/// An unsigned decimal field: digits only, no sign, no spaces (callers trim first).
/// `out` is written only when the result is ok.
FieldProblem parse_u64_field(std::string_view field, std::uint64_t& out);
/// A signed decimal field: an optional '-' and digits.
FieldProblem parse_i64_field(std::string_view field, std::int64_t& out);

/// The message for a field that is not a `what` ("an unsigned decimal number", "a signed
/// decimal number"), quoting it printably. \pre problem != FieldProblem::ok.
std::string field_problem_message(FieldProblem problem, std::string_view field, std::string_view what);

/// The value of `key` in `meta` as a signed decimal (spaces around it allowed); nullopt
/// when absent or not such a number.
std::optional<std::int64_t> metadata_i64(const Metadata& meta, std::string_view key);

/// "# key: value" (key of [a-z0-9_]) -> (key, value) with the value trimmed; nullopt for
/// any other line, comments included.
std::optional<std::pair<std::string, std::string>> parse_metadata_line(std::string_view line);

/// Appends the decimal digits of `v` (with '-' when negative) to `out`: the writers' one
/// way of printing an integer (no locale, no allocation beyond `out`'s).
void append_u64(std::string& out, std::uint64_t v);
void append_i64(std::string& out, std::int64_t v);

/// Appends "# key: value\n"; a line end inside the value becomes a space, so a value can
/// never end its line early and forge another.
void append_metadata_line(std::string& out, std::string_view key, std::string_view value);

}  // namespace tscaudit
