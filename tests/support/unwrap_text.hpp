// Text output as it was before its 100-column wrapping (render/text_wrap.hpp): each
// continuation line joined to the line it continues, so that a test can find a whole
// sentence wherever the line broke.
#pragma once

#include <string>

namespace tscaudit::test {

/// `text` with every line that starts with 4 spaces or more (a continuation: wrap_lines
/// indents one at least 2 columns further than its line, and a labelled line's under its
/// text) joined to the line before it with one space.
inline std::string unwrapped(const std::string& text) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(pos, end - pos);
    const std::size_t lead = line.find_first_not_of(' ');
    if (!out.empty() && out.back() == '\n' && lead != std::string::npos && lead >= 4) {
      out.back() = ' ';
      out += line.substr(lead);
    } else {
      out += line;
    }
    if (end < text.size()) out += '\n';
    pos = end + 1;
  }
  return out;
}

/// `text` with every run of spaces and line ends as one space: a sentence found in it is in
/// the text whatever the wrapping did to it (a line that starts in column 0 goes on two
/// columns in, as a table's rows start).
inline std::string flattened(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool blank = c == ' ' || c == '\n';
    if (blank && !out.empty() && out.back() == ' ') continue;
    out += blank ? ' ' : c;
  }
  return out;
}

}  // namespace tscaudit::test
