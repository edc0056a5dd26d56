#include "app/compare_command.hpp"

#include <iostream>

#include "app/matrix_source.hpp"
#include "core/errors.hpp"
#include "core/files.hpp"
#include "core/format.hpp"
#include "formats/json_bounds.hpp"
#include "matrix/check.hpp"
#include "matrix/offset_compare.hpp"
#include "render/compare_output.hpp"
#include "render/verdict_text.hpp"

namespace tscaudit {
namespace {

/// The largest JSON file compare reads: a matrix of 1024 CPUs' JSON is some 60 MB.
constexpr std::uint64_t kMaxCompareJsonBytes = 256ull << 20;

/// The per-CPU table of `path`: a run or report directory rebuilt as `check --from` does
/// (its answer the check's with no tolerance), or the JSON of `matrix` or `check`.
OffsetTable table_of(const std::string& path) {
  if (is_directory(path)) {
    MatrixOptions options;
    options.from = path;
    options.budget_seconds = 0;
    const MatrixOutcome outcome = obtain_matrix(options, "compare", false);
    const CheckResult decided = decide_check(check_evidence(outcome), CheckSettings{});
    return offset_table_of(outcome.matrix, check_reason_text(decided));
  }
  const std::string shown = printable_text(path);
  const std::string text = read_regular_file(path, kMaxCompareJsonBytes, "a matrix's or a check's JSON");
  return offset_table_from_json(json_input(text, shown), shown);
}

}  // namespace

int run_compare(const CompareOptions& options) {
  const OffsetTable first = table_of(options.first);
  const OffsetTable second = table_of(options.second);
  const OffsetComparison c = compare_offsets(first, second);
  const ComparedRun a{printable_text(options.first), printable_utf8_text(first.answer)};
  const ComparedRun b{printable_text(options.second), printable_utf8_text(second.answer)};
  if (options.format == OutputFormat::json) {
    std::cout << comparison_json(c, a, b).dump(2) << "\n";
  } else {
    std::cout << comparison_text(c, a, b);
  }
  if (nothing_to_compare(c)) return kExitInconclusive;
  return c.changed() ? kExitCheckFailed : kExitOk;
}

}  // namespace tscaudit
