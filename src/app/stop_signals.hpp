// SIGINT and SIGTERM as a request to end a long run cleanly (monitor): the handler only
// records the signal; the aggregator sees it at its next wake-up (the signal also cuts its
// sleep short) and writes what it has.
#pragma once

#include <atomic>
#include <csignal>
#include <string>

namespace tscaudit {

class StopSignals {
 public:
  /// Installs the handlers (without SA_RESTART, so a sleep returns at once), ignores
  /// SIGPIPE (a closed pipe becomes a write error), and forgets any signal caught before. A
  /// second signal while one is recorded ends the process at once, without its temporaries.
  /// Nested instances (a command around a phase that has its own) do nothing: the outermost
  /// one holds the handlers and the signal. Made and ended on the main thread.
  StopSignals();
  /// Puts the previous handlers back (the outermost instance).
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  /// The signal caught (SIGINT or SIGTERM), 0 when none.
  [[nodiscard]] static int caught() noexcept;
  /// What caught() reads, for a loop that checks it without knowing this class
  /// (ExchangeConfig::stop).
  [[nodiscard]] static const std::atomic<int>& flag() noexcept;
};

/// Outside a StopSignals: SIGINT, SIGTERM and SIGHUP remove the temporaries the process has
/// open (formats/temporaries.hpp) and then end it as the signal does by default. Called once,
/// first thing in main(); a StopSignals puts this back when it ends.
void install_cleanup_on_signal();

/// "SIGINT", "SIGTERM", or "signal N".
std::string signal_name(int signal);

}  // namespace tscaudit
