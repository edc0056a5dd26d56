#include "formats/temporaries.hpp"

#include <unistd.h>

#include <array>
#include <atomic>
#include <climits>
#include <cstring>

namespace tscaudit {
namespace {

/// One temporary: its path, valid while `state` is kTemporaryReady.
struct TemporarySlot {
  std::atomic<int> state{0};
  std::array<char, PATH_MAX> path{};
};
constexpr int kTemporaryFree = 0;
constexpr int kTemporaryWriting = 1;  // taken, path being copied: the handler passes it over
constexpr int kTemporaryReady = 2;
static_assert(std::atomic<int>::is_always_lock_free, "read from a signal handler");

// Zero-initialized, in .bss: its pages are touched only when a slot is used.
std::array<TemporarySlot, kTemporarySlots> g_temporaries;

}  // namespace

int register_temporary(std::string_view path) noexcept {
  if (path.empty() || path.size() >= PATH_MAX) return -1;
  for (std::size_t i = 0; i < g_temporaries.size(); ++i) {
    int expected = kTemporaryFree;
    if (!g_temporaries[i].state.compare_exchange_strong(expected, kTemporaryWriting)) continue;
    std::memcpy(g_temporaries[i].path.data(), path.data(), path.size());
    g_temporaries[i].path[path.size()] = '\0';
    g_temporaries[i].state.store(kTemporaryReady);
    return static_cast<int>(i);
  }
  return -1;
}

void unregister_temporary(int slot) noexcept {
  if (slot < 0 || static_cast<std::size_t>(slot) >= g_temporaries.size()) return;
  g_temporaries[static_cast<std::size_t>(slot)].state.store(kTemporaryFree);
}

void remove_registered_temporaries() noexcept {
  for (TemporarySlot& s : g_temporaries) {
    if (s.state.load() == kTemporaryReady) ::unlink(s.path.data());
  }
}

}  // namespace tscaudit
