#include "formats/temporaries.hpp"

#include <unistd.h>

#include <array>
#include <atomic>
#include <climits>
#include <cstring>

namespace tscaudit {
namespace {

/// One temporary: its path, valid while `state` is kReady.
struct Slot {
  std::atomic<int> state{0};
  std::array<char, PATH_MAX> path{};
};
constexpr int kFree = 0;
constexpr int kWriting = 1;  // taken, path being copied: the handler passes it over
constexpr int kReady = 2;
static_assert(std::atomic<int>::is_always_lock_free, "read from a signal handler");

// Zero-initialized, in .bss: its pages are touched only when a slot is used.
std::array<Slot, kTemporarySlots> g_slots;

}  // namespace

int register_temporary(std::string_view path) noexcept {
  if (path.empty() || path.size() >= PATH_MAX) return -1;
  for (std::size_t i = 0; i < g_slots.size(); ++i) {
    int expected = kFree;
    if (!g_slots[i].state.compare_exchange_strong(expected, kWriting)) continue;
    std::memcpy(g_slots[i].path.data(), path.data(), path.size());
    g_slots[i].path[path.size()] = '\0';
    g_slots[i].state.store(kReady);
    return static_cast<int>(i);
  }
  return -1;
}

void unregister_temporary(int slot) noexcept {
  if (slot < 0 || static_cast<std::size_t>(slot) >= g_slots.size()) return;
  g_slots[static_cast<std::size_t>(slot)].state.store(kFree);
}

void remove_registered_temporaries() noexcept {
  for (Slot& s : g_slots) {
    if (s.state.load() == kReady) ::unlink(s.path.data());
  }
}

}  // namespace tscaudit
