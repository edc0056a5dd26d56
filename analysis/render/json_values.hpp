// Small JSON helpers the renderers share.
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>

namespace tscaudit {

/// `v`, or null where it is not finite (JSON has no NaN or infinity).
inline nlohmann::ordered_json number_or_null(double v) {
  return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
}

}  // namespace tscaudit
