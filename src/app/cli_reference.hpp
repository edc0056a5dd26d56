// The reference parts of the man page, docs/commands.md and the shells' completions, generated
// from the command line's tables (command_docs(): the command list and each command's CLI11
// registrations), so that each option is described once, where it is registered. The
// committed files hold each part between BEGIN and END marker lines; `make reference` rewrites
// them (tscaudit_reference write), and a test fails, naming the option, where they differ
// (tscaudit_reference check; docs/commands.md, "Reference").
#pragma once

#include <string>
#include <vector>

#include "app/cli.hpp"

namespace tscaudit::cli {

/// Lines of a generated part that belong to one thing: "CMD --option", "CMD" (its heading
/// and summary), or "" (what stands before or after every command).
struct Fragment {
  std::string key;
  std::vector<std::string> lines;
};

/// The key of an option's fragment: "CMD --option".
std::string fragment_key(const CommandDoc& command, const OptionDoc& option);

/// One file's generated part: where it is, the marker lines around it, and how it is made.
struct GeneratedPart {
  std::string path;  // relative to the source tree
  std::string begin_marker, end_marker;
  std::vector<Fragment> (*make)(const std::vector<CommandDoc>& commands);
};

/// The man page's COMMANDS section, with every option under its command.
std::vector<Fragment> man_reference(const std::vector<CommandDoc>& commands);
/// docs/commands.md's reference: a table of options per command.
std::vector<Fragment> markdown_reference(const std::vector<CommandDoc>& commands);
/// The bash completion's lists: the commands, and each command's options and those that take
/// a value (cli_completion.cpp, as the two below).
std::vector<Fragment> completion_reference(const std::vector<CommandDoc>& commands);
/// The zsh completion's lists: the commands with their summaries, and each command's
/// _arguments specs (an option's value completed by the file's _tscaudit_value).
std::vector<Fragment> zsh_completion_reference(const std::vector<CommandDoc>& commands);
/// The fish completion's `complete` lines: the commands with their summaries, and each
/// command's options (a value completed by the file's __tscaudit_value).
std::vector<Fragment> fish_completion_reference(const std::vector<CommandDoc>& commands);

/// The generated parts: the man page, docs/commands.md, and the three shells' completions.
const std::vector<GeneratedPart>& generated_parts();

/// The lines between `part`'s markers in `text` (the markers excluded).
/// \throws std::runtime_error naming the file when a marker is missing or out of order.
std::vector<std::string> committed_lines(const std::string& text, const GeneratedPart& part);

/// `text` with the lines between `part`'s markers replaced by `generated`.
/// \throws std::runtime_error as committed_lines.
std::string with_generated(const std::string& text, const GeneratedPart& part, const std::vector<Fragment>& generated);

/// "" when `committed` is `generated`'s lines; else the first difference, naming the option
/// (or command) whose lines differ and both lines.
std::string first_difference(const std::vector<std::string>& committed, const std::vector<Fragment>& generated);

}  // namespace tscaudit::cli
