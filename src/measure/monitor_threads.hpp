// The runtime choice of (send, receive) read variants made concrete for the monitor's
// threads: the one place where it becomes a template instantiation (a table of 64 pairs of
// loops, made at compile time; kept out of exchange.cpp so that both compile in parallel).
#pragma once

#include "measure/monitor_runner.hpp"
#include "measure/variant.hpp"

namespace tscaudit {

/// Starts the monitor's two threads with (send, recv) read variants.
/// \pre the variants are supported here; the threads' CPUs differ.
void start_monitor_threads(Variant send, Variant recv, MonitorThreads& threads);

}  // namespace tscaudit
