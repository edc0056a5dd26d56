// How a thread waits for its partner's message.
#pragma once

#include <sched.h>

#include <cstdint>

#include "platform/counter.hpp"

namespace tscaudit {

/// Busy wait: the partner runs on another CPU. Each turn is the architecture's spin hint
/// (counter::spin_pause: PAUSE on x86-64, YIELD on aarch64). It does not stop the counter
/// read after the loop from executing early.
struct SpinWait {
  /// How many relax() calls between checks of the clock (timeout) and the abort flag:
  /// 2^14 PAUSEs are roughly 0.1 to 1 ms depending on the part.
  static constexpr std::uint32_t kCheckMask = (1u << 14) - 1;
  [[gnu::always_inline]] static inline void relax() noexcept { counter::spin_pause(); }
};

/// Yielding wait: both threads on one CPU (the same-CPU control experiment), where a
/// spinning waiter would hold the CPU its partner needs until the scheduler tick.
struct YieldWait {
  static constexpr std::uint32_t kCheckMask = (1u << 6) - 1;
  [[gnu::always_inline]] static inline void relax() noexcept { sched_yield(); }
};

}  // namespace tscaudit
