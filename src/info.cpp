#include "info.hpp"

#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "affinity.hpp"
#include "cpu_list.hpp"
#include "format.hpp"
#include "platform.hpp"
#include "quantum.hpp"
#include "tsc.hpp"

namespace tscsync {
namespace {

struct CpuQuantum {
  int cpu = 0;
  QuantumEstimate estimate;
  std::string error;
};

/// Back-to-back lfence;rdtsc reads on each allowed CPU, on a thread pinned there.
std::vector<CpuQuantum> quantum_per_cpu(const std::vector<int>& cpus) {
  std::vector<CpuQuantum> out;
  for (int cpu : cpus) {
    CpuQuantum q;
    q.cpu = cpu;
    std::thread t([&] {
      try {
        pin_this_thread(cpu);
        std::vector<std::uint64_t> reads(1u << 16);
        for (auto& r : reads) r = tsc::LfenceRdtsc::read();
        q.estimate = estimate_quantum(reads);
      } catch (const std::exception& e) {
        q.error = e.what();
      }
    });
    t.join();
    out.push_back(q);
  }
  return out;
}

}  // namespace

int run_info(OutputFormat format) {
  const PlatformFacts p = probe_platform();
  const CpuAvailability cpus = read_cpu_availability();
  const std::vector<CpuQuantum> quanta = quantum_per_cpu(cpus.allowed);
  std::uint64_t quantum = 0;
  for (const auto& q : quanta) quantum = std::max(quantum, q.estimate.quantum_ticks);

  if (format == OutputFormat::json) {
    nlohmann::ordered_json j;
    j["schema"] = "tscsync-info/1";
    j["host"] = p.host;
    j["kernel"] = p.kernel;
    j["cpu"] = {{"vendor", p.cpuid.vendor}, {"brand", p.cpuid.brand}, {"family", p.cpuid.family},
                {"model", p.cpuid.model}, {"stepping", p.cpuid.stepping}};
    j["invariant_tsc"] = p.cpuid.invariant_tsc;
    j["rdtscp"] = p.cpuid.rdtscp;
    j["hypervisor"] = p.cpuid.hypervisor ? nlohmann::ordered_json(*p.cpuid.hypervisor) : nlohmann::ordered_json(nullptr);
    j["clocksource"] = p.clocksource;
    j["tsc_hz"] = p.tsc.hz;
    j["tsc_hz_source"] = p.tsc.source;
    j["tsc_hz_uncertainty_ppm"] = p.tsc.uncertainty_ppm;
    j["quantum_ticks"] = quantum;
    j["cpus"] = {{"present", format_cpu_list(cpus.present)}, {"online", format_cpu_list(cpus.online)},
                 {"allowed", format_cpu_list(cpus.allowed)}};
    auto& per_cpu = j["quantum_per_cpu"] = nlohmann::ordered_json::array();
    for (const auto& q : quanta) {
      nlohmann::ordered_json e = {{"cpu", q.cpu}};
      if (q.error.empty()) {
        e["quantum_ticks"] = q.estimate.quantum_ticks;
        e["zero_fraction"] = q.estimate.zero_fraction;
        e["modal_delta_ticks"] = q.estimate.modal_delta;
        e["plus_one_reads"] = q.estimate.plus_one_reads;
      } else {
        e["error"] = q.error;
      }
      per_cpu.push_back(e);
    }
    std::cout << j.dump(2) << "\n";
    return 0;
  }

  auto yes_no = [](bool b) { return b ? "yes" : "no"; };
  std::cout << "host           " << p.host << "\n"
            << "kernel         " << p.kernel << "\n"
            << "cpu            " << p.cpuid.brand << " (" << p.cpuid.vendor << ", family " << p.cpuid.family
            << " model " << p.cpuid.model << " stepping " << p.cpuid.stepping << ")\n"
            << "invariant tsc  " << yes_no(p.cpuid.invariant_tsc) << "\n"
            << "rdtscp         " << yes_no(p.cpuid.rdtscp) << "\n"
            << "hypervisor     " << p.cpuid.hypervisor.value_or("none") << "\n"
            << "clocksource    " << (p.clocksource.empty() ? "unknown" : p.clocksource) << "\n"
            << "tsc frequency  " << format_fixed(p.tsc.hz / 1e6, 3) << " MHz (" << p.tsc.source << ", +/- "
            << format_sig(p.tsc.uncertainty_ppm, 2) << " ppm)\n"
            << "cpus           present " << format_cpu_list(cpus.present) << ", online "
            << format_cpu_list(cpus.online) << ", allowed " << format_cpu_list(cpus.allowed) << "\n";
  for (const auto& q : quanta) {
    std::cout << "quantum cpu " << q.cpu << "  ";
    if (!q.error.empty()) {
      std::cout << "unknown: " << q.error << "\n";
      continue;
    }
    std::cout << q.estimate.quantum_ticks << " ticks (modal back-to-back delta " << q.estimate.modal_delta
              << ", " << format_sig(q.estimate.zero_fraction * 100, 3) << " % zero deltas"
              << (q.estimate.plus_one_reads ? ", +1 reads within a step" : "") << ")\n";
  }
  return 0;
}

}  // namespace tscsync
