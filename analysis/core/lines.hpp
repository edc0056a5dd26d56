// Splitting text into lines: the one loop that every reader of line-based text goes
// through, the readers of runs, tables, logs and visits (with their checks, in
// formats/text_lines.hpp) and the parsers of /proc and /sys files (src/platform).
#pragma once

#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

namespace tscaudit {

/// What a line's callback may return: go on to the next line, or stop at this one. A
/// callback that returns nothing goes on to the end.
enum class LineFlow { next, stop };

namespace detail {
/// on_line(args...) as a LineFlow.
template <class OnLine, class... Args>
LineFlow call_on_line(OnLine& on_line, Args&&... args) {
  if constexpr (std::is_void_v<std::invoke_result_t<OnLine&, Args...>>) {
    on_line(std::forward<Args>(args)...);
    return LineFlow::next;
  } else {
    return on_line(std::forward<Args>(args)...);
  }
}
}  // namespace detail

/// `s` without the trailing characters of `chars`.
constexpr std::string_view trim_end(std::string_view s, std::string_view chars) {
  return s.substr(0, s.find_last_not_of(chars) + 1);  // npos + 1 is 0: nothing left
}

/// `s` without the leading and trailing characters of `chars`: the fields of runs and
/// tables are trimmed of spaces (" "), the values of /proc and /sys of their blanks
/// (kBlanks, platform/kernel_facts.hpp).
constexpr std::string_view trim(std::string_view s, std::string_view chars) {
  const std::size_t first = s.find_first_not_of(chars);
  return first == std::string_view::npos ? std::string_view() : trim_end(s.substr(first), chars);
}

/// Calls on_line(line) for every line of `text`, without its '\n' (nothing else is taken
/// off: a '\r' stays); a last line without '\n' is a line too, an empty text has none.
/// Stops after a line for which on_line returns LineFlow::stop.
template <class OnLine>
void for_each_line(std::string_view text, OnLine&& on_line) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    if (detail::call_on_line(on_line, text.substr(pos, end - pos)) == LineFlow::stop) return;
    pos = end + 1;
  }
}

}  // namespace tscaudit
