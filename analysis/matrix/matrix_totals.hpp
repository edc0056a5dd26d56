// What a matrix says as a whole, over its measured pairs: sums, the median and the smallest
// of a field, and which pairs' bands leave 0 out (and, of a plain-read matrix beside the
// ordering-read one, which of those only the plain reads show). The report words them
// (render/report_builder.hpp). Pure.
#pragma once

#include <cstddef>
#include <cstdint>

#include "matrix/matrix.hpp"

namespace tscaudit {

/// Over every cell (an unmeasured one holds 0): causality violations (both directions),
/// self-inconsistent rounds, rounds.
std::uint64_t total_causality_violations(const MatrixResult& m);
std::uint64_t total_self_inconsistent(const MatrixResult& m);
std::uint64_t total_rounds(const MatrixResult& m);

/// A field of a cell, for the summaries below (rtt_min_ticks, ...).
using PairCellField = double (*)(const PairCell&);

/// The median of `field` over the measured pairs: the upper median of an even count;
/// kNoValue for none.
double median_over_pairs(const MatrixResult& m, PairCellField field);

/// The smallest finite `field` over the measured pairs; kNoValue for none.
double smallest_over_pairs(const MatrixResult& m, PairCellField field);

/// Whether a pair is measured and its hard band known and leaving 0 out: an offset proven.
bool band_excludes_zero(const PairCell& c);

/// Whether the plain-read matrix's pair (i, j) (indexes into `plain`) has a band that leaves
/// 0 out while `ordered` measured the same CPUs' pair with a band that holds 0: an offset
/// that only the plain reads show, plain reads that run early making it (docs/method.md
/// §5.1). False where `ordered` has no such pair or no band for it.
bool false_plain_offset(const MatrixResult& plain, const MatrixResult& ordered, std::size_t i, std::size_t j);

}  // namespace tscaudit
