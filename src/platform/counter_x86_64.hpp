// x86-64: the eight ways of reading the time stamp counter, as always-inline policy
// types, and the spin loop's pause. Included through platform/counter.hpp only.
//
// Every variant is a struct with `static constexpr std::string_view name`, its
// `static constexpr ReadVariant variant` and `static std::uint64_t read() noexcept`
// (counter.hpp states the interface). The runner is a template over them, so the
// read is inlined into the hot loop exactly as written here (a read that is inlined in
// one place and called in another costs differently: uarch-bench's "-1 cycle" story).
//
// What the hardware does and does not promise (Intel SDM vol. 2 RDTSC/RDTSCP, AMD APM
// vol. 3, Linux arch/x86/include/asm/msr.h `rdtsc_ordered`):
//   - RDTSC is not serializing: it "does not necessarily wait until all previous
//     instructions have been executed before reading the counter", and later
//     instructions may begin before it has read. In a spin-then-timestamp receiver the
//     branch predicted to leave the spin lets RDTSC run before the flag load completes:
//     the receive time stamp is early, and the one-way latency can come out negative.
//   - LFENCE waits until all earlier instructions have completed locally, and no later
//     instruction begins until it completes (on AMD this needs the LFENCE-serializing
//     MSR bit, which Linux sets). It does not wait for earlier stores to become globally
//     visible.
//   - RDTSCP waits until all earlier instructions have executed and earlier loads are
//     globally visible; it does not wait for earlier stores, and later instructions may
//     start before it has read the counter.
//   - MFENCE orders earlier loads and stores (including store visibility) against later
//     ones; on AMD it is dispatch-serializing, on Intel it is not documented to order
//     RDTSC, so `mfence_rdtsc` is AMD's older advice, not a portable guarantee.
//   - CPUID is fully serializing. Under a hypervisor it also traps to the host (a VM
//     exit), so it costs microseconds there.
//
// Every asm statement has a "memory" clobber: the compiler may not move loads or stores
// across a read, so the order in the object code is the order written here. What the
// processor then does with that order is exactly what this tool measures.
//
// The x86-64 asm and intrinsics of the project live here and in x86_64_cpuid.cpp (CPUID).
#pragma once

#ifndef TSCAUDIT_COUNTER_HPP
#error "include platform/counter.hpp, which selects this file on x86-64"
#endif

#include <cstdint>
#include <string_view>

#include "core/read_variant.hpp"

namespace tscaudit::counter {

#define TSCAUDIT_ALWAYS_INLINE [[gnu::always_inline]] inline

inline constexpr CounterArch kHostArch = CounterArch::x86_64;

/// Combines the EDX:EAX halves that RDTSC and RDTSCP return.
TSCAUDIT_ALWAYS_INLINE std::uint64_t combine(std::uint32_t lo, std::uint32_t hi) noexcept {
  return (static_cast<std::uint64_t>(hi) << 32) | lo;
}

// The body of a variant's read(): `sequence`, a string literal of instructions that ends
// with the counter in EDX:EAX, as one asm statement with a "memory" clobber (a compiler
// barrier only). TSCAUDIT_READ_TSCP is the same for a sequence with RDTSCP, which also
// writes TSC_AUX into ECX. Written as macros because an asm string must be a literal (and
// so cannot be put in parentheses either: NOLINT below).
#define TSCAUDIT_READ_TSC(sequence)                                                                   \
  std::uint32_t lo, hi;                                                                              \
  asm volatile(sequence : "=a"(lo), "=d"(hi) : : "memory"); /* NOLINT(bugprone-macro-parentheses) */ \
  return combine(lo, hi)
#define TSCAUDIT_READ_TSCP(sequence)                                                                             \
  std::uint32_t lo, hi, aux;                                                                                    \
  asm volatile(sequence : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory"); /* NOLINT(bugprone-macro-parentheses) */ \
  static_cast<void>(aux);                                                                                       \
  return combine(lo, hi)

/// rdtsc. Cheapest. May execute before earlier loads complete (an early receive time
/// stamp) and later instructions may start before it reads.
struct Rdtsc {
  static constexpr std::string_view name = "rdtsc";
  static constexpr ReadVariant variant = ReadVariant::rdtsc;
  TSCAUDIT_ALWAYS_INLINE static std::uint64_t read() noexcept {
    TSCAUDIT_READ_TSC("rdtsc");  // EDX:EAX <- TSC
  }
};

/// rdtsc; lfence. Later instructions wait until the read has completed, so nothing after
/// it (the store that publishes the stamp, the timed work) starts early. The read itself
/// may still execute before earlier loads: no protection for a receive stamp.
struct RdtscLfence {
  static constexpr std::string_view name = "rdtsc_lfence";
  static constexpr ReadVariant variant = ReadVariant::rdtsc_lfence;
  TSCAUDIT_ALWAYS_INLINE static std::uint64_t read() noexcept {
    TSCAUDIT_READ_TSC(
        "rdtsc\n\t"  // EDX:EAX <- TSC
        "lfence");   // later instructions wait for the read
  }
};

/// lfence; rdtsc. The read waits until all earlier instructions (the spin loop's load of
/// the sequence number) have completed: the Linux kernel's rdtsc_ordered(). Later
/// instructions may still start before the read.
struct LfenceRdtsc {
  static constexpr std::string_view name = "lfence_rdtsc";
  static constexpr ReadVariant variant = ReadVariant::lfence_rdtsc;
  TSCAUDIT_ALWAYS_INLINE static std::uint64_t read() noexcept {
    TSCAUDIT_READ_TSC(
        "lfence\n\t"  // earlier instructions complete first
        "rdtsc");     // EDX:EAX <- TSC
  }
};

/// lfence; rdtsc; lfence. Ordered on both sides against instruction execution: the
/// measurement-start read of folly (hardware_timestamp_measurement_start) and abseil's
/// nanobenchmark. Earlier stores may still be in flight (not globally visible).
struct LfenceRdtscLfence {
  static constexpr std::string_view name = "lfence_rdtsc_lfence";
  static constexpr ReadVariant variant = ReadVariant::lfence_rdtsc_lfence;
  TSCAUDIT_ALWAYS_INLINE static std::uint64_t read() noexcept {
    TSCAUDIT_READ_TSC(
        "lfence\n\t"  // earlier instructions complete first
        "rdtsc\n\t"   // EDX:EAX <- TSC
        "lfence");    // later instructions wait for the read
  }
};

/// rdtscp. Waits until earlier instructions have executed and earlier loads are globally
/// visible; does not wait for earlier stores; later instructions may start before the
/// read. Also returns IA32_TSC_AUX, which Linux programs with the CPU (and node) number.
struct Rdtscp {
  static constexpr std::string_view name = "rdtscp";
  static constexpr ReadVariant variant = ReadVariant::rdtscp;
  TSCAUDIT_ALWAYS_INLINE static std::uint64_t read() noexcept {
    TSCAUDIT_READ_TSCP("rdtscp");  // EDX:EAX <- TSC, ECX <- TSC_AUX
  }
  /// The read and TSC_AUX. Linux encodes the CPU in bits 11:0 and the node above.
  TSCAUDIT_ALWAYS_INLINE static std::uint64_t read(std::uint32_t& aux) noexcept {
    std::uint32_t lo, hi;
    asm volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
    return combine(lo, hi);
  }
};

/// rdtscp; lfence. rdtscp's ordering against earlier loads, plus later instructions
/// waiting for the read: the measurement-stop read of folly
/// (hardware_timestamp_measurement_stop).
struct RdtscpLfence {
  static constexpr std::string_view name = "rdtscp_lfence";
  static constexpr ReadVariant variant = ReadVariant::rdtscp_lfence;
  TSCAUDIT_ALWAYS_INLINE static std::uint64_t read() noexcept {
    TSCAUDIT_READ_TSCP(
        "rdtscp\n\t"  // EDX:EAX <- TSC, ECX <- TSC_AUX
        "lfence");    // later instructions wait for the read
  }
};

/// mfence; rdtsc. AMD's older advice: MFENCE is dispatch-serializing on AMD, so the read
/// waits for earlier loads and stores there. On Intel MFENCE is not documented to order
/// RDTSC (the SDM asks for MFENCE;LFENCE), so this may protect nothing on Intel parts.
struct MfenceRdtsc {
  static constexpr std::string_view name = "mfence_rdtsc";
  static constexpr ReadVariant variant = ReadVariant::mfence_rdtsc;
  TSCAUDIT_ALWAYS_INLINE static std::uint64_t read() noexcept {
    TSCAUDIT_READ_TSC(
        "mfence\n\t"  // earlier loads and stores complete (and stores drain) first
        "rdtsc");     // EDX:EAX <- TSC
  }
};

/// cpuid; rdtsc. CPUID is fully serializing: everything earlier retires and the store
/// buffer drains before the read. The slowest variant, and under a hypervisor CPUID
/// exits to the host, which adds microseconds and its own jitter. Later instructions
/// may start before the read.
struct CpuidRdtsc {
  static constexpr std::string_view name = "cpuid_rdtsc";
  static constexpr ReadVariant variant = ReadVariant::cpuid_rdtsc;
  TSCAUDIT_ALWAYS_INLINE static std::uint64_t read() noexcept {
    std::uint32_t lo, hi;
    asm volatile(
        "cpuid\n\t"  // serialize (leaf 0 in EAX; what it returns is overwritten)
        "rdtsc"      // EDX:EAX <- TSC
        : "=a"(lo), "=d"(hi)
        : "a"(0u)
        : "rbx", "rcx", "memory");  // cpuid writes ebx and ecx too
    return combine(lo, hi);
  }
};

/// Every variant of this architecture, in interface order (kX86Variants).
using Policies = PolicyList<Rdtsc, RdtscLfence, LfenceRdtsc, LfenceRdtscLfence, Rdtscp, RdtscpLfence, MfenceRdtsc,
                            CpuidRdtsc>;
/// The plain read, which orders nothing: the baseline of every comparison.
using PlainRead = Rdtsc;
/// The read that waits for earlier instructions: the quantum's back-to-back reads.
using OrderedRead = LfenceRdtsc;
/// Ordered on both sides: the ends of a bracket (calibration, read cost), which nothing
/// inside may cross.
using BracketRead = LfenceRdtscLfence;

/// One turn of a spin loop: PAUSE tells the core this is a spin loop (no memory-order
/// mis-speculation flush on exit, less power, the SMT sibling gets the pipeline). It does
/// not stop RDTSC after the loop from executing early.
TSCAUDIT_ALWAYS_INLINE void spin_pause() noexcept { __builtin_ia32_pause(); }

#undef TSCAUDIT_READ_TSC
#undef TSCAUDIT_READ_TSCP
#undef TSCAUDIT_ALWAYS_INLINE

}  // namespace tscaudit::counter
