#include "core/run.hpp"

namespace tscaudit {

void Metadata::set(std::string key, std::string value) {
  for (auto& [k, v] : entries_) {
    if (k == key) {
      v = std::move(value);
      return;
    }
  }
  entries_.emplace_back(std::move(key), std::move(value));
}

std::optional<std::string_view> Metadata::get(std::string_view key) const {
  for (const auto& [k, v] : entries_) {
    if (k == key) return std::string_view(v);
  }
  return std::nullopt;
}

PairIdentity pair_identity(const Metadata& header) {
  PairIdentity id;
  id.a = std::string(header.get("a").value_or("?"));
  id.b = std::string(header.get("b").value_or("?"));
  id.send = recorded_variant(header.get("send"));
  id.recv = recorded_variant(header.get("recv"));
  return id;
}

}  // namespace tscaudit
