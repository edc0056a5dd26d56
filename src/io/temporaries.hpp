// What a process leaves half-made while it works, so that a signal that ends it leaves
// nothing behind: the files written aside (an OutputFile's FILE.tmp.XXXXXX, renamed over
// FILE when complete), directories made aside (removed whole, or only while still empty),
// and the children that write into them (gnuplot drawing NAME.tmp.XXXXXX.png). The app's
// handler of SIGINT, SIGTERM and SIGHUP (src/app/stop_signals.hpp) calls
// remove_registered_temporaries, then lets the signal end the process as usual.
//
// Fixed tables: registering takes no lock and no allocation, and the removal reads only the
// tables and makes only async-signal-safe calls (kill, waitpid, open, getdents64, unlinkat,
// rmdir, close). A path longer than a slot, or a table full, is not registered: that
// temporary may then stay behind after a signal, as every temporary did before.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <string_view>

namespace tscaudit {

/// Temporaries open at once that a signal can remove (a command has a handful).
inline constexpr std::size_t kTemporarySlots = 64;

/// Children running at once that a signal can end (one gnuplot at a time today).
inline constexpr std::size_t kChildSlots = 16;

/// Directory levels below a registered tree that its removal descends; what lies deeper
/// stays, and so does the tree's root then (one buffer of the removal's stack per level).
inline constexpr int kTreeDepth = 24;

/// How a registered path is removed.
enum class TemporaryKind {
  file,       ///< unlink(2)
  tree,       ///< a directory and everything in it, recursively, never following a link
              ///< (a link is removed, not what it points to) and never crossing into another
              ///< file system
  empty_dir,  ///< rmdir(2): removed only when empty, after the files and trees
};

/// Registers `path` (absolute, or relative to the working directory, as the process made
/// it). \returns the slot to give unregister_temporary, or -1 when it was not registered.
int register_temporary(std::string_view path, TemporaryKind kind = TemporaryKind::file) noexcept;

/// Forgets a slot (the temporary was renamed or removed). -1: nothing.
void unregister_temporary(int slot) noexcept;

/// Registers a running child `pid` that leads its own process group (posix_spawn with
/// POSIX_SPAWN_SETPGROUP and pgroup 0): the cleanup kills the group and reaps the child before
/// it removes the files, so that nothing the group writes outlives the process. \returns the
/// slot to give unregister_child, or -1 when the table is full.
int register_child(pid_t pid) noexcept;

/// Forgets a child's slot. Call it once the child has ended and before it is reaped (a
/// zombie's pid is not given to another process, a reaped one's may be). -1: nothing.
void unregister_child(int slot) noexcept;

/// Kills every registered child's process group (SIGKILL) and reaps the child, unlinks the
/// registered files, removes the registered trees, then removes the registered empty
/// directories that are empty by then. Async-signal-safe: for a signal handler.
void remove_registered_temporaries() noexcept;

/// Removes the directory `path` and everything in it, as the cleanup removes a
/// TemporaryKind::tree: links are unlinked, never followed (`path` itself included: a link
/// there is left alone), nothing on another file system is entered, at most kTreeDepth levels
/// below `path` are descended. Async-signal-safe (no allocation: one buffer per level on the
/// stack). \returns true when `path` is gone (or was never there).
bool remove_tree(const char* path) noexcept;

}  // namespace tscaudit
