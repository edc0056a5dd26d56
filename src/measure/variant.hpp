// Variant names (part of the interface: CLI, files, JSON) and the one place where a
// runtime choice of read variant becomes a template argument.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "platform/tsc.hpp"

namespace tscsync {

enum class Variant : std::uint8_t {
  rdtsc,
  rdtsc_lfence,
  lfence_rdtsc,
  lfence_rdtsc_lfence,
  rdtscp,
  rdtscp_lfence,
  mfence_rdtsc,
  cpuid_rdtsc,
};

inline constexpr std::array<Variant, 8> kAllVariants = {
    Variant::rdtsc,  Variant::rdtsc_lfence,  Variant::lfence_rdtsc, Variant::lfence_rdtsc_lfence,
    Variant::rdtscp, Variant::rdtscp_lfence, Variant::mfence_rdtsc, Variant::cpuid_rdtsc,
};

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

constexpr std::string_view variant_name(Variant v) {
  return visit_variant(v, [](auto policy) { return decltype(policy)::name; });
}

constexpr std::optional<Variant> parse_variant(std::string_view name) {
  for (Variant v : kAllVariants) {
    if (variant_name(v) == name) return v;
  }
  return std::nullopt;
}

/// True when the sequence executes RDTSCP (needs CPUID 80000001H EDX[27]).
constexpr bool variant_uses_rdtscp(Variant v) { return v == Variant::rdtscp || v == Variant::rdtscp_lfence; }

/// True when the read waits for every earlier load to complete (an lfence, mfence, cpuid
/// or rdtscp before the rdtsc), so a receive read cannot run before the load that saw the
/// message. Plain rdtsc and rdtsc;lfence (the fence comes after the read) do not.
constexpr bool variant_orders_earlier_loads(Variant v) { return v != Variant::rdtsc && v != Variant::rdtsc_lfence; }

/// "rdtsc, rdtsc_lfence, ..." for messages and --help.
std::string variant_list();

}  // namespace tscsync
