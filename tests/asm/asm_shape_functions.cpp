// Non-inlined wrappers around each variant, and around a receive (spin on a slot, then
// read), so the object code of the always-inline policies can be inspected by name: those
// of the architecture this test is built for.
#include <cstdint>

#include "measure/slot.hpp"
#include "measure/wait.hpp"
#include "platform/counter.hpp"

using namespace tscaudit;

#define TSCAUDIT_SHAPE(policy, suffix)                                                                          \
  extern "C" [[gnu::noinline]] std::uint64_t tscaudit_shape_read_##suffix() { return counter::policy::read(); } \
  extern "C" [[gnu::noinline]] std::uint64_t tscaudit_shape_recv_##suffix(Slot& slot) {                         \
    Message m{};                                                                                               \
    while (!slot.try_receive(0, m)) SpinWait::relax();                                                         \
    return counter::policy::read() + m.tsc;                                                                    \
  }

#if defined(__x86_64__)
TSCAUDIT_SHAPE(Rdtsc, rdtsc)
TSCAUDIT_SHAPE(RdtscLfence, rdtsc_lfence)
TSCAUDIT_SHAPE(LfenceRdtsc, lfence_rdtsc)
TSCAUDIT_SHAPE(LfenceRdtscLfence, lfence_rdtsc_lfence)
TSCAUDIT_SHAPE(Rdtscp, rdtscp)
TSCAUDIT_SHAPE(RdtscpLfence, rdtscp_lfence)
TSCAUDIT_SHAPE(MfenceRdtsc, mfence_rdtsc)
TSCAUDIT_SHAPE(CpuidRdtsc, cpuid_rdtsc)
#elif defined(__aarch64__)
TSCAUDIT_SHAPE(Cntvct, cntvct)
TSCAUDIT_SHAPE(IsbCntvct, isb_cntvct)
TSCAUDIT_SHAPE(CntvctIsb, cntvct_isb)
TSCAUDIT_SHAPE(IsbCntvctIsb, isb_cntvct_isb)
TSCAUDIT_SHAPE(IsbCntvctDep, isb_cntvct_dep)
TSCAUDIT_SHAPE(Cntvctss, cntvctss)
#endif
