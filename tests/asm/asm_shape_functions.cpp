// Non-inlined wrappers around each variant, and around a receive (spin on a slot, then
// read), so the object code of the always-inline policies can be inspected by name: those
// of the architecture this test is built for.
#include <cstdint>

#include "measure/slot.hpp"
#include "measure/wait.hpp"
#include "platform/counter.hpp"

using namespace tscsync;

#define TSCSYNC_SHAPE(policy, suffix)                                                                          \
  extern "C" [[gnu::noinline]] std::uint64_t tscsync_shape_read_##suffix() { return counter::policy::read(); } \
  extern "C" [[gnu::noinline]] std::uint64_t tscsync_shape_recv_##suffix(Slot& slot) {                         \
    Message m{};                                                                                               \
    while (!slot.try_receive(0, m)) SpinWait::relax();                                                         \
    return counter::policy::read() + m.tsc;                                                                    \
  }

#if defined(__x86_64__)
TSCSYNC_SHAPE(Rdtsc, rdtsc)
TSCSYNC_SHAPE(RdtscLfence, rdtsc_lfence)
TSCSYNC_SHAPE(LfenceRdtsc, lfence_rdtsc)
TSCSYNC_SHAPE(LfenceRdtscLfence, lfence_rdtsc_lfence)
TSCSYNC_SHAPE(Rdtscp, rdtscp)
TSCSYNC_SHAPE(RdtscpLfence, rdtscp_lfence)
TSCSYNC_SHAPE(MfenceRdtsc, mfence_rdtsc)
TSCSYNC_SHAPE(CpuidRdtsc, cpuid_rdtsc)
#elif defined(__aarch64__)
TSCSYNC_SHAPE(Cntvct, cntvct)
TSCSYNC_SHAPE(IsbCntvct, isb_cntvct)
TSCSYNC_SHAPE(CntvctIsb, cntvct_isb)
TSCSYNC_SHAPE(IsbCntvctIsb, isb_cntvct_isb)
TSCSYNC_SHAPE(IsbCntvctDep, isb_cntvct_dep)
TSCSYNC_SHAPE(Cntvctss, cntvctss)
#endif
