// Every platform warning: raised by exactly its trigger, silent without it, silent when
// the fact could not be read.
#include <catch2/catch.hpp>

#include "platform/platform_warnings.hpp"
#include "warning_codes.hpp"

using namespace tscaudit;

namespace {

/// A machine with nothing to warn about.
struct Clean {
  CpuidFacts cpuid;
  KernelFacts kernel;
  Clean() {
    cpuid.invariant_tsc = true;
    cpuid.rdtscp = true;
    kernel.clocksource = Fact<std::string>::good("tsc");
    kernel.clocksources_available = Fact<std::vector<std::string>>::good({"tsc", "hpet"});
    CpuinfoTscFlags flags;
    flags.constant_tsc = flags.nonstop_tsc = flags.rdtscp = true;
    kernel.cpuinfo = Fact<CpuinfoTscFlags>::good(flags);
    BootParams boot;
    boot.isolcpus = "2-3";
    kernel.cmdline = Fact<BootParams>::good(boot);
    kernel.isolated = Fact<std::vector<int>>::good({2, 3});
    kernel.nohz_full = Fact<std::vector<int>>::good({});
    kernel.smt_control = Fact<std::string>::good("off");
    kernel.smt_active = Fact<bool>::good(false);
    kernel.log = Fact<KernelLogFacts>::good(KernelLogFacts{});
    for (int cpu = 0; cpu < 4; ++cpu) {
      CpuKernelFacts c;
      c.cpu = cpu;
      c.governor = Fact<std::string>::good("performance");
      c.thread_siblings = Fact<std::vector<int>>::good({cpu});
      c.idle_states = Fact<std::vector<IdleState>>::good(
          {state(0, "POLL", 0, false), state(1, "C1", 2, false), state(2, "C1E", 10, false)});
      kernel.cpus.push_back(c);
    }
  }
  static IdleState state(int index, const std::string& name, std::uint64_t latency_us, bool disabled) {
    IdleState s;
    s.index = index;
    s.name = Fact<std::string>::good(name);
    s.latency_us = Fact<std::uint64_t>::good(latency_us);
    s.disabled = Fact<bool>::good(disabled);
    return s;
  }
  [[nodiscard]] std::vector<Warning> warnings() const { return platform_warnings(cpuid, kernel); }
};

using test::codes;

/// The single warning raised, checked to be the only one and to carry advice.
Warning only(const std::vector<Warning>& w, const std::string& code) {
  REQUIRE(codes(w) == std::vector<std::string>{code});
  CHECK_FALSE(w[0].advice.empty());
  return w[0];
}

template <class T>
Fact<T> unreadable() {
  return Fact<T>::fail(FactState::malformed, "x: broken");
}

}  // namespace

TEST_CASE("a clean machine raises nothing") { CHECK(Clean().warnings().empty()); }

TEST_CASE("virtual_machine: a hypervisor signature") {
  Clean m;
  m.cpuid.hypervisor = "KVMKVMKVM";
  CHECK(only(m.warnings(), "virtual_machine").message == "running under a hypervisor (KVMKVMKVM)");
}

TEST_CASE("clocksource_not_tsc: another clocksource, whether tsc is available or not") {
  Clean m;
  m.kernel.clocksource.value = "hpet";
  CHECK(only(m.warnings(), "clocksource_not_tsc").message ==
        "the kernel keeps time with hpet, not tsc (tsc is available)");
  m.kernel.clocksources_available.value = {"hpet", "acpi_pm"};
  CHECK(only(m.warnings(), "clocksource_not_tsc").message ==
        "the kernel keeps time with hpet, not tsc (tsc is not among the available clocksources)");
  m.kernel.clocksource = unreadable<std::string>();
  CHECK(m.warnings().empty());
}

TEST_CASE("tsc_not_invariant: CPUID 80000007H EDX[8] clear") {
  Clean m;
  m.cpuid.invariant_tsc = false;
  CHECK(
      only(m.warnings(), "tsc_not_invariant").message ==
      "CPUID 80000007H EDX[8] does not report an invariant TSC (the kernel still shows constant_tsc and nonstop_tsc)");
  m.kernel.cpuinfo.value.nonstop_tsc = false;
  CHECK(only(m.warnings(), "tsc_not_invariant").message == "CPUID 80000007H EDX[8] does not report an invariant TSC");
}

TEST_CASE("tsc_unstable: the log says so, an unreadable log says nothing") {
  Clean m;
  m.kernel.log.value.tsc_marked_unstable = true;
  m.kernel.log.value.unstable_line = "[4711.1] tsc: Marking TSC unstable due to clocksource watchdog";
  CHECK(only(m.warnings(), "tsc_unstable").message ==
        "the kernel marked the TSC unstable: [4711.1] tsc: Marking TSC unstable due to clocksource watchdog");
  m.kernel.log = Fact<KernelLogFacts>::fail(FactState::unreadable, "klogctl: Operation not permitted");
  CHECK(m.warnings().empty());
}

TEST_CASE("powersave_governor: the CPUs that use it") {
  Clean m;
  m.kernel.cpus[1].governor.value = "powersave";
  m.kernel.cpus[2].governor.value = "powersave";
  CHECK(only(m.warnings(), "powersave_governor").message == "CPUs 1-2 use the powersave cpufreq governor");
  m.kernel.cpus[1].governor = Fact<std::string>::fail(FactState::absent, "no cpufreq");
  CHECK(only(m.warnings(), "powersave_governor").message == "CPU 2 uses the powersave cpufreq governor");
  m.kernel.cpus[2].governor.value = "schedutil";
  CHECK(m.warnings().empty());
}

TEST_CASE("deep_cstates: enabled states above 10 us, grouped by state") {
  Clean m;
  for (auto& c : m.kernel.cpus) c.idle_states.value.push_back(Clean::state(3, "C6", 133, c.cpu == 3));
  m.kernel.cpus[0].idle_states.value.push_back(Clean::state(4, "C10", 890, false));
  CHECK(only(m.warnings(), "deep_cstates").message ==
        "idle states deeper than 10 us are enabled: C6 (exit latency 133 us) on CPUs 0-2, C10 (exit latency 890 us) "
        "on CPU 0");
  // 10 us itself is not deep; disabled states and unreadable latencies do not count.
  Clean n;
  n.kernel.cpus[0].idle_states.value.push_back(Clean::state(3, "C6", 133, true));
  n.kernel.cpus[1].idle_states.value.push_back(Clean::state(3, "C6", 133, false));
  n.kernel.cpus[1].idle_states.value.back().latency_us = unreadable<std::uint64_t>();
  CHECK(n.warnings().empty());
  // An unknown disable flag counts as enabled: the state exists and nothing says it is off.
  n.kernel.cpus[2].idle_states.value.push_back(Clean::state(3, "C6", 133, false));
  n.kernel.cpus[2].idle_states.value.back().disabled = unreadable<bool>();
  CHECK(only(n.warnings(), "deep_cstates").message ==
        "idle states deeper than 10 us are enabled: C6 (exit latency 133 us) on CPU 2");
}

TEST_CASE("no_isolated_cpus: neither isolated nor nohz_full CPUs") {
  Clean m;
  m.kernel.isolated.value = {};
  CHECK(only(m.warnings(), "no_isolated_cpus").message ==
        "no CPU is isolated from the scheduler (no isolcpus, no nohz_full)");
  m.kernel.nohz_full.value = {3};
  CHECK(m.warnings().empty());
  // Without the sysfs file, the command line decides.
  Clean n;
  n.kernel.isolated = Fact<std::vector<int>>::fail(FactState::absent, "no isolated");
  CHECK(n.warnings().empty());  // isolcpus=2-3 at boot
  n.kernel.cmdline.value.isolcpus.reset();
  CHECK(codes(n.warnings()) == std::vector<std::string>{"no_isolated_cpus"});
  n.kernel.isolated = unreadable<std::vector<int>>();
  CHECK(n.warnings().empty());
}

TEST_CASE("smt_on: smt/active, or sibling lists where that file is missing") {
  Clean m;
  m.kernel.smt_active.value = true;
  CHECK(only(m.warnings(), "smt_on").message == "SMT is on");
  Clean n;
  n.kernel.smt_active = Fact<bool>::fail(FactState::absent, "no smt/active");
  n.kernel.cpus[0].thread_siblings.value = {0, 2};
  n.kernel.cpus[2].thread_siblings.value = {2, 0};
  n.kernel.cpus[1].thread_siblings.value = {1, 3};
  CHECK(only(n.warnings(), "smt_on").message == "SMT is on: 2 cores with siblings (0,2 1,3)");
}

TEST_CASE("no_rdtscp") {
  Clean m;
  m.cpuid.rdtscp = false;
  CHECK(only(m.warnings(), "no_rdtscp").message == "the CPU does not report RDTSCP (CPUID 80000001H EDX[27])");
}

TEST_CASE("several at once come in the documented order") {
  Clean m;
  m.cpuid.rdtscp = false;
  m.cpuid.hypervisor = "Microsoft Hv";
  m.kernel.smt_active.value = true;
  m.kernel.clocksource.value = "hyperv_clocksource_tsc_page";
  CHECK(codes(m.warnings()) ==
        std::vector<std::string>{"virtual_machine", "clocksource_not_tsc", "smt_on", "no_rdtscp"});
}

TEST_CASE("the fixture machines: this KVM guest and the bare-metal Intel") {
  CpuidFacts kvm;
  kvm.invariant_tsc = kvm.rdtscp = true;
  kvm.hypervisor = "KVMKVMKVM";
  KernelFacts guest = read_kernel_facts(TSCAUDIT_TEST_DATA "/platform/kvm_intel_2cpu");
  guest.log = Fact<KernelLogFacts>::good(KernelLogFacts{});
  CHECK(codes(platform_warnings(kvm, guest)) == std::vector<std::string>{"virtual_machine", "no_isolated_cpus"});

  CpuidFacts metal;
  metal.invariant_tsc = metal.rdtscp = true;
  const auto w = platform_warnings(metal, read_kernel_facts(TSCAUDIT_TEST_DATA "/platform/bare_metal_intel_smt"));
  REQUIRE(codes(w) == std::vector<std::string>{"powersave_governor", "deep_cstates", "smt_on"});
  CHECK(w[0].message == "CPUs 0-3 use the powersave cpufreq governor");
  CHECK(w[1].message == "idle states deeper than 10 us are enabled: C6 (exit latency 133 us) on CPUs 0-2");
  CHECK(w[2].message == "SMT is on: 2 cores with siblings (0,2 1,3)");

  // Files that could not be read raise nothing.
  CHECK(platform_warnings(metal, read_kernel_facts(TSCAUDIT_TEST_DATA "/platform/malformed")).empty());
  CHECK(platform_warnings(metal, read_kernel_facts(TSCAUDIT_TEST_DATA "/platform/missing")).empty());
}
