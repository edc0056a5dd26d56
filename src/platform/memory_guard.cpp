#include "platform/memory_guard.hpp"

#include <unistd.h>

#include "core/format.hpp"
#include "platform/kernel_facts.hpp"

namespace tscaudit {

std::uint64_t available_memory_bytes() {
  const Fact<std::uint64_t> available = read_mem_available();
  if (available.ok()) return available.value;
  const long pages = sysconf(_SC_AVPHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

std::optional<std::string> memory_refusal(std::uint64_t needed_bytes, std::uint64_t available_bytes,
                                          const std::string& what, const std::string& advice) {
  if (available_bytes == 0 ||
      static_cast<double>(needed_bytes) <= kMemoryShare * static_cast<double>(available_bytes)) {
    return std::nullopt;
  }
  return what + " keeps " + format_sig(static_cast<double>(needed_bytes) / 1e9, 3) +
         " GB of rounds in memory, more than " + format_sig(kMemoryShare * 100, 2) + " % of the " +
         format_sig(static_cast<double>(available_bytes) / 1e9, 3) + " GB available: " + advice;
}

}  // namespace tscaudit
