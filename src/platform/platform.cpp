#include "platform/platform.hpp"

#include <cpuid.h>
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
#include "platform/tsc.hpp"

namespace tscsync {
namespace {

struct Regs {
  unsigned a = 0, b = 0, c = 0, d = 0;
};

Regs cpuid(unsigned leaf, unsigned subleaf = 0) {
  Regs r;
  __cpuid_count(leaf, subleaf, r.a, r.b, r.c, r.d);
  return r;
}

std::string regs_text(std::initializer_list<unsigned> words) {
  std::string s;
  for (unsigned w : words) {
    char bytes[4];
    std::memcpy(bytes, &w, 4);
    s.append(bytes, 4);
  }
  return s;
}

std::string trim(std::string s) {
  s.erase(std::find(s.begin(), s.end(), '\0'), s.end());
  const auto not_space = [](char c) { return c != ' '; };
  s.erase(s.begin(), std::find_if(s.begin(), s.end(), not_space));
  s.erase(std::find_if(s.rbegin(), s.rend(), not_space).base(), s.end());
  return s;
}

/// A leaf number as the manuals write it: "15H", "40000001H".
std::string leaf_name(unsigned leaf) {
  constexpr char kHex[] = "0123456789ABCDEF";
  std::string s;
  do {
    s.insert(s.begin(), kHex[leaf & 0xf]);
    leaf >>= 4;
  } while (leaf != 0);
  if (s.size() < 2) s.insert(s.begin(), '0');
  return s + "H";
}

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
    const std::uint64_t before = tsc::LfenceRdtscLfence::read();
    clock_gettime(clock, &ts);
    const std::uint64_t after = tsc::LfenceRdtscLfence::read();
    if (after >= before && after - before < best_width) {
      best_width = after - before;
      best = {before, static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec, after};
    }
  }
  return best;
}

}  // namespace

CpuidFacts read_cpuid() {
  CpuidFacts f;
  const Regs leaf0 = cpuid(0);
  f.max_basic_leaf = leaf0.a;
  f.vendor = regs_text({leaf0.b, leaf0.d, leaf0.c});
  const Regs leaf1 = cpuid(1);
  const unsigned base_family = (leaf1.a >> 8) & 0xf;
  const unsigned base_model = (leaf1.a >> 4) & 0xf;
  f.stepping = leaf1.a & 0xf;
  f.family = base_family == 0xf ? base_family + ((leaf1.a >> 20) & 0xff) : base_family;
  f.model = (base_family == 0x6 || base_family == 0xf) ? (((leaf1.a >> 16) & 0xf) << 4) + base_model : base_model;
  f.tsc_deadline = (leaf1.c >> 24) & 1;
  if (leaf0.a >= 7) f.tsc_adjust = (cpuid(7, 0).b >> 1) & 1;
  const unsigned max_ext = cpuid(0x80000000).a;
  if (max_ext >= 0x80000004) {
    std::string brand;
    for (unsigned leaf = 0x80000002; leaf <= 0x80000004; ++leaf) {
      const Regs r = cpuid(leaf);
      brand += regs_text({r.a, r.b, r.c, r.d});
    }
    f.brand = trim(brand);
  }
  if (max_ext >= 0x80000001) f.rdtscp = (cpuid(0x80000001).d >> 27) & 1;
  if (max_ext >= 0x80000007) f.invariant_tsc = (cpuid(0x80000007).d >> 8) & 1;
  if (leaf0.a >= 0x15) {
    const Regs r = cpuid(0x15);
    f.leaf15_denominator = r.a;
    f.leaf15_numerator = r.b;
    f.leaf15_crystal_hz = r.c;
    if (r.a != 0 && r.b != 0 && r.c != 0) {
      f.crystal_tsc_hz = static_cast<std::uint64_t>(r.c) * r.b / r.a;
    }
  }
  if (leaf0.a >= 0x16) {
    const Regs r = cpuid(0x16);
    f.base_mhz = r.a & 0xffff;
    f.max_mhz = r.b & 0xffff;
    f.bus_mhz = r.c & 0xffff;
  }
  if ((leaf1.c >> 31) & 1) {
    const Regs hv = cpuid(0x40000000);
    f.hypervisor = trim(regs_text({hv.b, hv.c, hv.d}));
    f.max_hypervisor_leaf = hv.a;
    if (hv.a >= 0x40000010) {
      const unsigned khz = cpuid(0x40000010).a;
      if (khz != 0) f.hypervisor_tsc_hz = static_cast<std::uint64_t>(khz) * 1000;
    }
  }
  return f;
}

std::string describe_leaf_15h(const CpuidFacts& c) {
  if (c.max_basic_leaf < 0x15) {
    return "not offered (the highest basic leaf is " + leaf_name(c.max_basic_leaf) + ")";
  }
  if (c.leaf15_denominator == 0 || c.leaf15_numerator == 0) {
    return c.leaf15_crystal_hz == 0 ? "not offered (reads all zero)" : "not offered (no TSC/crystal ratio)";
  }
  const std::string ratio = std::to_string(c.leaf15_numerator) + "/" + std::to_string(c.leaf15_denominator);
  if (c.leaf15_crystal_hz == 0) return "TSC/crystal ratio " + ratio + ", but the crystal frequency is not enumerated";
  return std::to_string(c.leaf15_crystal_hz) + " Hz crystal x " + ratio + " = " + std::to_string(c.crystal_tsc_hz) +
         " Hz";
}

std::string describe_leaf_16h(const CpuidFacts& c) {
  if (c.max_basic_leaf < 0x16) {
    return "not offered (the highest basic leaf is " + leaf_name(c.max_basic_leaf) + ")";
  }
  if (c.base_mhz == 0) return "not offered (reads zero)";
  return "base " + std::to_string(c.base_mhz) + " MHz, max " + std::to_string(c.max_mhz) + " MHz, bus " +
         std::to_string(c.bus_mhz) + " MHz";
}

std::string describe_leaf_40000010h(const CpuidFacts& c) {
  if (!c.hypervisor) return "not offered (no hypervisor)";
  if (c.max_hypervisor_leaf < 0x40000010) {
    return "not offered (the hypervisor's highest leaf is " + leaf_name(c.max_hypervisor_leaf) + ")";
  }
  if (c.hypervisor_tsc_hz == 0) return "not offered (reads zero)";
  return std::to_string(c.hypervisor_tsc_hz / 1000) + " kHz";
}

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

TscFrequency choose_tsc_frequency(const CpuidFacts& c, const std::optional<Calibration>& calibration) {
  TscFrequency f;
  f.calibration = calibration;
  if (c.crystal_tsc_hz != 0) {
    f.hz = static_cast<double>(c.crystal_tsc_hz);
    f.source = "cpuid_15h";
    f.why = "CPUID 15H enumerates it (" + describe_leaf_15h(c) + "): the hardware's own figure";
    return f;
  }
  const std::string no_15h = "CPUID 15H " + describe_leaf_15h(c);
  if (c.hypervisor_tsc_hz != 0) {
    f.hz = static_cast<double>(c.hypervisor_tsc_hz);
    f.source = "cpuid_40000010h";
    f.uncertainty_ppm = 1e3 / f.hz * 1e6;  // kHz resolution: up to 1 kHz of rounding
    f.why = no_15h + "; the hypervisor's leaf 40000010H gives it, to 1 kHz";
    return f;
  }
  const std::string neither = no_15h + "; hypervisor leaf 40000010H " + describe_leaf_40000010h(c);
  if (calibration && calibration->fit.valid) {
    f.hz = calibration->hz();
    f.source = "calibrated_monotonic_raw";
    f.uncertainty_ppm = calibration->fit.bracket_ppm;
    f.why = neither + ": calibrated against " + clock_name(calibration->clock);
    return f;
  }
  f.source = "unknown";
  f.why = neither + (calibration ? "; the calibration failed: " + calibration->fit.reason : "; not calibrated");
  return f;
}

TscFrequency tsc_frequency(const CpuidFacts& cpuid_facts, int calibration_ms, bool always_calibrate) {
  std::optional<Calibration> cal;
  if (always_calibrate || (cpuid_facts.crystal_tsc_hz == 0 && cpuid_facts.hypervisor_tsc_hz == 0)) {
    cal = calibrate_tsc(CalibrationClock::monotonic_raw, calibration_ms);
  }
  return choose_tsc_frequency(cpuid_facts, cal);
}

PlatformFacts probe_platform(int calibration_ms, bool always_calibrate) {
  PlatformFacts p;
  p.cpuid = read_cpuid();
  std::array<char, 256> host{};
  if (gethostname(host.data(), host.size() - 1) == 0) p.host = host.data();
  utsname u{};
  if (uname(&u) == 0) p.kernel = std::string(u.release) + " " + u.version;
  p.kernel_facts = read_kernel_facts();
  Fact<std::string> log = read_kernel_log();
  p.kernel_facts.log = log.ok() ? Fact<KernelLogFacts>::good(parse_kernel_log(log.value))
                                : Fact<KernelLogFacts>::fail(log.state, log.reason);
  p.clocksource = p.kernel_facts.clocksource.ok() ? p.kernel_facts.clocksource.value : "";
  p.tsc = tsc_frequency(p.cpuid, calibration_ms, always_calibrate);
  return p;
}

void add_platform_metadata(const PlatformFacts& p, Metadata& meta) {
  meta.set("host", p.host);
  meta.set("kernel", p.kernel);
  meta.set("cpu_vendor", p.cpuid.vendor);
  meta.set("cpu_model", p.cpuid.brand);
  meta.set("cpu_family_model_stepping", std::to_string(p.cpuid.family) + "/" + std::to_string(p.cpuid.model) + "/" +
                                            std::to_string(p.cpuid.stepping));
  meta.set("invariant_tsc", p.cpuid.invariant_tsc ? "yes" : "no");
  meta.set("hypervisor", p.cpuid.hypervisor.value_or("none"));
  meta.set("clocksource", p.clocksource.empty() ? "unknown" : p.clocksource);
  meta.set("tsc_hz", std::to_string(std::llround(p.tsc.hz)));
  meta.set("tsc_hz_source", p.tsc.source);
  meta.set("tsc_hz_uncertainty_ppm", format_sig(p.tsc.uncertainty_ppm, 3));
  // The kernel's view, kept small: what it trusts about the TSC, its own frequency, and
  // whether any CPU is shielded from the scheduler.
  const KernelFacts& k = p.kernel_facts;
  const auto yes_no_unknown = [&](bool CpuinfoTscFlags::*flag) -> std::string {
    if (!k.cpuinfo.ok()) return "unknown";
    return k.cpuinfo.value.*flag ? "yes" : "no";
  };
  meta.set("tsc_known_freq", yes_no_unknown(&CpuinfoTscFlags::tsc_known_freq));
  meta.set("tsc_reliable", yes_no_unknown(&CpuinfoTscFlags::tsc_reliable));
  meta.set("isolated_cpus", !k.isolated.ok()           ? std::string("unknown")
                            : k.isolated.value.empty() ? std::string("none")
                                                       : format_cpu_list(k.isolated.value));
  meta.set("kernel_tsc_mhz",
           k.log.ok() && k.log.value.tsc_mhz ? format_fixed(*k.log.value.tsc_mhz, 3) : std::string("unknown"));
}

}  // namespace tscsync
