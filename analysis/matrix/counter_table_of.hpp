// The per-CPU table a check proved, as `check --publish` writes it (docs/machine.md §10.8).
// Pure.
#pragma once

#include "matrix/matrix.hpp"
#include "order/counter_table.hpp"

namespace tscaudit {

/// The table of matrix `m`: reference CPU the first of m.cpus; the moment the median of the
/// pairs' band instants on its counter; each measured pair's offset band moved to that moment
/// by its drift band (a box that holds every line the pair's rounds allow) along its
/// initiator's counter, whose offset at the moment is bounded by a bound on every CPU's that
/// the moved bands themselves prove (counter_table_of.cpp), then each CPU's bounds against
/// the reference as the per-CPU hard bounds are made (shortest paths over the pairs,
/// solve_cpu_offsets), the drift bands likewise. A drifting CPU's pairs, whose bands at
/// their own instants contradict each other, agree once moved to one moment. A CPU no chain of bands bounds on both
/// sides has no band; when the bands contradict each other (a negative cycle), no CPU but the
/// reference has one. Empty (reference_cpu -1) when `m` has no CPU.
CounterTable counter_table_of(const MatrixResult& m);

}  // namespace tscaudit
