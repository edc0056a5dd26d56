// The temporaries a process has open (an OutputFile's FILE.tmp.XXXXXX, written aside and
// renamed over FILE when complete), so that a signal that ends the process does not leave
// them behind: the app's handler of SIGINT, SIGTERM and SIGHUP (src/app/stop_signals.hpp,
// install_cleanup_on_signal) removes them, then lets the signal end the process as usual.
//
// A fixed table: registering takes no lock and no allocation, and removing reads only the
// table, with unlink(2): async-signal-safe. A path longer than a slot, or a table full (more
// than kTemporarySlots temporaries at once), is not registered: its temporary may then stay
// behind after a signal, as every temporary did before.
#pragma once

#include <cstddef>
#include <string_view>

namespace tscaudit {

/// Temporaries open at once that a signal can remove (a command has a handful).
inline constexpr std::size_t kTemporarySlots = 64;

/// What a temporary is, and so how a signal removes it.
enum class TemporaryKind {
  file,       // unlink(2)
  tree,       // a directory and everything in it, links never followed
  empty_dir,  // rmdir(2): removed only when empty
};

/// Registers `path` (an absolute or relative path, as the process opened it). \returns the
/// slot to give unregister_temporary, or -1 when it was not registered.
int register_temporary(std::string_view path, TemporaryKind kind = TemporaryKind::file) noexcept;

/// Forgets a slot (the temporary was renamed or removed). -1: nothing.
void unregister_temporary(int slot) noexcept;

/// Unlinks every registered temporary. Async-signal-safe: for a signal handler.
void remove_registered_temporaries() noexcept;

}  // namespace tscaudit
