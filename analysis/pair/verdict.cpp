#include "pair/verdict.hpp"

namespace tscaudit {

FitVerdict judge_fit(bool drift_detectable, double offset_ticks, double offset_lo_ticks, double offset_hi_ticks,
                     double drift_ppb, double drift_lo_ppb, double drift_hi_ppb) {
  FitVerdict v{
      VerdictKind::synchronized, offset_ticks, offset_lo_ticks, offset_hi_ticks, drift_ppb, drift_lo_ppb, drift_hi_ppb};
  if (drift_detectable) {
    v.kind = VerdictKind::drifting;
  } else if (!(offset_lo_ticks <= 0 && offset_hi_ticks >= 0)) {
    v.kind = VerdictKind::offset;
  }
  return v;
}

}  // namespace tscaudit
