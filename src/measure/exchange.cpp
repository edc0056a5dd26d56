#include "measure/exchange.hpp"

#include <cstddef>
#include <memory>

#include "core/errors.hpp"
#include "measure/wait.hpp"

namespace tscaudit {
namespace {

using counter::PolicyList;

/// The plain send with every receive read: row[recv].
template <class TransportT, class Wait, class Send, class... Recv>
constexpr std::array<SideLoops, sizeof...(Recv)> row_of(PolicyList<Recv...> /*unused*/) {
  return {side_loops<Send, Recv, TransportT, Wait>()...};
}

/// Every send x receive read: table[send][recv].
template <class TransportT, class Wait, class... Send>
constexpr auto table_of(PolicyList<Send...> /*unused*/) {
  return std::array{row_of<TransportT, Wait, Send>(counter::Policies{})...};
}

/// One variant on both sides: diagonal[v].
template <class TransportT, class Wait, class... P>
constexpr std::array<SideLoops, sizeof...(P)> diagonal_of(PolicyList<P...> /*unused*/) {
  return {side_loops<P, P, TransportT, Wait>()...};
}

constexpr std::size_t kVariants = kHostVariants.size();

/// What a transport and wait other than (slot, spin) offers: exchange_unavailable's rule.
struct PlainOrSame {
  std::array<SideLoops, kVariants> plain_send;
  std::array<SideLoops, kVariants> same;
};

template <class TransportT, class Wait>
constexpr PlainOrSame plain_or_same() {
  return {row_of<TransportT, Wait, counter::PlainRead>(counter::Policies{}),
          diagonal_of<TransportT, Wait>(counter::Policies{})};
}

// Indexed by the position of a variant in kHostVariants, which is the policies' order
// (variant.hpp asserts it); the plain read is the first.
constexpr auto kSlotSpin = table_of<SlotTransport, SpinWait>(counter::Policies{});
constexpr PlainOrSame kQueueSpin = plain_or_same<QueueTransport, SpinWait>();
constexpr PlainOrSame kSlotYield = plain_or_same<SlotTransport, YieldWait>();
constexpr PlainOrSame kQueueYield = plain_or_same<QueueTransport, YieldWait>();
static_assert(kHostVariants.front() == counter::PlainRead::variant);

SideLoops loops_for(const ExchangeChoice& choice, bool same_cpu) {
  const std::size_t send = host_variant_index(choice.send);
  const std::size_t recv = host_variant_index(choice.recv);
  if (choice.transport == TransportKind::slot && !same_cpu) return kSlotSpin[send][recv];
  if (auto why = exchange_unavailable(choice, same_cpu)) throw UsageError(*why);
  const PlainOrSame& loops = choice.transport == TransportKind::slot ? kSlotYield
                             : same_cpu                              ? kQueueYield
                                                                     : kQueueSpin;
  return send == 0 ? loops.plain_send[recv] : loops.same[recv];
}

/// A fresh transport of `kind`, on the heap: the transports are over-aligned, and keeping
/// them off the main thread's stack keeps them away from anything else it writes.
using TransportPtr = std::unique_ptr<void, void (*)(void*)>;
template <class TransportT>
TransportPtr make_transport() {
  return {new TransportT(), [](void* p) { delete static_cast<TransportT*>(p); }};
}
TransportPtr make_transport(TransportKind kind) {
  return kind == TransportKind::slot ? make_transport<SlotTransport>() : make_transport<QueueTransport>();
}

}  // namespace

std::optional<std::string> exchange_unavailable(const ExchangeChoice& choice, bool same_cpu) {
  if (choice.transport == TransportKind::slot && !same_cpu) return std::nullopt;
  if (choice.send == plain_variant(counter::kHostArch) || choice.send == choice.recv) return std::nullopt;
  const std::string what = same_cpu ? "the same-CPU control (--cpus A,A)" : "--transport queue";
  return what + " sends with " + std::string(variant_name(plain_variant(counter::kHostArch))) +
         " or with the receive read (--variant V), not --send " + std::string(variant_name(choice.send)) +
         " --recv " + std::string(variant_name(choice.recv)) +
         ": every send x receive pair runs on the slot between two CPUs";
}

ExchangeResult run_exchange(const ExchangeChoice& choice, const ExchangeConfig& config) {
  const SideLoops loops = loops_for(choice, config.cpu_a == config.cpu_b);
  const TransportPtr transport = make_transport(choice.transport);
  return run_exchange_with(loops, transport.get(), config);
}

std::array<ExchangeResult, 2> run_switch_exchange(Variant second_recv, const ExchangeConfig& first,
                                                  const ExchangeConfig& second) {
  const std::array<SideLoops, 2> loops{kSlotSpin[0][0], kSlotSpin[0][host_variant_index(second_recv)]};
  const std::array<TransportPtr, 2> transports{make_transport<SlotTransport>(), make_transport<SlotTransport>()};
  return run_switching_exchange(loops, {transports[0].get(), transports[1].get()}, first, second);
}

}  // namespace tscaudit
