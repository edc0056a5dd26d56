// The choice of k in a k-sweep (docs/method.md §4.3). Too-small bounds (early
// reads) pull the envelopes in: the offset moves and the margin is held down until k
// passes the number of them per bin (a pair run's time bin, a monitor's interval), after
// which both settle; a clean lower tail then raises the margin only slowly. The rule: the
// smallest feasible k from which the next two steps of the sweep move the offset by at
// most half a quantum (at least 1 tick) and raise the margin by at most a tenth (at least
// half a quantum, at least 2 ticks). The margin's allowance is relative because real
// lower tails are broad: on the development machines the margin climbs 1-3 % per
// doubling of k, while early reads hold it down by 15-55 % per doubling in simulated runs.
// The pair analysis and the monitor's interval analysis both choose by this rule.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace tscaudit {

/// One step of a sweep as the rule reads it: the whole-run fit at that k.
struct SweepFit {
  bool feasible = false;    // one line fits every bound of the step
  double offset_ticks = 0;  // the fit's offset at the reference time
  double margin_ticks = 0;  // its margin (negative when the bounds cross)
};

struct SweepChoice {
  /// The smallest feasible step from which the next two agree with it (a step with fewer
  /// than two after it needs only those there are to agree); none when no step does.
  std::optional<std::size_t> stable;
  /// False when `stable` is the last step, with no step after it to agree with, and the
  /// step before it moved into it: a sweep that may still be moving (early reads in most
  /// bins, more than the smaller k step over), not shown stable.
  bool shown = true;
  /// The largest feasible step; none when no step is feasible.
  std::optional<std::size_t> largest_feasible;
};

/// Applies the rule to the steps of a sweep, in increasing k. \pre quantum_ticks >= 1.
SweepChoice choose_sweep_step(std::span<const SweepFit> steps, std::int64_t quantum_ticks);

/// One step of a sweep as the pieces of its bounds (estimate/offset_segments.hpp) read it,
/// for when no k fits the whole run (docs/method.md §6.4, §9.2).
struct SweepPieces {
  bool resolved = false;      // the bounds broke into at most max_pieces pieces
  std::size_t pieces = 0;     // how many
  std::size_t set_aside = 0;  // bounds set aside as transients
};

/// The step whose pieces to take when no k fits the whole run. A step is stable when every
/// larger step that could be cut into pieces found as many (early reads add pieces at
/// small k and are stepped over at larger k; a step of the offset adds one at every k); of
/// the stable steps, the one with the fewest bounds set aside (early reads are set aside at
/// small k and gone at larger k; a real excursion is set aside at every k), the smallest
/// on a tie. None when no step is resolved. The pair analysis and the monitor's interval
/// analysis both choose by this rule.
std::optional<std::size_t> choose_pieces_step(std::span<const SweepPieces> steps);

}  // namespace tscaudit
