// `tscaudit info`: the platform facts a measurement depends on. This gathers them; they are
// worded by app/info_render.hpp.
#pragma once

#include "app/output_format.hpp"
#include "app/info_render.hpp"

namespace tscaudit {

/// Gathers the report: CPUID, kernel facts, calibration (200 ms, plus `ntp_seconds`
/// against CLOCK_REALTIME when > 0), quantum per CPU, topology, TSC_ADJUST per CPU.
InfoReport gather_info(unsigned ntp_seconds);

/// Prints the facts to stdout. \returns the exit code (0).
int run_info(OutputFormat format, unsigned ntp_seconds = 0);

}  // namespace tscaudit
