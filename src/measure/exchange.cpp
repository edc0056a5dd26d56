#include "measure/exchange.hpp"

#include "measure/wait.hpp"

namespace tscaudit {

ExchangeResult run_exchange(const ExchangeChoice& choice, const ExchangeConfig& config) {
  return visit_variant(choice.send, [&](auto send) {
    return visit_variant(choice.recv, [&](auto recv) {
      return visit_transport(choice.transport, [&](auto* transport) {
        using Send = decltype(send);
        using Recv = decltype(recv);
        using TransportT = std::remove_pointer_t<decltype(transport)>;
        if (config.cpu_a == config.cpu_b) return run_exchange<Send, Recv, TransportT, YieldWait>(config);
        return run_exchange<Send, Recv, TransportT, SpinWait>(config);
      });
    });
  });
}

std::array<ExchangeResult, 2> run_switch_exchange(Variant second_recv, const ExchangeConfig& first,
                                                  const ExchangeConfig& second) {
  return visit_variant(second_recv, [&](auto recv) {
    return run_switching_exchange<counter::PlainRead, counter::PlainRead, decltype(recv), SlotTransport, SpinWait>(first, second);
  });
}

}  // namespace tscaudit
