// The read variants as the analysis knows them, and variants a file may name that this
// tool does not know.
#include <catch2/catch.hpp>

#include "core/read_variant.hpp"

using namespace tscsync;

TEST_CASE("read variants: every name parses back to its variant, in interface order") {
  for (ReadVariant v : kAllVariants) CHECK(parse_variant(variant_name(v)) == v);
  CHECK(variant_list() ==
        "rdtsc, rdtsc_lfence, lfence_rdtsc, lfence_rdtsc_lfence, rdtscp, rdtscp_lfence, mfence_rdtsc, cpuid_rdtsc");
  CHECK_FALSE(parse_variant("RDTSC").has_value());
  CHECK_FALSE(parse_variant("").has_value());
}

TEST_CASE("read variants: only plain rdtsc and rdtsc_lfence let the read run before earlier loads") {
  for (ReadVariant v : kAllVariants) {
    INFO(variant_name(v));
    CHECK(variant_orders_earlier_loads(v) == (v != ReadVariant::rdtsc && v != ReadVariant::rdtsc_lfence));
  }
}

TEST_CASE("read variants: a file's names are kept as written, known or not") {
  const RecordedVariant known = recorded_variant(std::optional<std::string_view>("rdtscp"));
  CHECK(known.name == "rdtscp");
  CHECK(known.variant == ReadVariant::rdtscp);
  CHECK(variant_orders_earlier_loads(known));

  // Another tool's read: readable, shown as written, and not taken to order loads.
  const RecordedVariant other = recorded_variant(std::optional<std::string_view>("serialized_rdtsc"));
  CHECK(other.name == "serialized_rdtsc");
  CHECK_FALSE(other.variant.has_value());
  CHECK_FALSE(variant_orders_earlier_loads(other));

  const RecordedVariant absent = recorded_variant(std::nullopt);
  CHECK(absent.name == "?");
  CHECK_FALSE(absent.variant.has_value());

  const RecordedVariant chosen = recorded_variant(ReadVariant::lfence_rdtsc);
  CHECK(chosen.name == "lfence_rdtsc");
  CHECK(chosen.variant == ReadVariant::lfence_rdtsc);
}
