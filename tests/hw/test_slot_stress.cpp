// Stress: millions of messages through each transport between two threads. Every
// sequence number arrives exactly once, in order, with its payload intact. Built twice:
// normally (tens of millions of messages) and under ThreadSanitizer (fewer).
#include <catch2/catch.hpp>

#include <atomic>
#include <thread>

#include "hw_requirements.hpp"
#include "measure/transport.hpp"
#include "measure/wait.hpp"
#include "platform/affinity.hpp"

using namespace tscaudit;

#ifndef TSCAUDIT_STRESS_ROUNDS
#define TSCAUDIT_STRESS_ROUNDS 10000000
#endif

namespace {

/// A payload no earlier or later message has: a bijective mix of the sequence number.
std::uint64_t payload_of(std::uint64_t seq) {
  std::uint64_t z = seq + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

struct Errors {
  std::uint64_t out_of_order = 0;
  std::uint64_t bad_payload = 0;
  std::uint64_t received = 0;
};

/// Ping-pong of `rounds` rounds (2 messages each): a sends seq, b echoes it back with
/// its own payload. Each side checks every message it receives.
template <class TransportT>
std::pair<Errors, Errors> stress_ping_pong(std::uint64_t rounds) {
  auto transport = std::make_unique<TransportT>();
  const std::vector<int> cpus = test::usable_cpus();
  Errors ea, eb;
  auto receive = [](auto& channel, std::uint64_t& last, Errors& e) {
    Message m{};
    while (!channel.try_receive(last, m)) SpinWait::relax();
    e.out_of_order += m.seq != last + 1;
    e.bad_payload += m.tsc != payload_of(m.seq);
    ++e.received;
    last = m.seq;
    return m;
  };
  std::thread b([&] {
    pin_this_thread(cpus.at(1));
    std::uint64_t last = 0;
    for (std::uint64_t i = 1; i <= rounds; ++i) {
      const Message m = receive(transport->a_to_b, last, eb);
      transport->b_to_a.send(Message{m.seq, payload_of(m.seq)});
    }
  });
  std::thread a([&] {
    pin_this_thread(cpus.at(0));
    std::uint64_t last = 0;
    for (std::uint64_t i = 1; i <= rounds; ++i) {
      transport->a_to_b.send(Message{i, payload_of(i)});
      receive(transport->b_to_a, last, ea);
    }
  });
  a.join();
  b.join();
  return {ea, eb};
}

}  // namespace

TEMPLATE_TEST_CASE("every message arrives once, in order, intact", "", SlotTransport, QueueTransport) {
  const std::uint64_t rounds = TSCAUDIT_STRESS_ROUNDS;
  const auto [ea, eb] = stress_ping_pong<TestType>(rounds);
  CHECK(ea.received == rounds);
  CHECK(eb.received == rounds);
  CHECK(ea.out_of_order == 0);
  CHECK(eb.out_of_order == 0);
  CHECK(ea.bad_payload == 0);
  CHECK(eb.bad_payload == 0);
}

TEST_CASE("single-thread protocol of the slot") {
  Slot slot;
  Message m{};
  CHECK_FALSE(slot.try_receive(0, m));  // nothing sent yet
  slot.send({1, 111});
  REQUIRE(slot.try_receive(0, m));
  CHECK(m.seq == 1);
  CHECK(m.tsc == 111);
  CHECK_FALSE(slot.try_receive(1, m));  // nothing new since seq 1
  slot.send({2, 222});
  REQUIRE(slot.try_receive(1, m));
  CHECK(m.tsc == 222);
}
