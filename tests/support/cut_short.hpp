// A check result as the decision leaves it for a run cut short (decide_check with
// CheckEvidence::cut_short): what the renderers' tests are given for a run a signal stopped.
#pragma once

#include <string>
#include <utility>

#include "matrix/check.hpp"

namespace tscaudit::testing {

inline void cut_short_by(CheckResult& r, std::string why) {
  r.outcome = CheckOutcome::incomplete;
  r.synchronized = false;
  r.cut_short = std::move(why);
}

}  // namespace tscaudit::testing
