// Text output that fits a 100-column terminal: the one wrapping helper of every command's
// text (docs/commands.md, "Conventions"), and the width it keeps to.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tscaudit {

/// The width every command's text output fits (docs/commands.md, "Conventions"): a
/// 100-column terminal. JSON, CSV and raw tables (.dat files) are exempt.
inline constexpr std::size_t kTextColumns = 100;

/// How many columns `line` takes: its UTF-8 code points ("±" and "θ" take one each).
std::size_t text_columns(std::string_view line);

/// Whether a continuation line may start with an option's name ("--budget"). In --help's
/// description column such a line would read as an option of its own (docs/commands.md,
/// "Conventions"), so there the word before the name goes along with it, where the two fit.
enum class OptionBreak { anywhere, never_before_option };

/// `text` with every line longer than `width` columns broken at spaces: the words that do
/// not fit go on continuation lines that start with `indent`. A word longer than the line
/// stays whole on its own line (a path, a number: never cut). Lines that fit, and the
/// spaces inside them, are kept as they are; a last line without '\n' stays without one.
std::string wrap_words(std::string_view text, std::size_t width, std::string_view indent,
                       OptionBreak option_break = OptionBreak::anywhere);

/// wrap_words with each line's own hanging indent: a labelled line ("  offset    0 ticks
/// ...", "kernel tsc flags    constant_tsc ...": the label followed by two spaces or more,
/// within the first 40 columns) goes on under the text after its label; any other line
/// goes on two columns further in than it starts.
std::string wrap_lines(std::string_view text, std::size_t width = kTextColumns);

/// `text` left-aligned in `width` columns of a table (text_columns: "±" takes one): spaces
/// added after it; as it is when it is as wide already.
std::string pad_right(std::string text, std::size_t width);

}  // namespace tscaudit
