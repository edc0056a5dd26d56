// The one place where a runtime choice of read variant becomes a template argument: the
// variants themselves (names, properties) are the analysis's (core/read_variant.hpp),
// their instruction sequences platform/tsc.hpp's policies.
#pragma once

#include <algorithm>

#include "core/read_variant.hpp"
#include "platform/tsc.hpp"

namespace tscsync {

using Variant = ReadVariant;

/// Calls `f(Policy{})` with the policy type of `v`. Every runtime-to-template switch
/// over variants goes through here.
template <class F>
constexpr decltype(auto) visit_variant(Variant v, F&& f) {
  switch (v) {
    case Variant::rdtsc: return f(tsc::Rdtsc{});
    case Variant::rdtsc_lfence: return f(tsc::RdtscLfence{});
    case Variant::lfence_rdtsc: return f(tsc::LfenceRdtsc{});
    case Variant::lfence_rdtsc_lfence: return f(tsc::LfenceRdtscLfence{});
    case Variant::rdtscp: return f(tsc::Rdtscp{});
    case Variant::rdtscp_lfence: return f(tsc::RdtscpLfence{});
    case Variant::mfence_rdtsc: return f(tsc::MfenceRdtsc{});
    case Variant::cpuid_rdtsc: return f(tsc::CpuidRdtsc{});
  }
  __builtin_unreachable();
}

// Each policy is the sequence its variant names.
static_assert(std::ranges::all_of(kAllVariants, [](Variant v) {
  return visit_variant(v, [](auto policy) { return decltype(policy)::name; }) == variant_name(v);
}));

/// True when the sequence executes RDTSCP (needs CPUID 80000001H EDX[27]).
constexpr bool variant_uses_rdtscp(Variant v) { return v == Variant::rdtscp || v == Variant::rdtscp_lfence; }

}  // namespace tscsync
