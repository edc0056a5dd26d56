#include "core/read_variant.hpp"

namespace tscaudit {

std::string variant_list(std::span<const ReadVariant> variants) {
  std::string out;
  for (ReadVariant v : variants) {
    if (!out.empty()) out += ", ";
    out += variant_name(v);
  }
  return out;
}

RecordedVariant recorded_variant(std::optional<std::string_view> name) {
  RecordedVariant r;
  if (name) {
    r.name = std::string(*name);
    r.variant = parse_variant(*name);
  }
  return r;
}

RecordedVariant recorded_variant(ReadVariant v) { return {std::string(variant_name(v)), v}; }

}  // namespace tscaudit
