#include "core/errors.hpp"

#include <cstring>

namespace tscaudit {

int exit_code_of(const std::exception& e) {
  if (dynamic_cast<const UsageError*>(&e) != nullptr) return kExitUsage;
  if (dynamic_cast<const InputError*>(&e) != nullptr) return kExitUsage;
  if (dynamic_cast<const UnsupportedError*>(&e) != nullptr) return kExitUnsupported;
  return kExitRuntime;
}

std::string errno_text(int err) { return std::strerror(err); }

}  // namespace tscaudit
