// The report's section "The kernel's word": what Linux's log says about the TSCs'
// synchronization on the machine measured, and whether the report's own measurement
// agrees with each of its verdicts that names CPUs (render/kernel_agreement.hpp). Pure.
#pragma once

#include <optional>

#include "render/report_builder.hpp"
#include "render/report_doc.hpp"

namespace tscaudit {

/// The section: each TSC event of in.kernel_tsc in words with its lines quoted, how many
/// were left out, then one sentence per warp and per CPUs-ahead/behind verdict that
/// compares it with in.ordered's matrix and in.check's diagnosis (at the check's offset
/// tolerance). nullopt without a kernel log or without any event in it.
std::optional<ReportSection> kernel_word_section(const ReportInputs& in);

}  // namespace tscaudit
