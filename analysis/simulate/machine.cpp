#include "simulate/machine.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <utility>

#include "core/cpu_list.hpp"
#include "core/errors.hpp"
#include "core/format.hpp"

namespace tscaudit {
namespace {

/// A machine is made of simulate's options (src/app/cli_commands.cpp): an error names the option
/// that set what is wrong (`field` = "--cpu-offset-ticks"), or the part of the simulation.
[[noreturn]] void bad(const std::string& field, const std::string& what) {
  throw UsageError("simulate: " + field + ": " + what);
}

std::vector<int> cpu_numbers(const MachineSpec& spec) {
  std::vector<int> cpus;
  cpus.reserve(spec.cpus.size());
  for (const CpuPlace& p : spec.cpus) cpus.push_back(p.cpu);
  return cpus;
}

/// Every key of `values` names a CPU of the machine and maps to a finite value.
void require_cpus(const MachineSpec& spec, const std::string& field, const std::map<int, double>& values) {
  const std::vector<int> cpus = cpu_numbers(spec);
  for (const auto& [cpu, value] : values) {
    if (std::find(cpus.begin(), cpus.end(), cpu) == cpus.end()) {
      bad(field, "CPU " + std::to_string(cpu) + " is not in the machine (CPUs " + format_cpu_list(cpus) + ")");
    }
    if (!std::isfinite(value)) bad(field, "CPU " + std::to_string(cpu) + ": the value must be a finite number");
  }
}

/// splitmix64's finalizer (Steele, Lea, Flood 2014): a bijection that spreads every input
/// bit over the output, so that neighbouring pairs get unrelated seeds.
std::uint64_t splitmix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double value_or_zero(const std::map<int, double>& values, int key) {
  const auto it = values.find(key);
  return it == values.end() ? 0.0 : it->second;
}

/// x_c's slope, ppb.
double drift_of(const MachineSpec& spec, int cpu) { return value_or_zero(spec.cpu_drift_ppb, cpu); }

SpeculationSpec early_of(const MachineSpec& spec, int cpu) {
  const auto it = spec.early_reads.find(cpu);
  return it == spec.early_reads.end() ? SpeculationSpec{} : it->second;
}

nlohmann::ordered_json place_json(const CpuPlace& p) {
  return {{"package", p.package}, {"die", p.die}, {"numa", p.numa}, {"l3", p.l3}, {"core", p.core}};
}

}  // namespace

std::string_view distance_name(CpuDistance d) {
  switch (d) {
    case CpuDistance::smt: return "smt";
    case CpuDistance::l3: return "l3";
    case CpuDistance::package: return "package";
    case CpuDistance::cross_package: return "cross_package";
  }
  return "package";
}

CpuDistance cpu_distance(const CpuPlace& a, const CpuPlace& b) {
  if (a.core >= 0 && a.core == b.core) return CpuDistance::smt;
  if (a.l3 >= 0 && a.l3 == b.l3) return CpuDistance::l3;
  if (a.package == b.package) return CpuDistance::package;
  return CpuDistance::cross_package;
}

const DelaySpec& MachineLatency::at(CpuDistance d) const {
  switch (d) {
    case CpuDistance::smt: return smt;
    case CpuDistance::l3: return l3;
    case CpuDistance::package: return package;
    case CpuDistance::cross_package: return cross_package;
  }
  return package;
}

SimulatedMachine::SimulatedMachine(MachineSpec machine) : spec_(std::move(machine)) {
  const MachineSpec& spec = spec_;
  if (spec.cpus.size() < 2)
    bad("--topology", "a machine needs at least two CPUs, this one has " + std::to_string(spec.cpus.size()));
  std::set<int> seen;
  std::set<int> packages;
  for (const CpuPlace& p : spec.cpus) {
    if (!seen.insert(p.cpu).second) bad("--topology", "CPU " + std::to_string(p.cpu) + " appears twice");
    index_.emplace(p.cpu, index_.size());
    packages.insert(p.package);
  }
  if (spec.rounds_per_pair < 1 || spec.rounds_per_pair > kMaxSimulatedRounds) {
    bad("--rounds",
        std::to_string(spec.rounds_per_pair) + " must be in [1, " + std::to_string(kMaxSimulatedRounds) + "]");
  }
  require_cpus(spec, "--cpu-offset-ticks", spec.cpu_offset_ticks);
  require_cpus(spec, "--cpu-drift-ppb", spec.cpu_drift_ppb);
  for (const auto& [package, value] : spec.package_offset_ticks) {
    if (packages.count(package) == 0) {
      std::string known;
      for (int k : packages) known += (known.empty() ? "" : ", ") + std::to_string(k);
      bad("--package-offset-ticks",
          "package " + std::to_string(package) + " is not in the machine (packages " + known + ")");
    }
    if (!std::isfinite(value))
      bad("--package-offset-ticks", "package " + std::to_string(package) + ": the value must be a finite number");
  }
  for (const auto& [cpu, early] : spec.early_reads) {
    const std::string named = "CPU " + std::to_string(cpu);
    if (seen.count(cpu) == 0) {
      bad("--early-reads", named + " is not in the machine (CPUs " + format_cpu_list(cpu_numbers(spec)) + ")");
    }
    // Written so that NaN fails too.
    if (!(early.rate >= 0 && early.rate <= 1)) {
      bad("--early-reads", named + ": rate " + format_sig(early.rate, 6) + " must be in [0, 1]");
    }
    if (!(early.early_min_ticks >= 0 && early.early_min_ticks <= early.early_max_ticks &&
          std::isfinite(early.early_max_ticks))) {
      bad("--early-reads", named + ": how early (" + format_sig(early.early_min_ticks, 6) + " to " +
                             format_sig(early.early_max_ticks, 6) + " ticks) must be 0 <= min <= max");
    }
  }
  if (spec.step) {
    if (seen.count(spec.step->cpu) == 0) {
      bad("--step", "CPU " + std::to_string(spec.step->cpu) + " is not in the machine (CPUs " +
                      format_cpu_list(cpu_numbers(spec)) + ")");
    }
    if (!std::isfinite(spec.step->ticks)) bad("--step", "the jump must be a finite number of ticks");
    if (!(spec.step->at_fraction >= 0 && spec.step->at_fraction <= 1)) {
      bad("--step", "the fraction " + format_sig(spec.step->at_fraction, 6) + " must be in [0, 1]");
    }
  }
  if (!(spec.latency.second_role_slowdown >= 1 && spec.latency.second_role_slowdown <= 1000)) {
    bad("--second-role-slowdown", format_sig(spec.latency.second_role_slowdown, 6) + " must be in [1, 1000]");
  }
  // The parameters every pair shares (quantum, gap, turnaround, start, tsc_hz), checked
  // once by the one-pair model, on the first pair.
  (void)pair_spec(spec.cpus[0].cpu, spec.cpus[1].cpu, 0);
}

const CpuPlace& SimulatedMachine::place(int cpu) const {
  const auto it = index_.find(cpu);
  if (it == index_.end()) {
    throw UsageError("simulate: CPU " + std::to_string(cpu) + " is not in the machine (CPUs " +
                     format_cpu_list(cpu_numbers(spec_)) + ")");
  }
  return spec_.cpus[it->second];
}

double SimulatedMachine::cpu_offset_ticks(int cpu) const {
  return value_or_zero(spec_.cpu_offset_ticks, cpu) + value_or_zero(spec_.package_offset_ticks, place(cpu).package);
}

std::uint64_t machine_pair_seed(std::uint64_t machine_seed, int a, int b, std::uint64_t visit) {
  std::uint64_t s = splitmix64(machine_seed);
  s = splitmix64(s ^ static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)));
  s = splitmix64(s ^ static_cast<std::uint64_t>(static_cast<std::uint32_t>(b)));
  return splitmix64(s ^ visit);
}

SimulationSpec SimulatedMachine::pair_spec(int a, int b, std::uint64_t visit) const {
  const MachineSpec& spec = spec_;
  if (a == b) bad("pair", "CPU " + std::to_string(a) + " with itself is not a pair of the machine");
  const CpuPlace& pa = place(a);
  const CpuPlace& pb = place(b);
  SimulationSpec s = spec.base;
  s.rounds = spec.rounds_per_pair;
  s.seed = machine_pair_seed(spec.seed, a, b, visit);
  if (visit > 0 && spec.visit_spacing_ticks > (kMaxStartTick - std::min(spec.base.start_tick, kMaxStartTick)) / visit) {
    bad("visit", "visit " + std::to_string(visit) + " would start after tick 10^15 (visit_spacing_ticks " +
                     std::to_string(spec.visit_spacing_ticks) + ")");
  }
  s.start_tick = spec.base.start_tick + visit * spec.visit_spacing_ticks;
  const CpuDistance d = cpu_distance(pa, pb);
  s.fwd = spec.latency.at(d);
  s.rev = spec.latency.at(d);
  if (d == CpuDistance::cross_package) {
    // a->b is the fwd path: the slow way when a's package comes first.
    (pa.package < pb.package ? s.fwd : s.rev).base_ticks += spec.latency.cross_package_skew_ticks;
  }
  if (index_.at(a) > index_.at(b)) {
    for (DelaySpec* delay : {&s.fwd, &s.rev}) {
      delay->base_ticks *= spec.latency.second_role_slowdown;
      delay->exp_mean_ticks *= spec.latency.second_role_slowdown;
    }
  }
  s.spec_a = early_of(spec, a);  // a reads t4 when the reply arrives
  s.spec_b = early_of(spec, b);  // b reads t2 when the ping arrives
  s.steps.clear();
  if (spec.step && (spec.step->cpu == a || spec.step->cpu == b)) {
    // theta = x_b - x_a
    s.steps.push_back({spec.step->cpu == b ? spec.step->ticks : -spec.step->ticks, spec.step->at_fraction});
  }
  // The lines of a and b meet the pair's own T_ref, which the draws alone decide.
  s.offset_ticks = 0;
  s.drift_ppb = drift_of(spec, b) - drift_of(spec, a);
  const SimulatedSpan span = simulated_span(s);
  const double since_start = static_cast<double>(span.t_ref_tick) - static_cast<double>(spec.base.start_tick);
  s.offset_ticks = cpu_offset_ticks(b) - cpu_offset_ticks(a) + s.drift_ppb * 1e-9 * since_start;
  return s;
}

MachinePairRun SimulatedMachine::simulate_pair(int a, int b, std::uint64_t visit) const {
  const SimulationSpec s = pair_spec(a, b, visit);
  MachinePairRun out;
  out.run = simulate(s, out.truth.truth);
  out.truth.truth.early_t2.clear();
  out.truth.truth.early_t2.shrink_to_fit();
  out.truth.truth.early_t4.clear();
  out.truth.truth.early_t4.shrink_to_fit();
  out.truth.a = a;
  out.truth.b = b;
  out.truth.visit = visit;
  out.truth.distance = cpu_distance(place(a), place(b));
  out.truth.seed = s.seed;
  out.run.header.set("a", std::to_string(a));
  out.run.header.set("b", std::to_string(b));
  out.run.header.set("distance", std::string(distance_name(out.truth.distance)));
  out.run.header.set("visit", std::to_string(visit));
  out.run.header.set("machine_seed", std::to_string(spec_.seed));
  return out;
}

std::vector<std::pair<int, int>> SimulatedMachine::ordered_pairs() const {
  const MachineSpec& spec = spec_;
  std::vector<std::pair<int, int>> pairs;
  pairs.reserve(spec.cpus.size() * (spec.cpus.size() - 1));  // at least two CPUs
  for (const CpuPlace& a : spec.cpus) {
    for (const CpuPlace& b : spec.cpus) {
      if (a.cpu != b.cpu) pairs.emplace_back(a.cpu, b.cpu);
    }
  }
  return pairs;
}

nlohmann::ordered_json SimulatedMachine::truth_json(const std::vector<MachinePairTruth>& pairs) const {
  const MachineSpec& spec = spec_;
  nlohmann::ordered_json latency = nlohmann::ordered_json::object();
  for (CpuDistance d : {CpuDistance::smt, CpuDistance::l3, CpuDistance::package, CpuDistance::cross_package}) {
    latency[std::string(distance_name(d))] = delay_spec_json(spec.latency.at(d));
  }
  nlohmann::ordered_json step = nullptr;
  if (spec.step) step = {{"cpu", spec.step->cpu}, {"ticks", spec.step->ticks}, {"at_fraction", spec.step->at_fraction}};
  const nlohmann::ordered_json model = {
      {"seed", spec.seed},
      {"rounds_per_pair", spec.rounds_per_pair},
      {"start_tick", spec.base.start_tick},
      {"visit_spacing_ticks", spec.visit_spacing_ticks},
      {"quantum_ticks", spec.base.quantum_ticks},
      {"turnaround_base_ticks", spec.base.turnaround_base_ticks},
      {"turnaround_exp_mean_ticks", spec.base.turnaround_exp_mean_ticks},
      {"gap_ticks", spec.base.gap_ticks},
      {"gap_exp_mean_ticks", spec.base.gap_exp_mean_ticks},
      {"tsc_hz", spec.base.tsc_hz},
      {"latency", std::move(latency)},
      {"cross_package_skew_ticks", spec.latency.cross_package_skew_ticks},
      {"second_role_slowdown", spec.latency.second_role_slowdown},
      {"step", std::move(step)},
  };
  nlohmann::ordered_json cpus = nlohmann::ordered_json::array();
  const double first = spec.cpus.empty() ? 0.0 : cpu_offset_ticks(spec.cpus.front().cpu);
  for (const CpuPlace& p : spec.cpus) {
    const double x = cpu_offset_ticks(p.cpu);
    nlohmann::ordered_json c = {{"cpu", p.cpu}};
    c.update(place_json(p));
    c["offset_ticks"] = x;
    c["offset_from_first_ticks"] = x - first;
    c["cpu_offset_ticks"] = value_or_zero(spec.cpu_offset_ticks, p.cpu);
    c["package_offset_ticks"] = value_or_zero(spec.package_offset_ticks, p.package);
    c["drift_ppb"] = drift_of(spec, p.cpu);
    c["early_reads"] = speculation_spec_json(early_of(spec, p.cpu));
    c["step_ticks"] = spec.step && spec.step->cpu == p.cpu ? spec.step->ticks : 0.0;
    cpus.push_back(std::move(c));
  }
  nlohmann::ordered_json out_pairs = nlohmann::ordered_json::array();
  for (const MachinePairTruth& t : pairs) {
    nlohmann::ordered_json j = {{"a", t.a},
                                {"b", t.b},
                                {"visit", t.visit},
                                {"distance", std::string(distance_name(t.distance))},
                                {"seed", t.seed}};
    j.update(simulation_truth_json(t.truth));
    out_pairs.push_back(std::move(j));
  }
  return {{"schema", std::string(kMachineTruthSchema)},
          {"model", model},
          {"cpus", std::move(cpus)},
          {"pairs", std::move(out_pairs)}};
}

std::string truth_json_text(const nlohmann::ordered_json& truth) {
  std::string out = "{";
  bool first_key = true;
  for (const auto& [key, value] : truth.items()) {
    out += first_key ? "\n  " : ",\n  ";
    first_key = false;
    out += nlohmann::ordered_json(key).dump() + ": ";
    if (value.is_array() && !value.empty()) {
      out += "[";
      for (std::size_t i = 0; i < value.size(); ++i) out += (i == 0 ? "\n    " : ",\n    ") + value[i].dump();
      out += "\n  ]";
      continue;
    }
    // Indented as dump(2) would, one level deeper.
    const std::string inner = value.dump(2);
    for (const char c : inner) {
      out += c;
      if (c == '\n') out += "  ";
    }
  }
  out += "\n}\n";
  return out;
}

}  // namespace tscaudit
