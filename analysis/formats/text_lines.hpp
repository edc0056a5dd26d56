// Splitting text input into lines, shared by every reader of text files (runs, imported
// tables, interval logs): the same limits and the same messages everywhere.
//
// A line ends at '\n'; a '\r' before it is dropped (CRLF files). A '\r' anywhere else is
// refused with its column: a file with old Mac line ends (CR only) or a stray control
// byte is not silently read as one long line or a strange field. A UTF-8 byte order mark
// at the start of the text (Excel writes one) is dropped; columns on line 1 count from
// after it. A line longer than kMaxLineBytes is refused with its line number: no reader
// ever holds an unbounded line (a binary file without newlines, a runaway field) in memory.
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "core/errors.hpp"
#include "core/format.hpp"
#include "core/lines.hpp"

namespace tscaudit {

/// The longest line a reader accepts, without its line end. A round of a run is under
/// 120 bytes and an interval log line under 1 KiB; 64 KiB leaves room for imported tables
/// with many extra columns.
inline constexpr std::size_t kMaxLineBytes = std::size_t{1} << 16;

/// How much a stream reader reads at a time.
inline constexpr std::size_t kReadChunkBytes = std::size_t{4} << 20;

[[noreturn]] inline void fail_long_line(std::string_view source, std::size_t line_no) {
  throw InputError(printable_text(source) + ":" + std::to_string(line_no) + ":" + std::to_string(kMaxLineBytes + 1) +
                   ": line longer than " + std::to_string(kMaxLineBytes) +
                   " bytes (not a text table, or a line end is missing)");
}

/// The byte order mark that Excel and some Windows tools put before UTF-8 text.
inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

[[noreturn]] inline void fail_lone_cr(std::string_view source, std::size_t line_no, std::size_t column) {
  throw InputError(printable_text(source) + ":" + std::to_string(line_no) + ":" + std::to_string(column) +
                   ": a carriage return (\\r) inside the line (line ends must be LF or CRLF)");
}

/// The index of the first control byte of `line` (below 0x20 except tab, or 0x7f), or npos.
/// No text table holds one; a binary or compressed file soon does.
inline std::size_t first_control_byte(std::string_view line) {
  for (std::size_t i = 0; i < line.size(); ++i) {
    const auto u = static_cast<unsigned char>(line[i]);
    if ((u < 0x20 && u != '\t') || u == 0x7f) return i;
  }
  return std::string_view::npos;
}

/// \pre column names a byte of `line` (from 1).
[[noreturn]] inline void fail_not_text(std::string_view source, std::size_t line_no, std::string_view line,
                                       std::size_t column) {
  std::string hex;
  append_hex_escape(hex, line[column - 1]);
  throw InputError(printable_text(source) + ":" + std::to_string(line_no) + ":" + std::to_string(column) + ": byte " +
                   hex + " is not text (a binary or compressed file?)");
}

namespace detail {
/// The cold end of checked_line: `line` holds a '\r' at index `cr`.
[[noreturn]] [[gnu::noinline]] inline void fail_inside_cr(std::string_view source, std::size_t line_no,
                                                          std::string_view line, std::size_t cr) {
  // A CR in binary data says less than the first control byte does.
  if (const std::size_t c = first_control_byte(line); c < cr) fail_not_text(source, line_no, line, c + 1);
  fail_lone_cr(source, line_no, cr + 1);
}

/// `line` (without its '\n') as a reader sees it: without the '\r' of a CRLF end and, on
/// line 1, without a byte order mark. \throws InputError for a line over kMaxLineBytes
/// or with a '\r' left inside (named as binary when a control byte comes before it).
inline std::string_view checked_line(std::string_view line, std::string_view source, std::size_t line_no) {
  if (line_no == 1 && line.starts_with(kUtf8Bom)) line.remove_prefix(kUtf8Bom.size());
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.size() > kMaxLineBytes) fail_long_line(source, line_no);
  if (const std::size_t cr = line.find('\r'); cr != std::string_view::npos) fail_inside_cr(source, line_no, line, cr);
  return line;
}
}  // namespace detail

/// Calls on_line(line, line_no, terminated) for every line of `text` (line_no from 1;
/// terminated false only for a last line without '\n'). \throws InputError for a line
/// longer than kMaxLineBytes or with a lone '\r', before on_line sees it.
template <class OnLine>
void for_each_line(std::string_view text, std::string_view source, OnLine&& on_line) {
  std::size_t line_no = 0;
  for_each_line(text, [&](std::string_view line) {
    ++line_no;
    // Only the last line can end where the text does, without a '\n'.
    const bool terminated = line.data() + line.size() != text.data() + text.size();
    on_line(detail::checked_line(line, source, line_no), line_no, terminated);
  });
}

/// The lines of text that arrives in chunks (a stream read a piece at a time, a frame as
/// it decompresses), checked as for_each_line checks them: a line that spans chunks is
/// carried over to the next, and refused as soon as the part carried passes the limit.
class ChunkedLines {
 public:
  explicit ChunkedLines(std::string_view source) : source_(source) {}

  /// Calls on_line(line, line_no) for every line that a '\n' in `data` ends (line_no from
  /// 1, counted over every chunk); keeps the start of a line that `data` does not end.
  /// on_line returns void, or LineFlow::stop to end at that line (the rest of `data` is
  /// dropped). \returns LineFlow::stop when on_line stopped. \throws InputError for a line
  /// longer than kMaxLineBytes or with a lone '\r'.
  template <class OnLine>
  LineFlow feed(std::string_view data, OnLine&& on_line) {
    std::size_t pos = 0;
    while (true) {
      const std::size_t end = data.find('\n', pos);
      if (end == std::string_view::npos) {
        carry_.append(data.substr(pos));
        // +1: a '\r' that the next chunk's '\n' would strip may end a line at the limit;
        // line 1 may also start with a byte order mark that will be dropped.
        const std::size_t allowed = kMaxLineBytes + 1 + (line_no_ == 0 ? kUtf8Bom.size() : 0);
        if (carry_.size() > allowed) fail_long_line(source_, line_no_ + 1);
        return LineFlow::next;
      }
      ++line_no_;
      std::string_view line;
      if (carry_.empty()) {
        line = data.substr(pos, end - pos);
      } else {
        carry_.append(data.substr(pos, end - pos));
        line = carry_;
      }
      const LineFlow flow = detail::call_on_line(on_line, detail::checked_line(line, source_, line_no_), line_no_);
      carry_.clear();
      pos = end + 1;
      if (flow == LineFlow::stop) return LineFlow::stop;
    }
  }

  /// The text ended inside a line: the chunks held bytes after the last '\n'.
  [[nodiscard]] bool in_line() const { return !carry_.empty(); }
  /// The lines that a '\n' ended so far.
  [[nodiscard]] std::size_t lines() const { return line_no_; }

  /// At the end of the text: calls on_line(line, line_no) for a last line without '\n',
  /// checked, if there is one.
  template <class OnLine>
  void finish(OnLine&& on_line) {
    if (carry_.empty()) return;
    ++line_no_;
    on_line(detail::checked_line(carry_, source_, line_no_), line_no_);
  }

 private:
  std::string_view source_;
  std::string carry_;  // the start of a line that continues in the next chunk
  std::size_t line_no_ = 0;
};

/// The same over an open stream, read `chunk_bytes` at a time (any size >= 1: lines may
/// span chunks). The text is never held whole: at most one chunk and one line.
/// on_line(line, line_no, terminated) returns void, or LineFlow::stop to read no further.
/// \returns the number of bytes read. \throws IoError on a read error, InputError for a
/// line longer than kMaxLineBytes (found as soon as it passes the limit, without reading
/// the rest of it: memory stays within one chunk and one line) or with a lone '\r'.
template <class OnLine>
std::size_t for_each_line(std::FILE* file, std::string_view source, std::size_t chunk_bytes, OnLine&& on_line) {
  std::vector<char> chunk(chunk_bytes == 0 ? 1 : chunk_bytes);
  ChunkedLines lines(source);
  auto whole_line = [&](std::string_view line, std::size_t line_no) {
    return detail::call_on_line(on_line, line, line_no, true);
  };
  std::size_t total = 0;
  while (true) {
    const std::size_t n = std::fread(chunk.data(), 1, chunk.size(), file);
    if (n == 0) {
      if (std::ferror(file)) throw IoError(std::string(source) + ": read error: " + std::strerror(errno));
      break;
    }
    total += n;
    if (lines.feed(std::string_view(chunk.data(), n), whole_line) == LineFlow::stop) return total;
  }
  lines.finish([&](std::string_view line, std::size_t line_no) { on_line(line, line_no, false); });
  return total;
}

}  // namespace tscaudit
