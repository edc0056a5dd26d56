// The runtime choice of (send variant, receive variant, transport) made concrete.
#pragma once

#include <array>
#include <optional>
#include <string>

#include "measure/runner.hpp"
#include "measure/transport.hpp"
#include "measure/variant.hpp"

namespace tscaudit {

/// The defaults are the architecture's: send its plain read (an early send stamp only makes
/// a latency longer), receive its cheapest read that waits for earlier loads.
struct ExchangeChoice {
  Variant send = plain_variant(counter::kHostArch);
  Variant recv = default_recv_variant(counter::kHostArch);
  TransportKind transport = TransportKind::slot;
};

/// Why this binary has no exchange for `choice` (nullopt: it has one). Every send x receive
/// pair runs on the slot between two CPUs (what `matrix`, `variants` and `report` measure);
/// the queue transport and the same-CPU control (`same_cpu`: a == b, a yielding wait) take
/// the plain send with any receive read, or one variant on both sides (`--variant V`).
/// \pre both variants are this architecture's.
std::optional<std::string> exchange_unavailable(const ExchangeChoice& choice, bool same_cpu);

/// Runs the exchange of the runtime choice: the one place where the choice becomes a
/// template instantiation (a table of side loops, made at compile time). Same-CPU pairs
/// (a == b) wait by yielding, every other pair spins.
/// \throws UsageError when exchange_unavailable says so; UnsupportedError for another
/// architecture's variant.
ExchangeResult run_exchange(const ExchangeChoice& choice, const ExchangeConfig& config);

/// The run that switches half-way (run_switching_exchange): the plain read for every send
/// stamp; receive stamps with the plain read during `first`, then with `second_recv` during
/// `second`. Slot transport, spinning wait. \pre first.cpu_a != first.cpu_b, both configs
/// name the same CPUs, the variants are supported here.
std::array<ExchangeResult, 2> run_switch_exchange(Variant second_recv, const ExchangeConfig& first,
                                                  const ExchangeConfig& second);

}  // namespace tscaudit
