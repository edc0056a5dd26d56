// One writer per run directory (docs/formats.md, "The lock"): the directory's lock file
// (io/dir_lock.hpp), and what a run directory may hold when a writer takes it.
#include "io/run_dir_lock.hpp"

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/files.hpp"
#include "io/output_file.hpp"

namespace tscaudit {
namespace {

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

std::string refusal_of(const std::string& dir) { return "cannot write the run directory " + dir; }

[[noreturn]] void refuse_not_empty(const std::string& dir) {
  throw IoError(refusal_of(dir) + ": it exists and is not empty (a run is written into a new or an empty directory)");
}

}  // namespace

RunDirLock::RunDirLock(RunDirLock&& other) noexcept = default;

void RunDirLock::clear_earlier_run() {
  for (const std::string& name : earlier_) {
    std::error_code ec;
    std::filesystem::remove_all(std::filesystem::path(dir()) / name, ec);
    if (ec) throw IoError("cannot replace the earlier run directory " + dir() + ": " + ec.message());
  }
  earlier_.clear();
}

void RunDirLock::give_up() noexcept {
  if (!lock_.held()) return;
  const bool unused = earlier_.empty() && lock_dir_entries_or_none(dir());
  lock_.release_and_remove();
  if (unused) ::rmdir(dir().c_str());  // only when empty: a directory this run made and never used
}

RunDirLock::~RunDirLock() = default;

void RunDirLock::release_and_remove() noexcept { lock_.release_and_remove(); }

RunDirLock RunDirLock::acquire(const std::string& dir, EarlierRun earlier) {
  if (exists(dir) && !is_directory(dir))
    throw IoError(refusal_of(dir) + ": it exists and is not a directory");
  make_directories(dir);
  // A directory in use: refused with who uses it, before anything is created in it.
  refuse_if_locked(dir, refusal_of(dir));
  {
    const std::vector<std::string> names = lock_dir_entries(dir);
    if (!names.empty() && !(earlier == EarlierRun::replace && lock_only_a_run(names))) refuse_not_empty(dir);
  }
  RunDirLock lock(DirLock::take(dir, refusal_of(dir)));
  // Held: nobody else writes here now. What is in the directory is decided under the lock.
  const std::vector<std::string> names = lock_dir_entries(dir);
  if (!names.empty()) {
    if (!(earlier == EarlierRun::replace && lock_only_a_run(names))) {
      if (lock.lock_.created()) lock.lock_.release_and_remove();
      refuse_not_empty(dir);
    }
    lock.earlier_ = names;  // removed when the new run starts writing (clear_earlier_run)
  }
  return lock;
}

RunDirWriterState run_dir_writer_state(const std::string& dir) { return dir_writer_state(dir); }

RunDirReader open_run_dir(const std::string& path) { return open_run_dir(path, run_dir_writer_state); }

}  // namespace tscaudit
