#include "measure/variant.hpp"

namespace tscsync {

std::string variant_list() {
  std::string out;
  for (Variant v : kAllVariants) {
    if (!out.empty()) out += ", ";
    out += variant_name(v);
  }
  return out;
}

}  // namespace tscsync
