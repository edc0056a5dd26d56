// What `tscaudit compare A B` prints (docs/commands.md, "compare"): the answer first, then
// each run's own answer and a line per CPU with both bands and the change; or the same as
// JSON (docs/json.md, "Compare").
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "matrix/offset_compare.hpp"

namespace tscaudit {

inline constexpr std::string_view kCompareSchema = "tscaudit-compare/1";

/// One of the two runs as compare names it: the path given and the run's own answer.
struct ComparedRun {
  std::string name;
  std::string answer;
};

/// Whether there was anything to compare: a CPU besides the reference in both runs.
bool nothing_to_compare(const OffsetComparison& c);

/// The answer, one sentence without a line end: "changed: CPU 5 moved +99 to +701 ticks
/// (+43 to +305 ns) against CPU 0", "no proven change: ...", "nothing to compare: ...".
std::string comparison_answer(const OffsetComparison& c);

/// The answer, each run's own answer, then a table of every CPU, wrapped at 100 columns.
std::string comparison_text(const OffsetComparison& c, const ComparedRun& first, const ComparedRun& second);

/// {"schema": "tscaudit-compare/1", "changed", "answer", "reference_cpu", "first", "second",
///  "cpus": [{"cpu", "change", "first": {estimate, lo, hi}, "second": {...},
///  "moved_at_least_ticks", "moved_at_most_ticks"}], "tsc_hz"}; null for a bound a run lacks.
nlohmann::ordered_json comparison_json(const OffsetComparison& c, const ComparedRun& first, const ComparedRun& second);

}  // namespace tscaudit
