#include "platform.hpp"

#include <cpuid.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <fstream>
#include <limits>
#include <thread>

#include "format.hpp"
#include "run.hpp"
#include "tsc.hpp"

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

std::int64_t monotonic_raw_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

/// One paired reading: the clock between two TSC reads; the narrowest of `tries`.
struct Pair {
  double tsc_mid = 0;
  std::int64_t ns = 0;
  std::uint64_t width_ticks = std::numeric_limits<std::uint64_t>::max();
};

Pair narrowest_pair(int tries) {
  Pair best;
  for (int i = 0; i < tries; ++i) {
    const std::uint64_t before = tsc::LfenceRdtscLfence::read();
    const std::int64_t ns = monotonic_raw_ns();
    const std::uint64_t after = tsc::LfenceRdtscLfence::read();
    if (after - before < best.width_ticks) {
      best.width_ticks = after - before;
      best.ns = ns;
      best.tsc_mid = static_cast<double>(before) + static_cast<double>(after - before) / 2;
    }
  }
  return best;
}

}  // namespace

CpuidFacts read_cpuid() {
  CpuidFacts f;
  const Regs leaf0 = cpuid(0);
  f.vendor = regs_text({leaf0.b, leaf0.d, leaf0.c});
  const Regs leaf1 = cpuid(1);
  const unsigned base_family = (leaf1.a >> 8) & 0xf;
  const unsigned base_model = (leaf1.a >> 4) & 0xf;
  f.stepping = leaf1.a & 0xf;
  f.family = base_family == 0xf ? base_family + ((leaf1.a >> 20) & 0xff) : base_family;
  f.model = (base_family == 0x6 || base_family == 0xf) ? (((leaf1.a >> 16) & 0xf) << 4) + base_model
                                                        : base_model;
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
    if (r.a != 0 && r.b != 0 && r.c != 0) {
      f.crystal_tsc_hz = static_cast<std::uint64_t>(r.c) * r.b / r.a;
    }
  }
  if ((leaf1.c >> 31) & 1) {
    const Regs hv = cpuid(0x40000000);
    f.hypervisor = trim(regs_text({hv.b, hv.c, hv.d}));
    if (hv.a >= 0x40000010) {
      const unsigned khz = cpuid(0x40000010).a;
      if (khz != 0) f.hypervisor_tsc_hz = static_cast<std::uint64_t>(khz) * 1000;
    }
  }
  return f;
}

TscFrequency tsc_frequency(const CpuidFacts& cpuid_facts, int calibration_ms) {
  if (cpuid_facts.crystal_tsc_hz != 0) {
    return {static_cast<double>(cpuid_facts.crystal_tsc_hz), "cpuid_15h", 0};
  }
  if (cpuid_facts.hypervisor_tsc_hz != 0) {
    // kHz resolution: up to 1 kHz of rounding.
    const auto hz = static_cast<double>(cpuid_facts.hypervisor_tsc_hz);
    return {hz, "cpuid_40000010h", 1e3 / hz * 1e6};
  }
  const Pair start = narrowest_pair(16);
  std::this_thread::sleep_for(std::chrono::milliseconds(calibration_ms));
  const Pair end = narrowest_pair(16);
  const double ticks = end.tsc_mid - start.tsc_mid;
  const double ns = static_cast<double>(end.ns - start.ns);
  TscFrequency f;
  f.hz = ticks / ns * 1e9;
  f.source = "calibrated_monotonic_raw";
  // Each midpoint is off by at most half its bracket.
  f.uncertainty_ppm = (static_cast<double>(start.width_ticks + end.width_ticks) / 2) / ticks * 1e6;
  return f;
}

std::optional<std::string> read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

PlatformFacts probe_platform(int calibration_ms) {
  PlatformFacts p;
  p.cpuid = read_cpuid();
  std::array<char, 256> host{};
  if (gethostname(host.data(), host.size() - 1) == 0) p.host = host.data();
  utsname u{};
  if (uname(&u) == 0) p.kernel = std::string(u.release) + " " + u.version;
  p.clocksource =
      read_first_line("/sys/devices/system/clocksource/clocksource0/current_clocksource").value_or("");
  p.tsc = tsc_frequency(p.cpuid, calibration_ms);
  return p;
}

void add_platform_metadata(const PlatformFacts& p, Metadata& meta) {
  meta.set("host", p.host);
  meta.set("kernel", p.kernel);
  meta.set("cpu_vendor", p.cpuid.vendor);
  meta.set("cpu_model", p.cpuid.brand);
  meta.set("cpu_family_model_stepping", std::to_string(p.cpuid.family) + "/" +
                                            std::to_string(p.cpuid.model) + "/" +
                                            std::to_string(p.cpuid.stepping));
  meta.set("invariant_tsc", p.cpuid.invariant_tsc ? "yes" : "no");
  meta.set("hypervisor", p.cpuid.hypervisor.value_or("none"));
  meta.set("clocksource", p.clocksource.empty() ? "unknown" : p.clocksource);
  meta.set("tsc_hz", std::to_string(static_cast<std::uint64_t>(p.tsc.hz + 0.5)));
  meta.set("tsc_hz_source", p.tsc.source);
  meta.set("tsc_hz_uncertainty_ppm", format_sig(p.tsc.uncertainty_ppm, 3));
}

}  // namespace tscsync
