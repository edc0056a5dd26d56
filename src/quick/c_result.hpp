// The quick check's answer as libtscaudit's C result (include/tscaudit.h): the one place
// where the decision's outcome becomes a verdict code and its figures ns.
#pragma once

#include "quick/quick_check.hpp"
#include "tscaudit.h"

namespace tscaudit {

/// Fills the fields of `result` this version knows from `answer` (size untouched): the
/// verdict (synchronized, not synchronized, else inconclusive: the library has no
/// "incomplete", it is never cut short), the bound and proven offset in ticks and ns, the
/// worst pair, the counts, the frequency and the reason as one printable line.
void fill_result(tscaudit_result& result, const QuickAnswer& answer);

}  // namespace tscaudit
