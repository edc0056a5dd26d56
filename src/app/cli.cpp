// The command line's entry: one CLI11 parser whose subcommands are the option tables of
// cli_commands.hpp; the chosen table builds the command's options. The help is laid out
// here (HelpFormatter: kTextColumns, words never split, placeholders and defaults that say
// what an option takes), and every error of CLI11 is put in the tool's own words.
#include "app/cli.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "app/cli_commands.hpp"
#include "app/command_list.hpp"
#include "core/errors.hpp"
#include "core/format.hpp"
#include "core/lines.hpp"
#include "render/text_wrap.hpp"
#include "version.hpp"

namespace tscaudit::cli {
namespace {

/// Where the descriptions of options start.
constexpr std::size_t kOptionColumn = 30;
/// Where the descriptions of commands start (the top-level list).
constexpr std::size_t kCommandColumn = 12;

const char* const kDescription = "tscaudit: are the time stamp counters of all CPUs in this machine synchronized?";

/// The top level's examples; each command has its own (cli_commands.cpp).
const char* const kTopExamples =
    "Examples:\n"
    "  tscaudit report                  # everything, in ./report/report.html\n"
    "  tscaudit check --quick           # in milliseconds: exit 0 synchronized, 1 not\n"
    "  tscaudit check --help            # one command's options and examples";

/// `text` wrapped at `width` as every command's text is (render/text_wrap.hpp), except that
/// no line starts with an option's name: in the help it would read as an option.
std::vector<std::string> help_lines(const std::string& text, std::size_t width) {
  std::vector<std::string> lines;
  for_each_line(wrap_words(text, width, "", OptionBreak::never_before_option),
                [&](std::string_view line) { lines.emplace_back(line); });
  return lines;
}

/// Lays the help out in kTextColumns columns: descriptions wrapped at spaces, the placeholder
/// after the option's name, its default at the end of its description.
class HelpFormatter : public CLI::Formatter {
 public:
  explicit HelpFormatter(std::size_t width) : width_(width) {
    column_width(kOptionColumn);
    label("SUBCOMMAND", "COMMAND");  // the usage line says what the list below calls them
  }

  std::string make_option(const CLI::Option* opt, bool is_positional) const override {
    return columns(make_option_name(opt, is_positional) + make_option_opts(opt), make_option_desc(opt), kOptionColumn);
  }

  std::string make_option_opts(const CLI::Option* opt) const override {
    std::string out;
    if (opt->get_type_size() != 0) {
      if (!opt->get_positional() && !opt->get_type_name().empty()) out += " " + opt->get_type_name();
      if (opt->get_expected_max() == CLI::detail::expected_max_vector_size) out += " ...";
      if (opt->get_required()) out += " (required)";
    }
    return out;
  }

  std::string make_option_desc(const CLI::Option* opt) const override {
    std::string desc = opt->get_description();
    if (opt->get_type_size() != 0 && !opt->get_default_str().empty()) {
      desc += " [default: " + opt->get_default_str() + "]";
    }
    return desc;
  }

  std::string make_subcommand(const CLI::App* sub) const override {
    return columns(sub->get_display_name(), sub->get_description(), kCommandColumn);
  }

  std::string make_description(const CLI::App* app) const override {
    const std::string desc = app->get_description();
    if (desc.empty()) return {};
    std::string out;
    for (const std::string& line : help_lines(desc, width_)) out += line + "\n";
    return out;
  }

 private:
  /// "  NAME" padded to `column`, then the description wrapped to the rest of the width;
  /// a name that reaches the column puts the description on the next line.
  std::string columns(const std::string& name, const std::string& desc, std::size_t column) const {
    std::string out = "  " + name;
    const std::vector<std::string> lines = help_lines(desc, width_ - column);
    if (lines.empty()) return out + "\n";
    if (out.size() + 1 > column) {
      out += "\n";
      out.append(column, ' ');
    } else {
      out.append(column - out.size(), ' ');
    }
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (i > 0) out += "\n" + std::string(column, ' ');
      out += lines[i];
    }
    return out + "\n";
  }

  std::size_t width_;
};

/// What an option takes, where its name alone says it (the rest are set where the option is
/// added: --out FILE or DIR, --cpus A,B or CPUS).
std::string placeholder_of(const std::string& option) {
  static const std::map<std::string, std::string> kNames = {
      {"--variant", "VARIANT"},
      {"--send", "VARIANT"},
      {"--recv", "VARIANT"},
      {"--rounds", "N"},
      {"--warmup", "N"},
      {"--visits", "N"},
      {"--passes", "N"},
      {"--control-rounds", "N"},
      {"--switch-rounds", "N"},
      {"--variants-rounds", "N"},
      {"--queue-rounds", "N"},
      {"--seed", "N"},
      {"--budget", "SECONDS"},
      {"--interval", "SECONDS"},
      {"--duration", "SECONDS"},
      {"--ntp-seconds", "SECONDS"},
      {"--timeout-ms", "MS"},
      {"--format", "FORMAT"},
      {"--transport", "TRANSPORT"},
      {"--plot", "DIR"},
      {"--from", "DIR"},
      {"--topology", "TOPOLOGY"},
      {"--openmetrics", "FILE"},
      {"--truth", "FILE"},
      {"--tolerance", "TICKS"},
      {"--max-bound", "TICKS"},
      {"--drift-tolerance-ppb", "PPB"},
      {"--export-cpus", "N|all"},
      {"--duty", "FRACTION"},
      {"--step-at", "FRACTION"},
      {"--tsc-hz", "HZ"},
      {"--steps", "TICKS@F,..."},
      {"--cpu-offset-ticks", "CPU=TICKS"},
      {"--package-offset-ticks", "P=TICKS"},
      {"--cpu-drift-ppb", "CPU=PPB"},
      {"--early-reads", "CPU=RATE[:MIN:MAX]"},
      {"--step", "CPU=TICKS[@F]"},
  };
  if (const auto it = kNames.find(option); it != kNames.end()) return it->second;
  auto ends = [&](const std::string& tail) {
    return option.size() > tail.size() && option.compare(option.size() - tail.size(), tail.size(), tail) == 0;
  };
  if (ends("-ticks")) return "TICKS";
  if (ends("-ppb")) return "PPB";
  if (ends("-fraction") || ends("-rate")) return "FRACTION";
  return {};  // stays CLI11's TEXT, which the help test refuses
}

/// Gives every option that takes a value and shows CLI11's TEXT its placeholder.
void name_placeholders(CLI::App& app) {
  for (CLI::App* sub : app.get_subcommands({})) {
    for (CLI::Option* opt : sub->get_options()) {
      if (opt->get_type_size() == 0 || opt->get_positional() || opt->get_type_name() != "TEXT") continue;
      const std::string name = placeholder_of(opt->get_name());
      if (!name.empty()) opt->type_name(name);
    }
  }
}

/// The commands, in the order --help lists them (the command list's).
std::vector<std::string> command_names() {
  std::vector<std::string> names;
  for (const CommandEntry& entry : command_list()) names.emplace_back(entry.name);
  return names;
}

std::string joined(const std::vector<std::string>& words, const std::string& last_sep) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += i + 1 == words.size() ? last_sep : ", ";
    out += words[i];
  }
  return out;
}

/// Edit distance, for "did you mean".
std::size_t distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

/// " (did you mean X?)" for the nearest of `known` within two edits, or a unique one that
/// `word` begins; "" otherwise.
std::string suggestion(const std::string& word, const std::vector<std::string>& known) {
  std::string best;
  std::size_t best_distance = 3;
  std::vector<std::string> starting;
  for (const std::string& k : known) {
    const std::size_t d = distance(word, k);
    if (d < best_distance) {
      best_distance = d;
      best = k;
    }
    if (word.size() >= 3 && k.compare(0, word.size(), word) == 0) starting.push_back(k);
  }
  if (best.empty() && starting.size() == 1) best = starting.front();
  return best.empty() ? std::string() : " (did you mean " + best + "?)";
}

/// The long option names of `cmd`.
std::vector<std::string> option_names(const CLI::App& cmd) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : cmd.get_options()) {
    for (const std::string& n : opt->get_lnames()) names.push_back("--" + n);
  }
  return names;
}

/// The text before the first ':' of a CLI11 message: the option it names.
std::string named_option(const std::string& message) { return message.substr(0, message.find(':')); }

/// A CLI11 parse error in the tool's words. `cmd` is the chosen command (nullptr: none).
UsageError in_our_words(const CLI::ParseError& e, const CLI::App& app, const CLI::App* cmd, const Args& args) {
  const std::string what = e.what();
  const std::string command = cmd != nullptr ? cmd->get_name() : std::string();
  const CLI::App& scope = cmd != nullptr ? *cmd : app;
  auto placeholder = [&](const std::string& option) {
    const CLI::Option* opt = scope.get_option_no_throw(option);
    return opt != nullptr && opt->get_type_size() != 0 ? " " + opt->get_type_name() : std::string();
  };
  if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr) {
    if (cmd == nullptr) {
      // CLI11 asks for the command before it looks at an option it does not know.
      const std::vector<std::string> known = option_names(app);
      const auto unknown = std::find_if(args.begin() + 1, args.end(), [&](const std::string& a) {
        return a.rfind("-", 0) == 0 && a != "-h" && std::find(known.begin(), known.end(), a) == known.end();
      });
      if (unknown != args.end()) {
        return UsageError("unknown option " + printable(unknown->substr(0, unknown->find('='))) +
                          " for tscaudit (give the command first: tscaudit COMMAND [OPTIONS])");
      }
      return UsageError("which command? give one of " + joined(command_names(), " or "));
    }
    const std::string option = what.substr(0, what.find(" is required"));
    if (option.rfind("--", 0) != 0) return UsageError(command + " needs at least one " + option);
    return UsageError(command + " needs " + option + placeholder(option));
  }
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr) {
    const std::string option = named_option(what);
    if (what.find("At Most") != std::string::npos) {
      return UsageError(option + " is given more than once: give it once");
    }
    return UsageError(option + " needs a value: " + option + placeholder(option));
  }
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
    // "The following argument(s) was/were not expected: X Y": an unknown option first (its
    // value follows it among the extras), else the first word.
    std::istringstream words(what.substr(what.find(": ") + 2));
    std::string first;
    for (std::string w; words >> w;) {
      if (first.empty() || (w.rfind("-", 0) == 0 && first.rfind("-", 0) != 0)) first = w;
    }
    const std::string where = command.empty() ? std::string("tscaudit") : command;
    if (first.rfind("-", 0) == 0) {
      const std::string name = first.substr(0, first.find('='));
      return UsageError("unknown option " + name + " for " + where + suggestion(name, option_names(scope)));
    }
    return UsageError("unexpected argument '" + printable(first) + "' for " + where + " (it takes options only)");
  }
  return UsageError(what);
}

/// The parser of the whole command line, bound to `tables`.
void build_parser(CLI::App& app, CommandTables& tables, std::size_t help_width = kTextColumns) {
  app.formatter(std::make_shared<HelpFormatter>(help_width));
  app.set_version_flag("--version", std::string(kToolVersion));
  app.require_subcommand(1);
  app.footer(kTopExamples);
  // CLI11 lists the subcommands in the order they are added: the command list's.
  for (const CommandEntry& entry : command_list()) {
    const auto add_if_named = [&](auto& table) {
      if (table.kName == entry.name) table.add(app);
    };
    std::apply([&](auto&... table) { (add_if_named(table), ...); }, tables);
  }
  if (app.get_subcommands({}).size() != std::tuple_size_v<CommandTables>) {
    throw std::logic_error("the command list and the option tables name different commands");
  }
  for (CLI::App* sub : app.get_subcommands({})) sub->group("Commands");
  name_placeholders(app);
}

}  // namespace

std::string command_of(const std::vector<std::string>& args) {
  if (args.size() < 2) return {};
  const std::vector<std::string> names = command_names();
  return std::find(names.begin(), names.end(), args[1]) != names.end() ? args[1] : std::string();
}

std::string help_text(const std::string& command, std::size_t width) {
  CLI::App app{kDescription, "tscaudit"};
  CommandTables tables;
  build_parser(app, tables, width);
  if (command.empty()) return app.help();
  return app.get_subcommand(command)->help("tscaudit");
}

std::vector<CommandDoc> command_docs() {
  CLI::App app{kDescription, "tscaudit"};
  CommandTables tables;
  build_parser(app, tables);
  std::vector<CommandDoc> docs;
  for (const CLI::App* sub : app.get_subcommands({})) {
    CommandDoc doc{sub->get_name(), sub->get_description(), {}};
    for (const CLI::Option* opt : sub->get_options()) {
      if (opt == sub->get_help_ptr()) continue;
      OptionDoc o;
      o.positional = opt->get_positional();
      o.name = o.positional ? opt->get_name() : "--" + opt->get_lnames().front();
      if (opt->get_type_size() != 0 && !o.positional) o.placeholder = opt->get_type_name();
      o.description = opt->get_description();
      if (opt->get_type_size() != 0) o.default_value = opt->get_default_str();
      // A default that is no value ("every CPU this process may use") is written at the end
      // of the description; it is the default all the same.
      const std::string mark = " [default: ";
      const std::size_t at = o.description.rfind(mark);
      if (o.default_value.empty() && at != std::string::npos && o.description.back() == ']') {
        o.default_value = o.description.substr(at + mark.size(), o.description.size() - at - mark.size() - 1);
        o.description.resize(at);
      }
      o.required = opt->get_required();
      o.repeatable = opt->get_expected_max() == CLI::detail::expected_max_vector_size;
      doc.options.push_back(o);
    }
    docs.push_back(doc);
  }
  return docs;
}

Command parse(const std::vector<std::string>& args) {
  // "tscaudit help [COMMAND]", as in git and cargo: the help of `tscaudit [COMMAND] --help`.
  if (args.size() >= 2 && args.size() <= 3 && args[1] == "help") {
    std::vector<std::string> asked{args[0]};
    if (args.size() == 3) asked.push_back(args[2]);
    asked.emplace_back("--help");
    return parse(asked);
  }
  CLI::App app{kDescription, "tscaudit"};
  CommandTables tables;
  build_parser(app, tables);

  // CLI11 would call an unknown first word "not expected" or ask for a subcommand.
  if (args.size() > 1 && !args[1].empty() && args[1][0] != '-' && command_of(args).empty()) {
    const std::vector<std::string> names = command_names();
    throw UsageError("unknown command '" + printable(args[1]) + "'" + suggestion(args[1], names) +
                     " (commands: " + joined(names, ", ") + ")");
  }
  const std::string name = command_of(args);
  const CLI::App* cmd = name.empty() ? nullptr : app.get_subcommand(name);
  std::vector<std::string> argv_rest(args.begin() + 1, args.end());
  std::reverse(argv_rest.begin(), argv_rest.end());  // CLI11 takes the arguments reversed
  try {
    app.parse(argv_rest);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();  // the chosen command's help, its usage line prefixed with "tscaudit"
    return Printed{};
  } catch (const CLI::CallForVersion&) {
    std::cout << "tscaudit " << kToolVersion << "\n";
    return Printed{};
  } catch (const CLI::ParseError& e) {
    throw in_our_words(e, app, cmd, args);
  }

  Command command = Printed{};
  auto take = [&](const auto& table) {
    if (table.sub->parsed()) command = table.build(args);
  };
  std::apply([&](const auto&... table) { (take(table), ...); }, tables);
  return command;
}

}  // namespace tscaudit::cli
