// The counter of the machine this binary runs on, behind one interface: the one header
// the rest of the machine side includes for it. It selects the architecture's file:
//   x86-64:  platform/counter_x86_64.hpp  (the TSC: rdtsc, rdtscp, with fences or cpuid)
//   aarch64: platform/counter_aarch64.hpp (the generic timer: mrs cntvct_el0, with isb)
//
// Each defines, in namespace tscaudit::counter:
//   kHostArch            the CounterArch it is (core/read_variant.hpp)
//   one policy per read variant, a struct with
//       static constexpr std::string_view name;       // variant_name(variant)
//       static constexpr ReadVariant variant;
//       static std::uint64_t read() noexcept;         // always inline, "memory" clobber
//   Policies             PolicyList<...> of every policy, in interface order
//   OrderedRead          the read that waits for earlier instructions (the quantum's reads)
//   BracketRead          the read ordered on both sides (the ends of a timed bracket)
//   spin_pause()         one turn of a spin loop (PAUSE, YIELD)
// What a variant can run on this CPU (RDTSCP, FEAT_ECV) is platform.hpp's
// variant_unsupported. The analysis, the formats, the slot, the runner and the reports do
// not include this file's architecture headers: they know variants by name
// (core/read_variant.hpp) and policies through measure/variant.hpp.
#pragma once
#define TSCAUDIT_COUNTER_HPP

namespace tscaudit::counter {

/// A list of policy types (measure/variant.hpp turns a runtime variant into one of them).
template <class... P>
struct PolicyList {};

}  // namespace tscaudit::counter

#if defined(__x86_64__)
#include "platform/counter_x86_64.hpp"
#elif defined(__aarch64__)
#include "platform/counter_aarch64.hpp"
#else
#error "tscaudit reads the counters of x86-64 and aarch64 only"
#endif
