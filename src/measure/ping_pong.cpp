#include "measure/ping_pong.hpp"

namespace tscaudit {

std::string first_error(const SideOutcome& a, const SideOutcome& b) {
  if (!a.error.empty() && !a.stopped_by_partner) return a.error;
  if (!b.error.empty()) return b.error;
  return a.error;
}

namespace ping_pong {

std::string moved_error(int cpu, const char* role) {
  return "the " + std::string(role) + " thread was taken off CPU " + std::to_string(cpu) + " (it now runs on CPU " +
         std::to_string(sched_getcpu()) +
         "): its affinity was changed by another process or a cgroup cpuset; the pair is no longer the one asked for";
}

void set_wait_error(SideOutcome& side, WaitOutcome outcome, int waiter, int partner, const char* role,
                           std::uint64_t round, std::chrono::nanoseconds timeout) {
  switch (outcome) {
    case WaitOutcome::aborted:
      side.stopped_by_partner = true;
      side.error = "CPU " + std::to_string(waiter) + " stopped at round " + std::to_string(round) +
                   " because its partner failed";
      return;
    case WaitOutcome::moved: side.error = moved_error(waiter, role); return;
    case WaitOutcome::timed_out:
      side.error = "CPU " + std::to_string(partner) + " stopped answering: CPU " + std::to_string(waiter) +
                   " waited more than " +
                   std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(timeout).count()) +
                   " ms at round " + std::to_string(round) + " while its own thread kept running";
      return;
    case WaitOutcome::received:
    case WaitOutcome::stopped: return;
  }
}

std::string seq_error(int cpu, std::uint64_t expected, std::uint64_t got) {
  return "sequence broken on CPU " + std::to_string(cpu) + ": expected message " + std::to_string(expected) +
         ", received " + std::to_string(got);
}

}  // namespace ping_pong
}  // namespace tscaudit
