#include "render/text_wrap.hpp"

#include <algorithm>

namespace tscaudit {

std::size_t text_columns(std::string_view line) {
  std::size_t n = 0;
  for (char c : line) n += (static_cast<unsigned char>(c) & 0xc0) == 0x80 ? 0 : 1;
  return n;
}

namespace {

/// One line (no '\n') wrapped into `out`.
void wrap_one(std::string_view line, std::size_t width, std::string_view indent, OptionBreak option_break,
              std::string& out) {
  if (text_columns(line) <= width) {
    out += line;
    return;
  }
  // The line's own leading spaces stay; then words, each preceded by the spaces that
  // stood before it unless it starts a continuation line.
  std::size_t pos = line.find_first_not_of(' ');
  if (pos == std::string_view::npos) pos = line.size();
  out += line.substr(0, pos);
  std::size_t used = pos;
  bool fresh = true;           // no word on this output line yet
  std::size_t words_here = 0;  // words on this output line
  std::string_view last_word;  // the last word put out
  std::size_t last_at = 0;     // where in `out` it starts, with the spaces before it
  while (pos < line.size()) {
    const std::size_t word_start = line.find_first_not_of(' ', pos);
    if (word_start == std::string_view::npos) break;  // trailing spaces are dropped
    std::size_t word_end = line.find(' ', word_start);
    if (word_end == std::string_view::npos) word_end = line.size();
    const std::string_view gap = line.substr(pos, word_start - pos);
    const std::string_view word = line.substr(word_start, word_end - word_start);
    const std::size_t cols = text_columns(word);
    if (!fresh && used + gap.size() + cols > width) {
      // An option's name never starts the continuation: the word before it goes along,
      // unless it is the line's only word or the two do not fit together.
      const std::size_t carried = text_columns(indent) + text_columns(last_word) + gap.size() + cols;
      const bool carry = option_break == OptionBreak::never_before_option && word.starts_with("--") &&
                         words_here > 1 && carried <= width;
      if (carry) out.resize(last_at);
      out += '\n';
      out += indent;
      used = text_columns(indent);
      fresh = true;
      words_here = 0;
      if (carry) {
        out += last_word;
        used += text_columns(last_word);
        fresh = false;
        words_here = 1;
      }
    }
    last_at = out.size();
    if (!fresh) {
      out += gap;
      used += gap.size();
    }
    out += word;
    used += cols;
    fresh = false;
    ++words_here;
    last_word = word;
    pos = word_end;
  }
}

/// The hanging indent of wrap_lines for one line: under the text after a label (the
/// first run of two spaces or more, within kLabelColumns), else two columns in.
std::string hanging_indent(std::string_view line) {
  constexpr std::size_t kLabelColumns = 40;
  const std::size_t lead = std::min(line.find_first_not_of(' '), line.size());
  const std::size_t gap = line.find("  ", lead);
  if (gap != std::string_view::npos && gap < kLabelColumns) {
    const std::size_t text_start = line.find_first_not_of(' ', gap);
    if (text_start != std::string_view::npos && text_start < kLabelColumns) return std::string(text_start, ' ');
  }
  return std::string(lead + 2, ' ');
}

template <class IndentOf>
std::string wrap_each(std::string_view text, std::size_t width, OptionBreak option_break, IndentOf indent_of) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    const bool newline = end != std::string_view::npos;
    if (!newline) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    wrap_one(line, width, indent_of(line), option_break, out);
    if (newline) out += '\n';
    pos = end + 1;
  }
  return out;
}

}  // namespace

std::string wrap_words(std::string_view text, std::size_t width, std::string_view indent, OptionBreak option_break) {
  return wrap_each(text, width, option_break, [&](std::string_view) { return std::string(indent); });
}

std::string wrap_lines(std::string_view text, std::size_t width) {
  return wrap_each(text, width, OptionBreak::anywhere, [](std::string_view line) { return hanging_indent(line); });
}

std::string pad_right(std::string text, std::size_t width) {
  const std::size_t columns = text_columns(text);
  if (columns < width) text.append(width - columns, ' ');
  return text;
}

}  // namespace tscaudit
