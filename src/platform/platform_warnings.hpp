// What on this platform can spoil or mislead a counter measurement, each with advice. Pure:
// a function of the CPU and kernel facts, so every trigger is tested on fabricated facts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/warning.hpp"
#include "platform/kernel_facts.hpp"
#include "platform/platform.hpp"

namespace tscaudit {

/// An enabled idle state with a longer exit latency than this is "deep": a CPU waking
/// from it answers a message that much later (microseconds).
inline constexpr std::uint64_t kDeepCstateLatencyUs = 10;

/// x86-64's warnings that apply, in a fixed order: virtual_machine, clocksource_not_tsc,
/// tsc_not_invariant, tsc_unstable, powersave_governor, deep_cstates, no_isolated_cpus,
/// smt_on, no_rdtscp. A fact that could not be read raises nothing: no warning is a guess.
std::vector<Warning> platform_warnings(const CpuidFacts& cpuid, const KernelFacts& kernel);

/// aarch64's, in a fixed order: counter_erratum (one per erratum, counter_errata),
/// counter_trapped, cntfrq_mismatch, clocksource_not_arch_sys_counter, powersave_governor,
/// deep_cstates, no_isolated_cpus, smt_on.
std::vector<Warning> arm_platform_warnings(const ArmFacts& arm, const KernelFacts& kernel,
                                           const TscFrequency& frequency);

/// emulated (a user-mode emulator runs this binary), then the warnings of the facts'
/// architecture; under an emulator, not the host kernel's clocksource warning.
std::vector<Warning> platform_warnings(const PlatformFacts& facts);

}  // namespace tscaudit
