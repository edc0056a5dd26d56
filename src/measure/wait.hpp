// How a thread waits for its partner's message.
#pragma once

#include <sched.h>

#include <cstdint>

namespace tscsync {

/// Busy wait with PAUSE: the partner runs on another CPU. PAUSE tells the core this is a
/// spin loop (no memory-order mis-speculation flush on exit, less power, the SMT sibling
/// gets the pipeline). It does not stop RDTSC after the loop from executing early.
struct SpinWait {
  /// How many relax() calls between checks of the clock (timeout) and the abort flag:
  /// 2^14 PAUSEs are roughly 0.1 to 1 ms depending on the part.
  static constexpr std::uint32_t kCheckMask = (1u << 14) - 1;
  [[gnu::always_inline]] static inline void relax() noexcept { __builtin_ia32_pause(); }
};

/// Yielding wait: both threads on one CPU (the same-CPU control experiment), where a
/// spinning waiter would hold the CPU its partner needs until the scheduler tick.
struct YieldWait {
  static constexpr std::uint32_t kCheckMask = (1u << 6) - 1;
  [[gnu::always_inline]] static inline void relax() noexcept { sched_yield(); }
};

}  // namespace tscsync
