// Whether two stamps read on different CPUs are ordered, from the published table
// (docs/machine.md §10.8). Every answer is a proof under the table's assumptions (its
// bands hold, the counters keep their drift bands): never a wrong BEFORE or AFTER. Pure,
// allocation-free and constant-time: the library calls these on a program's hot path.
#pragma once

#include <cstdint>

#include "order/counter_table.hpp"

namespace tscaudit {

/// Hard bounds on θ_cpu = counter_cpu − counter_ref, in ticks.
struct TickBand {
  double lo_ticks = 0;
  double hi_ticks = 0;
};

/// θ_cpu at the moment CPU `cpu`'s counter read `counter`: the table's band at its moment,
/// widened by the drift band over the distance from it (either way, any distance: a
/// counter below as_of_counter is a moment before it). false when the table has no band
/// for `cpu`; `out` is then untouched.
bool offset_at(const CounterTable& table, int cpu, std::uint64_t counter, TickBand& out);

/// -1: the stamp (cpu_a, counter_a) was read before (cpu_b, counter_b), proven; 1: after,
/// proven; 0: the bands allow both. Each stamp stands for the true counter value it was
/// read from, T with r − 1 <= T < r + q (r <= T < r + q, and the tick below for a read inside
/// a step, which returns the previous read + 1: docs/method.md §2), each end at its own band.
/// On one CPU the counter itself orders them. 0 also when the table has no band for either
/// CPU (`known` false then).
int order_of(const CounterTable& table, int cpu_a, std::uint64_t counter_a, int cpu_b,
             std::uint64_t counter_b, bool& known);

}  // namespace tscaudit
