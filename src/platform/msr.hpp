// Model-specific registers through the Linux msr driver (/dev/cpu/N/msr): hardware
// access, kept apart from the pure parsers. Only reads; nothing here writes an MSR.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tscaudit {

/// IA32_TSC_ADJUST: added to the TSC on reads; a write to the TSC moves it too, so a
/// non-zero value on one CPU is the trace of firmware or a hypervisor shifting its counter.
inline constexpr std::uint32_t kMsrTscAdjust = 0x3b;

struct MsrRead {
  std::optional<std::int64_t> value;  // the register, as a signed 64-bit count of ticks
  std::string problem;                // why there is no value; empty when there is
};

/// Reads `msr` on `cpu` with pread on /dev/cpu/CPU/msr (the driver runs the RDMSR on that
/// CPU). Needs root (CAP_SYS_RAWIO) and the msr driver. Never throws.
MsrRead read_msr(int cpu, std::uint32_t msr);

/// Why reading /dev/cpu/CPU/msr failed with `err`, in words with the remedy. Pure.
/// \param at_open  the open failed (else the pread did)
/// \param kernel_loads_modules  /proc/modules exists, so `modprobe msr` can help
std::string msr_problem(int cpu, int err, bool at_open, bool kernel_loads_modules);

}  // namespace tscaudit
