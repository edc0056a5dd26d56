#include "formats/text_fields.hpp"

#include <array>
#include <charconv>
#include <limits>
#include <system_error>

namespace tscaudit {
namespace {

bool is_key_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }

template <class Int>
FieldProblem parse_integer_field(std::string_view field, Int& out) {
  if (field.empty()) return FieldProblem::empty;
  // from_chars takes no '+' and no space, but would take nothing else either: the check
  // below that it used every byte refuses the rest. `out` changes only on success.
  Int v = 0;
  const auto [ptr, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
  if (ec == std::errc::result_out_of_range) return FieldProblem::out_of_range;
  if (ec != std::errc{} || ptr != field.data() + field.size()) return FieldProblem::not_a_number;
  out = v;
  return FieldProblem::ok;
}

}  // namespace

FieldProblem parse_u64_field(std::string_view field, std::uint64_t& out) { return parse_integer_field(field, out); }

FieldProblem parse_i64_field(std::string_view field, std::int64_t& out) { return parse_integer_field(field, out); }

std::optional<std::int64_t> metadata_i64(const Metadata& meta, std::string_view key) {
  const auto v = meta.get(key);
  std::int64_t out = 0;
  if (!v || parse_i64_field(trim(*v, " "), out) != FieldProblem::ok) return std::nullopt;
  return out;
}

std::string field_problem_message(FieldProblem problem, std::string_view field, std::string_view what) {
  switch (problem) {
    case FieldProblem::empty: return "empty field (expected " + std::string(what) + ")";
    case FieldProblem::out_of_range: return "'" + printable(field) + "' is beyond 64 bits";
    case FieldProblem::not_a_number:
    case FieldProblem::ok: break;
  }
  return "'" + printable(field) + "' is not " + std::string(what);
}

std::optional<std::pair<std::string, std::string>> parse_metadata_line(std::string_view line) {
  if (line.size() < 2 || line[0] != '#' || line[1] != ' ') return std::nullopt;
  std::size_t i = 2;
  while (i < line.size() && is_key_char(line[i])) ++i;
  if (i == 2 || i >= line.size() || line[i] != ':') return std::nullopt;
  std::string key(line.substr(2, i - 2));
  return std::make_pair(std::move(key), std::string(trim(line.substr(i + 1), " ")));
}

void append_metadata_line(std::string& out, std::string_view key, std::string_view value) {
  out += "# ";
  out += key;
  out += ": ";
  for (char c : value) out += (c == '\n' || c == '\r') ? ' ' : c;
  out += '\n';
}

void append_u64(std::string& out, std::uint64_t v) {
  std::array<char, 24> buf{};
  const auto [ptr, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  static_cast<void>(ec);  // 24 characters always hold a uint64_t
  out.append(buf.data(), ptr);
}

void append_i64(std::string& out, std::int64_t v) {
  std::array<char, 24> buf{};
  const auto [ptr, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  static_cast<void>(ec);  // 24 characters always hold an int64_t, sign included
  out.append(buf.data(), ptr);
}

}  // namespace tscaudit
