// What on a platform can spoil or mislead a counter measurement (platform/platform_warnings.hpp
// raises them), and which of them weaken a check's answer. One type, one filter.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tscaudit {

struct Warning {
  std::string code;     // stable identifier: virtual_machine, clocksource_not_tsc, ...
  std::string message;  // what is the case here
  std::string advice;   // what it means for the measurement and what to do
};

/// True for the warnings that make an answer about the counters less certain (docs/machine.md
/// §10.3): an emulator, a hypervisor, a clocksource other than the counter, a counter not
/// invariant, marked unstable or with an erratum. They are printed with every answer and
/// never change it.
bool weakens_answer(std::string_view code);

/// Those of `warnings` that weaken an answer (weakens_answer), in order: the one filter that
/// every command's answer asks (check, matrix, report, variants, the library's quick check).
std::vector<Warning> weakening(const std::vector<Warning>& warnings);

/// "code: message": a warning on one line, as every answer prints it.
std::string warning_line(const Warning& w);

/// warning_line of each, in order (the `warnings` of check's and variants' JSON).
std::vector<std::string> warning_lines(const std::vector<Warning>& warnings);

}  // namespace tscaudit
