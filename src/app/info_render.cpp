#include "app/info_render.hpp"

#include <algorithm>

#include "core/cpu_list.hpp"
#include "core/format.hpp"
#include "formats/kernel_tsc_json.hpp"
#include "formats/warnings_json.hpp"
#include "render/kernel_tsc_text.hpp"
#include "render/labelled_lines.hpp"
#include "render/text_wrap.hpp"

namespace tscaudit {
namespace {

using Json = nlohmann::ordered_json;

const char* state_name(FactState s) {
  switch (s) {
    case FactState::ok: return "ok";
    case FactState::absent: return "absent";
    case FactState::unreadable: return "unreadable";
    case FactState::malformed: return "malformed";
  }
  return "?";
}

/// The value as JSON when the fact is ok, else {"state", "reason"}.
template <class T, class F>
Json fact_json(const Fact<T>& f, F to_json) {
  if (f.ok()) return to_json(f.value);
  return Json{{"state", state_name(f.state)}, {"reason", f.reason}};
}
template <class T>
Json fact_json(const Fact<T>& f) {
  return fact_json(f, [](const T& v) { return Json(v); });
}
Json cpu_list_json(const Fact<std::vector<int>>& f) {
  return fact_json(f, [](const std::vector<int>& v) { return Json(format_cpu_list(v)); });
}

/// The value in words when ok, else the reason.
template <class T, class F>
std::string fact_text(const Fact<T>& f, F to_text) {
  return f.ok() ? to_text(f.value) : f.reason;
}
std::string cpu_list_text(const Fact<std::vector<int>>& f) {
  return fact_text(f, [](const std::vector<int>& v) { return v.empty() ? std::string("none") : format_cpu_list(v); });
}

std::string idle_states_text(const std::vector<IdleState>& states) {
  if (states.empty()) return "no idle states";
  std::string s;
  for (const IdleState& st : states) {
    if (!s.empty()) s += ", ";
    s += st.name.ok() ? st.name.value : "state" + std::to_string(st.index) + " (" + st.name.reason + ")";
    s.append(" ").append(fact_text(st.latency_us, [](std::uint64_t v) { return std::to_string(v) + " us"; }));
    if (!st.disabled.ok()) {
      s += " (" + st.disabled.reason + ")";
    } else if (st.disabled.value) {
      s += " (disabled)";
    }
  }
  return s;
}

std::string log_unstable_text(const Fact<KernelLogFacts>& log) {
  if (!log.ok()) return "unknown: the kernel log is unreadable (" + log.reason + ")";
  const KernelLogFacts& l = log.value;
  if (l.tsc_marked_unstable) return "yes: " + l.unstable_line;
  if (l.starts_at_boot) return "not seen in the log (which reaches back to boot)";
  return "not seen in the log (which has wrapped" +
         (l.first_timestamp_s ? ": it starts at " + format_fixed(*l.first_timestamp_s, 1) + " s" : std::string()) +
         "; an early message may be lost)";
}

/// The kernel log's TSC events, one line each, in words with the log's lines quoted; what
/// their absence means; or why the log says nothing.
void add_kernel_tsc_lines(const Fact<KernelLogFacts>& log, LabelledLines& out) {
  const std::string label = "kernel tsc log";
  if (!log.ok()) {
    out.add(label, "unknown (the kernel log is unreadable)");
    return;
  }
  const KernelTscLog& t = log.value.tsc_events;
  for (const KernelTscEvent& e : t.events) out.add(label, kernel_tsc_event_line(e));
  if (t.left_out > 0) {
    out.add(label, std::to_string(t.left_out) + " more TSC line" + (t.left_out == 1 ? "" : "s") + " left out");
  } else if (t.events.empty()) {
    out.add(label, std::string("no verdict on the TSCs' synchronization and no TSC_ADJUST message") +
                       (log.value.starts_at_boot ? " (the log reaches back to boot)"
                                                 : " (the log has wrapped; an early message may be lost)"));
  }
}

std::string calibration_text(const Calibration& c) {
  if (!c.fit.valid) return "failed: " + c.fit.reason;
  return format_fixed(c.hz() / 1e6, 6) + " MHz: " + std::to_string(c.fit.readings) + " readings over " +
         format_fixed(c.fit.window_ns / 1e9, 3) + " s" +
         (c.cpu >= 0 ? " on CPU " + std::to_string(c.cpu) : std::string(" (unpinned)")) + ", stderr " +
         format_sig(c.fit.stderr_ppm, 2) + " ppm, bracket +/- " + format_sig(c.fit.bracket_ppm, 2) + " ppm";
}

Json calibration_json(const Calibration& c) {
  Json j = {{"clock", clock_name(c.clock)},
            {"cpu", c.cpu >= 0 ? Json(c.cpu) : Json(nullptr)},
            {"readings", c.fit.readings},
            {"valid", c.fit.valid}};
  if (!c.fit.valid) {
    j["reason"] = c.fit.reason;
    return j;
  }
  j["window_s"] = c.fit.window_ns / 1e9;
  j["hz"] = c.hz();
  j["stderr_ppm"] = c.fit.stderr_ppm;
  j["bracket_ppm"] = c.fit.bracket_ppm;
  j["bracket_hz"] = {c.fit.bracket_lo_ticks_per_ns * 1e9, c.fit.bracket_hi_ticks_per_ns * 1e9};
  j["residual_max_ticks"] = c.fit.residual_max_ticks;
  return j;
}

std::optional<double> kernel_mhz(const InfoReport& r) {
  const auto& log = r.platform.kernel_facts.log;
  if (log.ok() && log.value.tsc_mhz) return log.value.tsc_mhz;
  return std::nullopt;
}

/// The current clocksource and those available.
std::string clocksource_text(const PlatformFacts& p) {
  const KernelFacts& k = p.kernel_facts;
  std::string cs = p.clocksource.empty() ? k.clocksource.reason : p.clocksource;
  if (k.clocksources_available.ok()) {
    std::string avail;
    for (const auto& a : k.clocksources_available.value) avail += (avail.empty() ? "" : " ") + a;
    cs += " (available: " + avail + ")";
  }
  return cs;
}

/// Whether user space reads CNTVCT_EL0 itself or traps into the kernel, and why.
std::string counter_access_text(const PlatformFacts& p) {
  const ArmFacts& arm = p.arm;
  const Fact<KernelLogFacts>& log = p.kernel_facts.log;
  if (p.emulation) return "emulated: the emulator answers every read; the kernel log is the host's";
  const bool errata = !counter_errata(arm, log).empty();
  if (log.ok() && !log.value.cntvct_trapped_cpus.empty()) {
    const std::vector<int>& cpus = log.value.cntvct_trapped_cpus;
    return "trapped on CPU" + std::string(cpus.size() == 1 ? " " : "s ") + format_cpu_list(cpus) +
           ": Linux clears CNTKCTL_EL1.EL0VCTEN there for a counter erratum and emulates every user-space read in "
           "its trap handler, so a read costs microseconds (\"arch_timer: CPUn: Trapping CNTVCT access\")";
  }
  if (log.ok()) return "direct: user space reads CNTVCT_EL0 itself (the kernel log shows no trapping)";
  return errata ? "probably trapped: Linux traps user-space reads where it works around the errata below (the kernel "
                  "log, which would say, is unreadable)"
                : "unknown: the kernel log, which says where Linux traps reads, is unreadable (" + log.reason + ")";
}

/// The counter's frequency, its source and why, and the calibrations behind it.
void add_frequency_lines(const InfoReport& r, const std::string& label, int mhz_decimals, LabelledLines& out) {
  const TscFrequency& f = r.platform.tsc;
  out.add(label, f.hz > 0 ? format_fixed(f.hz / 1e6, mhz_decimals) + " MHz (" + f.source + ", +/- " +
                                format_sig(f.uncertainty_ppm, 2) + " ppm)"
                          : std::string("unknown"));
  out.add("  why", f.why);
  if (f.calibration) out.add("  monotonic_raw", calibration_text(*f.calibration));
  if (r.realtime) {
    std::string s = calibration_text(*r.realtime);
    if (r.realtime->fit.valid && f.calibration && f.calibration->fit.valid) {
      s += "; " + signed_ppm((r.realtime->hz() / f.calibration->hz() - 1) * 1e6) + " from monotonic_raw";
    }
    out.add("  realtime", s);
    if (r.ntp) {
      out.add("  ntp", !r.ntp->readable
                           ? r.ntp->problem
                           : std::string(r.ntp->synchronized ? "synchronized" : "not synchronized") +
                                 ", frequency correction " + signed_ppm(r.ntp->frequency_ppm) + " (adjtimex)");
    }
  }
}

/// x86-64's lines: the CPU by CPUID, the TSC's features, the kernel's view of the TSC, its
/// frequency.
void add_x86_counter_lines(const InfoReport& r, LabelledLines& out) {
  const PlatformFacts& p = r.platform;
  const CpuidFacts& c = p.cpuid;
  const KernelFacts& k = p.kernel_facts;
  auto yes_no = [](bool b) { return std::string(b ? "yes" : "no"); };
  out.add("cpu", c.brand + " (" + c.vendor + ", family " + std::to_string(c.family) + " model " +
                     std::to_string(c.model) + " stepping " + std::to_string(c.stepping) + ")");
  out.add("invariant tsc", yes_no(c.invariant_tsc));
  out.add("rdtscp", yes_no(c.rdtscp));
  out.add("tsc_adjust msr", yes_no(c.tsc_adjust));
  out.add("tsc deadline timer", yes_no(c.tsc_deadline));
  out.add("hypervisor", c.hypervisor.value_or("none"));
  out.add("cpuid 15h", describe_leaf_15h(c));
  out.add("cpuid 16h", describe_leaf_16h(c));
  out.add("cpuid 40000010h", describe_leaf_40000010h(c));

  out.add("kernel tsc flags", fact_text(k.cpuinfo, [](const CpuinfoTscFlags& f) {
            std::string set, unset;
            for (const auto& [name, on] : tsc_flag_list(f)) {
              std::string& list = on ? set : unset;
              if (!list.empty()) list += ' ';
              list += name;
            }
            std::string s = set.empty() ? "none" : set;
            if (!unset.empty()) s += "; not set: " + unset;
            if (!f.disagreeing.empty()) {
              s += "; processors disagree on:";
              for (const auto& d : f.disagreeing) s += " " + d;
            }
            return s;
          }));
  out.add("clocksource", clocksource_text(p));
  out.add("tsc unstable", log_unstable_text(k.log));
  add_kernel_tsc_lines(k.log, out);

  const std::optional<double> kmhz = kernel_mhz(r);
  if (!k.log.ok()) {
    out.add("kernel tsc", "unknown (the kernel log is unreadable)");
  } else if (kmhz) {
    out.add("kernel tsc", format_fixed(*kmhz, 3) + " MHz (\"" + k.log.value.tsc_mhz_line + "\")");
  } else {
    out.add("kernel tsc", "not seen in the log");
  }

  const TscFrequency& f = p.tsc;
  add_frequency_lines(r, "tsc frequency", 3, out);
  if (kmhz && f.hz > 0) {
    // The kernel prints kHz: its own figure is known to +/- 0.5 kHz.
    std::string s = signed_ppm(ppm_from(f.hz, *kmhz)) + " from the kernel's " + format_fixed(*kmhz, 3) +
                    " MHz (which is rounded to 1 kHz: +/- " + format_sig(0.5e3 / (*kmhz * 1e6) * 1e6, 2) + " ppm)";
    if (r.realtime && r.realtime->fit.valid) s += "; realtime " + signed_ppm(ppm_from(r.realtime->hz(), *kmhz));
    out.add("  vs kernel", s);
  }
}

/// aarch64's lines: the cores by MIDR, the counter and its access, the errata, the
/// kernel's timer, the counter's frequency.
void add_arm_counter_lines(const InfoReport& r, LabelledLines& out) {
  const PlatformFacts& p = r.platform;
  const ArmFacts& a = p.arm;
  const KernelFacts& k = p.kernel_facts;
  std::vector<std::pair<int, std::string>> cores;
  for (const CpuMidr& c : a.midrs) cores.emplace_back(c.cpu, describe_midr(c.midr));
  if (cores.empty()) {
    out.add("cpu", a.midr_source);
  } else if (cores.size() == 1 && cores.front().first < 0) {
    out.add("cpu", cores.front().second);
  } else {
    const auto groups = group_cpus_by_text(cores);
    for (const auto& [cpus, text] : groups) out.add(groups.size() == 1 ? "cpu" : "cpu " + cpus, text);
  }
  if (!a.midrs.empty()) out.add("  midr from", a.midr_source);
  out.add("counter", "cntvct_el0, the generic timer's virtual count (the physical count less CNTVOFF_EL2, which a "
                     "hypervisor sets)");
  const std::uint64_t cntfrq = a.registers.cntfrq_hz;
  out.add("cntfrq_el0", !a.registers.read ? std::string("not read")
                        : cntfrq == 0     ? std::string("0 (not programmed by firmware)")
                                          : std::to_string(cntfrq) + " Hz: one tick is " +
                                                format_sig(1e9 / static_cast<double>(cntfrq), 4) + " ns");
  out.add("cntvctss", a.registers.ecv ? std::string("yes (FEAT_ECV, HWCAP2_ECV): the cntvctss variant can run")
                                      : std::string("no (HWCAP2_ECV is clear): the cntvctss variant cannot run"));
  out.add("counter access", counter_access_text(p));
  const std::vector<CounterErratum> errata = counter_errata(a, k.log);
  if (errata.empty()) {
    out.add("counter errata", std::string("none known (by MIDR, the device tree's timer node") +
                                  (k.log.ok() ? " and the kernel log)" : "; the kernel log is unreadable)"));
  }
  for (const CounterErratum& e : errata) out.add("counter erratum", e.name + ": " + e.what + "; seen in: " + e.evidence);
  out.add("clocksource", clocksource_text(p));
  if (!k.log.ok()) {
    out.add("kernel timer", "unknown (the kernel log is unreadable)");
  } else if (k.log.value.arch_timer_mhz) {
    out.add("kernel timer", format_fixed(*k.log.value.arch_timer_mhz, 2) + " MHz (\"" + k.log.value.arch_timer_line +
                                "\")");
  } else {
    out.add("kernel timer", "not seen in the log");
  }
  add_frequency_lines(r, "counter frequency", 6, out);
  if (k.log.ok() && k.log.value.arch_timer_mhz && p.tsc.hz > 0) {
    // The driver prints MHz to two decimals: its own figure is known to +/- 5 kHz.
    const double mhz = *k.log.value.arch_timer_mhz;
    out.add("  vs kernel", signed_ppm(ppm_from(p.tsc.hz, mhz)) + " from the kernel's " + format_fixed(mhz, 2) +
                               " MHz (which is rounded to 10 kHz: +/- " + format_sig(5e3 / (mhz * 1e6) * 1e6, 2) +
                               " ppm)");
  }
}

}  // namespace

std::string info_text(const InfoReport& r) {
  const PlatformFacts& p = r.platform;
  const KernelFacts& k = p.kernel_facts;
  LabelledLines out;
  out.add("host", p.host);
  out.add("kernel", p.kernel);
  if (p.emulation) out.add("emulation", *p.emulation);
  if (p.arch == CounterArch::aarch64) {
    add_arm_counter_lines(r, out);
  } else {
    add_x86_counter_lines(r, out);
  }

  out.add("cpus", "present " + format_cpu_list(r.cpus.present) + ", online " + format_cpu_list(r.cpus.online) +
                      ", allowed " + format_cpu_list(r.cpus.allowed));
  if (r.topology.ok) {
    const TopologySummary& t = r.topology.summary;
    auto n = [](int count, const char* one, const char* many) {
      return std::to_string(count) + " " + (count == 1 ? one : many);
    };
    std::string s = n(t.packages, "package", "packages") + ", ";
    if (t.dies > 0) s += n(t.dies, "die", "dies") + ", ";
    s += n(t.numa_nodes, "NUMA node", "NUMA nodes") + ", " + n(t.l3_domains, "L3 domain", "L3 domains");
    if (!t.l3_cpus.empty()) {
      s += " (";
      for (std::size_t i = 0; i < t.l3_cpus.size(); ++i) s += (i ? " " : "") + format_cpu_list(t.l3_cpus[i]);
      s += ")";
    }
    s += ", " + n(t.cores, "core", "cores") + ", " + n(t.pus, "PU", "PUs");
    out.add("topology", s);
  } else {
    out.add("topology", "unknown: " + r.topology.problem);
  }
  {
    std::string s = fact_text(k.smt_control, [](const std::string& v) { return v; });
    s += ", " + fact_text(k.smt_active, [](bool v) { return std::string(v ? "active" : "not active"); });
    std::vector<std::string> groups;
    for (const CpuKernelFacts& cpu : k.cpus) {
      if (cpu.thread_siblings.ok() && cpu.thread_siblings.value.size() > 1) {
        const std::string g = format_cpu_list(cpu.thread_siblings.value);
        if (std::find(groups.begin(), groups.end(), g) == groups.end()) groups.push_back(g);
      }
    }
    if (groups.empty()) {
      s += "; no CPU shares its core";
    } else {
      s += "; siblings";
      for (const auto& g : groups) s += " " + g;
    }
    out.add("smt", s);
  }
  out.add("isolated cpus", cpu_list_text(k.isolated));
  out.add("nohz_full cpus", k.nohz_full.state == FactState::absent ? "not in this kernel (" + k.nohz_full.reason + ")"
                                                                   : cpu_list_text(k.nohz_full));
  out.add("boot parameters", fact_text(k.cmdline, [](const BootParams& b) {
            const auto list = boot_param_list(b);
            if (list.empty())
              return std::string("none of isolcpus nohz_full rcu_nocbs tsc clocksource idle max_cstate");
            std::string s;
            for (const auto& [name, value] : list)
              s += (s.empty() ? "" : " ") + name + (value.empty() ? "" : "=" + value);
            return s;
          }));
  std::vector<std::pair<int, std::string>> governors, idle;
  for (const CpuKernelFacts& cpu : k.cpus) {
    governors.emplace_back(cpu.cpu, cpu.governor.state == FactState::absent
                                        ? std::string("no cpufreq")
                                        : fact_text(cpu.governor, [](const std::string& g) { return g; }));
    idle.emplace_back(cpu.cpu, cpu.idle_states.state == FactState::absent
                                   ? std::string("no cpuidle")
                                   : fact_text(cpu.idle_states, idle_states_text));
  }
  if (k.cpus.empty()) out.add("cpus in sysfs", k.cpus_reason);
  for (const auto& [cpus, text] : group_cpus_by_text(governors)) out.add("governor cpu " + cpus, text);
  out.add("cpuidle driver", fact_text(k.cpuidle_driver, [](const std::string& v) { return v; }));
  for (const auto& [cpus, text] : group_cpus_by_text(idle)) out.add("cpuidle cpu " + cpus, text);

  std::vector<std::pair<int, std::string>> adjust;
  for (const auto& [cpu, m] : r.tsc_adjust) {
    adjust.emplace_back(cpu, m.value ? std::to_string(*m.value) + " ticks" : "unreadable: " + m.problem);
  }
  for (const auto& [cpus, text] : group_cpus_by_text(adjust)) out.add("tsc_adjust cpu " + cpus, text);

  for (const auto& q : r.quanta) {
    const std::string label = "quantum cpu " + std::to_string(q.cpu);
    if (!q.error.empty()) {
      out.add(label, "unknown: " + q.error);
      continue;
    }
    out.add(label, ticks_with_ns_if_coarse(static_cast<double>(q.estimate.quantum_ticks), r.platform.tsc.hz) +
                       " (modal back-to-back delta " +
                       std::to_string(q.estimate.modal_delta) + ", " + format_sig(q.estimate.zero_fraction * 100, 3) +
                       " % zero deltas" + (q.estimate.plus_one_reads ? ", +1 reads within a step" : "") + ")");
  }
  if (r.warnings.empty()) out.add("warnings", "none");
  for (const Warning& w : r.warnings) {
    out.add("warning", w.code + ": " + w.message);
    out.add("  advice", w.advice);
  }
  return wrap_lines(out.str());
}

Json info_json(const InfoReport& r) {
  const PlatformFacts& p = r.platform;
  const CpuidFacts& c = p.cpuid;
  const KernelFacts& k = p.kernel_facts;
  std::uint64_t quantum = 0;
  for (const auto& q : r.quanta) quantum = std::max(quantum, q.estimate.quantum_ticks);

  Json j;
  j["schema"] = "tscaudit-info/1";
  j["host"] = p.host;
  j["kernel"] = p.kernel;
  j["arch"] = arch_name(p.arch);
  j["emulation"] = p.emulation ? Json(*p.emulation) : Json(nullptr);
  const bool arm = p.arch == CounterArch::aarch64;
  if (arm) {
    Json midrs = Json::array();
    for (const CpuMidr& m : p.arm.midrs) {
      midrs.push_back({{"cpu", m.cpu >= 0 ? Json(m.cpu) : Json(nullptr)},
                       {"midr", m.midr.value},
                       {"implementer", m.midr.implementer()},
                       {"part", m.midr.part()},
                       {"variant", m.midr.variant()},
                       {"revision", m.midr.revision()},
                       {"text", describe_midr(m.midr)}});
    }
    j["cpu"] = {{"midrs", midrs}, {"midr_source", p.arm.midr_source}};
  } else {
    j["cpu"] = {
        {"vendor", c.vendor}, {"brand", c.brand}, {"family", c.family}, {"model", c.model}, {"stepping", c.stepping}};
  }
  j["invariant_tsc"] = arm ? Json(nullptr) : Json(c.invariant_tsc);
  j["rdtscp"] = arm ? Json(nullptr) : Json(c.rdtscp);
  j["hypervisor"] = c.hypervisor ? Json(*c.hypervisor) : Json(nullptr);
  j["clocksource"] = p.clocksource;
  j["tsc_hz"] = p.tsc.hz;
  j["tsc_hz_source"] = p.tsc.source;
  j["tsc_hz_uncertainty_ppm"] = p.tsc.uncertainty_ppm;
  j["quantum_ticks"] = quantum;
  j["cpus"] = {{"present", format_cpu_list(r.cpus.present)},
               {"online", format_cpu_list(r.cpus.online)},
               {"allowed", format_cpu_list(r.cpus.allowed)}};
  auto& per_cpu = j["quantum_per_cpu"] = Json::array();
  for (const auto& q : r.quanta) {
    Json e = {{"cpu", q.cpu}};
    if (q.error.empty()) {
      e["quantum_ticks"] = q.estimate.quantum_ticks;
      e["zero_fraction"] = q.estimate.zero_fraction;
      e["modal_delta_ticks"] = q.estimate.modal_delta;
      e["plus_one_reads"] = q.estimate.plus_one_reads;
    } else {
      e["error"] = q.error;
    }
    per_cpu.push_back(e);
  }

  Json freq = {
      {"hz", p.tsc.hz}, {"source", p.tsc.source}, {"why", p.tsc.why}, {"uncertainty_ppm", p.tsc.uncertainty_ppm}};
  freq["monotonic_raw"] = p.tsc.calibration ? calibration_json(*p.tsc.calibration) : Json(nullptr);
  if (r.realtime) {
    Json rt = calibration_json(*r.realtime);
    if (r.ntp) {
      rt["ntp"] = r.ntp->readable
                      ? Json{{"synchronized", r.ntp->synchronized}, {"frequency_correction_ppm", r.ntp->frequency_ppm}}
                      : Json{{"error", r.ntp->problem}};
    }
    freq["realtime"] = rt;
  } else {
    freq["realtime"] = nullptr;
  }
  const std::optional<double> kmhz =
      arm ? (k.log.ok() ? k.log.value.arch_timer_mhz : std::nullopt) : kernel_mhz(r);
  freq["kernel_mhz"] = kmhz ? Json(*kmhz) : Json(nullptr);
  freq["ppm_vs_kernel"] = kmhz && p.tsc.hz > 0 ? Json(ppm_from(p.tsc.hz, *kmhz)) : Json(nullptr);
  j["tsc_frequency"] = freq;

  if (arm) {
    const ArmRegisters& reg = p.arm.registers;
    Json errata = Json::array();
    for (const CounterErratum& e : counter_errata(p.arm, k.log)) {
      errata.push_back({{"id", e.id}, {"name", e.name}, {"what", e.what}, {"evidence", e.evidence}});
    }
    j["aarch64"] = {{"counter", "cntvct_el0"},
                    {"cntfrq_hz", reg.read ? Json(reg.cntfrq_hz) : Json(nullptr)},
                    {"ecv", reg.ecv},
                    {"hwcap_cpuid", reg.hwcap_cpuid},
                    {"hwcap", reg.hwcap},
                    {"hwcap2", reg.hwcap2},
                    {"counter_access", counter_access_text(p)},
                    {"counter_errata", errata},
                    {"timer_dt_errata", fact_json(p.arm.timer_dt_errata)}};
  }
  j["cpuid"] = arm ? Json(nullptr) : Json{
      {"max_basic_leaf", c.max_basic_leaf},
      {"tsc_adjust", c.tsc_adjust},
      {"tsc_deadline", c.tsc_deadline},
      {"leaf_15h",
       {{"eax_denominator", c.leaf15_denominator},
        {"ebx_numerator", c.leaf15_numerator},
        {"ecx_crystal_hz", c.leaf15_crystal_hz},
        {"tsc_hz", c.crystal_tsc_hz ? Json(c.crystal_tsc_hz) : Json(nullptr)},
        {"text", describe_leaf_15h(c)}}},
      {"leaf_16h",
       {{"base_mhz", c.base_mhz}, {"max_mhz", c.max_mhz}, {"bus_mhz", c.bus_mhz}, {"text", describe_leaf_16h(c)}}},
      {"max_hypervisor_leaf", c.max_hypervisor_leaf},
      {"leaf_40000010h",
       {{"tsc_hz", c.hypervisor_tsc_hz ? Json(c.hypervisor_tsc_hz) : Json(nullptr)},
        {"text", describe_leaf_40000010h(c)}}}};

  Json kernel;
  kernel["cpuinfo_flags"] = fact_json(k.cpuinfo, [](const CpuinfoTscFlags& f) {
    Json o;
    for (const auto& [name, on] : tsc_flag_list(f)) o[std::string(name)] = on;
    o["processors"] = f.processors;
    o["disagreeing"] = f.disagreeing;
    return o;
  });
  kernel["clocksource"] = fact_json(k.clocksource);
  kernel["clocksources_available"] = fact_json(k.clocksources_available);
  kernel["log"] = fact_json(k.log, [](const KernelLogFacts& l) {
    return Json{
        {"lines", l.lines},
        {"starts_at_boot", l.starts_at_boot},
        {"first_timestamp_s", l.first_timestamp_s ? Json(*l.first_timestamp_s) : Json(nullptr)},
        {"tsc_marked_unstable", l.tsc_marked_unstable},
        {"unstable_line", l.tsc_marked_unstable ? Json(l.unstable_line) : Json(nullptr)},
        {"tsc_mhz", l.tsc_mhz ? Json(*l.tsc_mhz) : Json(nullptr)},
        {"tsc_mhz_line", l.tsc_mhz ? Json(l.tsc_mhz_line) : Json(nullptr)},
        {"last_clocksource_switch", l.last_clocksource_switch ? Json(*l.last_clocksource_switch) : Json(nullptr)},
        {"arch_timer_mhz", l.arch_timer_mhz ? Json(*l.arch_timer_mhz) : Json(nullptr)},
        {"arch_timer_line", l.arch_timer_mhz ? Json(l.arch_timer_line) : Json(nullptr)},
        {"timer_workarounds", l.timer_workarounds},
        {"cntvct_trapped_cpus", format_cpu_list(l.cntvct_trapped_cpus)},
        {"tsc_events", kernel_tsc_events_json(l.tsc_events, kernel_tsc_event_text)},
        {"tsc_events_left_out", l.tsc_events.left_out}};
  });
  kernel["cmdline"] = fact_json(k.cmdline, [](const BootParams& b) {
    Json o = Json::object();
    for (const auto& [name, value] : boot_param_list(b)) o[name] = value;
    return o;
  });
  kernel["isolated"] = cpu_list_json(k.isolated);
  kernel["nohz_full"] = cpu_list_json(k.nohz_full);
  kernel["cpuidle_driver"] = fact_json(k.cpuidle_driver);
  kernel["smt"] = {{"control", fact_json(k.smt_control)}, {"active", fact_json(k.smt_active)}};
  Json cpus = Json::array();
  for (const CpuKernelFacts& cpu : k.cpus) {
    cpus.push_back({{"cpu", cpu.cpu},
                    {"governor", fact_json(cpu.governor)},
                    {"thread_siblings", cpu_list_json(cpu.thread_siblings)},
                    {"idle_states", fact_json(cpu.idle_states, [](const std::vector<IdleState>& states) {
                       Json a = Json::array();
                       for (const IdleState& s : states) {
                         a.push_back({{"index", s.index},
                                      {"name", fact_json(s.name)},
                                      {"latency_us", fact_json(s.latency_us)},
                                      {"disabled", fact_json(s.disabled)}});
                       }
                       return a;
                     })}});
  }
  kernel["cpus"] = cpus;
  j["kernel_facts"] = kernel;

  if (r.topology.ok) {
    const TopologySummary& t = r.topology.summary;
    Json l3 = Json::array();
    for (const auto& cpus_of_l3 : t.l3_cpus) l3.push_back(format_cpu_list(cpus_of_l3));
    j["topology"] = {{"packages", t.packages},
                     {"dies", t.dies},
                     {"numa_nodes", t.numa_nodes},
                     {"l3_domains", t.l3_domains},
                     {"cores", t.cores},
                     {"pus", t.pus},
                     {"l3_cpus", l3}};
  } else {
    j["topology"] = {{"error", r.topology.problem}};
  }
  Json adjust = Json::array();
  for (const auto& [cpu, m] : r.tsc_adjust) {
    adjust.push_back({{"cpu", cpu},
                      {"value", m.value ? Json(*m.value) : Json(nullptr)},
                      {"problem", m.value ? Json(nullptr) : Json(m.problem)}});
  }
  j["tsc_adjust"] = adjust;
  j["warnings"] = warnings_json(r.warnings);
  return j;
}

}  // namespace tscaudit
