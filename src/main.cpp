// tscsync: parse, dispatch, map errors to the documented exit codes.
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "errors.hpp"

int main(int argc, char** argv) {
  using namespace tscsync;
  const std::vector<std::string> args(argv, argv + argc);
  try {
    const cli::Command command = cli::parse(args);
    if (const auto* info = std::get_if<cli::InfoCommand>(&command)) return run_info(info->format);
    if (const auto* measure = std::get_if<MeasureOptions>(&command)) return run_measure(*measure);
    return kExitOk;
  } catch (const UsageError& e) {
    std::cerr << "tscsync: error: " << e.what() << "\n(run 'tscsync --help' or 'tscsync COMMAND --help')\n";
    return kExitUsage;
  } catch (const InputError& e) {
    std::cerr << "tscsync: error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const UnsupportedError& e) {
    std::cerr << "tscsync: unsupported: " << e.what() << "\n";
    return kExitUnsupported;
  } catch (const std::exception& e) {  // IoError, RuntimeError, bad_alloc
    std::cerr << "tscsync: error: " << e.what() << "\n";
    return kExitRuntime;
  }
}
