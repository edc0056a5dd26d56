// The 64-bit integer limits the exact tests of encoders and histograms write out.
#pragma once

#include <cstdint>
#include <limits>

namespace tscaudit::test {

inline constexpr std::int64_t kI64Min = std::numeric_limits<std::int64_t>::min();
inline constexpr std::int64_t kI64Max = std::numeric_limits<std::int64_t>::max();
inline constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();

}  // namespace tscaudit::test
