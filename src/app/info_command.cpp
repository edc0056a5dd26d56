#include "app/info_command.hpp"

#include <iostream>
#include <thread>

#include "platform/counter.hpp"

namespace tscaudit {
namespace {

/// Back-to-back counter::OrderedRead reads on each allowed CPU, on a thread pinned there.
std::vector<CpuQuantum> quantum_per_cpu(const std::vector<int>& cpus) {
  std::vector<CpuQuantum> out;
  for (int cpu : cpus) {
    CpuQuantum q;
    q.cpu = cpu;
    std::thread t([&] {
      try {
        pin_this_thread(cpu);
        std::vector<std::uint64_t> reads(1u << 16);
        for (auto& r : reads) r = counter::OrderedRead::read();
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

InfoReport gather_info(unsigned ntp_seconds) {
  InfoReport r;
  r.platform = probe_platform(200, true);
  if (ntp_seconds > 0) {
    r.realtime = calibrate_tsc(CalibrationClock::realtime, static_cast<int>(ntp_seconds * 1000));
    r.ntp = read_ntp_state();
  }
  r.cpus = read_cpu_availability();
  r.quanta = quantum_per_cpu(r.cpus.allowed);
  r.topology = load_topology();
  for (int cpu : r.platform.arch == CounterArch::x86_64 ? r.cpus.online : std::vector<int>{}) {
    MsrRead m;
    if (r.platform.cpuid.tsc_adjust) {
      m = read_msr(cpu, kMsrTscAdjust);
    } else {
      m.problem = "CPUID 7 EBX[1] says the CPU has no TSC_ADJUST";
    }
    r.tsc_adjust.emplace_back(cpu, m);
  }
  r.warnings = platform_warnings(r.platform);
  return r;
}

int run_info(OutputFormat format, unsigned ntp_seconds) {
  const InfoReport report = gather_info(ntp_seconds);
  if (format == OutputFormat::json) {
    std::cout << info_json(report).dump(2) << "\n";
  } else {
    std::cout << info_text(report);
  }
  return 0;
}

}  // namespace tscaudit
