#include "measure/monitor_threads.hpp"

namespace tscaudit {

void start_monitor_threads(Variant send, Variant recv, MonitorThreads& threads) {
  visit_variant(send, [&](auto s) { visit_variant(recv, [&](auto r) { threads.start<decltype(s), decltype(r)>(); }); });
}

}  // namespace tscaudit
