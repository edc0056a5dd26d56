#include "platform/platform_warnings.hpp"

#include <algorithm>
#include <map>

#include "core/cpu_list.hpp"

namespace tscaudit {
namespace {

/// "CPU 3" or "CPUs 0-2,5".
std::string cpus_phrase(const std::vector<int>& cpus) {
  std::string s = cpus.size() == 1 ? "CPU " : "CPUs ";
  return s.append(format_cpu_list(cpus));
}

/// The warnings of every architecture about how the measuring CPUs are scheduled and
/// clocked: powersave_governor, deep_cstates, no_isolated_cpus, smt_on.
void append_scheduling_warnings(const KernelFacts& k, std::vector<Warning>& out) {
  std::vector<int> powersave;
  for (const CpuKernelFacts& c : k.cpus) {
    if (c.governor.ok() && c.governor.value == "powersave") powersave.push_back(c.cpu);
  }
  if (!powersave.empty()) {
    out.push_back(
        {"powersave_governor",
         cpus_phrase(powersave) + (powersave.size() == 1 ? " uses" : " use") + " the powersave cpufreq governor",
         "the core clock moves with load, and so do the latencies measured (an invariant TSC keeps its "
         "rate): cpupower frequency-set -g performance for the measurement"});
  }

  // Enabled deep states, grouped by (latency, name), shallowest first: "C6 (133 us) on CPUs 0-7".
  std::map<std::pair<std::uint64_t, std::string>, std::vector<int>> deep;
  for (const CpuKernelFacts& c : k.cpus) {
    if (!c.idle_states.ok()) continue;
    for (const IdleState& s : c.idle_states.value) {
      const bool enabled = !(s.disabled.ok() && s.disabled.value);
      if (enabled && s.latency_us.ok() && s.latency_us.value > kDeepCstateLatencyUs) {
        deep[{s.latency_us.value, s.name.ok() ? s.name.value : "state" + std::to_string(s.index)}].push_back(c.cpu);
      }
    }
  }
  if (!deep.empty()) {
    std::string list;
    for (const auto& [state, cpus] : deep) {
      if (!list.empty()) list += ", ";
      list += state.second + " (exit latency " + std::to_string(state.first) + " us) on " + cpus_phrase(cpus);
    }
    out.push_back({"deep_cstates",
                   "idle states deeper than " + std::to_string(kDeepCstateLatencyUs) + " us are enabled: " + list,
                   "a CPU waking from one answers that much later: stalls in the rounds; for the measurement "
                   "disable them (cpupower idle-set -D " +
                       std::to_string(kDeepCstateLatencyUs + 1) +
                       ", or boot with intel_idle.max_cstate=1 or processor.max_cstate=1)"});
  }

  // No isolated CPUs: known only when sysfs says so (or, without the file, the command line).
  const bool nohz = k.nohz_full.ok() && !k.nohz_full.value.empty();
  const bool none_isolated = k.isolated.ok()
                                 ? k.isolated.value.empty()
                                 : k.isolated.state == FactState::absent && k.cmdline.ok() && !k.cmdline.value.isolcpus;
  if (none_isolated && !nohz) {
    out.push_back({"no_isolated_cpus", "no CPU is isolated from the scheduler (no isolcpus, no nohz_full)",
                   "other tasks, interrupts and timer ticks share the measuring CPUs and show as stalls; for "
                   "clean figures boot with isolcpus=, nohz_full= and rcu_nocbs= for the CPUs to measure"});
  }

  std::vector<std::vector<int>> groups;
  for (const CpuKernelFacts& c : k.cpus) {
    if (c.thread_siblings.ok() && c.thread_siblings.value.size() > 1) {
      std::vector<int> g = c.thread_siblings.value;
      std::sort(g.begin(), g.end());
      if (std::find(groups.begin(), groups.end(), g) == groups.end()) groups.push_back(g);
    }
  }
  const bool smt_active = k.smt_active.ok() && k.smt_active.value;
  if (smt_active || !groups.empty()) {
    std::string msg = "SMT is on";
    if (!groups.empty()) {
      msg += ": " + std::to_string(groups.size()) + " core" + (groups.size() == 1 ? "" : "s") + " with siblings (";
      for (std::size_t i = 0; i < groups.size() && i < 4; ++i) {
        if (i > 0) msg += ' ';
        msg += format_cpu_list(groups[i]);
      }
      msg += groups.size() > 4 ? " ...)" : ")";
    }
    out.push_back({"smt_on", msg,
                   "a busy sibling of a measuring CPU shares its core and adds jitter: keep the siblings of the "
                   "measured CPUs idle, or echo off > /sys/devices/system/cpu/smt/control; sibling pairs are "
                   "also the natural same-core control"});
  }
}

}  // namespace

std::vector<Warning> platform_warnings(const CpuidFacts& cpuid, const KernelFacts& k) {
  std::vector<Warning> out;

  if (cpuid.hypervisor) {
    out.push_back({"virtual_machine", "running under a hypervisor (" + *cpuid.hypervisor + ")",
                   "the counters measured are this guest's virtual TSCs: the host sets their offsets and may "
                   "move vCPUs between physical CPUs, so results can change from run to run; measure on bare "
                   "metal to judge the hardware"});
  }

  if (k.clocksource.ok() && k.clocksource.value != "tsc") {
    const bool available = k.clocksources_available.ok() &&
                           std::find(k.clocksources_available.value.begin(), k.clocksources_available.value.end(),
                                     "tsc") != k.clocksources_available.value.end();
    out.push_back({"clocksource_not_tsc",
                   "the kernel keeps time with " + k.clocksource.value + ", not tsc" +
                       (available ? " (tsc is available)" : " (tsc is not among the available clocksources)"),
                   "the kernel does not trust the TSC, or was told not to use it: look for 'unstable' in the "
                   "kernel log; counters the kernel distrusts can still agree, which is what tscaudit measures"});
  }

  if (!cpuid.invariant_tsc) {
    const bool kernel_says_constant = k.cpuinfo.ok() && k.cpuinfo.value.constant_tsc && k.cpuinfo.value.nonstop_tsc;
    out.push_back({"tsc_not_invariant",
                   std::string("CPUID 80000007H EDX[8] does not report an invariant TSC") +
                       (kernel_says_constant ? " (the kernel still shows constant_tsc and nonstop_tsc)" : ""),
                   "the rate may follow P-states or stop in deep C-states, so counters can drift apart: look at "
                   "the drift, not only the offset; under a hypervisor the host may just hide the bit (QEMU: "
                   "+invtsc)"});
  }

  if (k.log.ok() && k.log.value.tsc_marked_unstable) {
    out.push_back({"tsc_unstable", "the kernel marked the TSC unstable: " + k.log.value.unstable_line,
                   "its watchdog or its CPU-to-CPU check saw the TSC disagree; measure by how much, and use "
                   "tsc=reliable only where the measurement shows the counters agree"});
  }

  append_scheduling_warnings(k, out);

  if (!cpuid.rdtscp) {
    out.push_back({"no_rdtscp", "the CPU does not report RDTSCP (CPUID 80000001H EDX[27])",
                   "the rdtscp and rdtscp_lfence variants cannot run; lfence_rdtsc gives ordered reads"});
  }
  return out;
}

std::vector<Warning> arm_platform_warnings(const ArmFacts& arm, const KernelFacts& k, const TscFrequency& frequency) {
  std::vector<Warning> out;
  for (const CounterErratum& e : counter_errata(arm, k.log)) {
    out.push_back({"counter_erratum", e.name + ": " + e.what + " (seen in: " + e.evidence + ")",
                   "Linux works around it by reading the counter in the kernel: user-space reads of CNTVCT_EL0 "
                   "trap (CNTKCTL_EL1.EL0VCTEN is cleared) and each costs microseconds, so the read cost of every "
                   "variant shows the trap, not the instruction, and latencies grow by as much; the offsets are "
                   "still measured, with wider bands"});
  }
  if (k.log.ok() && !k.log.value.cntvct_trapped_cpus.empty()) {
    out.push_back({"counter_trapped",
                   "the kernel traps user-space reads of CNTVCT_EL0 on " + cpus_phrase(k.log.value.cntvct_trapped_cpus) +
                       " (kernel log: \"arch_timer: CPUn: Trapping CNTVCT access\")",
                   "every read there is an exception into the kernel, which emulates it: microseconds per read, as "
                   "the read-cost table of tscaudit variants shows; measure pairs of other CPUs for latencies that "
                   "mean something"});
  }
  if (frequency.source == "calibrated_monotonic_raw" && arm.registers.cntfrq_hz != 0) {
    out.push_back({"cntfrq_mismatch", "CNTFRQ_EL0 does not match the counter's rate: " + frequency.why,
                   "every figure in ns uses the calibrated rate; ticks are what the counter counted"});
  }
  if (k.clocksource.ok() && k.clocksource.value != "arch_sys_counter") {
    out.push_back({"clocksource_not_arch_sys_counter",
                   "the kernel keeps time with " + k.clocksource.value + ", not arch_sys_counter (the generic timer)",
                   "the kernel does not use the generic timer, or was told not to: look for arch_timer in the "
                   "kernel log; counters the kernel distrusts can still agree, which is what tscaudit measures"});
  }
  append_scheduling_warnings(k, out);
  return out;
}

std::vector<Warning> platform_warnings(const PlatformFacts& p) {
  std::vector<Warning> out;
  if (p.emulation) {
    out.push_back({"emulated", *p.emulation,
                   "every latency, round trip, read cost and band measured here is the emulator's: meaningless "
                   "for the hardware; the emulator shows that the tool runs, not how the counters agree"});
  }
  const std::vector<Warning> arch = p.arch == CounterArch::aarch64
                                        ? arm_platform_warnings(p.arm, p.kernel_facts, p.tsc)
                                        : platform_warnings(p.cpuid, p.kernel_facts);
  for (const Warning& w : arch) {
    // Under an emulator the kernel is the host's, of another architecture: its clocksource
    // says nothing about the emulated counter.
    const bool kernel_clocksource = w.code == "clocksource_not_tsc" || w.code == "clocksource_not_arch_sys_counter";
    if (!(p.emulation && kernel_clocksource)) out.push_back(w);
  }
  return out;
}

}  // namespace tscaudit
