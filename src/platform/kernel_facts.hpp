// What the kernel says about the TSC and about the CPUs a measurement runs on, read from
// /proc and /sys into plain structs. One concern: reading and parsing those files.
//
// Every parser is pure: it takes the text of a file (and the path, for messages) and
// never throws. Every reader takes a root directory prefix (default "/") so tests point
// it at fixture trees that mirror the real paths (ROOT/proc/cpuinfo, ROOT/sys/...).
// A file that does not exist is `absent`; one that exists but cannot be read is
// `unreadable`; one whose content makes no sense is `malformed`, with a reason that
// names the file. The kernel log comes from klogctl, not from a file.
//
// kernel_facts.cpp reads and parses the files of /proc and /sys; kernel_log.cpp reads the
// kernel log and parses it, with the lines of each architecture's code in
// x86_64_kernel_log.cpp and aarch64_kernel_log.cpp (kernel_log_lines.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/kernel_tsc.hpp"
#include "core/lines.hpp"  // trim, with kBlanks below

namespace tscaudit {

enum class FactState { ok, absent, unreadable, malformed };

/// One fact from one file (or one source): its value when it could be read and parsed,
/// otherwise why not.
template <class T>
struct Fact {
  FactState state = FactState::absent;
  T value{};           // meaningful only when ok()
  std::string reason;  // absent: "no PATH"; unreadable: "PATH: strerror";
                       // malformed: "PATH: what is wrong"; empty when ok

  [[nodiscard]] bool ok() const { return state == FactState::ok; }
  static Fact good(T v) { return {FactState::ok, std::move(v), {}}; }
  static Fact fail(FactState s, std::string why) { return {s, T{}, std::move(why)}; }
};

// --- /proc/cpuinfo ---------------------------------------------------------------------

/// The TSC-related flags the kernel shows in /proc/cpuinfo (its view after quirks and
/// hypervisor hints, which may differ from raw CPUID), of the first processor listed.
struct CpuinfoTscFlags {
  bool constant_tsc = false;        // rate does not change with P-states
  bool nonstop_tsc = false;         // keeps counting in deep C-states
  bool tsc_known_freq = false;      // frequency from CPUID or the hypervisor, not calibrated
  bool tsc_reliable = false;        // the kernel skips its watchdog check of the TSC
  bool tsc_adjust = false;          // IA32_TSC_ADJUST MSR present
  bool tsc_deadline_timer = false;  // the local APIC timer runs off the TSC
  bool rdtscp = false;
  int processors = 0;                    // "processor" entries seen
  std::vector<std::string> disagreeing;  // TSC flags not the same on every processor
};

/// The seven flag names above, in that order, with their values.
std::vector<std::pair<std::string_view, bool>> tsc_flag_list(const CpuinfoTscFlags& flags);

/// Parses /proc/cpuinfo text. Malformed when no "processor" line is found or a processor
/// has no "flags" line (a file cut short).
Fact<CpuinfoTscFlags> parse_cpuinfo_tsc_flags(std::string_view text, const std::string& path);

// --- /proc/cmdline ---------------------------------------------------------------------

/// The boot parameters that matter to a TSC measurement; each is nullopt when absent from
/// the command line, its value (possibly "") when present. The last occurrence wins, as in
/// the kernel; '-' and '_' are the same in names; words after "--" go to init and are
/// ignored.
struct BootParams {
  std::optional<std::string> isolcpus;               // CPUs taken from the scheduler
  std::optional<std::string> nohz_full;              // CPUs without the periodic tick
  std::optional<std::string> rcu_nocbs;              // CPUs without RCU callbacks
  std::optional<std::string> tsc;                    // tsc=reliable|noirqtime|unstable|nowatchdog|...
  std::optional<std::string> clocksource;            // forced clocksource
  std::optional<std::string> idle;                   // idle=poll|halt|nomwait
  std::optional<std::string> processor_max_cstate;   // processor.max_cstate (ACPI idle)
  std::optional<std::string> intel_idle_max_cstate;  // intel_idle.max_cstate
};

/// (name as written in the kernel's docs, value) of the parameters present, in the order
/// of the struct.
std::vector<std::pair<std::string, std::string>> boot_param_list(const BootParams& params);

/// Parses /proc/cmdline text. Malformed only on an unbalanced double quote.
Fact<BootParams> parse_cmdline(std::string_view text, const std::string& path);

// --- small sysfs files -------------------------------------------------------------------

/// A CPU list file (isolated, nohz_full, thread_siblings_list): taskset syntax, parsed
/// with parse_cpu_list. Empty content and "(null)" (printed by some kernels for an empty
/// mask) give an empty list.
Fact<std::vector<int>> parse_cpu_list_file(std::string_view text, const std::string& path);

/// One word of [A-Za-z0-9_.-] (a clocksource, governor, cpuidle driver, SMT control).
Fact<std::string> parse_word(std::string_view text, const std::string& path);

/// Words separated by blanks (available_clocksource).
Fact<std::vector<std::string>> parse_words(std::string_view text, const std::string& path);

/// The first line, trimmed, non-empty, printable ASCII (a cpuidle state name: "C1E",
/// "haltpoll idle").
Fact<std::string> parse_line(std::string_view text, const std::string& path);

/// An unsigned decimal number (a cpuidle exit latency in us).
Fact<std::uint64_t> parse_unsigned(std::string_view text, const std::string& path);

/// "0" or "1" (cpuidle stateK/disable, smt/active).
Fact<bool> parse_bool01(std::string_view text, const std::string& path);

/// MemAvailable of /proc/meminfo in bytes: what the kernel estimates can be allocated
/// without swapping, page cache that can be dropped included ("MemAvailable: 1234 kB").
Fact<std::uint64_t> parse_mem_available(std::string_view meminfo, const std::string& path);

/// parse_mem_available of ROOT/proc/meminfo.
Fact<std::uint64_t> read_mem_available(const std::string& root = "/");

// --- the kernel log ----------------------------------------------------------------------

/// What the kernel log says about the TSC.
struct KernelLogFacts {
  std::size_t lines = 0;
  bool tsc_marked_unstable = false;  // "Marking TSC unstable", "Marking clocksource 'tsc' as
                                     // unstable", "TSC found unstable after boot", "TSC warp ...
                                     // turning off TSC clock"
  std::string unstable_line;         // the first such line
  std::optional<double> tsc_mhz;     // the kernel's TSC frequency, MHz: "Refined TSC clocksource
                                     // calibration: X MHz" over "tsc: Detected X MHz TSC" over
                                     // "tsc: Detected X MHz processor" (printed to 1 kHz)
  std::string tsc_mhz_line;
  std::optional<std::string> last_clocksource_switch;  // "clocksource: Switched to clocksource X"
  bool starts_at_boot = false;                         // the first line is from boot (timestamp 0, or "Linux
                                                       // version"): nothing has wrapped out of the buffer, so a
                                                       // message not seen was never printed
  std::optional<double> first_timestamp_s;             // the first line's [seconds.micros], when stamped
  // aarch64: what Linux's arch_timer driver printed.
  std::optional<double> arch_timer_mhz;          // "arch_timer: cp15 timer(s) running at 25.00MHz (phys)."
  std::string arch_timer_line;                   // that line
  std::vector<std::string> timer_workarounds;    // DESC of "arch_timer: Enabling local|global workaround for
                                                 // DESC" ("ARM erratum 858921"), in order, each once
  std::vector<int> cntvct_trapped_cpus;          // N of "arch_timer: CPUN: Trapping CNTVCT access": Linux
                                                 // traps and emulates user-space reads there; sorted, each once
  // x86-64: the kernel's verdicts on the TSCs' synchronization and what it did to TSC_ADJUST
  // (core/kernel_tsc.hpp), in the log's order, bounded.
  KernelTscLog tsc_events;
};

/// Parses kernel log text: klogctl's raw "<6>[    0.000065] tsc: ..." lines or dmesg's
/// "[    0.000065] tsc: ..." lines, or lines without a timestamp; the TSC's lines (its
/// frequency, its verdicts, TSC_ADJUST) and the arch_timer driver's. Any text is valid.
KernelLogFacts parse_kernel_log(std::string_view text);

/// The kernel log via klogctl(SYSLOG_ACTION_READ_ALL) (not consuming it). Unreadable with
/// a reason when not permitted (EPERM: needs CAP_SYSLOG, or kernel.dmesg_restrict=0).
Fact<std::string> read_kernel_log();

// --- everything from /proc and /sys ------------------------------------------------------

/// One cpuidle state of one CPU (ROOT/sys/devices/system/cpu/cpuN/cpuidle/stateK).
struct IdleState {
  int index = 0;                   // K
  Fact<std::string> name;          // "POLL", "C1", "C6"
  Fact<std::uint64_t> latency_us;  // exit latency, microseconds
  Fact<bool> disabled;             // disabled by the user or at boot
};

struct CpuKernelFacts {
  int cpu = 0;
  Fact<std::string> governor;                // cpufreq scaling_governor; absent: no cpufreq
  Fact<std::vector<int>> thread_siblings;    // topology/thread_siblings_list, includes cpu
  Fact<std::vector<IdleState>> idle_states;  // absent: no cpuN/cpuidle directory
};

struct KernelFacts {
  Fact<CpuinfoTscFlags> cpuinfo;                          // /proc/cpuinfo
  Fact<BootParams> cmdline;                               // /proc/cmdline
  Fact<std::string> clocksource;                          // current_clocksource
  Fact<std::vector<std::string>> clocksources_available;  // available_clocksource
  Fact<std::vector<int>> isolated;                        // /sys/devices/system/cpu/isolated
  Fact<std::vector<int>> nohz_full;                       // /sys/devices/system/cpu/nohz_full
  Fact<std::string> cpuidle_driver;                       // cpuidle/current_driver
  Fact<std::string> smt_control;                          // smt/control: on, off, notsupported, ...
  Fact<bool> smt_active;                                  // smt/active
  std::vector<CpuKernelFacts> cpus;                       // each cpuN directory, by number
  std::string cpus_reason;                                // why cpus is empty, if it is
  Fact<KernelLogFacts> log;                               // not read by read_kernel_facts: see read_kernel_log
};

/// Reads every file above under `root` ("/" for this machine). Never throws.
/// Reads about 3 + 3 * (idle states) files per CPU.
KernelFacts read_kernel_facts(const std::string& root = "/");

/// Reads one small text file (at most `max_bytes`) as a fact: absent on ENOENT/ENOTDIR,
/// unreadable with strerror otherwise, malformed when larger than max_bytes.
Fact<std::string> read_text_file(const std::string& path, std::size_t max_bytes = 1u << 20);

// --- shared by the readers of /proc, /sys and the kernel log (and the architectures' fact files) ---

/// The blanks of /proc and /sys text: space, tab, CR, LF (what trim takes off their values).
inline constexpr std::string_view kBlanks = " \t\r\n";
/// The text as it appears in a message: quoted, at most 40 characters, control and
/// non-ASCII bytes as \xNN.
std::string quote_for_message(std::string_view s);
/// ROOT/rel, for a root directory given with or without its trailing '/'.
std::string root_path(const std::string& root, std::string_view rel);
/// Numbers N of the entries PREFIXN in `dir`, sorted; nullopt when the directory cannot be
/// listed.
std::optional<std::vector<int>> numbered_entries(const std::string& dir, std::string_view prefix);

}  // namespace tscaudit
