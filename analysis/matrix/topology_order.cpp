#include "matrix/topology_order.hpp"

#include <algorithm>
#include <unordered_map>

#include "core/cpu_list.hpp"
#include "core/errors.hpp"

namespace tscaudit {
namespace {

/// Where the value of one level changes along `cpus`; empty where the level is absent.
std::vector<std::size_t> run_starts(const std::vector<CpuPlace>& cpus, int CpuPlace::*level) {
  std::vector<std::size_t> starts;
  const bool present = std::any_of(cpus.begin(), cpus.end(), [&](const CpuPlace& p) { return p.*level >= 0; });
  if (!present) return starts;
  for (std::size_t i = 0; i < cpus.size(); ++i) {
    if (i == 0 || cpus[i].*level != cpus[i - 1].*level) starts.push_back(i);
  }
  return starts;
}

/// "CPU 3 is" or "CPUs 3,5-6 are", for messages.
std::string cpus_phrase(const std::vector<int>& cpus) {
  return cpus.size() == 1 ? "CPU " + std::to_string(cpus[0]) + " is" : "CPUs " + format_cpu_list(cpus) + " are";
}

}  // namespace

std::vector<int> OrderedCpus::cpu_numbers() const {
  std::vector<int> out;
  out.reserve(cpus.size());
  for (const CpuPlace& p : cpus) out.push_back(p.cpu);
  return out;
}

std::string OrderedCpus::group_label(std::size_t i) const {
  const CpuPlace& p = cpus.at(i);
  std::string label;
  const auto add = [&label](const char* prefix, int index) {
    if (index < 0) return;
    if (!label.empty()) label += ' ';
    label += prefix;
    label += std::to_string(index);
  };
  add("p", p.package);
  add("d", p.die);
  add("l3:", p.l3);
  add("c", p.core);
  return label;
}

OrderedCpus order_by_topology(const std::vector<CpuPlace>& places, const std::vector<int>& selected) {
  std::unordered_map<int, std::size_t> position;  // OS number -> index in places
  position.reserve(places.size());
  for (std::size_t i = 0; i < places.size(); ++i) position.emplace(places[i].cpu, i);

  std::vector<int> missing;
  std::vector<int> repeated;
  std::vector<std::size_t> chosen;
  std::vector<int> seen_count(places.size(), 0);
  for (const int cpu : selected) {
    const auto it = position.find(cpu);
    if (it == position.end()) {
      missing.push_back(cpu);
    } else if (++seen_count[it->second] == 2) {
      repeated.push_back(cpu);
    } else if (seen_count[it->second] == 1) {
      chosen.push_back(it->second);
    }
  }
  if (!missing.empty()) {
    std::vector<int> all;
    all.reserve(places.size());
    for (const CpuPlace& p : places) all.push_back(p.cpu);
    throw UsageError(cpus_phrase(missing) + " not in the topology (it has CPUs " + format_cpu_list(all) + ")");
  }
  if (!repeated.empty()) throw UsageError(cpus_phrase(repeated) + " selected more than once");

  std::sort(chosen.begin(), chosen.end());
  OrderedCpus out;
  out.cpus.reserve(chosen.size());
  for (const std::size_t i : chosen) out.cpus.push_back(places[i]);
  out.package_starts = run_starts(out.cpus, &CpuPlace::package);
  out.die_starts = run_starts(out.cpus, &CpuPlace::die);
  out.numa_starts = run_starts(out.cpus, &CpuPlace::numa);
  out.l3_starts = run_starts(out.cpus, &CpuPlace::l3);
  return out;
}

std::optional<int> smt_sibling(const std::vector<CpuPlace>& places, int cpu, const std::vector<int>& usable) {
  auto it = std::find_if(places.begin(), places.end(), [&](const CpuPlace& p) { return p.cpu == cpu; });
  if (it == places.end() || it->core < 0) return std::nullopt;
  std::optional<int> best;
  for (const CpuPlace& p : places) {
    if (p.cpu == cpu || p.core != it->core) continue;
    if (std::find(usable.begin(), usable.end(), p.cpu) == usable.end()) continue;
    if (!best || p.cpu < *best) best = p.cpu;
  }
  return best;
}

}  // namespace tscaudit
