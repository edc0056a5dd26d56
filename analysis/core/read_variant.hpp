// The read variants: the instruction sequences a time stamp may read the counter with, on
// x86-64 (the TSC: src/platform/counter_x86_64.hpp documents each) and on aarch64 (the
// generic timer's virtual count: src/platform/counter_aarch64.hpp). Their names are part
// of the interface (command line, files, JSON). The analysis knows a variant by its name,
// by the architecture it belongs to and by the property it reasons with: whether the read
// waits for earlier loads. It knows every variant of every architecture, so a run made on
// one machine is analyzed on any other; which ones this machine can execute is the machine
// side's business (src/platform/counter.hpp, src/measure/variant.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace tscaudit {

/// The architectures whose counters tscaudit reads.
enum class CounterArch : std::uint8_t {
  x86_64,   // the time stamp counter (rdtsc)
  aarch64,  // the generic timer's virtual count (mrs cntvct_el0)
};

/// "x86-64", "aarch64".
constexpr std::string_view arch_name(CounterArch arch) { return arch == CounterArch::x86_64 ? "x86-64" : "aarch64"; }

/// The counter as messages and titles name it: "TSC", "CNTVCT" (CNTVCT_EL0).
constexpr std::string_view counter_name(CounterArch arch) { return arch == CounterArch::x86_64 ? "TSC" : "CNTVCT"; }

enum class ReadVariant : std::uint8_t {
  // x86-64
  rdtsc,
  rdtsc_lfence,
  lfence_rdtsc,
  lfence_rdtsc_lfence,
  rdtscp,
  rdtscp_lfence,
  mfence_rdtsc,
  cpuid_rdtsc,
  // aarch64
  cntvct,
  isb_cntvct,
  cntvct_isb,
  isb_cntvct_isb,
  isb_cntvct_dep,
  cntvctss,
};

/// The variants of each architecture, in interface order: the plain read first.
inline constexpr std::array<ReadVariant, 8> kX86Variants = {
    ReadVariant::rdtsc,  ReadVariant::rdtsc_lfence,  ReadVariant::lfence_rdtsc, ReadVariant::lfence_rdtsc_lfence,
    ReadVariant::rdtscp, ReadVariant::rdtscp_lfence, ReadVariant::mfence_rdtsc, ReadVariant::cpuid_rdtsc,
};
inline constexpr std::array<ReadVariant, 6> kAarch64Variants = {
    ReadVariant::cntvct,         ReadVariant::isb_cntvct,     ReadVariant::cntvct_isb,
    ReadVariant::isb_cntvct_isb, ReadVariant::isb_cntvct_dep, ReadVariant::cntvctss,
};

/// Every variant this tool knows, of every architecture (x86-64 first): what a file may
/// name and the analysis understands.
inline constexpr std::array<ReadVariant, kX86Variants.size() + kAarch64Variants.size()> kAllVariants = [] {
  std::array<ReadVariant, kX86Variants.size() + kAarch64Variants.size()> all{};
  std::size_t i = 0;
  for (ReadVariant v : kX86Variants) all[i++] = v;
  for (ReadVariant v : kAarch64Variants) all[i++] = v;
  return all;
}();

/// The variants of `arch`, in interface order.
constexpr std::span<const ReadVariant> variants_of(CounterArch arch) {
  if (arch == CounterArch::x86_64) return kX86Variants;
  return kAarch64Variants;
}

constexpr CounterArch variant_arch(ReadVariant v) {
  return v >= ReadVariant::cntvct ? CounterArch::aarch64 : CounterArch::x86_64;
}

constexpr std::string_view variant_name(ReadVariant v) {
  switch (v) {
    case ReadVariant::rdtsc: return "rdtsc";
    case ReadVariant::rdtsc_lfence: return "rdtsc_lfence";
    case ReadVariant::lfence_rdtsc: return "lfence_rdtsc";
    case ReadVariant::lfence_rdtsc_lfence: return "lfence_rdtsc_lfence";
    case ReadVariant::rdtscp: return "rdtscp";
    case ReadVariant::rdtscp_lfence: return "rdtscp_lfence";
    case ReadVariant::mfence_rdtsc: return "mfence_rdtsc";
    case ReadVariant::cpuid_rdtsc: return "cpuid_rdtsc";
    case ReadVariant::cntvct: return "cntvct";
    case ReadVariant::isb_cntvct: return "isb_cntvct";
    case ReadVariant::cntvct_isb: return "cntvct_isb";
    case ReadVariant::isb_cntvct_isb: return "isb_cntvct_isb";
    case ReadVariant::isb_cntvct_dep: return "isb_cntvct_dep";
    case ReadVariant::cntvctss: return "cntvctss";
  }
  return "?";
}

/// variant_name as a std::string, for building messages with +.
inline std::string variant_text(ReadVariant v) { return std::string(variant_name(v)); }

/// A variant of any architecture by its name (a file from another machine names its own).
constexpr std::optional<ReadVariant> parse_variant(std::string_view name) {
  for (ReadVariant v : kAllVariants) {
    if (variant_name(v) == name) return v;
  }
  return std::nullopt;
}

/// The plain read of `arch`, which orders nothing: rdtsc, or mrs cntvct_el0 alone. Plain
/// reads on both sides are the baseline every other combination is held against.
constexpr ReadVariant plain_variant(CounterArch arch) {
  return arch == CounterArch::x86_64 ? ReadVariant::rdtsc : ReadVariant::cntvct;
}
/// The plain read of the architecture `v` belongs to.
constexpr ReadVariant plain_variant_of(ReadVariant v) { return plain_variant(variant_arch(v)); }
constexpr bool variant_is_plain(ReadVariant v) { return v == plain_variant_of(v); }

/// The default receive read of `arch`: the cheapest sequence documented to wait for
/// earlier loads that every CPU of the architecture has (lfence;rdtsc, Linux's
/// rdtsc_ordered; isb;mrs cntvct_el0, the Arm ARM's own example).
constexpr ReadVariant default_recv_variant(CounterArch arch) {
  return arch == CounterArch::x86_64 ? ReadVariant::lfence_rdtsc : ReadVariant::isb_cntvct;
}

/// True when the read waits for every earlier load to complete, so a receive read cannot
/// run before the load that saw the message:
///  - x86-64: an lfence, mfence, cpuid or rdtscp before the rdtsc. Plain rdtsc and
///    rdtsc;lfence (the fence comes after the read) do not.
///  - aarch64: an isb before the mrs (the Arm ARM: "if a read from memory is used to
///    obtain a signal from another agent that indicates that CNTVCT_EL0 must be read, an
///    ISB is used to ensure that the read of CNTVCT_EL0 occurs after the signal has been
///    read from memory"), or CNTVCTSS_EL0, the self-synchronized view that Linux reads in
///    place of isb; mrs cntvct_el0. Plain cntvct and cntvct;isb do not.
constexpr bool variant_orders_earlier_loads(ReadVariant v) {
  return v != ReadVariant::rdtsc && v != ReadVariant::rdtsc_lfence && v != ReadVariant::cntvct &&
         v != ReadVariant::cntvct_isb;
}

/// "rdtsc, rdtsc_lfence, ..." of `variants`, for messages and --help.
std::string variant_list(std::span<const ReadVariant> variants);

/// A read variant as a file records it (the send and recv metadata of a run or a
/// monitor log): the name as written, for display, and the variant when the name is one
/// this tool knows. A file from another tool may name a variant this one does not know:
/// it stays readable, and the analysis assumes nothing of that read.
struct RecordedVariant {
  std::string name = "?";              // as written; "?" when the file names none
  std::optional<ReadVariant> variant;  // none: a name this tool does not know
};

/// `name` as a file records it (nullopt: the file names none).
RecordedVariant recorded_variant(std::optional<std::string_view> name);
/// A variant this tool chose, as a file would record it.
RecordedVariant recorded_variant(ReadVariant v);

/// Known to wait for earlier loads (an unknown variant is not).
inline bool variant_orders_earlier_loads(const RecordedVariant& v) {
  return v.variant.has_value() && variant_orders_earlier_loads(*v.variant);
}

/// The counter a recorded read reads: its architecture's; "TSC" for a read this tool does
/// not know (another tool's table, simulated rounds).
inline std::string_view counter_name(const RecordedVariant& v) {
  return v.variant ? counter_name(variant_arch(*v.variant)) : "TSC";
}

}  // namespace tscaudit
