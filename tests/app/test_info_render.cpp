// `info`'s text and JSON (app/info_render.hpp) on facts made up here, none read from a file
// or this machine: every line exactly.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "app/info_render.hpp"
#include "render/text_wrap.hpp"
#include "unwrap_text.hpp"

using namespace tscaudit;

namespace {

Calibration fitted(CalibrationClock clock, int cpu, double ticks_per_ns) {
  Calibration c;
  c.clock = clock;
  c.cpu = cpu;
  c.fit.valid = true;
  c.fit.readings = 50;
  c.fit.window_ns = 2e8;
  c.fit.ticks_per_ns = ticks_per_ns;
  c.fit.stderr_ppm = 0.0123;
  c.fit.bracket_ppm = 0.25;
  c.fit.bracket_lo_ticks_per_ns = ticks_per_ns * (1 - 0.25e-6);
  c.fit.bracket_hi_ticks_per_ns = ticks_per_ns * (1 + 0.25e-6);
  c.fit.residual_max_ticks = 40;
  return c;
}

CpuKernelFacts cpu_facts(int cpu, const char* governor) {
  CpuKernelFacts c;
  c.cpu = cpu;
  c.governor = Fact<std::string>::good(governor);
  c.thread_siblings = Fact<std::vector<int>>::good({cpu});
  c.idle_states = Fact<std::vector<IdleState>>::fail(FactState::absent, "no cpuidle directory");
  return c;
}

/// An x86-64 virtual machine of two CPUs: the frequency from CPUID 15H, a realtime
/// calibration and NTP, a kernel log that has wrapped, some facts unreadable, no topology.
InfoReport two_cpu_vm() {
  InfoReport r;
  PlatformFacts& p = r.platform;
  p.host = "box";
  p.kernel = "6.1.0-18-amd64";
  CpuidFacts& c = p.cpuid;
  c.vendor = "GenuineIntel";
  c.brand = "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz";
  c.family = 6;
  c.model = 106;
  c.stepping = 6;
  c.max_basic_leaf = 0x1b;
  c.invariant_tsc = c.rdtscp = c.tsc_adjust = true;
  c.hypervisor = "KVMKVMKVM";
  c.max_hypervisor_leaf = 0x40000001;
  c.leaf15_denominator = 2;
  c.leaf15_numerator = 160;
  c.leaf15_crystal_hz = 25'000'000;
  c.crystal_tsc_hz = 2'000'000'000;
  p.clocksource = "tsc";
  p.tsc.hz = 2e9;
  p.tsc.source = "cpuid_15h";
  p.tsc.why = "CPUID 15H gives it";
  p.tsc.calibration = fitted(CalibrationClock::monotonic_raw, 0, 2.0000004);

  KernelFacts& k = p.kernel_facts;
  CpuinfoTscFlags flags;
  flags.constant_tsc = flags.nonstop_tsc = flags.tsc_known_freq = flags.rdtscp = flags.tsc_adjust = true;
  flags.processors = 2;
  k.cpuinfo = Fact<CpuinfoTscFlags>::good(flags);
  k.cmdline = Fact<BootParams>::good({});
  k.clocksource = Fact<std::string>::good("tsc");
  k.clocksources_available = Fact<std::vector<std::string>>::good({"tsc", "hpet", "acpi_pm"});
  k.isolated = Fact<std::vector<int>>::good({});
  k.nohz_full = Fact<std::vector<int>>::fail(FactState::absent, "no /sys/devices/system/cpu/nohz_full");
  k.cpuidle_driver = Fact<std::string>::fail(FactState::unreadable,
                                             "/sys/devices/system/cpu/cpuidle/current_driver: Permission denied");
  k.smt_control = Fact<std::string>::good("notsupported");
  k.smt_active = Fact<bool>::good(false);
  k.cpus = {cpu_facts(0, "performance"), cpu_facts(1, "performance")};
  KernelLogFacts log;
  log.lines = 900;
  log.first_timestamp_s = 12.5;
  log.tsc_mhz = 1999.999;
  log.tsc_mhz_line = "[    0.000000] tsc: Detected 1999.999 MHz processor";
  k.log = Fact<KernelLogFacts>::good(log);

  r.cpus = {{0, 1}, {0, 1}, {0, 1}};
  r.quanta = {{0, {}, ""}, {1, {}, ""}};
  for (CpuQuantum& q : r.quanta) {
    q.estimate.quantum_ticks = 1;
    q.estimate.modal_delta = 18;
    q.estimate.zero_fraction = 0.25;
  }
  r.quanta[1].estimate.plus_one_reads = true;
  r.topology.problem = "hwloc_topology_load failed";
  r.tsc_adjust = {{0, {0, ""}}, {1, {-12, ""}}};
  r.realtime = fitted(CalibrationClock::realtime, 1, 2.000001);
  r.ntp = NtpState{true, true, -3.25, ""};
  r.warnings = {{"virtual_machine", "a hypervisor (KVMKVMKVM) runs this machine", "the host moves the vCPUs"}};
  return r;
}

}  // namespace

TEST_CASE("info render: the text of a made-up x86-64 virtual machine, every line") {
  // Every line as it is made, then wrapped to 100 columns.
  CHECK(
      info_text(two_cpu_vm()) ==
      wrap_lines(
          "host                box\n"
          "kernel              6.1.0-18-amd64\n"
          "cpu                 Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz (GenuineIntel, family 6 model 106 stepping 6)\n"
          "invariant tsc       yes\n"
          "rdtscp              yes\n"
          "tsc_adjust msr      yes\n"
          "tsc deadline timer  no\n"
          "hypervisor          KVMKVMKVM\n"
          "cpuid 15h           25000000 Hz crystal x 160/2 = 2000000000 Hz\n"
          "cpuid 16h           not offered (reads zero)\n"
          "cpuid 40000010h     not offered (the hypervisor's highest leaf is 40000001H)\n"
          "kernel tsc flags    constant_tsc nonstop_tsc tsc_known_freq tsc_adjust rdtscp; not set: "
          "tsc_reliable tsc_deadline_timer\n"
          "clocksource         tsc (available: tsc hpet acpi_pm)\n"
          "tsc unstable        not seen in the log (which has wrapped: it starts at 12.5 s; an early message "
          "may be lost)\n"
          "kernel tsc log      no verdict on the TSCs' synchronization and no TSC_ADJUST message (the log has "
          "wrapped; an early message may be lost)\n"
          "kernel tsc          1999.999 MHz (\"[    0.000000] tsc: Detected 1999.999 MHz processor\")\n"
          "tsc frequency       2000.000 MHz (cpuid_15h, +/- 0 ppm)\n"
          "  why               CPUID 15H gives it\n"
          "  monotonic_raw     2000.000400 MHz: 50 readings over 0.200 s on CPU 0, stderr 0.012 ppm, bracket "
          "+/- 0.25 ppm\n"
          "  realtime          2000.001000 MHz: 50 readings over 0.200 s on CPU 1, stderr 0.012 ppm, bracket "
          "+/- 0.25 ppm; +0.3 ppm from monotonic_raw\n"
          "  ntp               synchronized, frequency correction -3.25 ppm (adjtimex)\n"
          "  vs kernel         +0.5 ppm from the kernel's 1999.999 MHz (which is rounded to 1 kHz: +/- 0.25 "
          "ppm); realtime +1 ppm\n"
          "cpus                present 0-1, online 0-1, allowed 0-1\n"
          "topology            unknown: hwloc_topology_load failed\n"
          "smt                 notsupported, not active; no CPU shares its core\n"
          "isolated cpus       none\n"
          "nohz_full cpus      not in this kernel (no /sys/devices/system/cpu/nohz_full)\n"
          "boot parameters     none of isolcpus nohz_full rcu_nocbs tsc clocksource idle max_cstate\n"
          "governor cpu 0-1    performance\n"
          "cpuidle driver      /sys/devices/system/cpu/cpuidle/current_driver: Permission denied\n"
          "cpuidle cpu 0-1     no cpuidle\n"
          "tsc_adjust cpu 0    0 ticks\n"
          "tsc_adjust cpu 1    -12 ticks\n"
          "quantum cpu 0       1 tick (modal back-to-back delta 18, 25 % zero deltas)\n"
          "quantum cpu 1       1 tick (modal back-to-back delta 18, 25 % zero deltas, +1 reads within a step)\n"
          "warning             virtual_machine: a hypervisor (KVMKVMKVM) runs this machine\n"
          "  advice            the host moves the vCPUs\n"));
}

TEST_CASE("info render: the JSON of a made-up x86-64 virtual machine") {
  const nlohmann::ordered_json j = info_json(two_cpu_vm());
  std::vector<std::string> keys;
  for (const auto& [key, value] : j.items()) keys.push_back(key);
  CHECK(keys == std::vector<std::string>{"schema", "host", "kernel", "arch", "emulation", "cpu", "invariant_tsc",
                                         "rdtscp", "hypervisor", "clocksource", "tsc_hz", "tsc_hz_source",
                                         "tsc_hz_uncertainty_ppm", "quantum_ticks", "cpus", "quantum_per_cpu",
                                         "tsc_frequency", "cpuid", "kernel_facts", "topology", "tsc_adjust",
                                         "warnings"});
  CHECK(j["arch"] == "x86-64");
  CHECK(j["quantum_ticks"] == 1);
  CHECK(j["cpus"].dump() == R"({"present":"0-1","online":"0-1","allowed":"0-1"})");
  CHECK(j["quantum_per_cpu"][1].dump() ==
        R"({"cpu":1,"quantum_ticks":1,"zero_fraction":0.25,"modal_delta_ticks":18,"plus_one_reads":true})");
  CHECK(j["tsc_frequency"]["realtime"]["ntp"].dump() == R"({"synchronized":true,"frequency_correction_ppm":-3.25})");
  CHECK(j["tsc_frequency"]["kernel_mhz"] == 1999.999);
  CHECK(j["cpuid"]["leaf_15h"]["text"] == "25000000 Hz crystal x 160/2 = 2000000000 Hz");
  // Every fact that could not be read carries its state and reason where its value would be.
  CHECK(j["kernel_facts"].dump() ==
        R"({"cpuinfo_flags":{"constant_tsc":true,"nonstop_tsc":true,"tsc_known_freq":true,"tsc_reliable":false,)"
        R"("tsc_adjust":true,"tsc_deadline_timer":false,"rdtscp":true,"processors":2,"disagreeing":[]},)"
        R"("clocksource":"tsc","clocksources_available":["tsc","hpet","acpi_pm"],)"
        R"("log":{"lines":900,"starts_at_boot":false,"first_timestamp_s":12.5,"tsc_marked_unstable":false,)"
        R"("unstable_line":null,"tsc_mhz":1999.999,)"
        R"("tsc_mhz_line":"[    0.000000] tsc: Detected 1999.999 MHz processor","last_clocksource_switch":null,)"
        R"("arch_timer_mhz":null,"arch_timer_line":null,"timer_workarounds":[],"cntvct_trapped_cpus":"",)"
        R"("tsc_events":[],"tsc_events_left_out":0},)"
        R"("cmdline":{},"isolated":"","nohz_full":{"state":"absent","reason":"no /sys/devices/system/cpu/nohz_full"},)"
        R"("cpuidle_driver":{"state":"unreadable","reason":)"
        R"("/sys/devices/system/cpu/cpuidle/current_driver: Permission denied"},)"
        R"("smt":{"control":"notsupported","active":false},)"
        R"("cpus":[{"cpu":0,"governor":"performance","thread_siblings":"0",)"
        R"("idle_states":{"state":"absent","reason":"no cpuidle directory"}},)"
        R"({"cpu":1,"governor":"performance","thread_siblings":"1",)"
        R"("idle_states":{"state":"absent","reason":"no cpuidle directory"}}]})");
  CHECK(j["topology"].dump() == R"({"error":"hwloc_topology_load failed"})");
  CHECK(j["tsc_adjust"].dump() == R"([{"cpu":0,"value":0,"problem":null},{"cpu":1,"value":-12,"problem":null}])");
  CHECK(j["warnings"].dump() ==
        R"([{"code":"virtual_machine","message":"a hypervisor (KVMKVMKVM) runs this machine",)"
        R"("advice":"the host moves the vCPUs"}])");
}

namespace {

/// The lines of `text` that start with `label`.
std::vector<std::string> lines_labelled(const std::string& text, const std::string& label) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t end = text.find('\n', pos);
    const std::string line = text.substr(pos, end - pos);
    if (line.rfind(label, 0) == 0) out.push_back(line);
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return out;
}

}  // namespace

TEST_CASE("info render: the kernel log's TSC verdicts, in words and quoted, in text and JSON") {
  InfoReport r = two_cpu_vm();
  KernelLogFacts& log = r.platform.kernel_facts.log.value;
  log.starts_at_boot = true;
  CHECK(lines_labelled(test::unwrapped(info_text(r)), "kernel tsc log") ==
        std::vector<std::string>{"kernel tsc log      no verdict on the TSCs' synchronization and no TSC_ADJUST "
                                 "message (the log reaches back to boot)"});
  KernelTscEvent warp;
  warp.kind = KernelTscEventKind::warp;
  warp.cpu = 0;
  warp.other_cpu = 1;
  warp.value = 1234;
  warp.timestamp_s = 0.512350;
  warp.lines = {"[0.512345] TSC synchronization [CPU#0 -> CPU#1]:",
                "[0.512350] Measured 1234 cycles TSC warp between CPUs, turning off TSC clock."};
  log.tsc_events.add(warp);
  KernelTscEvent unstable;
  unstable.kind = KernelTscEventKind::unstable;
  unstable.reason = "check_tsc_sync_source failed";
  unstable.lines = {"[0.512360] tsc: Marking TSC unstable due to check_tsc_sync_source failed"};
  log.tsc_events.add(unstable);
  log.tsc_events.left_out = 1;
  CHECK(lines_labelled(test::unwrapped(info_text(r)), "kernel tsc log") ==
        std::vector<std::string>{
            "kernel tsc log      the kernel measured 1234 cycles of TSC warp between CPU 0 and CPU 1 when it brought "
            "CPU 1 up, and turned the TSC clocksource off: \"[0.512345] TSC synchronization [CPU#0 -> CPU#1]:\" "
            "\"[0.512350] Measured 1234 cycles TSC warp between CPUs, turning off TSC clock.\"",
            "kernel tsc log      the kernel marked the TSC unstable (check_tsc_sync_source failed): \"[0.512360] tsc: "
            "Marking TSC unstable due to check_tsc_sync_source failed\"",
            "kernel tsc log      1 more TSC line left out"});
  const nlohmann::ordered_json j = info_json(r)["kernel_facts"]["log"];
  CHECK(j["tsc_events_left_out"] == 1);
  REQUIRE(j["tsc_events"].size() == 2);
  CHECK(j["tsc_events"][0].dump() ==
        R"j({"kind":"warp","cpu":0,"other_cpu":1,"cpus":"","value":1234,"value2":null,"reason":null,)j"
        R"j("timestamp_s":0.51235,"lines":["[0.512345] TSC synchronization [CPU#0 -> CPU#1]:",)j"
        R"j("[0.512350] Measured 1234 cycles TSC warp between CPUs, turning off TSC clock."],)j"
        R"j("text":"the kernel measured 1234 cycles of TSC warp between CPU 0 and CPU 1 when it brought CPU 1 up, )j"
        R"j(and turned the TSC clocksource off"})j");
  CHECK(j["tsc_events"][1]["kind"] == "unstable");
  // An unreadable log: info says so where the events would be, and why on the line before.
  r.platform.kernel_facts.log = Fact<KernelLogFacts>::fail(FactState::unreadable, "klogctl: Operation not permitted");
  const std::string text = test::unwrapped(info_text(r));
  CHECK(lines_labelled(text, "tsc unstable") ==
        std::vector<std::string>{"tsc unstable        unknown: the kernel log is unreadable (klogctl: Operation not "
                                 "permitted)"});
  CHECK(lines_labelled(text, "kernel tsc log") ==
        std::vector<std::string>{"kernel tsc log      unknown (the kernel log is unreadable)"});
}
