// The shells' completions, generated from the command line's tables (cli_reference.hpp): the
// commands and each command's options, for bash, zsh and fish. What to offer after an option
// that takes a value (the read variants, the formats, files or directories) is written by
// hand in each file, after its generated part, from the option's name alone.
#include <algorithm>
#include <string>
#include <vector>

#include "app/cli_reference.hpp"

namespace tscaudit::cli {
namespace {

/// The words a completion menu shows beside an option: its description up to the first "; "
/// or " (", cut at a word to at most 60 characters ("..." where cut).
std::string short_description(const std::string& text) {
  std::string out = text.substr(0, std::min(text.find("; "), text.find(" (")));
  constexpr std::size_t kMost = 60;
  if (out.size() > kMost) {
    const std::size_t space = out.rfind(' ', kMost - 3);
    out = out.substr(0, space == std::string::npos ? kMost - 3 : space) + "...";
  }
  return out;
}

/// Text inside a shell's single quotes: ' as '\'' (zsh).
std::string single_quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// A description in an _arguments spec's brackets, or a message after its colon: brackets,
/// colons and backslashes escaped with a backslash (_arguments reads them as its own syntax).
std::string zsh_spec_text(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '[' || c == ']' || c == ':' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

/// Text inside fish's single quotes: \ and ' escaped with a backslash.
std::string fish_quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\\' || c == '\'') out += '\\';
    out += c;
  }
  return out + "'";
}

}  // namespace

std::vector<Fragment> completion_reference(const std::vector<CommandDoc>& commands) {
  std::string names;
  for (const CommandDoc& c : commands) names += (names.empty() ? "" : " ") + c.name;
  std::vector<Fragment> out;
  out.push_back({"",
                 {"# The commands, in the order of `tscaudit --help`.", "_tscaudit_commands=\"" + names + "\"",
                  "# _tscaudit_options COMMAND: its options in opts, those that take a value in values.",
                  "_tscaudit_options() {", "  opts=() values=()", "  case $1 in"}});
  for (const CommandDoc& c : commands) {
    Fragment f{c.name, {"    " + c.name + ")"}};
    out.push_back(f);
    for (const OptionDoc& o : c.options) {
      if (o.positional) continue;
      std::string line = "      opts+=(" + o.name + ")";
      if (o.takes_value()) line += " values+=(" + o.name + ")";
      out.push_back({fragment_key(c, o), {line}});
    }
    out.push_back({c.name, {"      ;;"}});
  }
  out.push_back({"", {"  esac", "}"}});
  return out;
}

std::vector<Fragment> zsh_completion_reference(const std::vector<CommandDoc>& commands) {
  std::vector<Fragment> out;
  Fragment list{"",
                {"# The commands, in the order of `tscaudit --help`, with their summaries.", "_tscaudit_commands=("}};
  for (const CommandDoc& c : commands) list.lines.push_back("  " + single_quoted(c.name + ":" + c.summary));
  list.lines.emplace_back(")");
  list.lines.emplace_back("# _tscaudit_specs COMMAND: its options and arguments, as _arguments specs, in specs.");
  list.lines.emplace_back("_tscaudit_specs() {");
  list.lines.emplace_back("  case $1 in");
  out.push_back(list);
  for (const CommandDoc& c : commands) {
    out.push_back({c.name, {"    " + c.name + ")", "      specs=("}});
    for (const OptionDoc& o : c.options) {
      // A value is completed by _tscaudit_value, from the option's name (written by hand below).
      std::string spec;
      if (o.positional) {
        spec = std::string(o.repeatable ? "*" : "") + ":" + zsh_spec_text(o.name) + ":_files";
      } else {
        spec =
            std::string(o.repeatable ? "*" : "") + o.name + "[" + zsh_spec_text(short_description(o.description)) + "]";
        if (o.takes_value()) spec += ":" + zsh_spec_text(o.placeholder) + ":_tscaudit_value " + o.name;
      }
      out.push_back({fragment_key(c, o), {"        " + single_quoted(spec)}});
    }
    out.push_back({c.name, {"      )", "      ;;"}});
  }
  out.push_back({"", {"    *) specs=() ;;", "  esac", "}"}});
  return out;
}

std::vector<Fragment> fish_completion_reference(const std::vector<CommandDoc>& commands) {
  std::vector<Fragment> out;
  Fragment list{"", {"# The commands, in the order of `tscaudit --help`, with their summaries."}};
  for (const CommandDoc& c : commands) {
    list.lines.push_back("complete -c tscaudit -n __fish_use_subcommand -f -a " + c.name + " -d " +
                         fish_quoted(c.summary));
  }
  list.lines.emplace_back(
      "# Each command's options; a value is completed by __tscaudit_value, from the option's name.");
  out.push_back(list);
  for (const CommandDoc& c : commands) {
    const std::string when = "complete -c tscaudit -n " + fish_quoted("__fish_seen_subcommand_from " + c.name);
    bool files = false;
    for (const OptionDoc& o : c.options) files = files || o.positional;
    // A command with no FILE argument is offered no file names after it.
    out.push_back({c.name, {files ? "# " + c.name + ": its arguments are files" : when + " -f"}});
    for (const OptionDoc& o : c.options) {
      if (o.positional) continue;
      std::string line = when + " -l " + o.name.substr(2);
      if (o.takes_value()) line += " -x -a " + fish_quoted("(__tscaudit_value " + o.name + ")");
      line += " -d " + fish_quoted(short_description(o.description));
      out.push_back({fragment_key(c, o), {line}});
    }
  }
  return out;
}

}  // namespace tscaudit::cli
