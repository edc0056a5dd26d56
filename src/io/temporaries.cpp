#include "io/temporaries.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstring>

namespace tscaudit {
namespace {

/// One temporary: its path and kind, valid while `state` is kTemporaryReady.
struct TemporarySlot {
  std::atomic<int> state{0};
  TemporaryKind kind = TemporaryKind::file;
  std::array<char, PATH_MAX> path{};
};
constexpr int kTemporaryFree = 0;
constexpr int kTemporaryWriting = 1;  // taken, path being copied: the handler passes it over
constexpr int kTemporaryReady = 2;
static_assert(std::atomic<int>::is_always_lock_free, "read from a signal handler");
static_assert(std::atomic<pid_t>::is_always_lock_free, "read from a signal handler");

// Zero-initialized, in .bss: its pages are touched only when a slot is used.
std::array<TemporarySlot, kTemporarySlots> g_temporaries;
std::array<std::atomic<pid_t>, kChildSlots> g_children{};  // 0: free

/// An entry as getdents64(2) returns it (glibc declares no wrapper for it: the system call).
struct LinuxDirent64 {
  std::uint64_t d_ino;
  std::int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[256];  // NUL-terminated; the record is d_reclen bytes, often fewer than this struct
};

/// The bytes of directory entries read at once, per level (an entry takes at most 280).
constexpr std::size_t kDirentBufferBytes = 1024;
/// Readings of one directory from its start: a removal may move an entry behind the read
/// position, so a directory is read again until a reading finds it empty or removes nothing.
constexpr int kDirectoryPasses = 8;

bool is_dot_or_dot_dot(const char* name) {
  return name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

bool empty_directory(int fd, dev_t dev, int levels) noexcept;

/// Removes the entry `name` of the directory open at `dir_fd` (type from getdents64, which
/// may be DT_UNKNOWN). \returns true when it is gone.
bool remove_entry(int dir_fd, const char* name, unsigned char type, dev_t dev, int levels) noexcept {
  if (type != DT_DIR) {
    // Anything but a directory is unlinked: a link itself (never what it points to), a
    // FIFO (never opened), a socket, a device node.
    if (::unlinkat(dir_fd, name, 0) == 0 || errno == ENOENT) return true;
    if (errno != EISDIR && errno != EPERM) return false;  // a directory after all (DT_UNKNOWN)
  }
  if (levels <= 0) return false;
  const int sub = ::openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (sub < 0) {
    if (errno == ENOENT) return true;
    // No longer a directory (replaced by a link or a file since it was read): unlinked.
    if (errno == ENOTDIR || errno == ELOOP) return ::unlinkat(dir_fd, name, 0) == 0 || errno == ENOENT;
    return false;
  }
  struct stat st {};
  bool emptied = false;
  if (::fstat(sub, &st) == 0 && st.st_dev == dev) emptied = empty_directory(sub, dev, levels - 1);
  ::close(sub);  // another file system mounted here is not entered: it stays, and so do its parents
  if (!emptied) return false;
  return ::unlinkat(dir_fd, name, AT_REMOVEDIR) == 0 || errno == ENOENT;
}

/// Removes everything in the directory open at `fd`, descending at most `levels` more
/// levels. \returns true when it is empty.
bool empty_directory(int fd, dev_t dev, int levels) noexcept {
  alignas(LinuxDirent64) char buffer[kDirentBufferBytes];
  for (int pass = 0; pass < kDirectoryPasses; ++pass) {
    if (::lseek(fd, 0, SEEK_SET) < 0) return false;
    bool removed = false, stays = false;
    while (true) {
      const long n = ::syscall(SYS_getdents64, fd, buffer, sizeof buffer);
      if (n < 0) return false;
      if (n == 0) break;
      for (long at = 0; at < n;) {
        const auto* entry = reinterpret_cast<const LinuxDirent64*>(buffer + at);
        at += entry->d_reclen;
        if (is_dot_or_dot_dot(entry->d_name)) continue;
        if (remove_entry(fd, entry->d_name, entry->d_type, dev, levels)) {
          removed = true;
        } else {
          stays = true;
        }
      }
    }
    if (!removed && !stays) return true;
    if (!removed) return false;
  }
  return false;
}

/// Kills every registered child's group and reaps the child.
void end_registered_children() noexcept {
  for (std::atomic<pid_t>& c : g_children) {
    const pid_t pid = c.exchange(0);
    if (pid <= 0) continue;
    ::kill(-pid, SIGKILL);  // the group: gnuplot and whatever it started
    ::kill(pid, SIGKILL);   // the child itself, should it have left the group
    while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
}

}  // namespace

int register_temporary(std::string_view path, TemporaryKind kind) noexcept {
  if (path.empty() || path.size() >= PATH_MAX) return -1;
  for (std::size_t i = 0; i < g_temporaries.size(); ++i) {
    int expected = kTemporaryFree;
    if (!g_temporaries[i].state.compare_exchange_strong(expected, kTemporaryWriting)) continue;
    g_temporaries[i].kind = kind;
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

int register_child(pid_t pid) noexcept {
  if (pid <= 0) return -1;
  for (std::size_t i = 0; i < g_children.size(); ++i) {
    pid_t expected = 0;
    if (g_children[i].compare_exchange_strong(expected, pid)) return static_cast<int>(i);
  }
  return -1;
}

void unregister_child(int slot) noexcept {
  if (slot < 0 || static_cast<std::size_t>(slot) >= g_children.size()) return;
  g_children[static_cast<std::size_t>(slot)].store(0);
}

bool remove_tree(const char* path) noexcept {
  const int fd = ::open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT;
  struct stat st {};
  const bool emptied = ::fstat(fd, &st) == 0 && empty_directory(fd, st.st_dev, kTreeDepth);
  ::close(fd);
  if (!emptied) return false;
  return ::rmdir(path) == 0 || errno == ENOENT;
}

void remove_registered_temporaries() noexcept {
  // The children first: one still running would write its file again after it is removed.
  end_registered_children();
  for (TemporarySlot& s : g_temporaries) {
    if (s.state.load() != kTemporaryReady) continue;
    if (s.kind == TemporaryKind::file) ::unlink(s.path.data());
    if (s.kind == TemporaryKind::tree) remove_tree(s.path.data());
  }
  // Empty directories last, once what was in them is gone; again while one goes (a
  // registered directory inside another).
  for (std::size_t pass = 0; pass < g_temporaries.size(); ++pass) {
    bool removed = false;
    for (TemporarySlot& s : g_temporaries) {
      if (s.state.load() == kTemporaryReady && s.kind == TemporaryKind::empty_dir && ::rmdir(s.path.data()) == 0) {
        removed = true;
      }
    }
    if (!removed) break;
  }
}

}  // namespace tscaudit
