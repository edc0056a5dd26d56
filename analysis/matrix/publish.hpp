// What a check publishes for programs (docs/machine.md §10.8): its answer and the per-CPU
// table it proved, the moment on the machine's clocks, and the facts a reader compares with
// the machine later. `check --publish` writes it (formats/state_file.hpp). Pure.
#pragma once

#include <optional>
#include <string>

#include "matrix/check.hpp"
#include "order/published_state.hpp"

namespace tscaudit {

/// The state a decided check publishes; nullopt when it did not answer (incomplete: cut
/// short, it proved nothing whole). `reason` is the check's one line (render words it).
/// `now`, read just after the measuring (live checks), gives the moment its clocks: each
/// clock then, less the counter's ticks from the table's moment to the read (at counter_hz),
/// and the boot id, clocksource and online CPUs; without it (a run directory) they are
/// unknown. The tolerance valid_seconds keeps to: the check's --tolerance, else its
/// --max-bound, else twice the widest reach of any CPU's band from 0 (at least a quantum).
std::optional<PublishedState> published_state_of(const MatrixResult& m, const CheckResult& result,
                                                 PublishedFrom from, const std::string& reason,
                                                 const MachineNow* now);

}  // namespace tscaudit
