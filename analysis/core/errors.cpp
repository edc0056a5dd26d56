#include "core/errors.hpp"

#include <iostream>

namespace tscsync {

int report_error(const char* program, const std::exception& e) {
  if (dynamic_cast<const UsageError*>(&e) != nullptr) {
    std::cerr << program << ": error: " << e.what() << "\n(run '" << program << " --help' for usage)\n";
    return kExitUsage;
  }
  if (dynamic_cast<const InputError*>(&e) != nullptr) {
    std::cerr << program << ": error: " << e.what() << "\n";
    return kExitUsage;
  }
  if (dynamic_cast<const UnsupportedError*>(&e) != nullptr) {
    std::cerr << program << ": unsupported: " << e.what() << "\n";
    return kExitUnsupported;
  }
  std::cerr << program << ": error: " << e.what() << "\n";  // IoError, RuntimeError, bad_alloc
  return kExitRuntime;
}

}  // namespace tscsync
