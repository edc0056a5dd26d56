#include "platform/counter_access.hpp"

#include <sys/prctl.h>

namespace tscaudit {

std::optional<std::string> counter_unreadable() {
#if defined(__x86_64__) && defined(PR_GET_TSC)
  int state = 0;
  if (prctl(PR_GET_TSC, &state, 0, 0, 0) == 0 && state == PR_TSC_SIGSEGV) {
    return "this process may not read the TSC (prctl PR_TSC_SIGSEGV: RDTSC faults)";
  }
#endif
  return std::nullopt;
}

}  // namespace tscaudit
