#include "app/cli_reference.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace tscaudit::cli {
namespace {

const char* const kMarkerWords = "generated from the command line's tables by `make reference`: edit those, not this";

/// Text for a roff text line or macro argument: backslashes and hyphens escaped (an
/// option's "--" is two hyphen-minus signs, not dashes), a leading '.' or '\'' made literal.
/// In running text an option's name is never hyphenated at a line's end ("--bud-get").
std::string roff_text(const std::string& text, bool running_text = false) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool starts_option = running_text && c == '-' && i + 1 < text.size() && text[i + 1] == '-' &&
                               (i == 0 || text[i - 1] == ' ' || text[i - 1] == '(');
    if (starts_option) out += "\\%";
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out.insert(0, "\\&");
  return out;
}

/// A table cell of Markdown: a '|' would end the cell.
std::string markdown_cell(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

/// The option as `--help` names it, with what it takes: "--cpus CPUS", "--step CPU=TICKS[@F] ...".
std::string option_with_placeholder(const OptionDoc& o) {
  std::string out = o.name;
  if (!o.placeholder.empty()) out += " " + o.placeholder;
  if (o.repeatable) out += " ...";
  return out;
}

/// The description with its default and whether it is required, as `--help` ends it.
std::string option_description(const OptionDoc& o) {
  std::string out = o.description;
  if (!o.default_value.empty()) out += " [default: " + o.default_value + "]";
  if (o.required) out += " (required)";
  return out;
}

}  // namespace

std::string fragment_key(const CommandDoc& c, const OptionDoc& o) { return c.name + " " + o.name; }

std::vector<Fragment> man_reference(const std::vector<CommandDoc>& commands) {
  std::vector<Fragment> out;
  for (const CommandDoc& c : commands) {
    out.push_back({c.name, {".SS \"tscaudit " + c.name + "\"", roff_text(c.summary, true) + "."}});
    for (const OptionDoc& o : c.options) {
      Fragment f{fragment_key(c, o), {".TP"}};
      if (o.positional) {
        f.lines.push_back(".IR " + roff_text(o.name) + (o.repeatable ? " ..." : ""));
      } else if (!o.takes_value()) {
        f.lines.push_back(".B " + roff_text(o.name));
      } else {
        f.lines.push_back(".BI " + roff_text(o.name) + " \" " + roff_text(o.placeholder) +
                          (o.repeatable ? " ..." : "") + "\"");
      }
      f.lines.push_back(roff_text(option_description(o), true));
      out.push_back(f);
    }
  }
  return out;
}

std::vector<Fragment> markdown_reference(const std::vector<CommandDoc>& commands) {
  std::vector<Fragment> out;
  // An option that an earlier command has the same (placeholder, default, words) is
  // described there once; the later row points to it.
  std::vector<std::pair<const CommandDoc*, const OptionDoc*>> described;
  auto same = [](const OptionDoc& a, const OptionDoc& b) {
    return a.name == b.name && a.placeholder == b.placeholder && a.description == b.description &&
           a.default_value == b.default_value && a.required == b.required && a.repeatable == b.repeatable;
  };
  for (const CommandDoc& c : commands) {
    Fragment head{c.name, {"", "### `tscaudit " + c.name + "`", "", c.summary + ".", ""}};
    head.lines.emplace_back("| option | default | meaning |");
    head.lines.emplace_back("|---|---|---|");
    out.push_back(head);
    for (const OptionDoc& o : c.options) {
      std::string value = o.required ? "required" : o.default_value;
      if (!value.empty() && value.find(' ') == std::string::npos) value = "`" + value + "`";
      std::string meaning = markdown_cell(o.description);
      const auto earlier =
          std::find_if(described.begin(), described.end(), [&](const auto& d) { return same(*d.second, o); });
      if (earlier != described.end()) {
        const std::string& name = earlier->first->name;
        meaning = "as for [" + name + "](#tscaudit-" + name + ")";
      } else {
        described.emplace_back(&c, &o);
      }
      out.push_back({fragment_key(c, o),
                     {"| `" + markdown_cell(option_with_placeholder(o)) + "` |" +
                      (value.empty() ? "" : " " + markdown_cell(value)) + " | " + meaning + " |"}});
    }
  }
  out.push_back({"", {""}});
  return out;
}

const std::vector<GeneratedPart>& generated_parts() {
  static const std::vector<GeneratedPart> kParts = {
      {"man/tscaudit.1", std::string(".\\\" BEGIN ") + kMarkerWords, ".\\\" END generated", &man_reference},
      {"docs/commands.md", std::string("<!-- BEGIN ") + kMarkerWords + " -->", "<!-- END generated -->",
       &markdown_reference},
      {"contrib/bash-completion/tscaudit", std::string("# BEGIN ") + kMarkerWords, "# END generated",
       &completion_reference},
      {"contrib/zsh-completion/_tscaudit", std::string("# BEGIN ") + kMarkerWords, "# END generated",
       &zsh_completion_reference},
      {"contrib/fish-completion/tscaudit.fish", std::string("# BEGIN ") + kMarkerWords, "# END generated",
       &fish_completion_reference},
  };
  return kParts;
}

namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// The indexes of the begin and end marker lines.
std::pair<std::size_t, std::size_t> marker_lines(const std::vector<std::string>& lines, const GeneratedPart& part) {
  const auto begin = std::find(lines.begin(), lines.end(), part.begin_marker);
  if (begin == lines.end()) throw std::runtime_error(part.path + ": no line '" + part.begin_marker + "'");
  const auto end = std::find(begin, lines.end(), part.end_marker);
  if (end == lines.end())
    throw std::runtime_error(part.path + ": no line '" + part.end_marker + "' after the BEGIN line");
  return {static_cast<std::size_t>(begin - lines.begin()), static_cast<std::size_t>(end - lines.begin())};
}

}  // namespace

std::vector<std::string> committed_lines(const std::string& text, const GeneratedPart& part) {
  const std::vector<std::string> lines = split_lines(text);
  const auto [begin, end] = marker_lines(lines, part);
  return {lines.begin() + static_cast<std::ptrdiff_t>(begin) + 1, lines.begin() + static_cast<std::ptrdiff_t>(end)};
}

std::string with_generated(const std::string& text, const GeneratedPart& part, const std::vector<Fragment>& generated) {
  const std::vector<std::string> lines = split_lines(text);
  const auto [begin, end] = marker_lines(lines, part);
  std::string out;
  for (std::size_t i = 0; i <= begin; ++i) out += lines[i] + "\n";
  for (const Fragment& f : generated) {
    for (const std::string& line : f.lines) out += line + "\n";
  }
  for (std::size_t i = end; i < lines.size(); ++i) out += lines[i] + "\n";
  return out;
}

std::string first_difference(const std::vector<std::string>& committed, const std::vector<Fragment>& generated) {
  std::size_t i = 0;
  auto what = [](const std::string& key) { return key.empty() ? std::string("the part around the commands") : key; };
  for (const Fragment& f : generated) {
    for (const std::string& line : f.lines) {
      if (i >= committed.size())
        return what(f.key) + ": missing (the part ends before the table's line '" + line + "')";
      if (committed[i] != line) {
        return what(f.key) + ": line " + std::to_string(i + 1) + " of the part is '" + committed[i] +
               "', the table makes '" + line + "'";
      }
      ++i;
    }
  }
  if (i < committed.size()) {
    return "the part goes on after the table's last line: line " + std::to_string(i + 1) + " is '" + committed[i] +
           "' (an option the table no longer has?)";
  }
  return {};
}

}  // namespace tscaudit::cli
