// Refusing a run whose rounds would not fit in memory, before it starts: matrix and
// variants keep every round (40 bytes) for the analysis.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tscaudit {

/// A run may keep at most this share of the memory available when it starts.
inline constexpr double kMemoryShare = 0.8;

/// MemAvailable (free memory plus the page cache the kernel can drop), or, where
/// /proc/meminfo cannot say, the free pages alone; 0 when neither is known.
std::uint64_t available_memory_bytes();

/// Why `needed_bytes` is too much of `available_bytes` (more than kMemoryShare), or
/// nullopt when it fits or nothing is known (available 0). Pure.
/// \param advice  what to give less of, e.g. "give fewer --rounds".
std::optional<std::string> memory_refusal(std::uint64_t needed_bytes, std::uint64_t available_bytes,
                                          const std::string& what, const std::string& advice);

}  // namespace tscaudit
