// Whether this binary runs under a user-mode emulator (qemu-user, FEX, box64): then every
// instruction is translated, the counter is whatever the emulator makes of it, and every
// timing tscaudit measures is the emulator's, not the hardware's. Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/read_variant.hpp"

namespace tscaudit {

/// The evidence that a binary built for `binary` runs on a kernel of another architecture,
/// or nullopt when there is none. A user-mode emulator passes system calls through to the
/// host's kernel, so /proc/cpuinfo (`cpuinfo_text`) is the host's: an x86-64 kernel's
/// ("vendor_id" and "flags" lines) under an aarch64 binary, an arm64 kernel's ("CPU
/// implementer" and "Features" lines) under an x86-64 one. Empty or unreadable text is no
/// evidence.
std::optional<std::string> emulation_evidence(CounterArch binary, std::string_view cpuinfo_text);

}  // namespace tscaudit
