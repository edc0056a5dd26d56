#include "app/report_error.hpp"

#include <iostream>

#include "core/errors.hpp"
#include "render/text_wrap.hpp"

namespace tscaudit {

int report_error(const char* program, const std::exception& e, std::ostream& err) {
  if (dynamic_cast<const UnsupportedError*>(&e) != nullptr) {
    err << program << ": unsupported: " << e.what() << "\n";
  } else {
    err << program << ": error: " << e.what() << "\n";
    if (dynamic_cast<const UsageError*>(&e) != nullptr) err << "(run '" << program << " --help' for usage)\n";
  }
  return exit_code_of(e);
}

void print_note(const std::string& line) { std::cerr << wrap_lines(line + "\n"); }

}  // namespace tscaudit
