#include "formats/warnings_json.hpp"

#include <string>

#include "core/format.hpp"

namespace tscaudit {
namespace {

/// The string `key` of `w`, printable; "" where `w` has no such string.
std::string warning_field(const nlohmann::ordered_json& w, const char* key) {
  if (!w.is_object()) return "";
  const auto it = w.find(key);
  return it != w.end() && it->is_string() ? printable_text(it->get<std::string>()) : std::string();
}

}  // namespace

nlohmann::ordered_json warnings_json(const std::vector<Warning>& warnings) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const Warning& w : warnings) out.push_back({{"code", w.code}, {"message", w.message}, {"advice", w.advice}});
  return out;
}

std::vector<Warning> warnings_from_json(const nlohmann::ordered_json& j) {
  std::vector<Warning> out;
  if (!j.is_array()) return out;
  for (const nlohmann::ordered_json& w : j) {
    out.push_back({warning_field(w, "code"), warning_field(w, "message"), warning_field(w, "advice")});
  }
  return out;
}

}  // namespace tscaudit
