// SIGINT and SIGTERM as a request to end a run cleanly, and SIGHUP (and a second request)
// as the end of the process without anything half-made left behind (docs/commands.md,
// "Conventions").
//
// One handler, from main()'s first statement on, for SIGINT, SIGTERM and SIGHUP. While
// signals are recorded (main's first moments, then a StopSignals' life), the first SIGINT or
// SIGTERM is only recorded: the command sees it at its next check (the aggregator's wake-up,
// a slot's end) and ends cleanly, saying what it kept. Otherwise, and for SIGHUP and for a
// second signal, the handler ends the process: it kills the children, removes the
// temporaries (io/temporaries.hpp), and lets the signal end the process as it would have
// (exit 128 + N in a shell).
#pragma once

#include <atomic>
#include <csignal>
#include <string>

namespace tscaudit {

class StopSignals {
 public:
  /// Records SIGINT and SIGTERM from here on (its handler also for a SIGINT ignored by
  /// whoever started the process: a script's background job, stopped on purpose), without
  /// SA_RESTART, so a sleep returns at once. A signal recorded before (main's first moments)
  /// is kept: the command sees it at its first check, as if it came a moment later. A second
  /// signal while one is recorded ends the process at once, without its temporaries. Nested
  /// instances (a command around a phase that has its own) do nothing: the outermost one holds
  /// the handlers. Made and ended on the main thread.
  StopSignals();
  /// Puts the previous handlers back (the outermost instance): from then on a signal ends
  /// the process.
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  /// The signal caught (SIGINT or SIGTERM), 0 when none.
  [[nodiscard]] static int caught() noexcept;
  /// What caught() reads, for a loop that checks it without knowing this class
  /// (ExchangeConfig::stop).
  [[nodiscard]] static const std::atomic<int>& flag() noexcept;
};

/// main()'s first statement: the handler of SIGINT, SIGTERM and SIGHUP (a signal ignored by
/// whoever started the process stays ignored), those three unblocked (a mask inherited from
/// the starter would hold a stop request back for the whole run), and SIGPIPE ignored for
/// the whole process (a reader that goes away is a write error, EPIPE, that each writer
/// handles: standard output ends the command quietly, formats/standard_output.hpp). From here
/// on the first SIGINT or SIGTERM is recorded, until settle_early_signal.
void install_signal_handling();

/// Called once the command is known (or the command line refused). A command that
/// `measures` keeps recording until its StopSignals ends, and sees a signal recorded so far at
/// its first check. Any other ends the process by a signal recorded so far (its temporaries
/// removed), and from here on a signal ends it at once. Only the first call counts.
void settle_early_signal(bool measures);

/// "SIGINT", "SIGTERM", or "signal N".
std::string signal_name(int signal);

}  // namespace tscaudit
