#include "app/stop_signals.hpp"

#include <pthread.h>
#include <unistd.h>

#include <atomic>

#include "io/temporaries.hpp"

namespace tscaudit {
namespace {

std::atomic<int> g_caught{0};
// A first SIGINT or SIGTERM is recorded (not fatal) while this is set: from
// install_signal_handling to settle_early_signal, and then for a command that measures until
// its outermost StopSignals ends.
std::atomic<bool> g_recording{false};
bool g_settled = false;  // settle_early_signal was called (main thread only)
int g_depth = 0;         // StopSignals alive (the main thread makes and ends them)
static_assert(std::atomic<int>::is_always_lock_free, "written from a signal handler");
static_assert(std::atomic<bool>::is_always_lock_free, "read from a signal handler");

struct sigaction g_previous_int {};
struct sigaction g_previous_term {};

/// Kills the children, removes the temporaries, makes the action the default again, and
/// raises the signal: it is delivered once the handler returns (at once, outside a handler),
/// and ends the process as it would have. Only async-signal-safe calls (kill, waitpid,
/// unlink and the like, sigaction, raise, _exit).
[[noreturn]] void clean_up_and_end(int signal) noexcept {
  remove_registered_temporaries();
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  sigaction(signal, &default_action, nullptr);
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, signal);
  ::raise(signal);
  // In a handler the signal is blocked until it returns; outside one it has ended the
  // process by now. Unblocking it delivers it either way.
  pthread_sigmask(SIG_UNBLOCK, &only, nullptr);
  ::_exit(128 + signal);  // not reached
}

/// The first SIGINT or SIGTERM, while signals are recorded, is recorded for the command to
/// end cleanly at its next check; SIGHUP, any signal when none is recorded, and a second one
/// (the user asks twice) end the process at once, without its temporaries.
extern "C" void on_stop_signal(int signal) {
  if (signal != SIGHUP && g_recording.load()) {
    int none = 0;
    if (g_caught.compare_exchange_strong(none, signal)) return;
  }
  clean_up_and_end(signal);
}

/// The handler's action: the three signals held back while it runs (a third one waits for
/// the cleanup to end), no SA_RESTART (a sleep returns at once).
struct sigaction handler_action() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&action.sa_mask, s);
  action.sa_flags = 0;
  return action;
}

}  // namespace

StopSignals::StopSignals() {
  if (g_depth++ > 0) return;  // nested: the outer instance holds the handlers
  const struct sigaction action = handler_action();
  sigaction(SIGINT, &action, &g_previous_int);
  sigaction(SIGTERM, &action, &g_previous_term);
  g_recording.store(true);
}

StopSignals::~StopSignals() {
  if (--g_depth > 0) return;
  g_recording.store(false);
  sigaction(SIGINT, &g_previous_int, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
}

int StopSignals::caught() noexcept { return g_caught.load(); }
const std::atomic<int>& StopSignals::flag() noexcept { return g_caught; }

void install_signal_handling() {
  g_recording.store(true);
  const struct sigaction action = handler_action();
  sigset_t handled;
  sigemptyset(&handled);
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) {
    sigaddset(&handled, signal);
    struct sigaction previous {};
    // A signal ignored by whoever started the process (nohup's SIGHUP) stays ignored.
    if (sigaction(signal, nullptr, &previous) == 0 && previous.sa_handler == SIG_IGN) continue;
    sigaction(signal, &action, nullptr);
  }
  pthread_sigmask(SIG_UNBLOCK, &handled, nullptr);  // one pending since before exec comes now
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, nullptr);
}

void settle_early_signal(bool measures) {
  if (g_settled) return;
  g_settled = true;
  if (measures) return;  // its StopSignals takes the recording over, and ends it
  g_recording.store(false);
  // A signal that came meanwhile: the handler has stopped recording, so nothing else comes
  // between the load and the end.
  if (const int signal = g_caught.load(); signal != 0) clean_up_and_end(signal);
}

std::string signal_name(int signal) {
  if (signal == SIGINT) return "SIGINT";
  if (signal == SIGTERM) return "SIGTERM";
  return "signal " + std::to_string(signal);
}

}  // namespace tscaudit
