#include "render/kernel_agreement.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "core/format.hpp"
#include "render/kernel_tsc_text.hpp"

namespace tscaudit {
namespace {

constexpr double kNoBand = std::numeric_limits<double>::quiet_NaN();

/// Who moves counters after the kernel's check at a CPU's bring-up.
constexpr std::string_view kWhoMoves = "through TSC_ADJUST, by the firmware, or by the hypervisor of a virtual machine";

/// What the tool says of TSC_y − TSC_x.
struct PairAnswer {
  KernelAgreement agreement = KernelAgreement::not_compared;
  double lo = kNoBand, hi = kNoBand;  // the band quoted, TSC_y − TSC_x, ticks
  std::string finding;                // "package 1 against package 0", or a drift or step: "CPU 5 drifts"
  double finding_lo = kNoBand, finding_hi = kNoBand;  // the offset finding's band, as TSC_y − TSC_x
  bool quotes_finding = false;                        // lo, hi are the finding's band
  std::string why_not;                // not_compared: why
};

bool has_band(double lo, double hi) { return std::isfinite(lo) && std::isfinite(hi); }

/// "+1400" or "-3": four significant digits, the sign always but for 0.
std::string kernel_signed(double v) {
  v += 0.0;
  return (v > 0 ? "+" : "") + format_sig(v, 4);
}

std::string kernel_band(double lo, double hi) { return "[" + kernel_signed(lo) + ", " + kernel_signed(hi) + "] ticks"; }

bool holds(const std::vector<int>& cpus, int cpu) { return std::find(cpus.begin(), cpus.end(), cpu) != cpus.end(); }

/// The pair's own band of TSC_y − TSC_x: the narrower of the two roles' (the second
/// negated), NaN where neither has one.
void direct_band(const MatrixResult& m, std::size_t ix, std::size_t iy, double& lo, double& hi) {
  lo = hi = kNoBand;
  const PairCell& xy = m.at(ix, iy);
  const PairCell& yx = m.at(iy, ix);
  if (xy.measured && has_band(xy.offset_lo_ticks, xy.offset_hi_ticks)) {
    lo = xy.offset_lo_ticks;
    hi = xy.offset_hi_ticks;
  }
  if (yx.measured && has_band(yx.offset_lo_ticks, yx.offset_hi_ticks) &&
      (!has_band(lo, hi) || yx.offset_hi_ticks - yx.offset_lo_ticks < hi - lo)) {
    lo = -yx.offset_hi_ticks;
    hi = -yx.offset_lo_ticks;
  }
}

bool misses_tolerance(double lo, double hi, double tolerance) {
  return has_band(lo, hi) && (lo > tolerance || hi < -tolerance);
}

/// What a finding compares its group with: "the rest", "package 0", "CPUs 0-4".
std::string against_words(const Finding& f) {
  if (f.against_rest) return "the rest";
  return f.against_name.empty() ? cpus_phrase(f.against) : f.against_name;
}

/// The tool's answer for CPUs x and y (TSC_y − TSC_x).
PairAnswer answer_for(const MatrixResult& m, const Diagnosis& d, double tolerance, int x, int y) {
  PairAnswer a;
  if (x < 0 || y < 0) {
    a.why_not = "the kernel's line does not name the CPUs";
    return a;
  }
  const std::size_t ix = m.index_of(x), iy = m.index_of(y);
  if (ix == m.size() || iy == m.size()) {
    a.why_not = (ix == m.size() && iy == m.size() ? "CPUs " + std::to_string(x) + " and " + std::to_string(y) +
                                                        " were"
                 : ix == m.size()                 ? "CPU " + std::to_string(x) + " was"
                                                  : "CPU " + std::to_string(y) + " was") +
                " not measured";
    return a;
  }
  double lo = kNoBand, hi = kNoBand;
  direct_band(m, ix, iy, lo, hi);
  const bool placed = d.offset_group.size() == m.size();
  const int gx = placed ? d.offset_group[ix] : -1;
  const int gy = placed ? d.offset_group[iy] : -1;
  // A drift or a step of either: their counters differ, by no one offset.
  for (const Finding& f : d.findings) {
    if (f.kind == FindingKind::offset || (!holds(f.cpus, x) && !holds(f.cpus, y))) continue;
    a.agreement = KernelAgreement::agrees;
    a.finding = cpus_phrase(f.cpus) + (f.kind == FindingKind::drift ? " drifts" : " steps") + " against " +
                against_words(f);
    return a;
  }
  if (gx >= 0 && gy >= 0 && gx == gy) {
    a.agreement = KernelAgreement::disagrees;
    a.lo = lo;
    a.hi = hi;
    return a;
  }
  if (gx >= 0 && gy >= 0) {
    a.agreement = KernelAgreement::agrees;
    if (misses_tolerance(lo, hi, tolerance)) {
      a.lo = lo;
      a.hi = hi;
    }
    for (const Finding& f : d.findings) {
      if (f.kind != FindingKind::offset) continue;
      const bool y_in = holds(f.cpus, y) && holds(f.against, x);
      const bool x_in = holds(f.cpus, x) && holds(f.against, y);
      if (!y_in && !x_in) continue;
      const std::string name = f.name.empty() ? cpus_phrase(f.cpus) : f.name;
      a.finding = name + " against " + against_words(f);
      a.finding_lo = y_in ? f.lo : -f.hi;
      a.finding_hi = y_in ? f.hi : -f.lo;
      if (!has_band(a.lo, a.hi)) {
        a.lo = a.finding_lo;
        a.hi = a.finding_hi;
        a.quotes_finding = true;
      }
      break;
    }
    return a;
  }
  // Not placed by the diagnosis: the pair's own band.
  if (!has_band(lo, hi)) {
    a.why_not = "no hard band links CPU " + std::to_string(x) + " and CPU " + std::to_string(y);
    return a;
  }
  a.lo = lo;
  a.hi = hi;
  a.agreement = misses_tolerance(lo, hi, tolerance) ? KernelAgreement::agrees : KernelAgreement::disagrees;
  return a;
}

/// The answer checked against the kernel's sign (+1: TSC_y − TSC_x > 0, -1: < 0, 0: not
/// said) and lower bound of |TSC_y − TSC_x| (0: none).
void weigh(PairAnswer& a, int sign, double at_least) {
  if (a.agreement != KernelAgreement::agrees || !has_band(a.lo, a.hi)) return;
  if ((sign > 0 && a.hi < 0) || (sign < 0 && a.lo > 0)) {
    a.agreement = KernelAgreement::opposite;
  } else if (at_least > 0 && std::max(std::fabs(a.lo), std::fabs(a.hi)) < at_least) {
    a.agreement = KernelAgreement::agrees_smaller;
  }
}

/// "CPU 5's counter is off from CPU 0's by [+1400, +1600] ticks now (package 1 against
/// package 0)".
std::string difference_text(const PairAnswer& a, int x, int y) {
  std::string s = "CPU " + std::to_string(y) + "'s counter ";
  if (has_band(a.lo, a.hi)) {
    s += "minus CPU " + std::to_string(x) + "'s is " + kernel_band(a.lo, a.hi) + " now";
  } else {
    s += "differs from CPU " + std::to_string(x) + "'s now";
  }
  if (!a.finding.empty()) {
    // The groups' band beside the pair's own, where that is the one quoted.
    const bool other = has_band(a.finding_lo, a.finding_hi) && !a.quotes_finding;
    s += " (" + a.finding + (other ? ", " + kernel_band(a.finding_lo, a.finding_hi) : std::string()) + ")";
  }
  return s;
}

/// The tool's answer on one pair after the kernel's claim, from "; " or ", but" on.
std::string answer_text(const PairAnswer& a, int x, int y, double at_least) {
  switch (a.agreement) {
    case KernelAgreement::agrees: return "; the tool agrees: " + difference_text(a, x, y) + ".";
    case KernelAgreement::agrees_smaller:
      return "; the tool agrees that their counters differ, but by less: " + difference_text(a, x, y) +
             ", under the kernel's " + std::to_string(static_cast<long long>(at_least)) +
             " cycles: they were moved closer since (" + std::string(kWhoMoves) + ").";
    case KernelAgreement::opposite:
      return "; the tool finds them the other way round: " + difference_text(a, x, y) + ".";
    case KernelAgreement::disagrees:
      return ", but the tool measured their counters agreeing now (" +
             (has_band(a.lo, a.hi) ? "CPU " + std::to_string(y) + " minus CPU " + std::to_string(x) + " within " +
                                         kernel_band(a.lo, a.hi)
                                   : std::string("in one group of CPUs whose counters agree")) +
             "): the counters were corrected since (" + std::string(kWhoMoves) + ").";
    case KernelAgreement::not_compared:
    case KernelAgreement::mixed: break;
  }
  return "; not compared: " + a.why_not + ".";
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

KernelComparison compare_warp(const KernelTscEvent& e, const MatrixResult& m, const Diagnosis& d, double tolerance) {
  PairAnswer a = answer_for(m, d, tolerance, e.cpu, e.other_cpu);
  const double at_least = e.value ? std::fabs(static_cast<double>(*e.value)) : 0.0;
  weigh(a, 0, at_least);
  KernelComparison c;
  c.agreement = a.agreement;
  c.sentence = claim_text(e) + answer_text(a, e.cpu, e.other_cpu, at_least);
  return c;
}

KernelComparison compare_ahead(const KernelTscEvent& e, const MatrixResult& m, const Diagnosis& d, double tolerance) {
  const int sign = e.kind == KernelTscEventKind::cpus_ahead ? 1 : -1;
  KernelComparison c;
  if (e.cpus.size() == 1) {
    PairAnswer a = answer_for(m, d, tolerance, e.cpu, e.cpus[0]);
    weigh(a, sign, 0);
    c.agreement = a.agreement;
    c.sentence = claim_text(e) + answer_text(a, e.cpu, e.cpus[0], 0);
    return c;
  }
  // Several CPUs: the answers grouped, in the order of the agreements.
  std::map<KernelAgreement, std::vector<int>> by;
  std::string why_not;
  for (int y : e.cpus) {
    PairAnswer a = answer_for(m, d, tolerance, e.cpu, y);
    weigh(a, sign, 0);
    by[a.agreement].push_back(y);
    if (a.agreement == KernelAgreement::not_compared && why_not.empty()) why_not = a.why_not;
  }
  c.agreement = by.size() == 1 ? by.begin()->first : KernelAgreement::mixed;
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
  std::string answer;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    answer += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
  }
  c.sentence = claim_text(e) + "; the tool " + answer + ".";
  return c;
}

}  // namespace

std::string_view kernel_agreement_name(KernelAgreement a) {
  switch (a) {
    case KernelAgreement::agrees: return "agrees";
    case KernelAgreement::agrees_smaller: return "agrees_smaller";
    case KernelAgreement::opposite: return "opposite";
    case KernelAgreement::disagrees: return "disagrees";
    case KernelAgreement::not_compared: return "not_compared";
    case KernelAgreement::mixed: return "mixed";
  }
  return "?";
}

std::vector<KernelComparison> compare_with_kernel(const KernelTscLog& log, const MatrixResult& m,
                                                  const Diagnosis& diagnosis, double tolerance_ticks) {
  std::vector<KernelComparison> out;
  for (std::size_t i = 0; i < log.events.size(); ++i) {
    const KernelTscEvent& e = log.events[i];
    if (e.kind == KernelTscEventKind::warp) {
      out.push_back(compare_warp(e, m, diagnosis, tolerance_ticks));
    } else if ((e.kind == KernelTscEventKind::cpus_ahead || e.kind == KernelTscEventKind::cpus_behind) &&
               !e.cpus.empty()) {
      out.push_back(compare_ahead(e, m, diagnosis, tolerance_ticks));
    } else {
      continue;
    }
    out.back().event = i;
  }
  return out;
}

}  // namespace tscaudit
