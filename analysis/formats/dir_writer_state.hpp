// Who writes a directory, as its lock file tells (docs/formats.md, "The lock"): what a reader
// of a run directory whose manifest says running is told. The lock is asked by the machine
// side (io/dir_lock.hpp: dir_writer_state); this room takes no lock and asks none.
#pragma once

#include <string>

namespace tscaudit {

struct DirWriterState {
  enum class Kind {
    no_lock_file,  // none: finished, or written by a version without the lock, or copied
    stopped,       // a lock file that nobody holds: its writer ended without finishing
    writing,       // a live process holds the lock
    unknown,       // a lock file on a file system that keeps no locks: nobody can tell
  };
  Kind kind = Kind::no_lock_file;
  std::string who;    // "pid N (COMMAND)" from the lock file, printable; empty when it names none
  long pid = 0;       // N; 0 when it names none
  std::string aside;  // the lock file's "aside:" line: where an output directory is being built
  bool this_process = false;  // N is the pid of the process that asked
  /// This process holds it (a command that reads the directory it is about to replace).
  [[nodiscard]] bool mine() const { return kind == Kind::writing && this_process; }
};

}  // namespace tscaudit
