// The command line's entry: one CLI11 parser whose subcommands are the option tables of
// cli_commands.hpp; the chosen table builds the command's options.
#include "app/cli.hpp"

#include <CLI/CLI.hpp>
#include <iostream>

#include "app/cli_commands.hpp"
#include "core/errors.hpp"
#include "version.hpp"

namespace tscaudit::cli {
namespace {

const char* const kCommandNames = "analyze, check, info, matrix, measure, monitor, report, simulate, variants";

}  // namespace

Command parse(const std::vector<std::string>& args) {
  CLI::App app{"tscaudit: are the time stamp counters of all CPUs in this machine synchronized?", "tscaudit"};
  app.set_version_flag("--version", std::string(kToolVersion));
  app.require_subcommand(1);
  CommandTables tables;
  std::apply([&](auto&... table) { (table.add(app), ...); }, tables);

  // CLI11 would call an unknown first word "not expected" or ask for a subcommand.
  if (args.size() > 1 && !args[1].empty() && args[1][0] != '-') {
    try {
      app.get_subcommand(args[1]);
    } catch (const CLI::OptionNotFound&) {
      throw UsageError("unknown command '" + args[1] + "' (commands: " + kCommandNames + ")");
    }
  }
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
    throw UsageError(e.what());
  }

  Command command = Printed{};
  auto take = [&](const auto& table) {
    if (table.sub->parsed()) command = table.build(args);
  };
  std::apply([&](const auto&... table) { (take(table), ...); }, tables);
  return command;
}

}  // namespace tscaudit::cli
