#include "core/run.hpp"

namespace tscaudit {

void Metadata::set(std::string key, std::string value) {
  const auto [it, added] = index_.try_emplace(key, entries_.size());
  if (!added) {
    entries_[it->second].second = std::move(value);
    return;
  }
  try {
    entries_.emplace_back(std::move(key), std::move(value));
  } catch (...) {
    index_.erase(it);
    throw;
  }
}

std::optional<std::string_view> Metadata::get(std::string_view key) const {
  const auto it = index_.find(key);
  if (it == index_.end()) return std::nullopt;
  return std::string_view(entries_[it->second].second);
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
