// The matrix plan for people (a few aligned lines; for scripts, matrix/plan_json.hpp): what
// will run, how long it takes, what it holds in memory.
#pragma once

#include <string>

#include "matrix/matrix_plan.hpp"
#include "matrix/topology_order.hpp"

namespace tscaudit {

/// The plan as text, one figure per line, ending in a newline. With `topology` (the CPUs the
/// plan was made from, ordered), the CPU line also counts packages, dies and L3 domains.
std::string plan_text(const MatrixPlan& plan, const OrderedCpus* topology = nullptr);

/// Why a measured plan whose estimate exceeds its budget is refused, and what to do: fewer
/// CPUs, visits or rounds, pairs in parallel, a larger budget (unless `rounds_given`: --rounds
/// and --budget exclude each other), or --over-budget. Precondition: the plan has a budget
/// (spec.budget_seconds > 0) and its estimate exceeds it.
std::string over_budget_refusal(const MatrixPlan& plan, bool rounds_given);

}  // namespace tscaudit
