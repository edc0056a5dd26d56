// The matrix plan as JSON ("tscaudit-plan/1": what `matrix --dry-run --format json` prints,
// matrix.json's `plan`, a run directory's manifest's `plan`), the writer and its reader side
// by side. Here, not in analysis/formats: the plan's types are this room's, which no room
// below it may see. Pure.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "matrix/matrix_plan.hpp"

namespace tscaudit {

/// The plan's figures: "schema": "tscaudit-plan/1", the CPUs in plan order, the design
/// ("all_pairs" or "sparse") and why, counts, costs, estimate, budget (null: none), memory
/// (kept, and streamed), and the first kPlanJsonSlots slots (not the whole list, which runs
/// to millions of entries on big machines).
nlohmann::ordered_json plan_json(const MatrixPlan& plan);

inline constexpr std::size_t kPlanJsonSlots = 4;

/// The plan's spec, whole (cpus, visits, rounds_per_visit, warmup_per_visit, parallel,
/// design, pairs as [i, j], design_reason, budget_seconds): what --from needs to rebuild the
/// very plan that ran (a sparse design's pairs included).
nlohmann::ordered_json plan_spec_json(const PlanSpec& spec);

/// The spec plan_spec_json wrote, in the order of `cpus` (the topology order --from
/// rebuilt), which must be its CPUs.
/// \throws InputError "MANIFEST: plan.spec is not a plan this version wrote: ..." (a key
///         missing or of the wrong type, a number out of range, a pair that is not [i, j]
///         with i < j < the CPUs, more pairs than the CPUs have, a sparse design without
///         pairs or with one twice), or "MANIFEST: the plan's CPUs are not the run's CPUs".
PlanSpec plan_spec_from_json(const nlohmann::ordered_json& j, const std::vector<int>& cpus,
                             const std::string& manifest_path);

/// A run directory manifest's `plan` of a run that ran `plan`: plan_json with `spec`
/// (plan_spec_json), which load_matrix reads to rebuild the very plan. Every writer of a run
/// directory with a plan records it so.
nlohmann::ordered_json manifest_plan_json(const MatrixPlan& plan);

}  // namespace tscaudit
