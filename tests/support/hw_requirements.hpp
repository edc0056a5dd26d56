// What a hardware test binary needs, decided per binary by TSCSYNC_HW_NEEDS_PAIR.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "platform/affinity.hpp"
#include "platform/platform.hpp"

namespace tscsync::test {

/// The CPUs tests may pin to: online and in this process's affinity mask.
inline std::vector<int> usable_cpus() {
  const CpuAvailability cpus = read_cpu_availability();
  std::vector<int> out;
  for (int c : cpus.allowed) {
    if (!cpu_problem(c, cpus)) out.push_back(c);
  }
  return out;
}

inline std::optional<std::string> missing_requirement() {
#if !defined(__x86_64__)
  return std::string("not an x86-64 machine");
#else
  const CpuidFacts cpuid = read_cpuid();
  if (!cpuid.rdtscp) return std::string("the CPU does not report RDTSCP");
#if defined(TSCSYNC_HW_NEEDS_PAIR)
  if (usable_cpus().size() < 2) return std::string("fewer than two usable CPUs");
#endif
  return std::nullopt;
#endif
}

}  // namespace tscsync::test
