// The /proc and /sys parsers against recorded and broken fixture trees
// (tests/data/platform/<scenario>/ mirrors the real paths), and the kernel-log parser
// against log texts. Exact values everywhere.
#include <catch2/catch.hpp>

#include <cerrno>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "platform/kernel_facts.hpp"
#include "platform/memory_guard.hpp"
#include "platform/msr.hpp"

using namespace tscaudit;

namespace {

std::string root_of(const std::string& scenario) { return TSCAUDIT_TEST_DATA "/platform/" + scenario; }

std::string read_fixture(const std::string& rel) {
  std::ifstream in(TSCAUDIT_TEST_DATA "/platform/" + rel, std::ios::binary);
  REQUIRE(in);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The seven TSC flags as one line, "!" before each one not set, so that a mismatch shows
/// which flag differs; then the processor count.
std::string flags_line(const CpuinfoTscFlags& f) {
  std::string out;
  for (const auto& [name, set] : tsc_flag_list(f)) out += (set ? "" : "!") + std::string(name) + " ";
  return out + "processors=" + std::to_string(f.processors);
}

template <class T>
void check_fails(const Fact<T>& f, FactState state, const std::string& reason) {
  CHECK(f.state == state);
  CHECK(f.reason == reason);
}

/// The facts of the fixture tree SCENARIO, whose cpuinfo must be read, give `flags` (as
/// flags_line writes them), and show no flag the processors disagree on.
KernelFacts read_scenario(const std::string& scenario, const std::string& flags) {
  KernelFacts k = read_kernel_facts(root_of(scenario));
  REQUIRE(k.cpuinfo.ok());
  CHECK(flags_line(k.cpuinfo.value) == flags);
  CHECK(k.cpuinfo.value.disagreeing.empty());
  return k;
}

/// One TSC event of the kernel log in one line, every field, so that a mismatch shows
/// which: "warp cpu=0 other=5 cpus= value=1482 value2=- reason= t=0.51235 lines=[A|B]".
std::string event_line(const KernelTscEvent& e) {
  auto number = [](const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : std::string("-"); };
  std::string cpus;
  for (int c : e.cpus) cpus += (cpus.empty() ? "" : ",") + std::to_string(c);
  std::string lines;
  for (const std::string& l : e.lines) lines += (lines.empty() ? "" : "|") + l;
  std::ostringstream t;
  if (e.timestamp_s) t << std::setprecision(12) << *e.timestamp_s;
  return std::string(kernel_tsc_kind_name(e.kind)) + " cpu=" + std::to_string(e.cpu) +
         " other=" + std::to_string(e.other_cpu) + " cpus=" + cpus + " value=" + number(e.value) +
         " value2=" + number(e.value2) + " reason=" + e.reason + " t=" + (e.timestamp_s ? t.str() : "-") +
         " lines=[" + lines + "]";
}

std::vector<std::string> event_lines(const KernelLogFacts& l) {
  std::vector<std::string> out;
  for (const KernelTscEvent& e : l.tsc_events.events) out.push_back(event_line(e));
  return out;
}

}  // namespace

TEST_CASE("this machine's recorded files: a 2-vCPU KVM guest on an Intel Xeon") {
  const std::string sys = root_of("kvm_intel_2cpu") + "/sys/devices/system/";
  const KernelFacts k = read_scenario(
      "kvm_intel_2cpu",
      "constant_tsc nonstop_tsc tsc_known_freq !tsc_reliable tsc_adjust tsc_deadline_timer rdtscp processors=2");

  // Nothing relevant before the "--"; what follows it goes to init.
  REQUIRE(k.cmdline.ok());
  CHECK(boot_param_list(k.cmdline.value).empty());

  REQUIRE(k.clocksource.ok());
  CHECK(k.clocksource.value == "tsc");
  REQUIRE(k.clocksources_available.ok());
  CHECK(k.clocksources_available.value == std::vector<std::string>{"tsc", "kvm-clock"});
  REQUIRE(k.isolated.ok());
  CHECK(k.isolated.value.empty());                                             // the file holds just "\n"
  check_fails(k.nohz_full, FactState::absent, "no " + sys + "cpu/nohz_full");  // kernel without NO_HZ_FULL
  REQUIRE(k.cpuidle_driver.ok());
  CHECK(k.cpuidle_driver.value == "haltpoll");
  REQUIRE(k.smt_control.ok());
  CHECK(k.smt_control.value == "notsupported");
  REQUIRE(k.smt_active.ok());
  CHECK_FALSE(k.smt_active.value);

  REQUIRE(k.cpus.size() == 2);
  for (int cpu = 0; cpu < 2; ++cpu) {
    const CpuKernelFacts& c = k.cpus[static_cast<std::size_t>(cpu)];
    CHECK(c.cpu == cpu);
    check_fails(c.governor, FactState::absent,
                "no " + sys + "cpu/cpu" + std::to_string(cpu) + "/cpufreq/scaling_governor");
    REQUIRE(c.thread_siblings.ok());
    CHECK(c.thread_siblings.value == std::vector<int>{cpu});
    REQUIRE(c.idle_states.ok());
    REQUIRE(c.idle_states.value.size() == 2);
    const IdleState& poll = c.idle_states.value[0];
    const IdleState& halt = c.idle_states.value[1];
    CHECK(poll.index == 0);
    CHECK(poll.name.value == "POLL");
    CHECK(poll.latency_us.value == 0);
    CHECK(poll.disabled.ok());
    CHECK_FALSE(poll.disabled.value);
    CHECK(halt.index == 1);
    CHECK(halt.name.value == "haltpoll idle");
    CHECK(halt.latency_us.value == 1);
    CHECK_FALSE(halt.disabled.value);
  }
  CHECK(k.cpus_reason.empty());
  CHECK(k.log.state == FactState::absent);  // not read by read_kernel_facts
}

TEST_CASE("a bare-metal Intel with powersave, deep C-states, isolated CPUs and SMT") {
  const KernelFacts k = read_scenario(
      "bare_metal_intel_smt",
      "constant_tsc nonstop_tsc !tsc_known_freq !tsc_reliable tsc_adjust tsc_deadline_timer rdtscp processors=4");

  REQUIRE(k.cmdline.ok());
  const BootParams& b = k.cmdline.value;
  CHECK(b.isolcpus == "2,3");
  CHECK(b.nohz_full == "2,3");
  CHECK(b.rcu_nocbs == "2,3");  // written rcu-nocbs: '-' and '_' are the same
  CHECK(b.intel_idle_max_cstate == "6");
  CHECK_FALSE(b.tsc);
  CHECK_FALSE(b.clocksource);
  CHECK_FALSE(b.idle);
  CHECK_FALSE(b.processor_max_cstate);
  CHECK(boot_param_list(b) ==
        std::vector<std::pair<std::string, std::string>>{
            {"isolcpus", "2,3"}, {"nohz_full", "2,3"}, {"rcu_nocbs", "2,3"}, {"intel_idle.max_cstate", "6"}});

  CHECK(k.clocksource.value == "tsc");
  CHECK(k.clocksources_available.value == std::vector<std::string>{"tsc", "hpet", "acpi_pm"});
  CHECK(k.isolated.value == std::vector<int>{2, 3});
  CHECK(k.nohz_full.value == std::vector<int>{2, 3});
  CHECK(k.cpuidle_driver.value == "intel_idle");
  CHECK(k.smt_control.value == "on");
  REQUIRE(k.smt_active.ok());
  CHECK(k.smt_active.value);

  REQUIRE(k.cpus.size() == 4);
  const std::vector<std::vector<int>> siblings = {{0, 2}, {1, 3}, {0, 2}, {1, 3}};
  for (std::size_t i = 0; i < 4; ++i) {
    const CpuKernelFacts& c = k.cpus[i];
    CHECK(c.cpu == static_cast<int>(i));
    REQUIRE(c.governor.ok());
    CHECK(c.governor.value == "powersave");
    CHECK(c.thread_siblings.value == siblings[i]);
    REQUIRE(c.idle_states.ok());
    REQUIRE(c.idle_states.value.size() == 4);
    std::vector<std::string> names;
    std::vector<std::uint64_t> latencies;
    std::vector<bool> disabled;
    for (const IdleState& s : c.idle_states.value) {
      names.push_back(s.name.value);
      latencies.push_back(s.latency_us.value);
      disabled.push_back(s.disabled.value);
    }
    CHECK(names == std::vector<std::string>{"POLL", "C1", "C1E", "C6"});
    CHECK(latencies == std::vector<std::uint64_t>{0, 2, 10, 133});
    CHECK(disabled == std::vector<bool>{false, false, false, i == 3});  // C6 off on CPU 3 only
  }
}

TEST_CASE("missing files are absent, each with its path") {
  const std::string root = root_of("missing");
  const std::string sys = root + "/sys/devices/system/";
  const KernelFacts k = read_kernel_facts(root);
  check_fails(k.cpuinfo, FactState::absent, "no " + root + "/proc/cpuinfo");
  check_fails(k.cmdline, FactState::absent, "no " + root + "/proc/cmdline");
  check_fails(k.clocksource, FactState::absent, "no " + sys + "clocksource/clocksource0/current_clocksource");
  check_fails(k.clocksources_available, FactState::absent,
              "no " + sys + "clocksource/clocksource0/available_clocksource");
  check_fails(k.isolated, FactState::absent, "no " + sys + "cpu/isolated");
  check_fails(k.nohz_full, FactState::absent, "no " + sys + "cpu/nohz_full");
  check_fails(k.cpuidle_driver, FactState::absent, "no " + sys + "cpu/cpuidle/current_driver");
  check_fails(k.smt_control, FactState::absent, "no " + sys + "cpu/smt/control");
  check_fails(k.smt_active, FactState::absent, "no " + sys + "cpu/smt/active");
  CHECK(k.cpus.empty());
  CHECK(k.cpus_reason == "cannot list " + sys + "cpu/");
}

TEST_CASE("empty files: an empty CPU list or command line is valid, an empty word or number is not") {
  const std::string root = root_of("empty");
  const std::string sys = root + "/sys/devices/system/";
  const KernelFacts k = read_kernel_facts(root);
  check_fails(k.cpuinfo, FactState::malformed, root + "/proc/cpuinfo: no 'processor' line");
  REQUIRE(k.cmdline.ok());
  CHECK(boot_param_list(k.cmdline.value).empty());
  check_fails(k.clocksource, FactState::malformed, sys + "clocksource/clocksource0/current_clocksource: empty");
  check_fails(k.clocksources_available, FactState::malformed,
              sys + "clocksource/clocksource0/available_clocksource: empty");
  REQUIRE(k.isolated.ok());
  CHECK(k.isolated.value.empty());
  REQUIRE(k.nohz_full.ok());
  CHECK(k.nohz_full.value.empty());
  check_fails(k.cpuidle_driver, FactState::malformed, sys + "cpu/cpuidle/current_driver: empty");
  check_fails(k.smt_control, FactState::malformed, sys + "cpu/smt/control: empty");
  check_fails(k.smt_active, FactState::malformed, sys + "cpu/smt/active: '' is not 0 or 1");
  REQUIRE(k.cpus.size() == 1);
  const CpuKernelFacts& c = k.cpus[0];
  check_fails(c.governor, FactState::malformed, sys + "cpu/cpu0/cpufreq/scaling_governor: empty");
  REQUIRE(c.thread_siblings.ok());
  CHECK(c.thread_siblings.value.empty());
  REQUIRE(c.idle_states.ok());
  REQUIRE(c.idle_states.value.size() == 1);
  const IdleState& s = c.idle_states.value[0];
  const std::string state = sys + "cpu/cpu0/cpuidle/state0/";
  check_fails(s.name, FactState::malformed, state + "name: empty");
  check_fails(s.latency_us, FactState::malformed, state + "latency: '' is not an unsigned decimal number");
  check_fails(s.disabled, FactState::malformed, state + "disable: '' is not 0 or 1");
}

TEST_CASE("malformed files give a reason naming the file and quoting the content") {
  const std::string root = root_of("malformed");
  const std::string sys = root + "/sys/devices/system/";
  const KernelFacts k = read_kernel_facts(root);
  check_fails(k.cpuinfo, FactState::malformed, root + "/proc/cpuinfo: processor 0 has no 'flags' line (cut short?)");
  check_fails(k.cmdline, FactState::malformed, root + "/proc/cmdline: unbalanced double quote");
  check_fails(k.clocksource, FactState::malformed,
              sys +
                  "clocksource/clocksource0/current_clocksource: 'tsc hpet' is not one word of letters, digits, "
                  "'_', '.' and '-'");
  check_fails(k.clocksources_available, FactState::malformed,
              sys +
                  "clocksource/clocksource0/available_clocksource: 'acpi/pm' is not a word of letters, digits, "
                  "'_', '.' and '-'");
  check_fails(k.isolated, FactState::malformed,
              sys + "cpu/isolated: bad CPU list '2-x' at character 3: expected a CPU number");
  check_fails(k.nohz_full, FactState::malformed,
              sys + "cpu/nohz_full: bad CPU list '3-1' at character 3: range end below its start");
  check_fails(k.cpuidle_driver, FactState::malformed,
              sys +
                  "cpu/cpuidle/current_driver: 'intel_idle\\x00' is not one word of letters, digits, '_', '.' "
                  "and '-'");
  CHECK(k.smt_control.value == "on");
  check_fails(k.smt_active, FactState::malformed, sys + "cpu/smt/active: '2' is not 0 or 1");

  REQUIRE(k.cpus.size() == 3);
  const std::string cpu0 = sys + "cpu/cpu0/";
  const CpuKernelFacts& c0 = k.cpus[0];
  check_fails(c0.governor, FactState::malformed,
              cpu0 +
                  "cpufreq/scaling_governor: 'perf\\x07ormance!' is not one word of letters, digits, '_', '.' "
                  "and '-'");
  check_fails(c0.thread_siblings, FactState::malformed,
              cpu0 + "topology/thread_siblings_list: bad CPU list '0;1' at character 2: expected ',' or '-'");
  REQUIRE(c0.idle_states.ok());
  REQUIRE(c0.idle_states.value.size() == 2);
  const IdleState& s0 = c0.idle_states.value[0];
  CHECK(s0.name.value == "POLL");
  check_fails(s0.latency_us, FactState::malformed,
              cpu0 + "cpuidle/state0/latency: 'abc' is not an unsigned decimal number");
  REQUIRE(s0.disabled.ok());
  CHECK_FALSE(s0.disabled.value);
  const IdleState& s1 = c0.idle_states.value[1];
  CHECK(s1.name.value == "C1");
  check_fails(s1.latency_us, FactState::malformed,
              cpu0 + "cpuidle/state1/latency: '-5' is not an unsigned decimal number");
  check_fails(s1.disabled, FactState::malformed, cpu0 + "cpuidle/state1/disable: 'yes' is not 0 or 1");

  const CpuKernelFacts& c1 = k.cpus[1];
  check_fails(c1.governor, FactState::absent, "no " + sys + "cpu/cpu1/cpufreq/scaling_governor");
  CHECK(c1.thread_siblings.value == std::vector<int>{1});
  check_fails(c1.idle_states, FactState::absent, "no " + sys + "cpu/cpu1/cpuidle");

  const CpuKernelFacts& c2 = k.cpus[2];
  check_fails(c2.thread_siblings, FactState::absent, "no " + sys + "cpu/cpu2/topology/thread_siblings_list");
  REQUIRE(c2.idle_states.ok());
  REQUIRE(c2.idle_states.value.size() == 1);
  const std::string s = sys + "cpu/cpu2/cpuidle/state0/";
  check_fails(c2.idle_states.value[0].name, FactState::absent, "no " + s + "name");
  check_fails(c2.idle_states.value[0].latency_us, FactState::malformed,
              s + "latency: '18446744073709551616' is not an unsigned decimal number");
  check_fails(c2.idle_states.value[0].disabled, FactState::absent, "no " + s + "disable");
}

TEST_CASE("cpuinfo: the first processor's flags, and the flags processors disagree on") {
  const std::string text =
      "processor\t: 0\nflags\t\t: fpu tsc rdtscp constant_tsc nonstop_tsc tsc_reliable\n\n"
      "processor\t: 1\nflags\t\t: fpu tsc constant_tsc nonstop_tsc tsc_adjust\n\n";
  const auto f = parse_cpuinfo_tsc_flags(text, "cpuinfo");
  REQUIRE(f.ok());
  CHECK(f.value.rdtscp);
  CHECK(f.value.tsc_reliable);
  CHECK_FALSE(f.value.tsc_adjust);
  CHECK(f.value.processors == 2);
  CHECK(f.value.disagreeing == std::vector<std::string>{"tsc_reliable", "tsc_adjust", "rdtscp"});

  // flag names are whole words: "tsc" does not make "tsc_reliable" and vice versa
  const auto g = parse_cpuinfo_tsc_flags("processor : 0\nflags : tsc_reliablex constant_tsc_\n", "x");
  REQUIRE(g.ok());
  CHECK_FALSE(g.value.tsc_reliable);
  CHECK_FALSE(g.value.constant_tsc);

  CHECK(parse_cpuinfo_tsc_flags("flags : tsc\nprocessor : 0\n", "c").reason ==
        "c: a 'flags' line before any 'processor' line");
  CHECK(parse_cpuinfo_tsc_flags("processor : 0\nflags : tsc\n\nprocessor : 1\nvendor", "c").reason ==
        "c: processor 1 has no 'flags' line (cut short?)");
  // The recorded file of this machine parses the same when read as text.
  const auto real = parse_cpuinfo_tsc_flags(read_fixture("kvm_intel_2cpu/proc/cpuinfo"), "p");
  REQUIRE(real.ok());
  CHECK(real.value.processors == 2);
}

TEST_CASE("the command line: quotes, last one wins, '-' is '_', init's words ignored") {
  auto parse = [](std::string_view text) { return parse_cmdline(text, "cmdline"); };
  const auto a = parse(
      "ro isolcpus=1 isolcpus=domain,managed_irq,2-3 tsc=reliable clocksource=hpet idle=poll "
      "processor.max_cstate=1 rcu_nocbs=2-3 nohz-full=2-3\n");
  REQUIRE(a.ok());
  CHECK(a.value.isolcpus == "domain,managed_irq,2-3");
  CHECK(a.value.tsc == "reliable");
  CHECK(a.value.clocksource == "hpet");
  CHECK(a.value.idle == "poll");
  CHECK(a.value.processor_max_cstate == "1");
  CHECK(a.value.rcu_nocbs == "2-3");
  CHECK(a.value.nohz_full == "2-3");
  CHECK_FALSE(a.value.intel_idle_max_cstate);

  const auto b = parse("root=/dev/sda1 \"isolcpus=4-7\" dyndbg=\"file tsc.c +p\" -- isolcpus=9 tsc=unstable");
  REQUIRE(b.ok());
  CHECK(b.value.isolcpus == "4-7");
  CHECK_FALSE(b.value.tsc);             // after "--": init's
  CHECK(parse("tsc").value.tsc == "");  // present without a value
  CHECK(parse("").ok());
  CHECK(parse("a=\"b").reason == "cmdline: unbalanced double quote");
}

TEST_CASE("small-file parsers") {
  CHECK(parse_cpu_list_file("(null)\n", "f").value.empty());
  CHECK(parse_cpu_list_file(" \n", "f").value.empty());
  CHECK(parse_cpu_list_file("0-3,8\n", "f").value == std::vector<int>{0, 1, 2, 3, 8});
  CHECK(parse_cpu_list_file("0-3,\n", "f").reason == "f: bad CPU list '0-3,' at character 5: expected a CPU number");
  CHECK(parse_word(" performance\n", "g").value == "performance");
  CHECK(parse_word("kvm-clock", "g").value == "kvm-clock");
  CHECK(parse_word("\n", "g").reason == "g: empty");
  CHECK(parse_words("tsc  hpet\tacpi_pm\n", "a").value == std::vector<std::string>{"tsc", "hpet", "acpi_pm"});
  CHECK(parse_line("haltpoll idle\nsecond line\n", "n").value == "haltpoll idle");
  CHECK(parse_line("C\x01\n", "n").reason == "n: 'C\\x01' is not printable text");
  CHECK(parse_unsigned("133\n", "l").value == 133);
  CHECK(parse_unsigned("18446744073709551615", "l").value == 18446744073709551615ull);
  CHECK(parse_unsigned("1e3", "l").reason == "l: '1e3' is not an unsigned decimal number");
  CHECK(parse_unsigned(std::string(60, '7'), "l").reason ==
        "l: '" + std::string(40, '7') + "...' is not an unsigned decimal number");
  CHECK(parse_bool01("1\n", "d").value);
  CHECK_FALSE(parse_bool01("0", "d").value);
  CHECK(parse_bool01("01", "d").reason == "d: '01' is not 0 or 1");
}

TEST_CASE("read_text_file: absent, unreadable, too large") {
  CHECK(read_text_file(root_of("missing") + "/nope").reason == "no " + root_of("missing") + "/nope");
  CHECK(read_text_file(root_of("missing") + "/README/x").state == FactState::absent);  // ENOTDIR
  const auto dir = read_text_file(root_of("missing"));
  CHECK(dir.state == FactState::unreadable);
  CHECK(dir.reason == root_of("missing") + ": Is a directory");
  const auto big = read_text_file(root_of("missing") + "/README", 10);
  CHECK(big.state == FactState::malformed);
  CHECK(big.reason == root_of("missing") + "/README: larger than 10 bytes");
}

TEST_CASE("kernel log: this machine's boot, recorded with klogctl's level prefixes") {
  const KernelLogFacts l = parse_kernel_log(read_fixture("logs/kvm_intel_boot.log"));
  CHECK(l.lines == 14);
  CHECK_FALSE(l.tsc_marked_unstable);
  CHECK(l.unstable_line.empty());
  REQUIRE(l.tsc_mhz);
  CHECK(*l.tsc_mhz == Approx(2299.998).epsilon(1e-12));
  CHECK(l.tsc_mhz_line == "[0.000065] tsc: Detected 2299.998 MHz processor");
  CHECK(l.last_clocksource_switch == "tsc");
  CHECK(l.starts_at_boot);
  REQUIRE(l.first_timestamp_s);
  CHECK(*l.first_timestamp_s == Approx(0.0).margin(1e-12));
}

TEST_CASE("kernel log: the lines quoted are printable, whatever bytes the log holds") {
  // Invalid UTF-8 and a control byte: quoted into text and JSON, they must not break either.
  const KernelLogFacts l = parse_kernel_log(
      "[    1.000000] tsc: Marking TSC unstable due to \xff\xfe clocksource\x07 watchdog\n"
      "[    0.500000] tsc: Detected 2299.998 MHz TSC \xc3\n");
  CHECK(l.tsc_marked_unstable);
  CHECK(l.unstable_line == "[1.000000] tsc: Marking TSC unstable due to ?? clocksource watchdog");
  CHECK(l.tsc_mhz_line == "[0.500000] tsc: Detected 2299.998 MHz TSC ?");
}

TEST_CASE("kernel log: the watchdog marked the TSC unstable, and the refined figure wins") {
  const KernelLogFacts l = parse_kernel_log(read_fixture("logs/bare_metal_watchdog_unstable.log"));
  CHECK(l.tsc_marked_unstable);
  CHECK(l.unstable_line ==
        "[4711.123456] clocksource: timekeeping watchdog on CPU3: Marking clocksource 'tsc' as unstable because "
        "the skew is too large:");
  REQUIRE(l.tsc_mhz);
  CHECK(*l.tsc_mhz == Approx(2900.002).epsilon(1e-12));
  CHECK(l.tsc_mhz_line == "[2.154000] tsc: Refined TSC clocksource calibration: 2900.002 MHz");
  CHECK(l.last_clocksource_switch == "hpet");
  CHECK(l.starts_at_boot);
}

TEST_CASE("kernel log: TSC warp at boot, and the TSC figure beats the processor figure") {
  const KernelLogFacts l = parse_kernel_log(read_fixture("logs/sync_check_warp.log"));
  CHECK(l.tsc_marked_unstable);
  CHECK(l.unstable_line == "[0.512350] Measured 1482 cycles TSC warp between CPUs, turning off TSC clock.");
  REQUIRE(l.tsc_mhz);
  CHECK(*l.tsc_mhz == Approx(2095.077).epsilon(1e-12));
  CHECK(l.last_clocksource_switch == "hpet");
  // In either order.
  const KernelLogFacts r = parse_kernel_log("tsc: Detected 2095.077 MHz TSC\ntsc: Detected 2100.000 MHz processor\n");
  CHECK(*r.tsc_mhz == Approx(2095.077).epsilon(1e-12));
  CHECK(r.tsc_mhz_line == "tsc: Detected 2095.077 MHz TSC");
  CHECK_FALSE(r.starts_at_boot);  // no timestamps, no "Linux version": unknown, so not from boot
  CHECK_FALSE(r.first_timestamp_s);
  // The warp's two lines are one event, with the CPUs of the first and the cycles of the
  // second; the TSC marked unstable for it is the next.
  CHECK(event_lines(l) ==
        std::vector<std::string>{
            "warp cpu=0 other=5 cpus= value=1482 value2=- reason= t=0.51235 lines=[[0.512345] TSC synchronization "
            "[CPU#0 -> CPU#5]:|[0.512350] Measured 1482 cycles TSC warp between CPUs, turning off TSC clock.]",
            "unstable cpu=-1 other=-1 cpus= value=- value2=- reason=check_tsc_sync_source failed t=0.51236 "
            "lines=[[0.512360] tsc: Marking TSC unstable due to check_tsc_sync_source failed]"});
  CHECK(l.tsc_events.left_out == 0);
  CHECK(r.tsc_events.events.empty());
}

TEST_CASE("kernel log: TSC_ADJUST forced to 0, differing in a socket, compensated, restored (klogctl)") {
  const KernelLogFacts l = parse_kernel_log(read_fixture("logs/tsc_adjust_two_sockets.log"));
  CHECK_FALSE(l.tsc_marked_unstable);
  CHECK(event_lines(l) ==
        std::vector<std::string>{
            "adjust_forced cpu=0 other=-1 cpus= value=-2011 value2=- reason= t=0 "
            "lines=[[0.000000] [Firmware Bug]: TSC ADJUST: CPU0: -2011 force to 0]",
            "adjust_differs cpu=-1 other=-1 cpus= value=- value2=- reason= t=0.431207 "
            "lines=[[0.431207] [Firmware Bug]: TSC ADJUST differs within socket(s), fixing all errors]",
            "adjust_compensated cpu=28 other=-1 cpus= value=1482 value2=1482 reason= t=0.512345 "
            "lines=[[0.512345] TSC ADJUST compensate: CPU28 observed 1482 warp. Adjust: 1482]",
            "adjust_compensated cpu=28 other=-1 cpus= value=-12 value2=1470 reason= t=0.534211 "
            "lines=[[0.534211] TSC ADJUST compensate: CPU28 observed -12 warp. Adjust: 1470]",
            "adjust_restored cpu=3 other=-1 cpus= value=0 value2=4096 reason= t=3600.25 "
            "lines=[[3600.250000] [Firmware Bug]: TSC ADJUST differs: CPU3 0 --> 4096. Restoring]"});
}

TEST_CASE("kernel log: the watchdog marks the TSC unstable and names CPUs ahead and behind (dmesg)") {
  const KernelLogFacts l = parse_kernel_log(read_fixture("logs/watchdog_cpus_ahead.log"));
  CHECK(event_lines(l) ==
        std::vector<std::string>{
            "watchdog_unstable cpu=1 other=-1 cpus= value=- value2=- reason= t=811.004012 "
            "lines=[[811.004012] clocksource: timekeeping watchdog on CPU1: Marking clocksource 'tsc' as unstable "
            "because the skew is too large:]",
            "unstable cpu=-1 other=-1 cpus= value=- value2=- reason=clocksource watchdog t=811.004025 "
            "lines=[[811.004025] tsc: Marking TSC unstable due to clocksource watchdog]",
            "cpus_ahead cpu=1 other=-1 cpus=2,3 value=- value2=- reason= t=811.004101 "
            "lines=[[811.004101] clocksource:         CPUs 2-3 ahead of CPU 1 for clocksource tsc.]",
            "cpus_behind cpu=1 other=-1 cpus=0 value=- value2=- reason= t=811.004102 "
            "lines=[[811.004102] clocksource:         CPUs 0 behind CPU 1 for clocksource tsc.]"});
  REQUIRE(l.tsc_events.events.size() == 4);
  CHECK(l.tsc_events.events[3].cpu == 1);
}

TEST_CASE("kernel log: TSC events on lines without a timestamp, and lines that are not events") {
  const KernelLogFacts l = parse_kernel_log(
      "TSC synchronization [CPU#2 -> CPU#3]: passed\n"        // the debug message of a check that passed
      "Skipped synchronization checks as TSC is reliable.\n"
      "TSC ADJUST: CPU0: 77 NOT forced to 0\n"
      "clocksource:         CPUs 1 ahead of CPU 0 for clocksource hpet.\n"  // not the TSC
      "clocksource: timekeeping watchdog on CPU0: Marking clocksource 'hpet' as unstable because the skew is too "
      "large:\n"
      "clocksource: timekeeping watchdog on CPU4: wd-tsc-wd excessive read-back delay of 1000000ns vs. limit of "
      "125000ns, wd-wd read-back delay only 20ns, attempt 3, marking tsc unstable\n"
      "Measured 99 cycles TSC warp between CPUs, turning off TSC clock.\n"  // its first line lost
      "TSC warped randomly between CPUs\n"
      "TSC found unstable after boot, most likely due to broken BIOS. Use 'tsc=unstable'.\n"
      "TSC synchronization [CPU#0 -> CPU#7]:\n");  // the log ends before the second line
  CHECK(event_lines(l) ==
        std::vector<std::string>{
            "sync_skipped cpu=-1 other=-1 cpus= value=- value2=- reason= t=- "
            "lines=[Skipped synchronization checks as TSC is reliable.]",
            "adjust_not_forced cpu=0 other=-1 cpus= value=77 value2=- reason= t=- "
            "lines=[TSC ADJUST: CPU0: 77 NOT forced to 0]",
            "watchdog_unstable cpu=4 other=-1 cpus= value=- value2=- reason= t=- lines=[clocksource: timekeeping "
            "watchdog on CPU4: wd-tsc-wd excessive read-back delay of 1000000ns vs. limit of 125000ns, wd-wd "
            "read-back delay only 20ns, attempt 3, marking tsc unstable]",
            "warp cpu=-1 other=-1 cpus= value=99 value2=- reason= t=- "
            "lines=[Measured 99 cycles TSC warp between CPUs, turning off TSC clock.]",
            "warp_random cpu=-1 other=-1 cpus= value=- value2=- reason= t=- "
            "lines=[TSC warped randomly between CPUs]",
            "unstable_after_boot cpu=-1 other=-1 cpus= value=- value2=- reason= t=- "
            "lines=[TSC found unstable after boot, most likely due to broken BIOS. Use 'tsc=unstable'.]",
            "warp cpu=0 other=7 cpus= value=- value2=- reason= t=- lines=[TSC synchronization [CPU#0 -> CPU#7]:]"});
}

TEST_CASE("kernel log: TSC messages cut short or garbled are no events") {
  const KernelLogFacts l = parse_kernel_log(
      "CPUs ahead of CPU 1 for clocksource tsc.\n"
      "CPUs x ahead of CPU 1 for clocksource tsc.\n"
      "CPUs 2 ahead of CPU 1 for clocksource\n"
      "CPUs 2 behind CPU -1 for clocksource tsc.\n"
      "TSC synchronization [CPU#\n"
      "TSC synchronization [CPU#0 -> CPU#]:\n"
      "Measured many cycles TSC warp between CPUs, turning off TSC clock.\n"
      "TSC ADJUST: CPU\n"
      "TSC ADJUST: CPU1: 5 forced to 1\n"
      "TSC ADJUST compensate: CPU99999999999999999999 observed 1 warp. Adjust: 1\n"
      "TSC ADJUST compensate: CPU3 observed 1 warp.\n"
      "[Firmware Bug]: TSC ADJUST differs: CPU1 5\n"
      "timekeeping watchdog on CPU2: Marking clocksource 'tsc-fast' as unstable because the skew is too large:\n");
  CHECK(event_lines(l).empty());
  CHECK(l.lines == 13);
}

TEST_CASE("kernel log: a TSC line is quoted printable, its control bytes out and other bytes as '?'") {
  const KernelLogFacts l =
      parse_kernel_log(std::string("<4>[    1.5] \x1b[31mTSC warped randomly between CPUs\x1b[0m\a\r\n") +
                       "<6>[    1.6] tsc: Marking TSC unstable due to \xc3\xa9t\x7f\xe9\n");
  CHECK(event_lines(l) == std::vector<std::string>{
                              "warp_random cpu=-1 other=-1 cpus= value=- value2=- reason= t=1.5 "
                              "lines=[[1.5] [31mTSC warped randomly between CPUs[0m]",
                              "unstable cpu=-1 other=-1 cpus= value=- value2=- reason=??t? t=1.6 "
                              "lines=[[1.6] tsc: Marking TSC unstable due to ??t?]"});
}

TEST_CASE("kernel log: at most 16 TSC events, a verdict kept before a note, the rest counted") {
  std::string log;
  for (int cpu = 1; cpu <= 20; ++cpu) {
    log += "[    0.5] TSC ADJUST compensate: CPU" + std::to_string(cpu) + " observed 30 warp. Adjust: 30\n";
  }
  log += "[    0.6] TSC synchronization [CPU#0 -> CPU#21]:\n[    0.6] Measured 40 cycles TSC warp between CPUs, "
         "turning off TSC clock.\n[    0.6] tsc: Marking TSC unstable due to check_tsc_sync_source failed\n";
  const KernelLogFacts l = parse_kernel_log(log);
  REQUIRE(l.tsc_events.events.size() == KernelTscLog::kMaxEvents);
  CHECK(l.tsc_events.left_out == 6);  // 4 notes past the limit, then the 2 notes the verdicts replaced
  CHECK(l.tsc_events.events[13].cpu == 14);
  CHECK(l.tsc_events.events[14].kind == KernelTscEventKind::warp);
  CHECK(l.tsc_events.events[14].other_cpu == 21);
  CHECK(l.tsc_events.events[15].kind == KernelTscEventKind::unstable);
  // Verdicts past a list of verdicts are counted only.
  KernelTscLog verdicts;
  for (int i = 0; i < 18; ++i) verdicts.add(KernelTscEvent{});
  CHECK(verdicts.events.size() == 16);
  CHECK(verdicts.left_out == 2);
}

TEST_CASE("kernel log: a wrapped log without TSC lines says nothing about the TSC") {
  const KernelLogFacts l = parse_kernel_log(read_fixture("logs/wrapped_no_tsc_lines.log"));
  CHECK(l.lines == 3);
  CHECK_FALSE(l.tsc_marked_unstable);
  CHECK_FALSE(l.tsc_mhz);
  CHECK_FALSE(l.last_clocksource_switch);
  CHECK_FALSE(l.starts_at_boot);
  REQUIRE(l.first_timestamp_s);
  CHECK(*l.first_timestamp_s == Approx(123456.789012).epsilon(1e-12));
}

TEST_CASE("kernel log: every wording of 'unstable'") {
  for (const char* line : {"[ 1.0] tsc: Marking TSC unstable due to clocksource watchdog",
                           "[ 1.0] TSC found unstable after boot, most likely due to broken BIOS. Use 'tsc=unstable'.",
                           "[ 1.0] clocksource: timekeeping watchdog on CPU0: Marking clocksource 'tsc-early' as "
                           "unstable because the skew is too large:"}) {
    INFO(line);
    CHECK(parse_kernel_log(line).tsc_marked_unstable);
  }
  for (const char* line : {"[ 1.0] clocksource: Marking clocksource 'hpet' as unstable",
                           "[ 1.0] TSC deadline timer available", "[ 1.0] tsc: Detected 2299.998 MHz processor"}) {
    INFO(line);
    CHECK_FALSE(parse_kernel_log(line).tsc_marked_unstable);
  }
  CHECK_FALSE(parse_kernel_log("tsc: Detected fast MHz processor").tsc_mhz);
  CHECK(parse_kernel_log("").lines == 0);
}

TEST_CASE("MSR errors in words, with the remedy") {
  CHECK(msr_problem(3, ENOENT, true, true) == "no /dev/cpu/3/msr: msr module not loaded (modprobe msr)");
  CHECK(msr_problem(0, ENOENT, true, false) ==
        "no /dev/cpu/0/msr: no msr driver, and this kernel loads no modules (no /proc/modules)");
  CHECK(msr_problem(1, EACCES, true, true) == "/dev/cpu/1/msr: needs root (CAP_SYS_RAWIO): Permission denied");
  CHECK(msr_problem(1, EPERM, true, true) == "/dev/cpu/1/msr: needs root (CAP_SYS_RAWIO): Operation not permitted");
  CHECK(msr_problem(2, EIO, false, true) == "MSR not readable (EIO: the hypervisor refuses it, or the CPU lacks it)");
  CHECK(msr_problem(2, ENXIO, true, true) == "/dev/cpu/2/msr: CPU 2 is offline");
  CHECK(msr_problem(2, EBADF, false, true) == "/dev/cpu/2/msr: pread: Bad file descriptor");
}

TEST_CASE("MemAvailable from /proc/meminfo, in bytes") {
  const std::string meminfo =
      "MemTotal:        8148812 kB\nMemFree:          512000 kB\nMemAvailable:    6004820 kB\n"
      "Buffers:          100 kB\n";
  const Fact<std::uint64_t> ok = parse_mem_available(meminfo, "/proc/meminfo");
  REQUIRE(ok.ok());
  CHECK(ok.value == std::uint64_t{6004820} * 1024);
  const Fact<std::uint64_t> none = parse_mem_available("MemTotal: 1 kB\n", "/proc/meminfo");
  CHECK(none.state == FactState::malformed);
  CHECK(none.reason == "/proc/meminfo: no MemAvailable line (kernels before 3.14 lack it)");
  const Fact<std::uint64_t> bad = parse_mem_available("MemAvailable: lots kB\n", "/proc/meminfo");
  CHECK(bad.state == FactState::malformed);
  CHECK(bad.reason == "/proc/meminfo: MemAvailable 'lots' is not a number of kB");
  CHECK(parse_mem_available("MemAvailable: 12\n", "m").state == FactState::malformed);
  CHECK(parse_mem_available("MemAvailable: 99999999999999999999 kB\n", "m").state == FactState::malformed);
  CHECK(read_mem_available("/nonexistent-root").state == FactState::absent);
  // This machine's own file: a Linux kernel since 3.14 has the line.
  const Fact<std::uint64_t> here = read_mem_available();
  REQUIRE(here.ok());
  CHECK(here.value > 0);
}

TEST_CASE("the memory guard refuses more than 80 % of what is available, and nothing when it is unknown") {
  CHECK_FALSE(memory_refusal(800, 1000, "the run", "give fewer --rounds"));
  CHECK(memory_refusal(801, 1000, "the run", "give fewer --rounds") ==
        std::optional<std::string>("the run keeps 0.000000801 GB of rounds in memory, more than 80 % of the 0.000001 GB "
                                   "available: give fewer --rounds"));
  CHECK(*memory_refusal(6'400'000'000, 4'000'000'000, "the plan", "give fewer --visits") ==
        "the plan keeps 6.4 GB of rounds in memory, more than 80 % of the 4 GB available: give fewer --visits");
  CHECK_FALSE(memory_refusal(UINT64_MAX, 0, "the run", "x"));  // nothing known: no refusal
  CHECK(available_memory_bytes() > 0);
}
