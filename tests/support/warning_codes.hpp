// The codes of a list of warnings, in order: what the warning tests compare.
#pragma once

#include <string>
#include <vector>

#include "platform/platform_warnings.hpp"

namespace tscaudit::test {

inline std::vector<std::string> codes(const std::vector<Warning>& warnings) {
  std::vector<std::string> out;
  for (const Warning& w : warnings) out.push_back(w.code);
  return out;
}

}  // namespace tscaudit::test
