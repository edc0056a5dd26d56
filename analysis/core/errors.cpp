#include "core/errors.hpp"

namespace tscaudit {

int exit_code_of(const std::exception& e) {
  if (dynamic_cast<const UsageError*>(&e) != nullptr) return kExitUsage;
  if (dynamic_cast<const InputError*>(&e) != nullptr) return kExitUsage;
  if (dynamic_cast<const UnsupportedError*>(&e) != nullptr) return kExitUnsupported;
  return kExitRuntime;
}

}  // namespace tscaudit
