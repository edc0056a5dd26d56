// One writer per directory (docs/formats.md, "The lock").
//
// Open file description locks (fcntl F_OFD_SETLK), not flock(2) nor classic POSIX locks: like
// flock they belong to the open file (two opens in one process conflict, so one process'
// writers and readers see each other too) and the kernel drops them when the process ends;
// unlike flock they can be asked about without being taken (F_OFD_GETLK), so a reader never
// holds a writer up; unlike POSIX locks, closing another descriptor of the file keeps them.
#include "io/dir_lock.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <thread>

#include "core/errors.hpp"
#include "core/files.hpp"
#include "core/format.hpp"

namespace tscaudit {
namespace {

/// The most of the writer's command line that the lock file keeps.
constexpr std::size_t kLockCommandBytes = 300;
/// The most of a lock file read back.
constexpr std::size_t kLockReadBytes = 4096;
/// How long a refused writer waits for the winner to write its pid (it does so right after
/// taking the lock; only a writer stopped in between leaves it empty longer).
constexpr auto kLockTextWait = std::chrono::milliseconds(200);
/// Tries to lock a lock file that a finishing writer removes at the same moment.
constexpr int kLockTries = 20;

/// This process' command line, its arguments separated by spaces, printable.
std::string lock_own_command() {
  std::string cmdline;
  if (std::FILE* f = std::fopen("/proc/self/cmdline", "rb")) {
    char buf[1024];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0 && cmdline.size() < kLockCommandBytes * 2)
      cmdline.append(buf, n);
    std::fclose(f);
  }
  while (!cmdline.empty() && cmdline.back() == '\0') cmdline.pop_back();
  for (char& c : cmdline) {
    if (c == '\0') c = ' ';
  }
  return cmdline.empty() ? "unknown" : printable(cmdline, kLockCommandBytes);
}

/// What a lock file says: its `pid: `, `command: ` and `aside: ` lines, printable.
struct LockText {
  std::string pid, command, aside;
};

LockText lock_text(int fd) {
  std::string text(kLockReadBytes, '\0');
  ssize_t n = 0;
  do {
    n = ::pread(fd, text.data(), text.size(), 0);
  } while (n < 0 && errno == EINTR);
  text.resize(n < 0 ? 0 : static_cast<std::size_t>(n));
  LockText t;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) break;  // a line being written
    const std::string_view line(text.data() + at, end - at);
    if (line.starts_with("pid: ")) t.pid = printable(line.substr(5), 20);
    if (line.starts_with("command: ")) t.command = printable(line.substr(9), kLockCommandBytes);
    if (line.starts_with("aside: ")) t.aside = printable(line.substr(7), kLockCommandBytes);
    at = end + 1;
  }
  return t;
}

/// "pid N (COMMAND)"; empty when the lock file names no pid.
std::string holder_of(const LockText& t) {
  if (t.pid.empty()) return {};
  return "pid " + t.pid + (t.command.empty() ? "" : " (" + t.command + ")");
}

/// The whole file as the lock's range.
struct flock whole_file_lock(short type) {
  struct flock l {};
  l.l_type = type;
  l.l_whence = SEEK_SET;
  l.l_start = 0;
  l.l_len = 0;
  l.l_pid = 0;  // must be 0 for open file description locks
  return l;
}

/// A file system that keeps no locks (some FUSE and network file systems): the run goes on
/// unlocked there, as it did before there was a lock, rather than not at all.
bool lock_unsupported(int err) { return err == ENOLCK || err == EINVAL || err == EOPNOTSUPP || err == ENOTSUP; }

/// Whether a live process holds a lock on the file open at `fd`. \returns nullopt when the
/// kernel cannot say (a file system without locks).
std::optional<bool> lock_is_held(int fd) {
  struct flock l = whole_file_lock(F_WRLCK);
  if (::fcntl(fd, F_OFD_GETLK, &l) != 0) return std::nullopt;
  return l.l_type != F_UNLCK;
}

[[noreturn]] void refuse_busy(const std::string& refusal, const std::string& who) {
  throw IoError(refusal + ": it is being written by " +
                (who.empty() ? std::string("another process (its lock file names none yet)") : who) +
                " (one writer per directory: give another --out, or wait for it to end)");
}

/// The lock file's holder, waiting briefly for a writer that has just taken the lock to
/// write its pid.
std::string lock_holder_waiting(int fd) {
  const auto until = std::chrono::steady_clock::now() + kLockTextWait;
  std::string who = holder_of(lock_text(fd));
  while (who.empty() && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    who = holder_of(lock_text(fd));
  }
  return who;
}

/// The file at `path` is still the one open at `fd` (a finishing writer removes its lock file).
bool lock_still_named(int fd, const std::string& path) {
  struct stat open_st {
  }, named_st{};
  if (::fstat(fd, &open_st) != 0 || ::lstat(path.c_str(), &named_st) != 0) return false;
  return open_st.st_dev == named_st.st_dev && open_st.st_ino == named_st.st_ino;
}

}  // namespace

void refuse_if_locked(const std::string& dir, const std::string& refusal) {
  const std::string path = join_path(dir, kLockName);
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return;
  if (lock_is_held(fd).value_or(false)) {
    const std::string who = lock_holder_waiting(fd);
    ::close(fd);
    refuse_busy(refusal, who);
  }
  ::close(fd);
}

DirLock::DirLock(DirLock&& other) noexcept
    : dir_(std::move(other.dir_)), fd_(other.fd_), created_(other.created_), text_(std::move(other.text_)) {
  other.fd_ = -1;
}

DirLock::~DirLock() { release(); }

void DirLock::release() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void DirLock::release_and_remove() noexcept {
  if (fd_ < 0) return;
  // Removed while still held: a writer that opens it now finds it gone, or locked.
  const std::string path = join_path(dir_, kLockName);
  if (lock_still_named(fd_, path)) ::unlink(path.c_str());
  release();
}

void DirLock::add_line(std::string_view key, std::string_view value) {
  text_ += std::string(key) + ": " + printable(value, kLockCommandBytes) + "\n";
  if (fd_ < 0) return;
  if (::pwrite(fd_, text_.data(), text_.size(), 0) != static_cast<ssize_t>(text_.size())) {
    throw IoError("cannot write " + join_path(dir_, kLockName) + ": " + std::strerror(errno));
  }
}

DirLock DirLock::take(const std::string& dir, const std::string& refusal) {
  const std::string path = join_path(dir, kLockName);
  for (int attempt = 0; attempt < kLockTries; ++attempt) {
    bool created = true;
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 && errno == EEXIST) {
      created = false;
      fd = ::open(path.c_str(), O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
      if (fd < 0 && errno == ENOENT) continue;  // removed by a writer that just finished
    }
    if (fd < 0) {
      const int err = errno;
      if (err == EACCES || err == EPERM) refuse_if_locked(dir, refusal);  // another user's lock, held
      throw IoError(refusal + ": cannot create " + path + ": " + std::strerror(err));
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd);
      throw IoError(refusal + ": " + path + " is not a regular file");
    }
    struct flock l = whole_file_lock(F_WRLCK);
    if (::fcntl(fd, F_OFD_SETLK, &l) != 0 && !lock_unsupported(errno)) {
      const int err = errno;
      if (err == EAGAIN || err == EACCES) {
        const std::string who = lock_holder_waiting(fd);
        ::close(fd);
        refuse_busy(refusal, who);
      }
      ::close(fd);
      if (created) ::unlink(path.c_str());
      throw IoError("cannot lock " + path + ": " + std::strerror(err));
    }
    if (!lock_still_named(fd, path)) {  // a finishing writer removed the file we locked
      ::close(fd);
      continue;
    }
    DirLock lock(dir, fd, created);
    lock.text_ = "pid: " + std::to_string(::getpid()) + "\ncommand: " + lock_own_command() + "\n";
    if (::ftruncate(fd, 0) != 0 ||
        ::pwrite(fd, lock.text_.data(), lock.text_.size(), 0) != static_cast<ssize_t>(lock.text_.size())) {
      const int err = errno;
      lock.release_and_remove();
      throw IoError("cannot write " + path + ": " + std::strerror(err));
    }
    return lock;
  }
  throw IoError("cannot lock " + path + ": it was removed and made again " + std::to_string(kLockTries) +
                " times while this process tried to take it");
}

DirWriterState dir_writer_state(const std::string& dir) {
  DirWriterState state;
  const int fd = ::open(join_path(dir, kLockName).c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return state;
  const LockText text = lock_text(fd);
  state.who = holder_of(text);
  state.aside = text.aside;
  state.pid = std::strtol(text.pid.c_str(), nullptr, 10);
  state.this_process = state.pid == static_cast<long>(::getpid());
  const std::optional<bool> held = lock_is_held(fd);
  state.kind = !held   ? DirWriterState::Kind::unknown
               : *held ? DirWriterState::Kind::writing
                       : DirWriterState::Kind::stopped;
  ::close(fd);
  return state;
}

}  // namespace tscaudit
