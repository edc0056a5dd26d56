// Whether this process may read the counter from user space at all, asked without reading
// it (a read that is not allowed is a SIGSEGV, and the library installs no handler).
#pragma once

#include <optional>
#include <string>

namespace tscaudit {

/// Why a user-space counter read would fault here, or nullopt when it would not: on x86-64
/// a process whose RDTSC the kernel made fault (prctl PR_SET_TSC, PR_TSC_SIGSEGV); on
/// aarch64 Linux always lets EL0 read CNTVCT_EL0 (or traps and emulates it).
std::optional<std::string> counter_unreadable();

}  // namespace tscaudit
