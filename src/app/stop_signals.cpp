#include "app/stop_signals.hpp"

#include <pthread.h>

#include <atomic>

#include "formats/temporaries.hpp"

namespace tscaudit {
namespace {

std::atomic<int> g_caught{0};
int g_depth = 0;  // StopSignals alive (the main thread makes and ends them)
static_assert(std::atomic<int>::is_always_lock_free, "written from a signal handler");

struct sigaction g_previous_int {};
struct sigaction g_previous_term {};
struct sigaction g_previous_pipe {};

/// Removes the temporaries, makes the action the default again, and raises the signal: it is
/// delivered once the handler returns, and ends the process as it would have. Only
/// async-signal-safe calls (unlink, sigaction, raise).
extern "C" void clean_up_and_end(int signal) {
  remove_registered_temporaries();
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  sigaction(signal, &default_action, nullptr);
  ::raise(signal);
}

/// The first signal is recorded for the command to end cleanly at its next check; a second
/// one ends the process at once (without its temporaries), as the user asks twice.
extern "C" void record_stop_signal(int signal) {
  if (g_caught.load() != 0) clean_up_and_end(signal);
  g_caught.store(signal);
}

}  // namespace

StopSignals::StopSignals() {
  if (g_depth++ > 0) return;  // nested: the outer instance holds the handlers and the signal
  g_caught.store(0);
  struct sigaction action {};
  action.sa_handler = record_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: the aggregator's sleep ends at once
  sigaction(SIGINT, &action, &g_previous_int);
  sigaction(SIGTERM, &action, &g_previous_term);
  // A reader that goes away (`monitor --out - | head`) makes write() fail with EPIPE, an
  // IoError that ends the run cleanly, instead of killing the process mid-interval.
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, &g_previous_pipe);
}

StopSignals::~StopSignals() {
  if (--g_depth > 0) return;
  sigaction(SIGINT, &g_previous_int, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
  sigaction(SIGPIPE, &g_previous_pipe, nullptr);
}

int StopSignals::caught() noexcept { return g_caught.load(); }
const std::atomic<int>& StopSignals::flag() noexcept { return g_caught; }

void install_cleanup_on_signal() {
  struct sigaction action {};
  action.sa_handler = clean_up_and_end;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction previous {};
    // A signal ignored by whoever started the process (nohup's SIGHUP) stays ignored.
    if (sigaction(signal, nullptr, &previous) == 0 && previous.sa_handler == SIG_IGN) continue;
    sigaction(signal, &action, nullptr);
  }
}

std::string signal_name(int signal) {
  if (signal == SIGINT) return "SIGINT";
  if (signal == SIGTERM) return "SIGTERM";
  return "signal " + std::to_string(signal);
}

}  // namespace tscaudit
