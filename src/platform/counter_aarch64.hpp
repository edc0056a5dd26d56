// aarch64: the six ways of reading the generic timer's virtual count, as always-inline
// policy types, and the spin loop's pause. Included through platform/counter.hpp only.
//
// Every variant is a struct with `static constexpr std::string_view name`, its
// `static constexpr ReadVariant variant` and `static std::uint64_t read() noexcept`
// (counter.hpp states the interface), written out whole here as on x86-64.
//
// The counter: CNTVCT_EL0, the virtual count, which user space may read when the kernel
// sets CNTKCTL_EL1.EL0VCTEN (Linux does, unless a counter erratum makes it trap and
// emulate every read; platform/aarch64_facts.hpp). It is the physical count less CNTVOFF_EL2,
// which a hypervisor sets (per VM, and KVM per vCPU when it restores a guest). It
// counts at CNTFRQ_EL0 Hz: 1 to 50 MHz before Armv8.6 (a tick of 20 ns to 1 us), 1 GHz
// from Armv8.6 and Armv9.1.
//
// What the architecture promises (Arm ARM, DDI 0487, "The Generic Timer in AArch64
// state"; Linux arch/arm64/include/asm/arch_timer.h and barrier.h):
//   - "Reads of CNTVCT_EL0 can occur speculatively and out of order relative to other
//     instructions executed on the same PE. For example, if a read from memory is used to
//     obtain a signal from another agent that indicates that CNTVCT_EL0 must be read, an
//     ISB is used to ensure that the read of CNTVCT_EL0 occurs after the signal has been
//     read from memory." That is exactly a receive stamp after a spin loop.
//   - ISB: every instruction after it is fetched again once it completes, so nothing
//     after it (the MRS included) executes before everything before it has.
//   - An ISB after the read keeps later instructions from starting before the read; it
//     does nothing for the read's own position.
//   - Linux's __arch_counter_get_cntvct reads "isb; mrs cntvct_el0" and then makes a load
//     that depends on the value (arch_counter_enforce_ordering: "Ensure that reads of the
//     counter are treated the same as memory reads for the purposes of ordering by
//     subsequent memory barriers"), so a later barrier orders later loads after the read.
//   - FEAT_ECV (Armv8.6) adds CNTVCTSS_EL0, a self-synchronized view of the same count:
//     Linux reads it in place of "isb; mrs cntvct_el0" where the CPU has it (ARM64_HAS_ECV;
//     user space sees HWCAP2_ECV). Older assemblers do not know its name: it is written by
//     its encoding, S3_3_C14_C0_6 (op0 3, op1 3, CRn 14, CRm 0, op2 6).
//
// Every asm statement has a "memory" clobber, as on x86-64: the compiler keeps the order
// written here.
//
// The aarch64 asm of the project lives here and in aarch64_registers.cpp (CNTFRQ_EL0, MIDR_EL1).
#pragma once

#ifndef TSCAUDIT_COUNTER_HPP
#error "include platform/counter.hpp, which selects this file on aarch64"
#endif

#include <cstdint>
#include <string_view>

#include "core/read_variant.hpp"

namespace tscaudit::counter {

#define TSCAUDIT_ALWAYS_INLINE [[gnu::always_inline]] inline

inline constexpr CounterArch kHostArch = CounterArch::aarch64;

// The body of a variant's read(): `sequence`, a string literal of instructions that ends
// with the count in operand 0, as one asm statement with a "memory" clobber (a compiler
// barrier only). A macro because an asm string must be a literal (NOLINT below).
#define TSCAUDIT_READ_COUNT(sequence)                                                             \
  std::uint64_t count;                                                                           \
  asm volatile(sequence : "=r"(count) : : "memory"); /* NOLINT(bugprone-macro-parentheses) */ \
  return count

/// mrs cntvct_el0. Cheapest. May execute before earlier loads complete (an early receive
/// time stamp), and later instructions may execute before it.
struct Cntvct {
  static constexpr std::string_view name = "cntvct";
  static constexpr ReadVariant variant = ReadVariant::cntvct;
  TSCAUDIT_ALWAYS_INLINE static std::uint64_t read() noexcept {
    TSCAUDIT_READ_COUNT("mrs %0, cntvct_el0");  // the virtual count
  }
};

/// isb; mrs cntvct_el0. The read executes after every earlier instruction, the spin loop's
/// load of the sequence number included: the Arm ARM's own example, and Linux's read
/// without its dependency. Later instructions may execute before the read.
struct IsbCntvct {
  static constexpr std::string_view name = "isb_cntvct";
  static constexpr ReadVariant variant = ReadVariant::isb_cntvct;
  TSCAUDIT_ALWAYS_INLINE static std::uint64_t read() noexcept {
    TSCAUDIT_READ_COUNT(
        "isb\n\t"                // earlier instructions complete; the rest is fetched anew
        "mrs %0, cntvct_el0");  // the virtual count
  }
};

/// mrs cntvct_el0; isb. Later instructions wait until the read has executed, so nothing
/// after it starts early. The read itself may still execute before earlier loads: no
/// protection for a receive stamp.
struct CntvctIsb {
  static constexpr std::string_view name = "cntvct_isb";
  static constexpr ReadVariant variant = ReadVariant::cntvct_isb;
  TSCAUDIT_ALWAYS_INLINE static std::uint64_t read() noexcept {
    TSCAUDIT_READ_COUNT(
        "mrs %0, cntvct_el0\n\t"  // the virtual count
        "isb");                   // later instructions wait for the read
  }
};

/// isb; mrs cntvct_el0; isb. Ordered on both sides against instruction execution, like
/// lfence;rdtsc;lfence on x86-64. Earlier stores may still be in flight.
struct IsbCntvctIsb {
  static constexpr std::string_view name = "isb_cntvct_isb";
  static constexpr ReadVariant variant = ReadVariant::isb_cntvct_isb;
  TSCAUDIT_ALWAYS_INLINE static std::uint64_t read() noexcept {
    TSCAUDIT_READ_COUNT(
        "isb\n\t"                 // earlier instructions complete first
        "mrs %0, cntvct_el0\n\t"  // the virtual count
        "isb");                   // later instructions wait for the read
  }
};

/// isb; mrs cntvct_el0; then Linux's fake dependency (arch_counter_enforce_ordering):
/// eor tmp, count, count (0, but dependent on the count); add tmp, sp, tmp; ldr xzr,
/// [tmp]. The read waits for earlier instructions (the isb), and the load from the stack
/// cannot be made before the count is known, so it is ordered after the read as any load
/// is: a later barrier (or acquire) orders later memory accesses after the read. This is
/// __arch_counter_get_cntvct of Linux on a CPU without FEAT_ECV, what its vDSO reads.
struct IsbCntvctDep {
  static constexpr std::string_view name = "isb_cntvct_dep";
  static constexpr ReadVariant variant = ReadVariant::isb_cntvct_dep;
  TSCAUDIT_ALWAYS_INLINE static std::uint64_t read() noexcept {
    std::uint64_t count;
    std::uint64_t address;
    asm volatile(
        "isb\n\t"                 // earlier instructions complete first
        "mrs %0, cntvct_el0\n\t"  // the virtual count
        "eor %1, %0, %0\n\t"      // 0, known only once the count is
        "add %1, sp, %1\n\t"      // the stack pointer, dependent on the count
        "ldr xzr, [%1]"           // a load that cannot happen before the read
        : "=r"(count), "=&r"(address)
        :
        : "memory");
    return count;
  }
};

/// mrs CNTVCTSS_EL0 (FEAT_ECV): the self-synchronized view of the virtual count, which
/// needs no isb before it. Linux reads it in place of isb; mrs cntvct_el0 where the CPU
/// has it. Only on CPUs with FEAT_ECV (HWCAP2_ECV); elsewhere the instruction is
/// undefined, so the commands refuse the variant first (exit 4).
struct Cntvctss {
  static constexpr std::string_view name = "cntvctss";
  static constexpr ReadVariant variant = ReadVariant::cntvctss;
  TSCAUDIT_ALWAYS_INLINE static std::uint64_t read() noexcept {
    TSCAUDIT_READ_COUNT("mrs %0, S3_3_C14_C0_6");  // CNTVCTSS_EL0, by its encoding
  }
};

/// Every variant of this architecture, in interface order (kAarch64Variants).
using Policies = PolicyList<Cntvct, IsbCntvct, CntvctIsb, IsbCntvctIsb, IsbCntvctDep, Cntvctss>;
/// The plain read, which orders nothing: the baseline of every comparison.
using PlainRead = Cntvct;
/// The read that waits for earlier instructions: the quantum's back-to-back reads.
using OrderedRead = IsbCntvct;
/// Ordered on both sides: the ends of a bracket (calibration, read cost), which nothing
/// inside may cross.
using BracketRead = IsbCntvctIsb;

/// One turn of a spin loop: YIELD, Linux's cpu_relax() on arm64, a hint that this thread
/// is spinning (an SMT sibling, or a hypervisor, may take the core). Like PAUSE it does not
/// order the read after the loop.
TSCAUDIT_ALWAYS_INLINE void spin_pause() noexcept { asm volatile("yield" ::: "memory"); }

#undef TSCAUDIT_READ_COUNT
#undef TSCAUDIT_ALWAYS_INLINE

}  // namespace tscaudit::counter
