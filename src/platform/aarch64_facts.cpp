#include "platform/aarch64_facts.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <functional>
#include <utility>

#include "core/cpu_list.hpp"
#include "core/format.hpp"
#include "core/lines.hpp"

namespace tscaudit {
namespace {

struct Implementer {
  unsigned id;
  std::string_view name;
};

/// MIDR_EL1.Implementer codes (Arm ARM, "MIDR_EL1"; Linux arch/arm64/include/asm/cputype.h).
constexpr std::array kImplementers = {
    Implementer{0x00, "software"},  // reserved for software use: an emulator's model (QEMU's max CPU)
    Implementer{0x41, "Arm"},       Implementer{0x42, "Broadcom"}, Implementer{0x43, "Cavium"},
    Implementer{0x46, "Fujitsu"},   Implementer{0x48, "HiSilicon"}, Implementer{0x4e, "NVIDIA"},
    Implementer{0x50, "APM"},       Implementer{0x51, "Qualcomm"},  Implementer{0x61, "Apple"},
    Implementer{0xc0, "Ampere"},
};

struct Part {
  unsigned implementer;
  unsigned part;
  std::string_view name;
};

/// The parts a tscaudit user is likely to meet (Linux's cputype.h has them all).
constexpr std::array kParts = {
    Part{0x00, 0x051, "QEMU max CPU"},  // QEMU's "max" model: implementer 0, part 'Q'
    Part{0x41, 0xd03, "Cortex-A53"},    Part{0x41, 0xd04, "Cortex-A35"},  Part{0x41, 0xd05, "Cortex-A55"},
    Part{0x41, 0xd07, "Cortex-A57"},    Part{0x41, 0xd08, "Cortex-A72"},  Part{0x41, 0xd09, "Cortex-A73"},
    Part{0x41, 0xd0a, "Cortex-A75"},    Part{0x41, 0xd0b, "Cortex-A76"},  Part{0x41, 0xd0c, "Neoverse N1"},
    Part{0x41, 0xd0d, "Cortex-A77"},    Part{0x41, 0xd40, "Neoverse V1"}, Part{0x41, 0xd41, "Cortex-A78"},
    Part{0x41, 0xd44, "Cortex-X1"},     Part{0x41, 0xd46, "Cortex-A510"}, Part{0x41, 0xd47, "Cortex-A710"},
    Part{0x41, 0xd48, "Cortex-X2"},     Part{0x41, 0xd49, "Neoverse N2"}, Part{0x41, 0xd4a, "Neoverse E1"},
    Part{0x41, 0xd4f, "Neoverse V2"},   Part{0x41, 0xd80, "Cortex-A520"}, Part{0x41, 0xd81, "Cortex-A720"},
    Part{0x41, 0xd84, "Neoverse V3"},   Part{0x41, 0xd8e, "Neoverse N3"}, Part{0x43, 0x0af, "ThunderX2"},
    Part{0x46, 0x001, "A64FX"},         Part{0x48, 0xd01, "TSV110 (Kunpeng 920)"},
    Part{0x61, 0x022, "M1 Icestorm"},   Part{0x61, 0x023, "M1 Firestorm"}, Part{0x61, 0x032, "M2 Blizzard"},
    Part{0x61, 0x033, "M2 Avalanche"},  Part{0xc0, 0xac3, "AmpereOne"},
};

constexpr unsigned kArmImplementer = 0x41;
constexpr unsigned kCortexA73 = 0xd09;

std::string hex(std::uint64_t value, int digits) {
  constexpr char kHex[] = "0123456789abcdef";
  std::string s;
  for (int i = digits - 1; i >= 0; --i) s += kHex[(value >> (4 * i)) & 0xf];
  return "0x" + s;
}

/// "0x41", "0xd0c", "8": the numbers of arm64 /proc/cpuinfo, hex with 0x or decimal.
std::optional<std::uint64_t> parse_number(std::string_view text) {
  std::uint64_t v = 0;
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
    base = 16;
  }
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
  if (text.empty() || ec != std::errc{} || ptr != text.data() + text.size()) return std::nullopt;
  return v;
}

Fact<std::vector<CpuMidr>> malformed_midrs(const std::string& path, const std::string& what) {
  return Fact<std::vector<CpuMidr>>::fail(FactState::malformed, path + ": " + what);
}

/// The CPUs of `midrs` with MIDR `m`, in taskset syntax.
std::string cpus_with(const std::vector<CpuMidr>& midrs, const std::function<bool(Midr)>& match) {
  std::vector<int> cpus;
  for (const CpuMidr& c : midrs) {
    if (match(c.midr) && c.cpu >= 0) cpus.push_back(c.cpu);
  }
  return cpus.empty() ? std::string() : format_cpu_list(cpus);
}

/// The counter errata of Linux's arch_timer driver: what identifies each (a core by MIDR,
/// a device-tree property, the description the driver prints when it enables the
/// workaround) and what the counter does wrong (the Kconfig help of each option). Every
/// workaround replaces the user-space read (it has a read_cntvct_el0), so where it is
/// enabled Linux clears CNTKCTL_EL1.EL0VCTEN and emulates each read in a trap handler.
struct KnownErratum {
  std::string_view id;
  std::string_view name;
  std::string_view what;
  unsigned midr_part;      // Arm part whose every revision has it, 0: none
  std::string_view dt;     // the timer node's property, "" when none
  std::string_view log;    // the driver's description ("Enabling ... workaround for DESC")
};

constexpr std::array kErrata = {
    KnownErratum{"arm_858921", "Cortex-A73 erratum 858921",
                 "a read of the counter may return a wrong value when it crosses a 32-bit boundary "
                 "(ARM64_ERRATUM_858921: Linux reads it twice and picks by bit 32)",
                 kCortexA73, "", "ARM erratum 858921"},
    KnownErratum{"hisilicon_161010101", "HiSilicon erratum 161010101",
                 "a read of the counter may return a wrong value (Hip05, Hip06, Hip07; "
                 "HISILICON_ERRATUM_161010101: Linux reads it until two reads are close)",
                 0, "hisilicon,erratum-161010101", "HiSilicon erratum 161010101"},
    KnownErratum{"fsl_a008585", "Freescale (NXP) erratum A-008585",
                 "the counter may return an erroneous value (LS1043A, LS2080A; FSL_ERRATUM_A008585: Linux "
                 "reads it until two reads agree)",
                 0, "fsl,erratum-a008585", "Freescale erratum a005858"},  // sic: the driver's own spelling
    KnownErratum{"allwinner_a64", "Allwinner A64 (sun50i) timer erratum UNKNOWN1",
                 "the low bits of the counter are indeterminate while bit 10 and above roll over "
                 "(SUN50I_ERRATUM_UNKNOWN1: Linux rereads a value whose low bits are all 0 or all 1)",
                 0, "allwinner,erratum-unknown1", "Allwinner erratum UNKNOWN1"},
};

}  // namespace

std::string_view midr_implementer_name(unsigned implementer) {
  for (const Implementer& i : kImplementers) {
    if (i.id == implementer) return i.name;
  }
  return "";
}

std::string_view midr_part_name(unsigned implementer, unsigned part) {
  for (const Part& p : kParts) {
    if (p.implementer == implementer && p.part == part) return p.name;
  }
  return "";
}

std::string describe_midr(Midr m) {
  const std::string_view implementer = midr_implementer_name(m.implementer());
  const std::string_view part = midr_part_name(m.implementer(), m.part());
  std::string s = implementer.empty() ? "implementer " + hex(m.implementer(), 2) : std::string(implementer);
  s += part.empty() ? " part " + hex(m.part(), 3) : " " + std::string(part);
  s += " r" + std::to_string(m.variant()) + "p" + std::to_string(m.revision());
  return s + " (MIDR " + hex(m.value, 8) + ")";
}

Fact<std::vector<CpuMidr>> read_sysfs_midrs(const std::string& root) {
  const std::string sys_cpu = root_path(root, "sys/devices/system/cpu/");
  const auto cpus = numbered_entries(sys_cpu, "cpu");
  const std::string first = sys_cpu + "cpu0/regs/identification/midr_el1";
  if (!cpus || cpus->empty()) return Fact<std::vector<CpuMidr>>::fail(FactState::absent, "no " + first);
  std::vector<CpuMidr> out;
  for (int cpu : *cpus) {
    const std::string path = sys_cpu + "cpu" + std::to_string(cpu) + "/regs/identification/midr_el1";
    const Fact<std::string> text = read_text_file(path);
    if (text.state == FactState::absent) {
      if (out.empty() && cpu == cpus->front()) return Fact<std::vector<CpuMidr>>::fail(FactState::absent, "no " + path);
      continue;  // an offline CPU has no regs/ directory
    }
    if (!text.ok()) return Fact<std::vector<CpuMidr>>::fail(text.state, text.reason);
    const auto value = parse_number(trim(text.value, kBlanks));
    if (!value) return malformed_midrs(path, quote_for_message(trim(text.value, kBlanks)) + " is not a hex number");
    out.push_back({cpu, Midr{*value}});
  }
  return Fact<std::vector<CpuMidr>>::good(std::move(out));
}

Fact<std::vector<CpuMidr>> parse_cpuinfo_midrs(std::string_view text, const std::string& path) {
  struct Fields {
    std::optional<int> cpu;
    std::optional<std::uint64_t> implementer, variant, part, revision;
  };
  std::vector<Fields> cpus;
  std::string problem;
  for_each_line(text, [&](std::string_view line) {
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || !problem.empty()) return;
    const std::string_view key = trim(line.substr(0, colon), kBlanks);
    const std::string_view value = trim(line.substr(colon + 1), kBlanks);
    if (key == "processor") {
      const auto n = parse_number(value);
      if (!n) {
        problem = "processor " + quote_for_message(value) + " is not a number";
        return;
      }
      cpus.push_back({static_cast<int>(*n), {}, {}, {}, {}});
      return;
    }
    std::optional<std::uint64_t> Fields::*field = nullptr;
    if (key == "CPU implementer") field = &Fields::implementer;
    if (key == "CPU variant") field = &Fields::variant;
    if (key == "CPU part") field = &Fields::part;
    if (key == "CPU revision") field = &Fields::revision;
    if (field == nullptr) return;
    const auto n = parse_number(value);
    if (!n) {
      problem = std::string(key) + " " + quote_for_message(value) + " is not a number";
      return;
    }
    if (cpus.empty()) cpus.push_back({});  // fields before any "processor" line
    cpus.back().*field = n;
  });
  if (!problem.empty()) return malformed_midrs(path, problem);
  const bool any = std::any_of(cpus.begin(), cpus.end(), [](const Fields& f) { return f.implementer.has_value(); });
  if (!any) return Fact<std::vector<CpuMidr>>::fail(FactState::absent, path + ": no 'CPU implementer' lines");
  std::vector<CpuMidr> out;
  for (const Fields& f : cpus) {
    if (!f.cpu || !f.implementer || !f.variant || !f.part || !f.revision) {
      return malformed_midrs(path, "processor " + (f.cpu ? std::to_string(*f.cpu) : std::string("?")) +
                                       " lacks one of CPU implementer, variant, part and revision");
    }
    const std::uint64_t midr = (*f.implementer & 0xff) << 24 | (*f.variant & 0xf) << 20 | std::uint64_t{0xf} << 16 |
                               (*f.part & 0xfff) << 4 | (*f.revision & 0xf);
    out.push_back({*f.cpu, Midr{midr}});
  }
  return Fact<std::vector<CpuMidr>>::good(std::move(out));
}

Fact<std::vector<std::string>> read_timer_dt_errata(const std::string& root) {
  namespace fs = std::filesystem;
  const std::string dt = root_path(root, "proc/device-tree");
  std::error_code ec;
  if (!fs::is_directory(dt, ec)) return Fact<std::vector<std::string>>::fail(FactState::absent, "no " + dt);
  std::vector<std::string> found;
  fs::directory_iterator it(dt, ec);
  if (ec) return Fact<std::vector<std::string>>::fail(FactState::unreadable, dt + ": " + ec.message());
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) return Fact<std::vector<std::string>>::fail(FactState::unreadable, dt + ": " + ec.message());
    const std::string node = it->path().filename().string();
    if (node != "timer" && node.rfind("timer@", 0) != 0) continue;
    for (const KnownErratum& e : kErrata) {
      if (e.dt.empty() || !fs::exists(it->path() / std::string(e.dt), ec)) continue;
      if (std::find(found.begin(), found.end(), e.dt) == found.end()) found.emplace_back(e.dt);
    }
  }
  return Fact<std::vector<std::string>>::good(std::move(found));
}

ArmFacts arm_facts(const std::string& root, std::string_view cpuinfo_text, const ArmRegisters& registers) {
  ArmFacts a;
  a.registers = registers;
  const Fact<std::vector<CpuMidr>> sysfs = read_sysfs_midrs(root);
  const std::string cpuinfo_path = root_path(root, "proc/cpuinfo");
  const Fact<std::vector<CpuMidr>> cpuinfo = parse_cpuinfo_midrs(cpuinfo_text, cpuinfo_path);
  if (sysfs.ok() && !sysfs.value.empty()) {
    a.midrs = sysfs.value;
    a.midr_source = root_path(root, "sys/devices/system/cpu/cpuN/regs/identification/midr_el1");
  } else if (cpuinfo.ok() && !cpuinfo.value.empty()) {
    a.midrs = cpuinfo.value;
    a.midr_source = cpuinfo_path + " (" + sysfs.reason + ")";
  } else if (registers.midr) {
    a.midrs = {{-1, *registers.midr}};
    a.midr_source = "mrs midr_el1 on one CPU, which the kernel (or an emulator) answers (" + sysfs.reason + "; " +
                    cpuinfo.reason + ")";
  } else {
    a.midr_source = "unknown: " + sysfs.reason + "; " + cpuinfo.reason +
                    (registers.read ? "; the kernel does not emulate mrs midr_el1 (no HWCAP_CPUID)" : "");
  }
  a.timer_dt_errata = read_timer_dt_errata(root);
  return a;
}

std::vector<CounterErratum> counter_errata(const ArmFacts& arm, const Fact<KernelLogFacts>& log) {
  std::vector<CounterErratum> out;
  for (const KnownErratum& e : kErrata) {
    std::vector<std::string> evidence;
    if (e.midr_part != 0) {
      const std::string cpus = cpus_with(
          arm.midrs, [&](Midr m) { return m.implementer() == kArmImplementer && m.part() == e.midr_part; });
      const bool one_unnumbered = std::any_of(arm.midrs.begin(), arm.midrs.end(), [&](const CpuMidr& c) {
        return c.cpu < 0 && c.midr.implementer() == kArmImplementer && c.midr.part() == e.midr_part;
      });
      if (!cpus.empty()) {
        evidence.push_back("MIDR of CPU" + std::string(cpus.find_first_of(",-") == std::string::npos ? " " : "s ") +
                           cpus + " (" + std::string(midr_part_name(kArmImplementer, e.midr_part)) + ")");
      } else if (one_unnumbered) {
        evidence.push_back("MIDR (" + std::string(midr_part_name(kArmImplementer, e.midr_part)) + ")");
      }
    }
    if (!e.dt.empty() && arm.timer_dt_errata.ok()) {
      const auto& props = arm.timer_dt_errata.value;
      if (std::find(props.begin(), props.end(), e.dt) != props.end()) {
        evidence.push_back("device tree timer property " + std::string(e.dt));
      }
    }
    if (log.ok()) {
      const auto& was = log.value.timer_workarounds;
      if (std::find(was.begin(), was.end(), e.log) != was.end()) {
        evidence.push_back("kernel log \"arch_timer: Enabling ... workaround for " + std::string(e.log) + "\"");
      }
    }
    if (evidence.empty()) continue;
    std::string joined;
    for (const std::string& piece : evidence) joined += (joined.empty() ? "" : "; ") + piece;
    out.push_back({std::string(e.id), std::string(e.name), std::string(e.what), joined});
  }
  return out;
}

TscFrequency choose_arm_frequency(const ArmFacts& arm, const std::optional<Calibration>& calibration) {
  TscFrequency f;
  f.calibration = calibration;
  const std::uint64_t cntfrq = arm.registers.cntfrq_hz;
  const bool calibrated = calibration && calibration->fit.valid;
  if (cntfrq != 0) {
    const double ppm = calibrated ? (calibration->hz() / static_cast<double>(cntfrq) - 1) * 1e6 : 0;
    if (!calibrated || std::fabs(ppm) <= kCntfrqTolerancePpm) {
      f.hz = static_cast<double>(cntfrq);
      f.source = "cntfrq_el0";
      f.why = "CNTFRQ_EL0, the frequency firmware programs for the system counter" +
              (calibrated ? "; the calibration against " + std::string(clock_name(calibration->clock)) + " agrees (" +
                                std::string(ppm >= 0 ? "+" : "") + format_sig(ppm, 3) + " ppm)"
                          : std::string("; not checked (") +
                                (calibration ? "the calibration failed: " + calibration->fit.reason : "not calibrated") +
                                ")");
      return f;
    }
    f.hz = calibration->hz();
    f.source = "calibrated_monotonic_raw";
    f.uncertainty_ppm = calibration->fit.bracket_ppm;
    f.why = "CNTFRQ_EL0 says " + std::to_string(cntfrq) + " Hz, but the counter runs at " +
            format_fixed(calibration->hz(), 0) + " Hz against " + clock_name(calibration->clock) + " (" +
            (ppm >= 0 ? "+" : "") + format_sig(ppm, 3) +
            " ppm): firmware programmed CNTFRQ_EL0 wrong, and the kernel took its rate from elsewhere (the device "
            "tree's clock-frequency); the calibration is used";
    return f;
  }
  if (calibrated) {
    f.hz = calibration->hz();
    f.source = "calibrated_monotonic_raw";
    f.uncertainty_ppm = calibration->fit.bracket_ppm;
    f.why = std::string(arm.registers.read ? "CNTFRQ_EL0 reads 0" : "CNTFRQ_EL0 not read") + ": calibrated against " +
            clock_name(calibration->clock);
    return f;
  }
  f.source = "unknown";
  f.why = std::string(arm.registers.read ? "CNTFRQ_EL0 reads 0" : "CNTFRQ_EL0 not read") +
          (calibration ? "; the calibration failed: " + calibration->fit.reason : "; not calibrated");
  return f;
}

}  // namespace tscaudit
