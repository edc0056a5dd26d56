// JSON from a file that a hostile directory may hold (a run directory's manifest, an earlier
// report's info.json), read at a cost that grows with its size and no faster:
//  - check_json_depth, before a parser sees the text: nlohmann's parser is iterative, but a
//    copy of a value recurses once per level, so a value nested 100,000 deep overflowed the
//    stack (SIGSEGV) when the manifest's `platform` was copied;
//  - parse_ordered_json: the parse of nlohmann::ordered_json looks each key up among those of
//    its object before it (40,000 keys: 1.2 s; 100,000: 12 s), this one through an index.
// Limits in docs/formats.md, "Run directory", "Limits".
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tscaudit {

/// The deepest JSON a reader takes: arrays and objects inside each other, the outermost
/// counted as 1. A manifest this version writes nests 5 deep.
inline constexpr std::size_t kMaxJsonDepth = 64;

/// "LINE:COLUMN" of byte `offset` of `text` (both from 1; columns count bytes, as JSON's
/// positions do: a CR is a column).
std::string json_line_column(std::string_view text, std::size_t offset);

/// Refuses `text` when an array or object in it opens more than `max_depth` levels deep,
/// counting brackets outside strings (a '[' inside a string, or after a backslash in it, is
/// text). Whatever else is wrong with the JSON is left to the parser. O(size), no allocation.
/// \throws InputError "PATH:LINE:COLUMN: nested deeper than 64" at the bracket that opens
///         the level beyond.
void check_json_depth(std::string_view text, const std::string& path, std::size_t max_depth = kMaxJsonDepth);

/// `text` parsed as nlohmann::ordered_json::parse(text) parses it: the same values, keys in
/// the order written, a key given twice in its first place with its last value; in time
/// O(size · log(keys of an object)).
/// \pre check_json_depth(text) passed (a value this deep is copied recursively elsewhere).
/// \throws nlohmann::ordered_json::parse_error (its byte: where) or out_of_range (a number
///         beyond a double), as parse does.
nlohmann::ordered_json parse_ordered_json(std::string_view text);

/// `text`, the whole of the file at `path`, as JSON: check_json_depth, then
/// parse_ordered_json. \throws InputError "PATH:LINE:COLUMN: not JSON: WHY" (a number beyond
/// a double: where it first appears), or check_json_depth's.
nlohmann::ordered_json json_input(std::string_view text, const std::string& path);

}  // namespace tscaudit
