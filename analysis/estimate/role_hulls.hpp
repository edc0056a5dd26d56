// One pair, one band (docs/method.md §3.7): the constraints of both roles of a pair, and of
// every visit of each, on one line. A pair a, b is measured twice: a initiates (the role
// a->b) and b initiates (b->a). Each role's analysis keeps the hulls its fit was made on
// (the k-sweep's chosen set); here the hulls of b->a are turned into a->b's frame, exactly,
// and the two sets fitted as one. Pure.
//
// Why the turn is exact. A message stamped s on its sender's counter and r on its
// receiver's bounds the offset receiver − sender from above by r − s at both instants, the
// sending and the receiving (both counters advance while it is in flight). So each bound
// of b->a's frame, a point (x, y) on b's counter, is a bound of a->b's frame at the other
// end of its message: x + y on a's counter, with the sign of y flipped and the direction of
// the bound reversed. The map (x, y) -> (x + y, -y) is affine; a line of slope ρ' > -1 lies
// on one side of every point of a set exactly when it lies on that side of every vertex of
// the set's hull (the condition on a point, c + ρ'(x + y) >= -y, is
// y >= (-c - ρ'x) / (1 + ρ')), so the turned hull vertices are as good as every round.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "estimate/fit.hpp"
#include "estimate/hull.hpp"

namespace tscaudit {

/// The constraint set of one fit in one frame: x in ticks of the frame's own counter from
/// t_ref_tick, y in ticks of (the other counter − this one).
struct FrameHulls {
  std::uint64_t t_ref_tick = 0;     // x = 0 on this frame's counter
  std::vector<Point> upper;         // the lower hull of the forward bounds: θ(x) <= y
  std::vector<Point> lower;         // the upper hull of the reverse bounds: θ(x) >= y
  std::int64_t quantum_ticks = 1;   // the reading error each bound allows
};

/// The same constraints in the responder's frame: x on the responder's counter (from the
/// same t_ref_tick, read as a value of that counter), y the initiator's counter minus the
/// responder's. nullopt when a coordinate would leave ±2^62 (hostile data): no turn is
/// made then.
std::optional<FrameHulls> responder_frame(const FrameHulls& hulls);

/// The fit of both roles together, in the frame of `ab` (a's counter, θ = TSC_b − TSC_a).
struct BothRolesFit {
  std::uint64_t t_ref_tick = 0;  // on a's counter: where the band is narrowest
  EnvelopeFit free_fit;          // drift free within ±kMaxDrift: its band is the pair's
  bool zero_drift = false;       // 0 lies in the drift band
  LineEstimate line;             // the zero-drift refit's line when zero_drift, else free_fit's
  std::int64_t quantum_ticks = 1;
};

/// Fits `ab` (the role a->b, in its own frame) and `ba` (the role b->a, in its own frame)
/// as one set of constraints on θ = TSC_b − TSC_a. nullopt when a coordinate would leave
/// ±2^62 or a set is empty. The band may be infeasible: then no one line fits both roles.
std::optional<BothRolesFit> fit_both_roles(const FrameHulls& ab, const FrameHulls& ba);

}  // namespace tscaudit
