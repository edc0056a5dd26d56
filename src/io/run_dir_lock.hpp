// One writer per run directory (docs/formats.md, "The lock"): DIR/.lock (io/dir_lock.hpp),
// what a run directory may hold when a writer takes it, and the run directory opened for
// reading as this machine sees it, its writer asked through the lock.
#pragma once

#include <string>
#include <vector>

#include "formats/run_dir.hpp"
#include "io/dir_lock.hpp"

namespace tscaudit {

/// What RunDirLock::acquire does with a directory that holds an earlier run directory.
enum class EarlierRun {
  refuse,   // a directory that is not empty is refused
  replace,  // one that holds only a run directory (manifest.json, topology.xml, rounds/) is emptied
            // when the new run starts writing
};

/// A run directory held by its one writer: DIR/.lock (DirLock, io/dir_lock.hpp).
class RunDirLock {
 public:
  /// Creates `dir` (and its parents) unless it is there, and locks it: of writers that start
  /// at once, exactly one gets it and the others are refused at once (never a wait). The
  /// directory must then be empty but for the lock file (or, with EarlierRun::replace, hold
  /// only a run directory, which clear_earlier_run removes); a directory refused for that
  /// keeps no lock file of ours. On a file system that keeps no locks, the directory is taken unlocked.
  /// \throws IoError "cannot write the run directory DIR: it is being written by pid N
  ///         (COMMAND) ..." when a live process holds it; "... it exists and is not empty ...",
  ///         "... it exists and is not a directory", or the reason it cannot be created.
  static RunDirLock acquire(const std::string& dir, EarlierRun earlier);
  RunDirLock(RunDirLock&& other) noexcept;
  RunDirLock& operator=(RunDirLock&& other) = delete;
  RunDirLock(const RunDirLock&) = delete;
  RunDirLock& operator=(const RunDirLock&) = delete;
  /// Releases the lock and leaves the lock file (what a run that did not finish leaves).
  ~RunDirLock();

  /// Removes the lock file, then releases the lock: the run is finished. Never throws.
  void release_and_remove() noexcept;

  /// Removes the earlier run directory that acquire(dir, EarlierRun::replace) found, as the
  /// new run starts to write (RunDirWriter::create): a run that stops before (a refused
  /// option) leaves it whole. \throws IoError naming the directory.
  void clear_earlier_run();

  /// The lock of a run that never started writing: removes the lock file, releases the lock,
  /// and removes the directory when nothing else is in it. Never throws.
  void give_up() noexcept;

  [[nodiscard]] const std::string& dir() const { return lock_.dir(); }

 private:
  explicit RunDirLock(DirLock lock) : lock_(std::move(lock)) {}
  DirLock lock_;
  std::vector<std::string> earlier_;  // an earlier run's entries, to remove before writing
};

/// Who writes the run directory `dir` (dir_writer_state).
RunDirWriterState run_dir_writer_state(const std::string& dir);

/// open_run_dir (formats/run_dir.hpp) with the writer of a run that says running asked
/// through its lock (run_dir_writer_state): what every command reads a run directory with.
RunDirReader open_run_dir(const std::string& path);

}  // namespace tscaudit
