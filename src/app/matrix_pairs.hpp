// The analysis half of a matrix, as the commands run it: every ordered pair the plan
// measures, read one at a time, analyzed (analyze_matrix_pairs), written to the output
// directory as it goes (pairs/, analysis.json) and forgotten but for its cell.
#pragma once

#include "app/matrix_types.hpp"
#include "matrix/matrix_analysis.hpp"

namespace tscaudit {

/// The outputs `options` asks for (--out, --save-runs).
PairOutputs pair_outputs(const MatrixOptions& options);

/// Every ordered pair `outcome.planned` measures, read from `source` one at a time,
/// analyzed, written to `outputs` and forgotten but for its cell (memory: the cells, and one
/// pair's rounds and analysis at a time). A pair with no rounds is left unmeasured (a
/// problem when measured now, a note when read). The TSC frequency is `outcome.platform`'s,
/// else the runs'; the variants are the runs', else `choice`'s.
/// \throws IoError when an output cannot be written.
void analyze_matrix(MatrixOutcome& outcome, const ExchangeChoice& choice, const PairRunSource& source,
                    const PairOutputs& outputs);

}  // namespace tscaudit
