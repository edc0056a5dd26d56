// The registers behind aarch64's CPU facts (aarch64_facts.hpp): CNTFRQ_EL0, MIDR_EL1
// through the kernel's emulation, and the hardware capabilities of the auxiliary vector;
// and the CPU facts of a PlatformFacts on aarch64. Built on aarch64 only.
#include <sys/auxv.h>

#include "platform/aarch64_facts.hpp"
#include "platform/platform.hpp"

namespace tscaudit {

ArmRegisters read_arm_registers() {
  ArmRegisters r;
  r.read = true;
  // CNTFRQ_EL0 is readable at EL0 whenever either counter is (CNTKCTL_EL1.EL0PCTEN or
  // EL0VCTEN); Linux enables it even where it traps the counter itself.
  asm volatile("mrs %0, cntfrq_el0" : "=r"(r.cntfrq_hz));
  r.hwcap = getauxval(AT_HWCAP);
  r.hwcap2 = getauxval(AT_HWCAP2);
  r.ecv = (r.hwcap2 & kHwcap2Ecv) != 0;
  r.hwcap_cpuid = (r.hwcap & kHwcapCpuid) != 0;
  if (r.hwcap_cpuid) {
    // Traps to the kernel, which answers with this CPU's MIDR (Documentation/arch/arm64/
    // cpu-feature-registers.rst): without HWCAP_CPUID the instruction is undefined here.
    std::uint64_t midr = 0;
    asm volatile("mrs %0, midr_el1" : "=r"(midr));
    r.midr = Midr{midr};
  }
  return r;
}

void read_cpu_facts(PlatformFacts& facts) {
  facts.arch = CounterArch::aarch64;
  const Fact<std::string> cpuinfo = read_text_file("/proc/cpuinfo", 32u << 20);
  facts.arm = arm_facts("/", cpuinfo.ok() ? cpuinfo.value : std::string(), read_arm_registers());
}

}  // namespace tscaudit
