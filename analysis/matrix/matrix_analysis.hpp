// The analysis half of a matrix (`matrix`, `check`, `report`; measured now or read back with
// --from): every ordered pair the plan measures, its run fetched one at a time, analyzed (the
// same analyze_run as `analyze`), reduced to its cell and forgotten; then the matrix with its
// labels, group boundaries and planned pairs. Pure: the runs come from a callback, and what
// is kept of each pair (files) goes to another.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/read_variant.hpp"
#include "core/run.hpp"
#include "matrix/matrix.hpp"
#include "matrix/matrix_plan.hpp"
#include "matrix/topology_order.hpp"
#include "pair/analyze.hpp"

namespace tscaudit {

/// "3->5": the ordered pair (a initiates, b responds) as messages name it.
std::string pair_name(int a, int b);

/// One ordered pair's whole run (a initiates, b responds), or nullopt when the pair has
/// none. Called once per ordered pair of the plan, in the order of analyze_matrix_pairs.
using PairRunSource = std::function<std::optional<Run>(int a, int b)>;

/// Receives each ordered pair (the plan's CPU numbers), its run and its analysis as they are
/// made, before they are forgotten.
using PairAnalyzed = std::function<void(int a, int b, const Run& run, const PairAnalysis& analysis)>;

/// What the runs do not say of themselves.
struct MatrixAnalysisContext {
  ReadVariant send = ReadVariant::rdtsc;  // the variants asked for: the matrix's when no pair has rounds
  ReadVariant recv = ReadVariant::rdtsc;
  double tsc_hz = 0;  // the counter's frequency; 0: unknown here, the first analyzed run's
};

struct MatrixAnalysis {
  MatrixResult matrix;
  std::size_t analyzed = 0;  // pairs with rounds
  /// The pairs the plan measures that have no round (pair_name), in the order analyzed.
  std::vector<std::string> unmeasured;
  /// The pairs whose run is not complete, analyzed as they are: "3->5 (why)" (incomplete_reason).
  std::vector<std::string> incomplete;
};

/// Every ordered pair `plan` measures, by CPU number (row, then column: the order of
/// analysis.json and of the report's tables), read from `source` and analyzed; each analysis
/// goes to `analyzed` (when set) after its cell is in the matrix. A pair with no rounds is
/// left unmeasured. The matrix's CPUs are the plan's; its labels (the CPU numbers), places
/// and group boundaries (the L3 domains' starts when there are several, else the packages')
/// come from `order`; its variants are the first analyzed run's, else the context's. A
/// sparse plan marks the pairs it measures (MatrixResult::planned).
/// \throws InputError when two runs claim the same ordered pair; what `source` and
///         `analyzed` throw.
MatrixAnalysis analyze_matrix_pairs(const MatrixPlan& plan, const OrderedCpus& order,
                                    const MatrixAnalysisContext& context, const PairRunSource& source,
                                    const PairAnalyzed& analyzed = {});

}  // namespace tscaudit
