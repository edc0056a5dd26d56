#include "measure/runner.hpp"

#include <thread>

namespace tscaudit {

ExchangeResult run_exchange_with(SideLoops loops, void* transport, const ExchangeConfig& config) {
  // Heap-allocated, like the transport: a line of its own, away from the main thread's stack.
  auto control = std::make_unique<PairControl>();
  ExchangeResult result;
  std::thread responder([&] { loops.respond(config, transport, *control, result.b); });
  std::thread initiator([&] { loops.initiate(config, transport, *control, result.a); });
  initiator.join();
  responder.join();
  result.error = first_error(result.a, result.b);
  return result;
}

std::array<ExchangeResult, 2> run_switching_exchange(const std::array<SideLoops, 2>& loops,
                                                     const std::array<void*, 2>& transports,
                                                     const ExchangeConfig& first, const ExchangeConfig& second) {
  std::array<std::unique_ptr<PairControl>, 2> controls{std::make_unique<PairControl>(),
                                                       std::make_unique<PairControl>()};
  std::array<ExchangeResult, 2> results;
  std::thread responder([&] {
    loops[0].respond(first, transports[0], *controls[0], results[0].b);
    if (!results[0].b.error.empty()) {
      controls[1]->abort.store(true);  // the partner may be waiting at phase 2's barrier
      results[1].b.error = "skipped: the first phase failed";
      return;
    }
    loops[1].respond(second, transports[1], *controls[1], results[1].b);
  });
  std::thread initiator([&] {
    loops[0].initiate(first, transports[0], *controls[0], results[0].a);
    if (!results[0].a.error.empty()) {
      controls[1]->abort.store(true);
      results[1].a.error = "skipped: the first phase failed";
      return;
    }
    loops[1].initiate(second, transports[1], *controls[1], results[1].a);
  });
  initiator.join();
  responder.join();
  for (ExchangeResult& result : results) result.error = first_error(result.a, result.b);
  return results;
}

}  // namespace tscaudit
