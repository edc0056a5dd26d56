#include "platform/platform.hpp"

#include <sched.h>
#include <sys/timex.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <thread>
#include <vector>

#include "core/cpu_list.hpp"
#include "core/format.hpp"
#include "core/run.hpp"
#include "platform/affinity.hpp"
#include "platform/counter.hpp"
#include "platform/emulation.hpp"

namespace tscaudit {
namespace {

clockid_t clock_id(CalibrationClock clock) {
  return clock == CalibrationClock::realtime ? CLOCK_REALTIME : CLOCK_MONOTONIC_RAW;
}

/// The narrowest of `tries` (TSC, clock, TSC) brackets. The fences keep each TSC read
/// from moving across the clock read (whose vDSO path reads the TSC itself).
ClockReading narrowest_reading(clockid_t clock, int tries) {
  ClockReading best;
  std::uint64_t best_width = std::numeric_limits<std::uint64_t>::max();
  for (int i = 0; i < tries; ++i) {
    timespec ts{};
    const std::uint64_t before = counter::BracketRead::read();
    clock_gettime(clock, &ts);
    const std::uint64_t after = counter::BracketRead::read();
    if (after >= before && after - before < best_width) {
      best_width = after - before;
      best = {before, static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec, after};
    }
  }
  return best;
}

}  // namespace

const char* clock_name(CalibrationClock clock) {
  return clock == CalibrationClock::realtime ? "CLOCK_REALTIME" : "CLOCK_MONOTONIC_RAW";
}

Calibration calibrate_tsc(CalibrationClock clock, int window_ms, int samples, int tries) {
  Calibration cal;
  cal.clock = clock;
  const int here = sched_getcpu();
  // On one CPU throughout: readings from two CPUs would mix their counters' offsets.
  std::thread worker([&] {
    try {
      if (here >= 0) {
        pin_this_thread(here);
        cal.cpu = here;
      }
    } catch (const std::exception&) {
      cal.cpu = -1;  // unpinned: the fit's residuals show any migration
    }
    const clockid_t id = clock_id(clock);
    const int n = std::max(samples, 3);
    std::vector<ClockReading> readings;
    readings.reserve(static_cast<std::size_t>(n));
    const auto start = std::chrono::steady_clock::now();
    const auto window = std::chrono::microseconds(std::int64_t{std::max(window_ms, 1)} * 1000);
    for (int i = 0; i < n; ++i) {
      std::this_thread::sleep_until(start + window * i / (n - 1));
      readings.push_back(narrowest_reading(id, tries));
    }
    cal.fit = fit_tsc_rate(readings);
  });
  worker.join();
  return cal;
}

NtpState read_ntp_state() {
  NtpState s;
  timex tx{};  // modes 0: read only
  const int state = adjtimex(&tx);
  if (state < 0) {
    s.problem = std::string("adjtimex: ") + std::strerror(errno);
    return s;
  }
  s.readable = true;
  s.synchronized = state != TIME_ERROR;
  s.frequency_ppm = static_cast<double>(tx.freq) / 65536.0;  // scaled ppm: 16-bit fraction
  return s;
}

TscFrequency choose_counter_frequency(const PlatformFacts& facts, const std::optional<Calibration>& calibration) {
  return facts.arch == CounterArch::aarch64 ? choose_arm_frequency(facts.arm, calibration)
                                            : choose_tsc_frequency(facts.cpuid, calibration);
}

TscFrequency counter_frequency(const PlatformFacts& facts, int calibration_ms, bool always_calibrate) {
  std::optional<Calibration> cal;
  const bool x86_leaf = facts.cpuid.crystal_tsc_hz != 0 || facts.cpuid.hypervisor_tsc_hz != 0;
  if (always_calibrate || facts.arch == CounterArch::aarch64 || !x86_leaf) {
    cal = calibrate_tsc(CalibrationClock::monotonic_raw, calibration_ms);
  }
  return choose_counter_frequency(facts, cal);
}

PlatformFacts probe_platform(int calibration_ms, bool always_calibrate) {
  PlatformFacts p;
  read_cpu_facts(p);
  std::array<char, 256> host{};
  if (gethostname(host.data(), host.size() - 1) == 0) p.host = host.data();
  utsname u{};
  if (uname(&u) == 0) p.kernel = std::string(u.release) + " " + u.version;
  p.kernel_facts = read_kernel_facts();
  Fact<std::string> log = read_kernel_log();
  p.kernel_facts.log = log.ok() ? Fact<KernelLogFacts>::good(parse_kernel_log(log.value))
                                : Fact<KernelLogFacts>::fail(log.state, log.reason);
  p.clocksource = p.kernel_facts.clocksource.ok() ? p.kernel_facts.clocksource.value : "";
  if (const Fact<std::string> cpuinfo = read_text_file("/proc/cpuinfo", 32u << 20); cpuinfo.ok()) {
    p.emulation = emulation_evidence(p.arch, cpuinfo.value);
  }
  p.tsc = counter_frequency(p, calibration_ms, always_calibrate);
  return p;
}

std::optional<std::string> variant_unsupported(ReadVariant v, const PlatformFacts& facts) {
  if (variant_arch(v) != facts.arch) {
    return "it reads the counter of " + std::string(arch_name(variant_arch(v))) + ", and this machine is " +
           std::string(arch_name(facts.arch));
  }
  if ((v == ReadVariant::rdtscp || v == ReadVariant::rdtscp_lfence) && !facts.cpuid.rdtscp) {
    return std::string("it needs RDTSCP, which this CPU does not report (CPUID 80000001H EDX[27])");
  }
  if (v == ReadVariant::cntvctss && !facts.arm.registers.ecv) {
    return std::string(
        "it needs FEAT_ECV's self-synchronized counter CNTVCTSS_EL0, which this CPU does not report (HWCAP2_ECV is "
        "clear in AT_HWCAP2)");
  }
  return std::nullopt;
}

std::optional<std::string> variant_unsupported_here(ReadVariant v) {
  PlatformFacts facts;
  read_cpu_facts(facts);
  return variant_unsupported(v, facts);
}

void add_platform_metadata(const PlatformFacts& p, Metadata& meta) {
  meta.set("host", p.host);
  meta.set("kernel", p.kernel);
  meta.set("arch", std::string(arch_name(p.arch)));
  const bool arm = p.arch == CounterArch::aarch64;
  if (arm) {
    const std::optional<Midr> midr = p.arm.midrs.empty() ? std::nullopt : std::optional(p.arm.midrs.front().midr);
    const std::string_view vendor = midr ? midr_implementer_name(midr->implementer()) : std::string_view();
    meta.set("cpu_vendor", vendor.empty() ? "unknown" : std::string(vendor));
    meta.set("cpu_model", midr ? describe_midr(*midr) : "unknown");
    meta.set("counter", "cntvct_el0");
    meta.set("cntfrq_hz", std::to_string(p.arm.registers.cntfrq_hz));
  } else {
    meta.set("cpu_vendor", p.cpuid.vendor);
    meta.set("cpu_model", p.cpuid.brand);
    meta.set("cpu_family_model_stepping", std::to_string(p.cpuid.family) + "/" + std::to_string(p.cpuid.model) +
                                              "/" + std::to_string(p.cpuid.stepping));
    meta.set("invariant_tsc", p.cpuid.invariant_tsc ? "yes" : "no");
    meta.set("hypervisor", p.cpuid.hypervisor.value_or("none"));
  }
  meta.set("clocksource", p.clocksource.empty() ? "unknown" : p.clocksource);
  meta.set("tsc_hz", std::to_string(std::llround(p.tsc.hz)));
  meta.set("tsc_hz_source", p.tsc.source);
  meta.set("tsc_hz_uncertainty_ppm", format_sig(p.tsc.uncertainty_ppm, 3));
  if (p.emulation) meta.set("emulated", *p.emulation);
  // The kernel's view, kept small: what it trusts about the counter, its own frequency, and
  // whether any CPU is shielded from the scheduler.
  const KernelFacts& k = p.kernel_facts;
  const auto yes_no_unknown = [&](bool CpuinfoTscFlags::*flag) -> std::string {
    if (!k.cpuinfo.ok()) return "unknown";
    return k.cpuinfo.value.*flag ? "yes" : "no";
  };
  if (!arm) {
    meta.set("tsc_known_freq", yes_no_unknown(&CpuinfoTscFlags::tsc_known_freq));
    meta.set("tsc_reliable", yes_no_unknown(&CpuinfoTscFlags::tsc_reliable));
  }
  meta.set("isolated_cpus", !k.isolated.ok()           ? std::string("unknown")
                            : k.isolated.value.empty() ? std::string("none")
                                                       : format_cpu_list(k.isolated.value));
  if (arm) {
    meta.set("kernel_timer_mhz", k.log.ok() && k.log.value.arch_timer_mhz ? format_fixed(*k.log.value.arch_timer_mhz, 2)
                                                                          : std::string("unknown"));
  } else {
    meta.set("kernel_tsc_mhz",
             k.log.ok() && k.log.value.tsc_mhz ? format_fixed(*k.log.value.tsc_mhz, 3) : std::string("unknown"));
  }
}

}  // namespace tscaudit
