// The one-line slot: how one message (a sequence number and a TSC value) crosses from
// one CPU to another, moving exactly one cache line.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace tscaudit {

/// Destructive interference: on x86-64 the adjacent-line prefetcher pulls cache lines in
/// pairs, so independently written data is kept 128 bytes apart (folly/lang/Align.h); on
/// aarch64 lines are 64 bytes (Neoverse, Cortex) or 128 (Apple's cores), which 128 covers
/// too (A64FX's 256-byte lines are the exception).
inline constexpr std::size_t kFalseSharingBytes = 128;
inline constexpr std::size_t kCacheLineBytes = 64;

/// One message: a sequence number (1, 2, ...; 0 = nothing sent yet) and its TSC stamp.
struct Message {
  std::uint64_t seq;
  std::uint64_t tsc;
};

/// One direction of the exchange. Single writer, single reader.
///
/// The writer stores tsc (relaxed) then seq (release); the reader spins on seq (acquire)
/// and then loads tsc (relaxed): the acquire on seq makes the tsc written before it
/// visible. Both words are std::atomic so the protocol is data-race-free under the C++
/// model and checkable by ThreadSanitizer (no seqlock over plain memory).
///
/// \pre The writer publishes message n+1 only after the reader has consumed message n
///      (the ping-pong guarantees it: the next message follows the reply).
struct alignas(kFalseSharingBytes) Slot {
  std::atomic<std::uint64_t> seq{0};  // written by the sender only
  std::atomic<std::uint64_t> tsc{0};  // written by the sender only

  void send(Message m) noexcept {
    tsc.store(m.tsc, std::memory_order_relaxed);
    seq.store(m.seq, std::memory_order_release);
  }

  /// Reads the slot if it holds a message other than `last_seq`.
  /// \returns true and fills `out` when a new message is there; false otherwise.
  [[nodiscard]] bool try_receive(std::uint64_t last_seq, Message& out) noexcept {
    const std::uint64_t s = seq.load(std::memory_order_acquire);
    if (s == last_seq) return false;
    out = Message{s, tsc.load(std::memory_order_relaxed)};
    return true;
  }
};

static_assert(std::atomic<std::uint64_t>::is_always_lock_free);
static_assert(alignof(Slot) == kFalseSharingBytes, "a slot starts a 128-byte block");
static_assert(sizeof(Slot) == kFalseSharingBytes, "nothing else shares the slot's block");
static_assert(offsetof(Slot, seq) == 0);
static_assert(offsetof(Slot, tsc) + sizeof(std::uint64_t) <= kCacheLineBytes,
              "seq and tsc share one cache line: one line moves per message");

/// b's reply when a keeps whole rounds (monitor, the quick check): the sequence number and
/// both of b's stamps.
struct Reply {
  std::uint64_t seq;
  std::uint64_t t3;
  std::uint64_t t2;
};

/// The reply direction: Slot's protocol (payload relaxed, then seq release; the reader
/// acquires seq) with one more payload word, still in one cache line.
struct alignas(kFalseSharingBytes) ReplySlot {
  std::atomic<std::uint64_t> seq{0};
  std::atomic<std::uint64_t> t3{0};
  std::atomic<std::uint64_t> t2{0};

  void send(const Reply& r) noexcept {
    t3.store(r.t3, std::memory_order_relaxed);
    t2.store(r.t2, std::memory_order_relaxed);
    seq.store(r.seq, std::memory_order_release);
  }
  [[nodiscard]] bool try_receive(std::uint64_t last_seq, Reply& out) noexcept {
    const std::uint64_t s = seq.load(std::memory_order_acquire);
    if (s == last_seq) return false;
    out = Reply{s, t3.load(std::memory_order_relaxed), t2.load(std::memory_order_relaxed)};
    return true;
  }
};
static_assert(sizeof(ReplySlot) == kFalseSharingBytes);
static_assert(offsetof(ReplySlot, t2) + sizeof(std::uint64_t) <= kCacheLineBytes, "one line moves per reply");

}  // namespace tscaudit
