#include "measure/monitor_threads.hpp"

#include <array>
#include <cstddef>

namespace tscaudit {
namespace {

using counter::PolicyList;

template <class Send, class... Recv>
constexpr std::array<MonitorLoops, sizeof...(Recv)> row_of(PolicyList<Recv...> /*unused*/) {
  return {monitor_loops<Send, Recv>()...};
}

template <class... Send>
constexpr auto table_of(PolicyList<Send...> /*unused*/) {
  return std::array{row_of<Send>(counter::Policies{})...};
}

/// [send][recv], indexed by the variants' positions in kHostVariants (the policies' order).
constexpr auto kMonitorLoops = table_of(counter::Policies{});

}  // namespace

void start_monitor_threads(Variant send, Variant recv, MonitorThreads& threads) {
  threads.start(kMonitorLoops[host_variant_index(send)][host_variant_index(recv)]);
}

}  // namespace tscaudit
