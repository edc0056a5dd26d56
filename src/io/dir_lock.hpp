// One writer per directory (docs/formats.md, "The lock"): DIR/.lock, under an open file
// description lock, holding the writer's pid and command (and, for an output directory built
// aside, where it is being built) for the message that refuses a second writer and for a
// reader that finds the directory unfinished. Run directories (RunDirLock, run_dir_lock.hpp) and
// the commands' --out directories (OutputDir, output_dir.hpp) both lock so.
#pragma once

#include <string>
#include <string_view>

#include "formats/dir_writer_state.hpp"

namespace tscaudit {

/// The lock file of a directory being written (hidden: the readers pass it by).
inline constexpr std::string_view kLockName = ".lock";

/// DIR/.lock held by this process: locked with an open file description lock (fcntl
/// F_OFD_SETLK, whole file, write lock). The kernel drops the lock when the process ends,
/// however it ends: a lock file that a writer which died left behind holds nothing and blocks
/// nobody.
class DirLock {
 public:
  /// Locks DIR/.lock, creating it; DIR must exist. Of writers that start at once, exactly one
  /// gets it and the others are refused at once (never a wait). Writes "pid: N" and "command:
  /// ..." into it. On a file system that keeps no locks, the file is written unlocked.
  /// \throws IoError "REFUSAL: it is being written by pid N (COMMAND) (one writer at a time:
  ///         give another --out, or wait for it to end)" when a live process holds it, where
  ///         REFUSAL is `refusal` ("cannot write the run directory DIR"); or why the file
  ///         cannot be made or locked.
  static DirLock take(const std::string& dir, const std::string& refusal);

  DirLock(DirLock&& other) noexcept;
  DirLock& operator=(DirLock&& other) = delete;
  DirLock(const DirLock&) = delete;
  DirLock& operator=(const DirLock&) = delete;
  /// Releases the lock and leaves the lock file (what a writer that did not finish leaves).
  ~DirLock();

  /// Adds the line "KEY: VALUE" to the lock file, after the pid and the command (`value`
  /// printable, one line). \throws IoError when the file cannot be written.
  void add_line(std::string_view key, std::string_view value);

  /// Removes the lock file (when it is still the one this lock holds), then releases the lock.
  /// Never throws.
  void release_and_remove() noexcept;

  /// Releases the lock without touching the lock file (which may be gone with its directory).
  void release() noexcept;

  /// This lock made the lock file (it was not there before).
  [[nodiscard]] bool created() const { return created_; }
  [[nodiscard]] bool held() const { return fd_ >= 0; }
  [[nodiscard]] const std::string& dir() const { return dir_; }

 private:
  DirLock(std::string dir, int fd, bool created) : dir_(std::move(dir)), fd_(fd), created_(created) {}
  std::string dir_;
  int fd_ = -1;
  bool created_ = false;
  std::string text_;  // what the lock file holds
};

/// Who writes `dir`, asked without taking its lock (F_OFD_GETLK: a reader never holds a writer up).
DirWriterState dir_writer_state(const std::string& dir);

/// Refuses `dir` (IoError "REFUSAL: it is being written by ...", as DirLock::take) when a live
/// process holds its lock; nothing otherwise. For a check before anything is created.
void refuse_if_locked(const std::string& dir, const std::string& refusal);

}  // namespace tscaudit
