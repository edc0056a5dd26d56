// A double's bits, for tests that compare values exactly: equal bits, the same value
// (-Wfloat-equal forbids ==, and Approx is not exact).
#pragma once

#include <bit>
#include <cstdint>

namespace tscaudit::testing {

inline std::uint64_t bits(double v) { return std::bit_cast<std::uint64_t>(v); }

}  // namespace tscaudit::testing
