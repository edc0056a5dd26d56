// The machine now, as a published state is compared with it (order/published_state.hpp,
// docs/machine.md §10.8): the boot id, the clocksource, the online CPUs, the clocks and the
// counter. What `check --publish` records of the moment and what libtscaudit's
// tscaudit_state_info compares with it.
#pragma once

#include <ctime>

#include "order/published_state.hpp"

namespace tscaudit {

/// Reads /proc/sys/kernel/random/boot_id, /sys/devices/system/clocksource/clocksource0/
/// current_clocksource, /sys/devices/system/cpu/online, CLOCK_BOOTTIME, CLOCK_REALTIME,
/// CLOCK_MONOTONIC and CLOCK_MONOTONIC_RAW, and the counter (an ordered read on whichever CPU
/// runs the caller: the table's offsets, a few hundred ticks, are nothing beside what the
/// state's age and rate tests ask of it; not read where this process may not read it:
/// counter_access.hpp). A fact that cannot be read is left empty or 0; never throws, and
/// leaves errno as it was.
MachineNow read_machine_now() noexcept;

/// A clock in ns. `vdso` false: through the system call itself, for a process whose counter
/// reads fault (PR_SET_TSC: the vDSO's clock_gettime reads the counter where the clocksource
/// is the TSC, and would fault with them). false when the clock cannot be read.
bool clock_ns(clockid_t id, std::int64_t& out, bool vdso) noexcept;

/// "0c3f...-..." as the kernel writes a boot id, into its 16 bytes; false when it is not one.
bool parse_boot_id(std::string_view text, std::array<std::uint8_t, 16>& out) noexcept;

}  // namespace tscaudit
