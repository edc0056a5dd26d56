// The read variants: the instruction sequences a time stamp may read the counter with
// (src/platform/tsc.hpp documents each). Their names are part of the interface (command
// line, files, JSON). The analysis knows a variant by its name and by the property it
// reasons with: whether the read waits for earlier loads. src/measure/variant.hpp turns
// a variant into its instruction sequence.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tscsync {

enum class ReadVariant : std::uint8_t {
  rdtsc,
  rdtsc_lfence,
  lfence_rdtsc,
  lfence_rdtsc_lfence,
  rdtscp,
  rdtscp_lfence,
  mfence_rdtsc,
  cpuid_rdtsc,
};

/// Every variant, in interface order: plain rdtsc first.
inline constexpr std::array<ReadVariant, 8> kAllVariants = {
    ReadVariant::rdtsc,  ReadVariant::rdtsc_lfence,  ReadVariant::lfence_rdtsc, ReadVariant::lfence_rdtsc_lfence,
    ReadVariant::rdtscp, ReadVariant::rdtscp_lfence, ReadVariant::mfence_rdtsc, ReadVariant::cpuid_rdtsc,
};

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
  }
  return "?";
}

constexpr std::optional<ReadVariant> parse_variant(std::string_view name) {
  for (ReadVariant v : kAllVariants) {
    if (variant_name(v) == name) return v;
  }
  return std::nullopt;
}

/// True when the read waits for every earlier load to complete (an lfence, mfence, cpuid
/// or rdtscp before the rdtsc), so a receive read cannot run before the load that saw the
/// message. Plain rdtsc and rdtsc;lfence (the fence comes after the read) do not.
constexpr bool variant_orders_earlier_loads(ReadVariant v) {
  return v != ReadVariant::rdtsc && v != ReadVariant::rdtsc_lfence;
}

/// "rdtsc, rdtsc_lfence, ..." for messages and --help.
std::string variant_list();

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

}  // namespace tscsync
