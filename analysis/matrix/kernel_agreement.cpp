#include "matrix/kernel_agreement.hpp"

#include <algorithm>
#include <cmath>

namespace tscaudit {
namespace {

bool kernel_has_band(double lo, double hi) { return std::isfinite(lo) && std::isfinite(hi); }

bool kernel_holds(const std::vector<int>& cpus, int cpu) {
  return std::find(cpus.begin(), cpus.end(), cpu) != cpus.end();
}

/// The pair's own band of TSC_y − TSC_x: the narrower of the two roles' (the second
/// negated), NaN where neither has one.
void kernel_direct_band(const MatrixResult& m, std::size_t ix, std::size_t iy, double& lo, double& hi) {
  lo = hi = kNoValue;
  const PairCell& xy = m.at(ix, iy);
  const PairCell& yx = m.at(iy, ix);
  if (xy.measured && kernel_has_band(xy.offset_lo_ticks, xy.offset_hi_ticks)) {
    lo = xy.offset_lo_ticks;
    hi = xy.offset_hi_ticks;
  }
  if (yx.measured && kernel_has_band(yx.offset_lo_ticks, yx.offset_hi_ticks) &&
      (!kernel_has_band(lo, hi) || yx.offset_hi_ticks - yx.offset_lo_ticks < hi - lo)) {
    lo = -yx.offset_hi_ticks;
    hi = -yx.offset_lo_ticks;
  }
}

bool kernel_misses_tolerance(double lo, double hi, double tolerance) {
  return kernel_has_band(lo, hi) && (lo > tolerance || hi < -tolerance);
}

/// The tool's answer for CPUs x and y (TSC_y − TSC_x).
KernelPairAnswer kernel_answer_for(const MatrixResult& m, const Diagnosis& d, double tolerance, int x, int y) {
  KernelPairAnswer a;
  a.x = x;
  a.y = y;
  if (x < 0 || y < 0) {
    a.why_not = KernelNotCompared::cpus_not_named;
    return a;
  }
  const std::size_t ix = m.index_of(x), iy = m.index_of(y);
  if (ix == m.size() || iy == m.size()) {
    a.why_not = ix == m.size() && iy == m.size() ? KernelNotCompared::neither_measured
                : ix == m.size()                 ? KernelNotCompared::x_not_measured
                                                 : KernelNotCompared::y_not_measured;
    return a;
  }
  double lo = kNoValue, hi = kNoValue;
  kernel_direct_band(m, ix, iy, lo, hi);
  const bool placed = d.offset_group.size() == m.size();
  const int gx = placed ? d.offset_group[ix] : -1;
  const int gy = placed ? d.offset_group[iy] : -1;
  // A drift or a step of either: their counters differ, by no one offset.
  for (std::size_t k = 0; k < d.findings.size(); ++k) {
    const Finding& f = d.findings[k];
    if (f.kind == FindingKind::offset || (!kernel_holds(f.cpus, x) && !kernel_holds(f.cpus, y))) continue;
    a.agreement = KernelAgreement::agrees;
    a.finding = static_cast<int>(k);
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
    if (kernel_misses_tolerance(lo, hi, tolerance)) {
      a.lo = lo;
      a.hi = hi;
    }
    for (std::size_t k = 0; k < d.findings.size(); ++k) {
      const Finding& f = d.findings[k];
      if (f.kind != FindingKind::offset) continue;
      const bool y_in = kernel_holds(f.cpus, y) && kernel_holds(f.against, x);
      const bool x_in = kernel_holds(f.cpus, x) && kernel_holds(f.against, y);
      if (!y_in && !x_in) continue;
      a.finding = static_cast<int>(k);
      a.finding_lo = y_in ? f.lo : -f.hi;
      a.finding_hi = y_in ? f.hi : -f.lo;
      if (!kernel_has_band(a.lo, a.hi)) {
        a.lo = a.finding_lo;
        a.hi = a.finding_hi;
        a.quotes_finding = true;
      }
      break;
    }
    return a;
  }
  // Not placed by the diagnosis: the pair's own band.
  if (!kernel_has_band(lo, hi)) {
    a.why_not = KernelNotCompared::no_band;
    return a;
  }
  a.lo = lo;
  a.hi = hi;
  a.agreement = kernel_misses_tolerance(lo, hi, tolerance) ? KernelAgreement::agrees : KernelAgreement::disagrees;
  return a;
}

/// The answer checked against the kernel's sign (+1: TSC_y − TSC_x > 0, -1: < 0, 0: not
/// said) and lower bound of |TSC_y − TSC_x| (0: none).
void kernel_weigh(KernelPairAnswer& a, int sign, double at_least) {
  if (a.agreement != KernelAgreement::agrees || !kernel_has_band(a.lo, a.hi)) return;
  if ((sign > 0 && a.hi < 0) || (sign < 0 && a.lo > 0)) {
    a.agreement = KernelAgreement::opposite;
  } else if (at_least > 0 && std::max(std::fabs(a.lo), std::fabs(a.hi)) < at_least) {
    a.agreement = KernelAgreement::agrees_smaller;
  }
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

std::vector<KernelEventAnswer> weigh_kernel_events(const KernelTscLog& log, const MatrixResult& m,
                                                   const Diagnosis& diagnosis, double tolerance_ticks) {
  std::vector<KernelEventAnswer> out;
  for (std::size_t i = 0; i < log.events.size(); ++i) {
    const KernelTscEvent& e = log.events[i];
    KernelEventAnswer answer;
    answer.event = i;
    if (e.kind == KernelTscEventKind::warp) {
      answer.at_least_ticks = e.value ? std::fabs(static_cast<double>(*e.value)) : 0.0;
      answer.pairs.push_back(kernel_answer_for(m, diagnosis, tolerance_ticks, e.cpu, e.other_cpu));
      kernel_weigh(answer.pairs.back(), 0, answer.at_least_ticks);
    } else if ((e.kind == KernelTscEventKind::cpus_ahead || e.kind == KernelTscEventKind::cpus_behind) &&
               !e.cpus.empty()) {
      const int sign = e.kind == KernelTscEventKind::cpus_ahead ? 1 : -1;
      for (int y : e.cpus) {
        answer.pairs.push_back(kernel_answer_for(m, diagnosis, tolerance_ticks, e.cpu, y));
        kernel_weigh(answer.pairs.back(), sign, 0);
      }
    } else {
      continue;
    }
    answer.agreement = answer.pairs.front().agreement;
    for (const KernelPairAnswer& p : answer.pairs) {
      if (p.agreement != answer.agreement) answer.agreement = KernelAgreement::mixed;
    }
    out.push_back(std::move(answer));
  }
  return out;
}

}  // namespace tscaudit
