#include "render/kernel_agreement.hpp"

#include <cmath>
#include <map>

#include "core/format.hpp"
#include "render/kernel_tsc_text.hpp"

namespace tscaudit {
namespace {

/// Who moves counters after the kernel's check at a CPU's bring-up.
constexpr std::string_view kWhoMoves = "through TSC_ADJUST, by the firmware, or by the hypervisor of a virtual machine";

bool has_band(double lo, double hi) { return std::isfinite(lo) && std::isfinite(hi); }

/// "+1400" or "-3": four significant digits, the sign always but for 0.
std::string kernel_signed(double v) {
  v += 0.0;
  return (v > 0 ? "+" : "") + format_sig(v, 4);
}

std::string kernel_band(double lo, double hi) { return "[" + kernel_signed(lo) + ", " + kernel_signed(hi) + "] ticks"; }

/// What a finding compares its group with: "the rest", "package 0", "CPUs 0-4".
std::string against_words(const Finding& f) {
  if (f.against_rest) return "the rest";
  return f.against_name.empty() ? cpus_phrase(f.against) : f.against_name;
}

/// The finding an answer rests on: "package 1 against package 0", or a drift or step: "CPU 5
/// drifts against the rest"; "" for none.
std::string finding_words(const KernelPairAnswer& a, const Diagnosis& d) {
  if (a.finding < 0 || static_cast<std::size_t>(a.finding) >= d.findings.size()) return "";
  const Finding& f = d.findings[static_cast<std::size_t>(a.finding)];
  if (f.kind != FindingKind::offset) {
    return cpus_phrase(f.cpus) + (f.kind == FindingKind::drift ? " drifts" : " steps") + " against " + against_words(f);
  }
  return (f.name.empty() ? cpus_phrase(f.cpus) : f.name) + " against " + against_words(f);
}

/// Why a pair was not compared: "CPU 7 was not measured".
std::string why_not_words(const KernelPairAnswer& a) {
  const std::string x = std::to_string(a.x), y = std::to_string(a.y);
  switch (a.why_not) {
    case KernelNotCompared::cpus_not_named: return "the kernel's line does not name the CPUs";
    case KernelNotCompared::neither_measured: return "CPUs " + x + " and " + y + " were not measured";
    case KernelNotCompared::x_not_measured: return "CPU " + x + " was not measured";
    case KernelNotCompared::y_not_measured: return "CPU " + y + " was not measured";
    case KernelNotCompared::no_band: return "no hard band links CPU " + x + " and CPU " + y;
    case KernelNotCompared::compared: break;
  }
  return "";
}

/// "CPU 5's counter is off from CPU 0's by [+1400, +1600] ticks now (package 1 against
/// package 0)".
std::string difference_text(const KernelPairAnswer& a, const Diagnosis& d) {
  std::string s = "CPU " + std::to_string(a.y) + "'s counter ";
  if (has_band(a.lo, a.hi)) {
    s += "minus CPU " + std::to_string(a.x) + "'s is " + kernel_band(a.lo, a.hi) + " now";
  } else {
    s += "differs from CPU " + std::to_string(a.x) + "'s now";
  }
  const std::string finding = finding_words(a, d);
  if (!finding.empty()) {
    // The groups' band beside the pair's own, where that is the one quoted.
    const bool other = has_band(a.finding_lo, a.finding_hi) && !a.quotes_finding;
    s += " (" + finding + (other ? ", " + kernel_band(a.finding_lo, a.finding_hi) : std::string()) + ")";
  }
  return s;
}

/// The tool's answer on one pair after the kernel's claim, from "; " or ", but" on.
std::string answer_text(const KernelPairAnswer& a, const Diagnosis& d, double at_least) {
  switch (a.agreement) {
    case KernelAgreement::agrees: return "; the tool agrees: " + difference_text(a, d) + ".";
    case KernelAgreement::agrees_smaller:
      return "; the tool agrees that their counters differ, but by less: " + difference_text(a, d) +
             ", under the kernel's " + std::to_string(static_cast<long long>(at_least)) +
             " cycles: they were moved closer since (" + std::string(kWhoMoves) + ").";
    case KernelAgreement::opposite:
      return "; the tool finds them the other way round: " + difference_text(a, d) + ".";
    case KernelAgreement::disagrees:
      return ", but the tool measured their counters agreeing now (" +
             (has_band(a.lo, a.hi) ? "CPU " + std::to_string(a.y) + " minus CPU " + std::to_string(a.x) + " within " +
                                         kernel_band(a.lo, a.hi)
                                   : std::string("in one group of CPUs whose counters agree")) +
             "): the counters were corrected since (" + std::string(kWhoMoves) + ").";
    case KernelAgreement::not_compared:
    case KernelAgreement::mixed: break;
  }
  return "; not compared: " + why_not_words(a) + ".";
}

/// "The kernel measured 1482 cycles of TSC warp between CPU 0 and CPU 5 when it brought
/// CPU 5 up": the event's text, capitalized.
std::string claim_text(const KernelTscEvent& e) {
  std::string s = kernel_tsc_event_text(e);
  if (e.kind == KernelTscEventKind::warp) s = s.substr(0, s.find(", and turned the TSC clocksource off"));
  if (e.kind == KernelTscEventKind::cpus_ahead || e.kind == KernelTscEventKind::cpus_behind) {
    s = s.substr(0, s.find(" (its per-CPU check"));
  }
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

/// Several CPUs named: the answers grouped, in the order of the agreements.
std::string grouped_answer_text(const KernelTscEvent& e, const KernelEventAnswer& answer) {
  std::map<KernelAgreement, std::vector<int>> by;
  std::string why_not;
  for (const KernelPairAnswer& a : answer.pairs) {
    by[a.agreement].push_back(a.y);
    if (a.agreement == KernelAgreement::not_compared && why_not.empty()) why_not = why_not_words(a);
  }
  const std::string reference = e.cpu >= 0 ? "CPU " + std::to_string(e.cpu) + "'s" : std::string("the reference");
  std::vector<std::string> parts;
  for (const auto& [agreement, cpus] : by) {
    switch (agreement) {
      case KernelAgreement::agrees: parts.push_back("agrees on " + cpus_phrase(cpus)); break;
      case KernelAgreement::opposite:
        parts.push_back("finds " + cpus_phrase(cpus) + " the other way round");
        break;
      case KernelAgreement::disagrees:
        parts.push_back("measured " + cpus_phrase(cpus) + " agreeing with " + reference + " counter now");
        break;
      case KernelAgreement::not_compared:
        parts.push_back("did not compare " + cpus_phrase(cpus) + " (" + why_not + ")");
        break;
      case KernelAgreement::agrees_smaller:
      case KernelAgreement::mixed: break;
    }
  }
  std::string text;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
  }
  return "; the tool " + text + ".";
}

}  // namespace

std::vector<KernelComparison> compare_with_kernel(const KernelTscLog& log, const MatrixResult& m,
                                                  const Diagnosis& diagnosis, double tolerance_ticks) {
  std::vector<KernelComparison> out;
  for (const KernelEventAnswer& answer : weigh_kernel_events(log, m, diagnosis, tolerance_ticks)) {
    const KernelTscEvent& e = log.events[answer.event];
    KernelComparison c;
    c.event = answer.event;
    c.agreement = answer.agreement;
    c.sentence = claim_text(e) + (answer.pairs.size() == 1
                                      ? answer_text(answer.pairs.front(), diagnosis, answer.at_least_ticks)
                                      : grouped_answer_text(e, answer));
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace tscaudit
