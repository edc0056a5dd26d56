// Simulated all-pairs data with known per-CPU truth: every ordered pair of `cpus` is a
// simulated run whose offset is x_b - x_a and whose drift is d_b - d_a, analyzed by the
// same analyze_run the tool uses.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "pair/analyze.hpp"
#include "simulate/simulate.hpp"

namespace tscaudit {

struct SimulatedMatrix {
  std::vector<PairAnalysis> analyses;
  [[nodiscard]] std::vector<const PairAnalysis*> pointers() const {
    std::vector<const PairAnalysis*> p;
    for (const PairAnalysis& a : analyses) p.push_back(&a);
    return p;
  }
};

/// `adjust` may change the spec of one ordered pair (indexes into cpus) before it runs.
inline SimulatedMatrix simulate_matrix(
    const std::vector<int>& cpus, const std::vector<double>& offset_ticks, const std::vector<double>& drift_ppb,
    const std::function<void(std::size_t, std::size_t, SimulationSpec&)>& adjust = {},
    const std::string& recv = "rdtsc") {
  SimulatedMatrix m;
  std::uint64_t seed = 100;
  for (std::size_t a = 0; a < cpus.size(); ++a) {
    for (std::size_t b = 0; b < cpus.size(); ++b) {
      if (a == b) continue;
      SimulationSpec spec;
      spec.rounds = 20'000;
      spec.seed = ++seed;
      spec.offset_ticks = offset_ticks[b] - offset_ticks[a];
      spec.drift_ppb = drift_ppb[b] - drift_ppb[a];
      if (adjust) adjust(a, b, spec);
      SimulationTruth truth;
      Run run = simulate(spec, truth);
      run.header.set("a", std::to_string(cpus[a]));
      run.header.set("b", std::to_string(cpus[b]));
      run.header.set("recv", recv);
      m.analyses.push_back(analyze_run(run, "sim " + std::to_string(cpus[a]) + "->" + std::to_string(cpus[b])));
    }
  }
  return m;
}

}  // namespace tscaudit
