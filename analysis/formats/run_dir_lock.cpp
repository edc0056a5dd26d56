// One writer per run directory (docs/formats.md, "The lock"): DIR/.lock, under an open file
// description lock, holding the writer's pid and command for the message that refuses a
// second writer and for a reader that finds the manifest saying running.
//
// Open file description locks (fcntl F_OFD_SETLK), not flock(2) nor classic POSIX locks: like
// flock they belong to the open file (two opens in one process conflict, so one process'
// writers and readers see each other too) and the kernel drops them when the process ends;
// unlike flock they can be asked about without being taken (F_OFD_GETLK), so a reader never
// holds a writer up; unlike POSIX locks, closing another descriptor of the file keeps them.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/errors.hpp"
#include "core/files.hpp"
#include "core/format.hpp"
#include "formats/output_file.hpp"
#include "formats/run_dir.hpp"

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

/// What a lock file says: "pid N (COMMAND)" from its `pid: ` and `command: ` lines, printable;
/// empty when it names no pid.
std::string lock_holder_text(int fd) {
  std::string text(kLockReadBytes, '\0');
  ssize_t n = 0;
  do {
    n = ::pread(fd, text.data(), text.size(), 0);
  } while (n < 0 && errno == EINTR);
  text.resize(n < 0 ? 0 : static_cast<std::size_t>(n));
  std::string pid, command;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) break;  // a line being written
    const std::string_view line(text.data() + at, end - at);
    if (line.starts_with("pid: ")) pid = printable(line.substr(5), 20);
    if (line.starts_with("command: ")) command = printable(line.substr(9), kLockCommandBytes);
    at = end + 1;
  }
  if (pid.empty()) return {};
  return "pid " + pid + (command.empty() ? "" : " (" + command + ")");
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

/// The names in `dir` but its lock file.
std::vector<std::string> lock_dir_entries(const std::string& dir) {
  std::vector<std::string> names = list_dir(dir);
  std::erase(names, std::string(kLockName));
  return names;
}

/// `dir` holds nothing but its lock file (false when it cannot be read). Never throws.
bool lock_dir_entries_or_none(const std::string& dir) noexcept {
  try {
    return lock_dir_entries(dir).empty();
  } catch (...) {
    return false;
  }
}

/// The entries are only those of a run directory, its manifest among them.
bool lock_only_a_run(const std::vector<std::string>& names) {
  bool manifest = false;
  for (const std::string& name : names) {
    if (name == kManifestName) {
      manifest = true;
    } else if (name != kTopologyName && name != kRoundsDirName) {
      return false;
    }
  }
  return manifest;
}

[[noreturn]] void refuse_busy(const std::string& dir, const std::string& who) {
  throw IoError("cannot write the run directory " + dir + ": it is being written by " +
                (who.empty() ? std::string("another process (its lock file names none yet)") : who) +
                " (one writer per run directory: give another --out, or wait for it to end)");
}

[[noreturn]] void refuse_not_empty(const std::string& dir) {
  throw IoError("cannot write the run directory " + dir +
                ": it exists and is not empty (a run is written into a new or an empty directory)");
}

/// The lock file's holder, waiting briefly for a writer that has just taken the lock to
/// write its pid.
std::string lock_holder_waiting(int fd) {
  const auto until = std::chrono::steady_clock::now() + kLockTextWait;
  std::string who = lock_holder_text(fd);
  while (who.empty() && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    who = lock_holder_text(fd);
  }
  return who;
}

/// Refuses `dir` with the reason a live writer gives, when one holds its lock file.
void refuse_if_busy(const std::string& dir) {
  const std::string path = join_path(dir, kLockName);
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return;
  if (lock_is_held(fd).value_or(false)) {
    const std::string who = lock_holder_waiting(fd);
    ::close(fd);
    refuse_busy(dir, who);
  }
  ::close(fd);
}

/// The file at `path` is still the one open at `fd` (a finishing writer removes its lock file).
bool lock_still_named(int fd, const std::string& path) {
  struct stat open_st {
  }, named_st{};
  if (::fstat(fd, &open_st) != 0 || ::lstat(path.c_str(), &named_st) != 0) return false;
  return open_st.st_dev == named_st.st_dev && open_st.st_ino == named_st.st_ino;
}

}  // namespace

RunDirLock::RunDirLock(RunDirLock&& other) noexcept
    : dir_(std::move(other.dir_)), fd_(other.fd_), earlier_(std::move(other.earlier_)) {
  other.fd_ = -1;
}

void RunDirLock::clear_earlier_run() {
  for (const std::string& name : earlier_) {
    std::error_code ec;
    std::filesystem::remove_all(std::filesystem::path(dir_) / name, ec);
    if (ec) throw IoError("cannot replace the earlier run directory " + dir_ + ": " + ec.message());
  }
  earlier_.clear();
}

void RunDirLock::give_up() noexcept {
  if (fd_ < 0) return;
  const bool unused = earlier_.empty() && lock_dir_entries_or_none(dir_);
  release_and_remove();
  if (unused) ::rmdir(dir_.c_str());  // only when empty: a directory this run made and never used
}

RunDirLock::~RunDirLock() {
  if (fd_ >= 0) ::close(fd_);
}

void RunDirLock::release_and_remove() noexcept {
  if (fd_ < 0) return;
  // Removed while still held: a writer that opens it now finds it gone, or locked.
  const std::string path = join_path(dir_, kLockName);
  if (lock_still_named(fd_, path)) ::unlink(path.c_str());
  ::close(fd_);
  fd_ = -1;
}

RunDirLock RunDirLock::acquire(const std::string& dir, EarlierRun earlier) {
  if (exists(dir) && !is_directory(dir))
    throw IoError("cannot write the run directory " + dir + ": it exists and is not a directory");
  make_directories(dir);
  // A directory in use: refused with who uses it, before anything is created in it.
  refuse_if_busy(dir);
  {
    const std::vector<std::string> names = lock_dir_entries(dir);
    if (!names.empty() && !(earlier == EarlierRun::replace && lock_only_a_run(names))) refuse_not_empty(dir);
  }
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
      if (err == EACCES || err == EPERM) refuse_if_busy(dir);  // another user's lock, held
      throw IoError("cannot write the run directory " + dir + ": cannot create " + path + ": " + std::strerror(err));
    }
    struct flock l = whole_file_lock(F_WRLCK);
    if (::fcntl(fd, F_OFD_SETLK, &l) != 0 && !lock_unsupported(errno)) {
      const int err = errno;
      if (err == EAGAIN || err == EACCES) {
        const std::string who = lock_holder_waiting(fd);
        ::close(fd);
        refuse_busy(dir, who);
      }
      ::close(fd);
      if (created) ::unlink(path.c_str());
      throw IoError("cannot lock " + path + ": " + std::strerror(err));
    }
    if (!lock_still_named(fd, path)) {  // a finishing writer removed the file we locked
      ::close(fd);
      continue;
    }
    RunDirLock lock(dir, fd);
    // Held: nobody else writes here now. What is in the directory is decided under the lock.
    const std::vector<std::string> names = lock_dir_entries(dir);
    if (!names.empty()) {
      if (!(earlier == EarlierRun::replace && lock_only_a_run(names))) {
        if (created) lock.release_and_remove();
        refuse_not_empty(dir);
      }
      lock.earlier_ = names;  // removed when the new run starts writing (clear_earlier_run)
    }
    const std::string text = "pid: " + std::to_string(::getpid()) + "\ncommand: " + lock_own_command() + "\n";
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size())) {
      throw IoError("cannot write " + path + ": " + std::strerror(errno));
    }
    return lock;
  }
  throw IoError("cannot lock " + path + ": it was removed and made again " + std::to_string(kLockTries) +
                " times while this run tried to take it");
}

RunDirWriterState run_dir_writer_state(const std::string& dir) {
  RunDirWriterState state;
  const int fd = ::open(join_path(dir, kLockName).c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return state;
  state.who = lock_holder_text(fd);
  const std::optional<bool> held = lock_is_held(fd);
  state.kind = !held   ? RunDirWriterState::Kind::unknown
               : *held ? RunDirWriterState::Kind::writing
                       : RunDirWriterState::Kind::stopped;
  ::close(fd);
  return state;
}

}  // namespace tscaudit
