#include "formats/temporaries.hpp"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstring>

namespace tscaudit {
namespace {

/// A directory entry as getdents64(2) gives it.
struct linux_dirent64_view {
  std::uint64_t d_ino;
  std::int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[1];
};

/// One temporary: its path, valid while `state` is kTemporaryReady.
struct TemporarySlot {
  std::atomic<int> state{0};
  TemporaryKind kind = TemporaryKind::file;
  std::array<char, PATH_MAX> path{};
};
constexpr int kTemporaryFree = 0;
constexpr int kTemporaryWriting = 1;  // taken, path being copied: the handler passes it over
constexpr int kTemporaryReady = 2;
static_assert(std::atomic<int>::is_always_lock_free, "read from a signal handler");

// Zero-initialized, in .bss: its pages are touched only when a slot is used.
std::array<TemporarySlot, kTemporarySlots> g_temporaries;

/// Removes `name` under the directory `at` and, when it is a directory, everything in it,
/// never following a link (async-signal-safe: openat, getdents64, unlinkat; no allocation).
void remove_tree(int at, const char* name, int depth) noexcept {
  if (::unlinkat(at, name, 0) == 0 || depth > 64) return;
  const int fd = ::openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  alignas(8) char buf[2048];
  // Two passes: a directory read while its names are removed may pass one over.
  for (int pass = 0; pass < 2; ++pass) {
    ::lseek(fd, 0, SEEK_SET);
    long n = 0;
    while ((n = ::syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
      for (long off = 0; off < n;) {
        const auto* d = reinterpret_cast<const struct linux_dirent64_view*>(buf + off);
        off += d->d_reclen;
        if (std::strcmp(d->d_name, ".") == 0 || std::strcmp(d->d_name, "..") == 0) continue;
        remove_tree(fd, d->d_name, depth + 1);
      }
    }
  }
  ::close(fd);
  ::unlinkat(at, name, AT_REMOVEDIR);
}

}  // namespace

int register_temporary(std::string_view path, TemporaryKind kind) noexcept {
  if (path.empty() || path.size() >= PATH_MAX) return -1;
  for (std::size_t i = 0; i < g_temporaries.size(); ++i) {
    int expected = kTemporaryFree;
    if (!g_temporaries[i].state.compare_exchange_strong(expected, kTemporaryWriting)) continue;
    std::memcpy(g_temporaries[i].path.data(), path.data(), path.size());
    g_temporaries[i].path[path.size()] = '\0';
    g_temporaries[i].kind = kind;
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
    if (s.state.load() != kTemporaryReady) continue;
    if (s.kind == TemporaryKind::file) ::unlink(s.path.data());
    if (s.kind == TemporaryKind::tree) remove_tree(AT_FDCWD, s.path.data(), 0);
  }
  for (TemporarySlot& s : g_temporaries) {
    if (s.state.load() == kTemporaryReady && s.kind == TemporaryKind::empty_dir) ::rmdir(s.path.data());
  }
}

}  // namespace tscaudit
