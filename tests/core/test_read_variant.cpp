// The read variants as the analysis knows them, and variants a file may name that this
// tool does not know.
#include <catch2/catch.hpp>

#include "core/read_variant.hpp"

using namespace tscaudit;

TEST_CASE("read variants: every name parses back to its variant, in interface order") {
  for (ReadVariant v : kAllVariants) CHECK(parse_variant(variant_name(v)) == v);
  CHECK(variant_list(kX86Variants) ==
        "rdtsc, rdtsc_lfence, lfence_rdtsc, lfence_rdtsc_lfence, rdtscp, rdtscp_lfence, mfence_rdtsc, cpuid_rdtsc");
  CHECK(variant_list(kAarch64Variants) == "cntvct, isb_cntvct, cntvct_isb, isb_cntvct_isb, isb_cntvct_dep, cntvctss");
  CHECK(variant_list(kAllVariants) == variant_list(kX86Variants) + ", " + variant_list(kAarch64Variants));
  CHECK_FALSE(parse_variant("RDTSC").has_value());
  CHECK_FALSE(parse_variant("").has_value());
}

TEST_CASE("read variants: each belongs to one architecture, which has one plain read and one default receive") {
  for (ReadVariant v : kX86Variants) CHECK(variant_arch(v) == CounterArch::x86_64);
  for (ReadVariant v : kAarch64Variants) CHECK(variant_arch(v) == CounterArch::aarch64);
  CHECK(variants_of(CounterArch::x86_64).size() == 8);
  CHECK(variants_of(CounterArch::aarch64).front() == ReadVariant::cntvct);
  CHECK(plain_variant(CounterArch::x86_64) == ReadVariant::rdtsc);
  CHECK(plain_variant(CounterArch::aarch64) == ReadVariant::cntvct);
  CHECK(plain_variant_of(ReadVariant::cntvctss) == ReadVariant::cntvct);
  CHECK(plain_variant_of(ReadVariant::cpuid_rdtsc) == ReadVariant::rdtsc);
  CHECK(default_recv_variant(CounterArch::x86_64) == ReadVariant::lfence_rdtsc);
  CHECK(default_recv_variant(CounterArch::aarch64) == ReadVariant::isb_cntvct);
  CHECK(arch_name(CounterArch::aarch64) == "aarch64");
  CHECK(arch_name(CounterArch::x86_64) == "x86-64");
}

TEST_CASE("read variants: only plain rdtsc and rdtsc_lfence let the read run before earlier loads") {
  for (ReadVariant v : kX86Variants) {
    INFO(variant_name(v));
    CHECK(variant_orders_earlier_loads(v) == (v != ReadVariant::rdtsc && v != ReadVariant::rdtsc_lfence));
  }
}

TEST_CASE("read variants: on aarch64 every read after an isb waits for earlier loads, and cntvctss") {
  // The Arm ARM: an ISB before the read makes it occur after a load that signalled it.
  CHECK_FALSE(variant_orders_earlier_loads(ReadVariant::cntvct));
  CHECK_FALSE(variant_orders_earlier_loads(ReadVariant::cntvct_isb));  // the isb is after the read
  CHECK(variant_orders_earlier_loads(ReadVariant::isb_cntvct));
  CHECK(variant_orders_earlier_loads(ReadVariant::isb_cntvct_isb));
  CHECK(variant_orders_earlier_loads(ReadVariant::isb_cntvct_dep));
  CHECK(variant_orders_earlier_loads(ReadVariant::cntvctss));  // Linux reads it in place of isb; mrs
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
