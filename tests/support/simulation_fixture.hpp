// A simulation spec from the five values most tests choose: how many rounds, the seed, and
// the true line the two counters follow (offset, drift, quantum). Named fields at the call
// site, every one given, and SimulationSpec's defaults for the rest.
#pragma once

#include <cstdint>
#include <tuple>

#include "simulate/simulate.hpp"

namespace tscaudit::test {

struct SpecBasics {
  std::uint64_t rounds;
  std::uint64_t seed;
  double offset_ticks;  // b's counter minus a's at the middle of the run
  double drift_ppb;
  std::uint64_t quantum_ticks;  // both counters step by this
};

/// SimulationSpec's defaults with `basics` set; the caller changes what else it needs.
inline SimulationSpec simulation_spec(const SpecBasics& basics) {
  SimulationSpec spec;
  std::tie(spec.rounds, spec.seed, spec.offset_ticks, spec.drift_ppb, spec.quantum_ticks) =
      std::tie(basics.rounds, basics.seed, basics.offset_ticks, basics.drift_ppb, basics.quantum_ticks);
  return spec;
}

}  // namespace tscaudit::test
