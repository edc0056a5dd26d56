#include "format.hpp"

#include <array>
#include <charconv>

namespace tscsync {

std::string format_sig(double value, int significant) {
  std::array<char, 64> buf{};
  const auto [ptr, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), value,
                                       std::chars_format::general, significant);
  return ec == std::errc{} ? std::string(buf.data(), ptr) : std::string("nan");
}

std::string format_fixed(double value, int decimals) {
  std::array<char, 512> buf{};
  const auto [ptr, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), value,
                                       std::chars_format::fixed, decimals);
  return ec == std::errc{} ? std::string(buf.data(), ptr) : std::string("nan");
}

}  // namespace tscsync
