// The two transports of the exchange: the one-line slot, and Boost.Lockfree's
// spsc_queue for comparison. Each has one channel per direction with the same interface:
//   void send(Message) noexcept;
//   bool try_receive(std::uint64_t last_seq, Message& out) noexcept;
#pragma once

#include <boost/lockfree/spsc_queue.hpp>
#include <cstdint>
#include <optional>
#include <string_view>

#include "measure/slot.hpp"

namespace tscaudit {

/// One direction over boost::lockfree::spsc_queue. The ping-pong has at most one
/// message in flight per direction; the small fixed capacity keeps the ring inline.
class QueueChannel {
 public:
  void send(Message m) noexcept {
    while (!queue_.push(m)) {
      // Unreachable in a ping-pong (one message in flight); kept so a full queue waits
      // rather than losing a message.
    }
  }
  [[nodiscard]] bool try_receive(std::uint64_t /*last_seq*/, Message& out) noexcept { return queue_.pop(out); }

 private:
  boost::lockfree::spsc_queue<Message, boost::lockfree::capacity<16>> queue_;
};

/// Both directions of one pair, each in its own 128-byte-aligned block.
template <class Channel>
struct Transport {
  alignas(kFalseSharingBytes) Channel a_to_b;  // written by a, read by b
  alignas(kFalseSharingBytes) Channel b_to_a;  // written by b, read by a
};

struct SlotTransport : Transport<Slot> {
  static constexpr std::string_view name = "slot";
};
struct QueueTransport : Transport<QueueChannel> {
  static constexpr std::string_view name = "queue";
};

enum class TransportKind : std::uint8_t { slot, queue };

template <class F>
decltype(auto) visit_transport(TransportKind t, F&& f) {
  switch (t) {
    case TransportKind::slot: return f(static_cast<SlotTransport*>(nullptr));
    case TransportKind::queue: return f(static_cast<QueueTransport*>(nullptr));
  }
  __builtin_unreachable();
}

constexpr std::string_view transport_name(TransportKind t) {
  return t == TransportKind::slot ? SlotTransport::name : QueueTransport::name;
}

constexpr std::optional<TransportKind> parse_transport(std::string_view s) {
  if (s == SlotTransport::name) return TransportKind::slot;
  if (s == QueueTransport::name) return TransportKind::queue;
  return std::nullopt;
}

}  // namespace tscaudit
