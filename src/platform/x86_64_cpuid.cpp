// CPUID: the x86-64 CPU's own facts about the TSC (x86_64_facts.hpp), and the CPU facts
// of a PlatformFacts on x86-64. Built on x86-64 only; the only CPUID in the project.
#include <cpuid.h>

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <string>

#include "core/lines.hpp"
#include "platform/platform.hpp"
#include "platform/x86_64_facts.hpp"

namespace tscaudit {
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

/// A CPUID string as text: up to its first NUL, without the spaces that pad it.
std::string cpuid_text(std::string_view s) { return std::string(trim(s.substr(0, s.find('\0')), " ")); }

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
    f.brand = cpuid_text(brand);
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
    f.hypervisor = cpuid_text(regs_text({hv.b, hv.c, hv.d}));
    f.max_hypervisor_leaf = hv.a;
    if (hv.a >= 0x40000010) {
      const unsigned khz = cpuid(0x40000010).a;
      if (khz != 0) f.hypervisor_tsc_hz = static_cast<std::uint64_t>(khz) * 1000;
    }
  }
  return f;
}

void read_cpu_facts(PlatformFacts& facts) {
  facts.arch = CounterArch::x86_64;
  facts.cpuid = read_cpuid();
}

}  // namespace tscaudit
