// The quick check's design (docs/machine.md §10.7): which CPUs it pairs, how long it may
// measure, and when a pair's band has settled. Pure: the library (src/quick/) measures what
// this decides, and analyzes it as `check` does.
//
// Pairs, each measured in both roles: the CPUs are cut into local groups of at most
// kQuickGroupCpus (local_group_starts: L3 domains, else packages, at core boundaries); each
// group is a star from its first CPU (its hub) and a chain through its other CPUs in order,
// so that every CPU has two or three partners in its group and one CPU off fails pairs with
// several others (what a finding needs, matrix/findings.hpp); the hubs are a star from the
// first hub (the reference CPU); and chords join each CPU but the hub to the CPU of the same
// rank in the next group (the last group to the first), so that the groups are tied by more
// than their hubs. Every CPU is then one or two pairs from the reference, and the groups
// measure at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "matrix/matrix_plan.hpp"
#include "matrix/topology_order.hpp"

namespace tscaudit {

inline constexpr std::size_t kQuickGroupCpus = 8;

/// The quick check's unordered pairs over `order`'s CPUs (indexes into order.cpus, first <
/// second, sorted, distinct). \pre order.cpus.size() >= 2
std::vector<IndexPair> quick_design(const OrderedCpus& order);

/// The default measuring budget for `cpus` CPUs whose plan has `slots` slots:
/// kQuickDefaultBudgetSeconds up to kQuickGroupCpus CPUs, beyond that kQuickSecondsPerSlot a
/// slot, never less.
inline constexpr double kQuickDefaultBudgetSeconds = 0.010;
inline constexpr double kQuickSecondsPerSlot = 0.001;
double quick_default_budget_seconds(std::size_t cpus, std::uint64_t slots);

}  // namespace tscaudit
