#include "fuzz_support.hpp"

#include <charconv>
#include <cstdlib>
#include <vector>

#include "formats/text_fields.hpp"
#include "formats/text_lines.hpp"

namespace tscaudit::fuzz {
namespace {

/// The lengths of the lines of `text` (without line ends), split as for_each_line does.
std::vector<std::size_t> line_lengths(std::string_view text) {
  std::vector<std::size_t> lengths;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::size_t length = end - pos;
    if (length > 0 && text[end - 1] == '\r') --length;
    lengths.push_back(length);
    pos = end + 1;
  }
  return lengths;
}

/// Reads a decimal number at the front of `s`, and drops it and the ':' after it.
bool take_number(std::string_view& s, std::size_t& out) {
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (ec != std::errc{} || ptr == s.data() || ptr == s.data() + s.size() || *ptr != ':') return false;
  s.remove_prefix(static_cast<std::size_t>(ptr - s.data()) + 1);
  return true;
}

}  // namespace

void finding(std::string_view target, const std::string& what) {
  std::fprintf(stderr, "FINDING in %.*s: %s\n", static_cast<int>(target.size()), target.data(), what.c_str());
  std::fflush(stderr);
  std::abort();
}

std::FILE* open_memory_stream(std::string_view text) {
  // fmemopen refuses a size of 0 on some C libraries: an empty stream is one byte long,
  // read up to its end first.
  static char empty_byte = 0;
  if (text.empty()) {
    std::FILE* file = fmemopen(&empty_byte, 1, "r");
    if (file != nullptr) std::fgetc(file);
    return file;
  }
  // "r" reads the buffer only; the cast does not let anything write to it.
  return fmemopen(const_cast<char*>(text.data()), text.size(), "r");
}

std::size_t first_long_line(std::string_view text) {
  const std::vector<std::size_t> lengths = line_lengths(text);
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    if (lengths[i] > kMaxLineBytes) return i + 1;
  }
  return 0;
}

std::string check_input_error(std::string_view message, std::string_view text) {
  for (const char c : message) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f) return "the message holds a byte that is not printable ASCII";
  }
  std::string_view rest = message;
  if (rest.substr(0, kSource.size()) != kSource) return "the message does not start with the source name";
  rest.remove_prefix(kSource.size());
  if (rest.substr(0, 2) == ": ") {
    // No line named: the error is about the whole input (no header row, no rounds, ...),
    // and so it was read to its end, which a long line must have stopped.
    if (first_long_line(text) != 0) return "an error about the whole input, though a line is longer than the limit";
    return {};
  }
  if (rest.empty() || rest.front() != ':') return "the source name is not followed by ':'";
  rest.remove_prefix(1);
  std::size_t line_no = 0;
  std::size_t column = 0;
  if (!take_number(rest, line_no) || !take_number(rest, column) || rest.substr(0, 1) != " ") {
    return "the message is neither 'SOURCE: what' nor 'SOURCE:LINE:COLUMN: what'";
  }
  const std::vector<std::size_t> lengths = line_lengths(text);
  if (line_no == lengths.size() + 1 && column == 1) {
    // Where a missing line was expected, after the last one ("SOURCE:1:1: empty file").
    return first_long_line(text) != 0 ? "an error after the end of the input, though a line is longer than the limit"
                                      : std::string();
  }
  if (line_no < 1 || line_no > lengths.size()) {
    return "line " + std::to_string(line_no) + " named, the input has " + std::to_string(lengths.size());
  }
  if (column < 1 || column > lengths[line_no - 1] + 1) {
    return "column " + std::to_string(column) + " named, line " + std::to_string(line_no) + " is " +
           std::to_string(lengths[line_no - 1]) + " bytes long";
  }
  const std::size_t long_line = first_long_line(text);
  if (long_line != 0 && line_no > long_line) {
    return "an error on line " + std::to_string(line_no) + ", after line " + std::to_string(long_line) +
           " which is longer than the limit";
  }
  const bool long_line_message = rest.substr(0, 18) == " line longer than ";
  if (line_no == long_line && !long_line_message)
    return "line " + std::to_string(line_no) + " is too long, but the error is another";
  if (line_no != long_line && long_line_message)
    return "a line of " + std::to_string(lengths[line_no - 1]) + " bytes refused as too long";
  return {};
}

std::vector<std::pair<std::string, std::string>> as_written(const tscaudit::Metadata& meta) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [key, value] : meta.entries()) {
    if (key == "schema") continue;
    std::string written(value);
    for (char& c : written) {
      if (c == '\n' || c == '\r') c = ' ';
    }
    out.emplace_back(key, std::string(tscaudit::trim(written, " ")));
  }
  return out;
}

}  // namespace tscaudit::fuzz
