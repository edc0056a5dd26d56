// `check --publish FILE`: what the check proved, written for programs (docs/machine.md
// §10.8; the file: docs/formats.md, "The state file"; its readers: docs/library.md).
#pragma once

#include <string>

#include "io/output_file.hpp"
#include "matrix/check.hpp"
#include "order/published_state.hpp"

namespace tscaudit {

/// Builds the state (matrix/publish.hpp), tightens it with the state FILE held before when
/// that one is of the same boot and machine state (carry_forward), and writes it to `file`,
/// opened before the measuring, mode 0644, renamed into place. A check that did not answer
/// (incomplete) publishes nothing and leaves FILE as it was. `live`: measured now, so the
/// machine's clocks give the moment; from a run directory they are unknown. Tells on
/// standard error what it did. \throws IoError when the file cannot be written.
void publish_check_state(OutputFile& file, const MatrixResult& m, const CheckResult& result, PublishedFrom from,
                         bool live);

}  // namespace tscaudit
