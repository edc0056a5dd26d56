// `tscaudit monitor`: one ordered pair, measured until a duration ends or a signal comes,
// kept as an interval log (analysis/formats/interval_log.hpp) in memory that does not grow.
#pragma once

#include "app/monitor_options.hpp"

namespace tscaudit {

/// Measures, writes the log interval by interval (each line flushed to disk), and prints
/// a summary to stderr. The log is written to OUT.partial and renamed to OUT when the run
/// ends: complete, interrupted (SIGINT/SIGTERM: the open interval is written, the trailer
/// says which signal), or aborted by a fault (a partner that stops answering, a CPU taken
/// away, a counter that jumps), whose trailer holds the error.
/// \returns 0 for a complete or interrupted run, 3 for an aborted one.
/// \throws UsageError (bad CPUs, same CPU twice), UnsupportedError (variant), IoError (the
///         log cannot be created or written: the message names the path and the reason;
///         the intervals written so far stay in OUT.partial).
int run_monitor(const MonitorOptions& options);

}  // namespace tscaudit
