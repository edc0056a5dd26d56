// The runtime choice of (send variant, receive variant, transport) made concrete.
#pragma once

#include "runner.hpp"
#include "transport.hpp"
#include "variant.hpp"

namespace tscsync {

struct ExchangeChoice {
  Variant send = Variant::rdtsc;
  Variant recv = Variant::lfence_rdtsc;
  TransportKind transport = TransportKind::slot;
};

/// Runs run_exchange<Send, Recv, Transport, Wait> for the runtime choice: the one place
/// where the choice becomes a template instantiation. Same-CPU pairs (a == b) wait by
/// yielding, every other pair spins.
ExchangeResult run_exchange(const ExchangeChoice& choice, const ExchangeConfig& config);

}  // namespace tscsync
