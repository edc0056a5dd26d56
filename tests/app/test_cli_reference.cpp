// The command list and the reference made from the command line's tables (cli_reference.hpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <stdexcept>

#include "app/cli.hpp"
#include "app/cli_reference.hpp"
#include "app/command_list.hpp"

using namespace tscaudit;

TEST_CASE("the command list: the help's order, the parser's commands, main's dispatch") {
  const std::vector<std::string> want = {"report", "check",   "compare", "state",   "info",    "variants",
                                         "matrix", "monitor", "measure", "analyze", "simulate"};
  std::vector<std::string> listed;
  for (const cli::CommandEntry& e : cli::command_list()) listed.emplace_back(e.name);
  CHECK(listed == want);
  std::vector<std::string> documented;
  for (const cli::CommandDoc& d : cli::command_docs()) documented.push_back(d.name);
  CHECK(documented == want);
  // Each command parses into the options that its own entry runs.
  const std::vector<std::vector<std::string>> lines = {{"report"},
                                                       {"check"},
                                                       {"compare", "a", "b"},
                                                       {"info"},
                                                       {"variants"},
                                                       {"matrix"},
                                                       {"monitor", "--cpus", "0,1", "--out", "m.log"},
                                                       {"measure", "--cpus", "0,0", "--out", "r.csv"},
                                                       {"analyze", "r.csv"},
                                                       {"simulate", "--out", "s.csv"}};
  for (const auto& line : lines) {
    INFO(line.front());
    std::vector<std::string> args{"tscaudit"};
    args.insert(args.end(), line.begin(), line.end());
    const cli::CommandEntry* entry = cli::command_entry_of(cli::parse(args));
    REQUIRE(entry != nullptr);
    CHECK(entry->name == line.front());
    CHECK(cli::find_command(line.front()) == entry);
  }
  CHECK(cli::command_entry_of(cli::Command{cli::Printed{}}) == nullptr);  // --help printed: nothing to run
  CHECK(cli::find_command("chek") == nullptr);
}

TEST_CASE("the option docs are what --help prints: placeholder, default, required, repeatable") {
  const std::vector<cli::CommandDoc> docs = cli::command_docs();
  auto option = [&](const std::string& command, const std::string& name) {
    for (const cli::CommandDoc& d : docs) {
      for (const cli::OptionDoc& o : d.options) {
        if (d.name == command && o.name == name) return o;
      }
    }
    FAIL("no " << command << " " << name);
    return cli::OptionDoc{};
  };
  const cli::OptionDoc budget = option("check", "--budget");
  CHECK(budget.placeholder == "SECONDS");
  CHECK(budget.default_value == "90s");
  CHECK(option("check", "--over-budget").placeholder.empty());  // a flag
  CHECK(option("measure", "--cpus").required);
  CHECK(option("simulate", "--cpu-offset-ticks").repeatable);
  const cli::OptionDoc files = option("analyze", "FILE");
  CHECK(files.positional);
  CHECK(files.repeatable);
  for (const cli::CommandDoc& d : docs) {
    for (const cli::OptionDoc& o : d.options) CHECK(o.name != "--help");
  }
}

namespace {

std::vector<std::string> flat(const std::vector<cli::Fragment>& fragments) {
  std::vector<std::string> lines;
  for (const cli::Fragment& f : fragments) lines.insert(lines.end(), f.lines.begin(), f.lines.end());
  return lines;
}

}  // namespace

TEST_CASE("a committed part that differs from the tables names the option") {
  const std::vector<cli::CommandDoc> docs = cli::command_docs();
  for (const cli::GeneratedPart& part : cli::generated_parts()) {
    INFO(part.path);
    const std::vector<cli::Fragment> made = part.make(docs);
    const std::string text = "before\n" + part.begin_marker + "\nstale\n" + part.end_marker + "\nafter\n";
    const std::string rewritten = cli::with_generated(text, part, made);
    CHECK(rewritten.rfind("before\n" + part.begin_marker + "\n", 0) == 0);
    CHECK(rewritten.size() > part.end_marker.size() + 7);
    CHECK(rewritten.compare(rewritten.size() - part.end_marker.size() - 7, std::string::npos,
                            part.end_marker + "\nafter\n") == 0);
    const std::vector<std::string> committed = cli::committed_lines(rewritten, part);
    CHECK(committed == flat(made));
    CHECK(cli::first_difference(committed, made).empty());

    // The line of check --max-bound changed: the difference names it.
    std::size_t at = 0;
    for (const cli::Fragment& f : made) {
      if (f.key == "check --max-bound") break;
      at += f.lines.size();
    }
    REQUIRE(at < committed.size());
    std::vector<std::string> edited = committed;
    edited[at] += " (edited by hand)";
    CHECK_THAT(cli::first_difference(edited, made), Catch::Matchers::StartsWith("check --max-bound: line "));
    edited = committed;
    edited.resize(at);
    CHECK_THAT(cli::first_difference(edited, made), Catch::Matchers::StartsWith("check --max-bound: missing"));
    edited = committed;
    edited.emplace_back("--gone");
    CHECK_THAT(cli::first_difference(edited, made), Catch::Matchers::Contains("'--gone'"));
    CHECK_THROWS_WITH(cli::committed_lines("no markers\n", part),
                      Catch::Matchers::StartsWith(part.path + ": no line '" + part.begin_marker + "'"));
  }
}

TEST_CASE("the man page's part: options in roff, hyphens escaped") {
  const std::vector<std::string> man = flat(cli::man_reference(cli::command_docs()));
  auto has = [&](const std::string& line) { return std::find(man.begin(), man.end(), line) != man.end(); };
  CHECK(has(".SS \"tscaudit check\""));
  CHECK(has(".B \\-\\-over\\-budget"));
  CHECK(has(".BI \\-\\-budget \" SECONDS\""));
  CHECK(has(".IR FILE ..."));
  for (const std::string& line : man) {
    INFO(line);
    CHECK(line.find(" -") == std::string::npos);  // every hyphen escaped
    CHECK((line.empty() || line[0] != '\''));
  }
}

TEST_CASE("the zsh and fish completions: specs and complete lines, quoted for each shell") {
  const std::vector<cli::CommandDoc> commands = {
      {"check",
       "An answer: exit 0 or 1",
       {{"--cpus", "CPUS", "CPUs to measure, taskset syntax (0-3,8)", "", false, false, false},
        {"--quick", "", "the [quick] check: a star of pairs; nothing kept", "", false, false, false},
        {"--budget", "SECONDS", "it's the most time measuring may take on any machine whatever its size is", "90s",
         false, false, false}}},
      {"analyze", "Saved runs", {{"FILE", "", "runs", "", true, false, true}}}};
  CHECK(flat(cli::zsh_completion_reference(commands)) ==
        std::vector<std::string>{"# The commands, in the order of `tscaudit --help`, with their summaries.",
                                 "_tscaudit_commands=(",
                                 "  'check:An answer: exit 0 or 1'",
                                 "  'analyze:Saved runs'",
                                 ")",
                                 "# _tscaudit_specs COMMAND: its options and arguments, as _arguments specs, in specs.",
                                 "_tscaudit_specs() {",
                                 "  case $1 in",
                                 "    check)",
                                 "      specs=(",
                                 "        '--cpus[CPUs to measure, taskset syntax]:CPUS:_tscaudit_value --cpus'",
                                 "        '--quick[the \\[quick\\] check\\: a star of pairs]'",
                                 "        '--budget[it'\\''s the most time measuring may take on any "
                                 "machine...]:SECONDS:_tscaudit_value --budget'",
                                 "      )",
                                 "      ;;",
                                 "    analyze)",
                                 "      specs=(",
                                 "        '*:FILE:_files'",
                                 "      )",
                                 "      ;;",
                                 "    *) specs=() ;;",
                                 "  esac",
                                 "}"});
  CHECK(flat(cli::fish_completion_reference(commands)) ==
        std::vector<std::string>{
            "# The commands, in the order of `tscaudit --help`, with their summaries.",
            "complete -c tscaudit -n __fish_use_subcommand -f -a check -d 'An answer: exit 0 or 1'",
            "complete -c tscaudit -n __fish_use_subcommand -f -a analyze -d 'Saved runs'",
            "# Each command's options; a value is completed by __tscaudit_value, from the option's name.",
            "complete -c tscaudit -n '__fish_seen_subcommand_from check' -f",
            "complete -c tscaudit -n '__fish_seen_subcommand_from check' -l cpus -x -a '(__tscaudit_value --cpus)' "
            "-d 'CPUs to measure, taskset syntax'",
            "complete -c tscaudit -n '__fish_seen_subcommand_from check' -l quick -d 'the [quick] check: a star of "
            "pairs'",
            "complete -c tscaudit -n '__fish_seen_subcommand_from check' -l budget -x -a '(__tscaudit_value --budget)' "
            "-d 'it\\'s the most time measuring may take on any machine...'",
            "# analyze: its arguments are files"});
}
