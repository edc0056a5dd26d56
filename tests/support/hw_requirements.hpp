// What a hardware test binary needs, decided per binary by TSCAUDIT_HW_NEEDS_PAIR.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "measure/variant.hpp"
#include "platform/affinity.hpp"
#include "platform/platform.hpp"

namespace tscaudit::test {

/// The CPUs tests may pin to: online and in this process's affinity mask.
inline std::vector<int> usable_cpus() {
  const CpuAvailability cpus = read_cpu_availability();
  std::vector<int> out;
  for (int c : cpus.allowed) {
    if (!cpu_problem(c, cpus)) out.push_back(c);
  }
  return out;
}

/// The variants the hardware tests name, of the architecture they run on: the plain read,
/// the default receive read and two more that wait for earlier loads (x86-64: rdtscp,
/// which every test machine has, and rdtscp_lfence; aarch64: isb_cntvct_dep and
/// isb_cntvct_isb, which every aarch64 CPU has).
struct TestVariants {
  Variant plain, ordered, other, other_fenced;
};
inline constexpr TestVariants kTestVariants =
    counter::kHostArch == CounterArch::x86_64
        ? TestVariants{Variant::rdtsc, Variant::lfence_rdtsc, Variant::rdtscp, Variant::rdtscp_lfence}
        : TestVariants{Variant::cntvct, Variant::isb_cntvct, Variant::isb_cntvct_dep, Variant::isb_cntvct_isb};

/// The variants this CPU can execute, in interface order (cntvctss only with FEAT_ECV).
inline std::vector<Variant> supported_host_variants() {
  std::vector<Variant> out;
  for (Variant v : kHostVariants) {
    if (!variant_unsupported_here(v)) out.push_back(v);
  }
  return out;
}

/// Why this machine cannot run the binary's tests: an x86-64 CPU without RDTSCP (every
/// x86-64 test machine has it; the variant is what the tests are about), fewer than two
/// usable CPUs for the pair tests.
inline std::optional<std::string> missing_requirement() {
  if (counter::kHostArch == CounterArch::x86_64 && variant_unsupported_here(Variant::rdtscp)) {
    return std::string("the CPU does not report RDTSCP");
  }
#if defined(TSCAUDIT_HW_NEEDS_PAIR)
  if (usable_cpus().size() < 2) return std::string("fewer than two usable CPUs");
#endif
  return std::nullopt;
}

}  // namespace tscaudit::test
