// The runtime choice of (send variant, receive variant, transport) made concrete.
#pragma once

#include <array>

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

/// Runs run_exchange<Send, Recv, Transport, Wait> for the runtime choice: the one place
/// where the choice becomes a template instantiation. Same-CPU pairs (a == b) wait by
/// yielding, every other pair spins.
ExchangeResult run_exchange(const ExchangeChoice& choice, const ExchangeConfig& config);

/// The run that switches half-way (run_switching_exchange): plain rdtsc for every send
/// stamp; receive stamps with plain rdtsc during `first`, then with `second_recv` during
/// `second`. Slot transport, spinning wait. \pre first.cpu_a != first.cpu_b, both configs
/// name the same CPUs, the variants are supported here.
std::array<ExchangeResult, 2> run_switch_exchange(Variant second_recv, const ExchangeConfig& first,
                                                  const ExchangeConfig& second);

}  // namespace tscaudit
