// One pair, one band (estimate/role_hulls.hpp): the two roles' hulls joined exactly, on
// seeded simulated pairs with known truth. The joined fit equals the fit of every round of
// both roles written in one frame by hand (the turn loses nothing), holds the truth, and is
// as tight as the tighter role (one role in a slow regime costs nothing).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "estimate/fit.hpp"
#include "estimate/hull.hpp"
#include "estimate/role_hulls.hpp"
#include "pair/analyze.hpp"
#include "simulate/machine.hpp"

using namespace tscaudit;

namespace {

/// Two CPUs on one L3, CPU 1 `offset` ticks ahead and `drift_ppb` faster; the second role
/// (1 initiates) `slowdown` times slower.
MachineSpec two_cpus(double offset, double drift_ppb, double slowdown, std::uint64_t seed) {
  MachineSpec m;
  for (int cpu = 0; cpu < 2; ++cpu) {
    CpuPlace p;
    p.cpu = cpu;
    p.package = 0;
    p.l3 = 0;
    p.core = cpu;
    m.cpus.push_back(p);
  }
  m.seed = seed;
  m.rounds_per_pair = 20000;
  m.cpu_offset_ticks = {{1, offset}};
  m.cpu_drift_ppb = {{1, drift_ppb}};
  m.latency.second_role_slowdown = slowdown;
  return m;
}

/// Every round's bounds on θ = TSC_1 − TSC_0 on CPU 0's counter, from `t_ref` (ticks of
/// CPU 0): the role 0->1 as the estimators read it (U = t2 − t1 at t1, L = t3 − t4 at t4),
/// the role 1->0 by hand at CPU 0's end of each message (U = t4 − t3 at t3, L = t1 − t2 at t2).
void add_bounds(const Run& run, bool reversed, std::uint64_t t_ref, std::vector<Point>& upper,
                std::vector<Point>& lower) {
  for (const Round& r : run.rounds) {
    if (!reversed) {
      upper.push_back({x_of(r.t1, t_ref), fwd_ticks(r)});
      lower.push_back({x_of(r.t4, t_ref), -rev_ticks(r)});
    } else {
      upper.push_back({x_of(r.t3, t_ref), diff_ticks(r.t4, r.t3)});
      lower.push_back({x_of(r.t2, t_ref), diff_ticks(r.t1, r.t2)});
    }
  }
}

bool by_x(const Point& p, const Point& q) { return p.x < q.x || (p.x == q.x && p.y < q.y); }

/// The hulls of every round of a run, in its own frame (k = 1, what the analysis keeps when
/// the sweep chooses every round).
FrameHulls every_round(const Run& run, std::int64_t quantum) {
  FrameHulls h;
  h.t_ref_tick = run.rounds[run.rounds.size() / 2].t1;
  h.quantum_ticks = quantum;
  std::vector<Point> u, l;
  add_bounds(run, false, h.t_ref_tick, u, l);
  std::sort(u.begin(), u.end(), by_x);
  std::sort(l.begin(), l.end(), by_x);
  h.upper = lower_hull(u);
  h.lower = upper_hull(l);
  return h;
}

}  // namespace

TEST_CASE("role hulls: the joined fit is the fit of every round of both roles, exactly") {
  for (const double drift : {0.0, 2000.0}) {
    const SimulatedMachine machine(two_cpus(250, drift, 1, 11));
    const Run ab = machine.simulate_pair(0, 1).run, ba = machine.simulate_pair(1, 0).run;
    const std::optional<BothRolesFit> joined = fit_both_roles(every_round(ab, 1), every_round(ba, 1));
    REQUIRE(joined);
    REQUIRE(joined->free_fit.band.feasible);
    // By hand: every bound of both roles on CPU 0's counter, from the joined reference.
    std::vector<Point> u, l;
    add_bounds(ab, false, joined->t_ref_tick, u, l);
    add_bounds(ba, true, joined->t_ref_tick, u, l);
    std::sort(u.begin(), u.end(), by_x);
    std::sort(l.begin(), l.end(), by_x);
    const EnvelopeFit all = fit_envelopes(u, l, 1);
    REQUIRE(all.band.feasible);
    INFO("drift " << drift);
    CHECK(joined->free_fit.band.offset_lo_ticks == Approx(all.band.offset_lo_ticks).margin(1e-6));
    CHECK(joined->free_fit.band.offset_hi_ticks == Approx(all.band.offset_hi_ticks).margin(1e-6));
    CHECK(joined->free_fit.band.drift_lo == Approx(all.band.drift_lo).margin(1e-15));
    CHECK(joined->free_fit.band.drift_hi == Approx(all.band.drift_hi).margin(1e-15));
  }
}

TEST_CASE("role hulls: the joined band holds the truth and is inside both roles' bands") {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const SimulatedMachine machine(two_cpus(-400, 0, 1, seed));
    const Run ab = machine.simulate_pair(0, 1).run, ba = machine.simulate_pair(1, 0).run;
    const PairAnalysis pa = analyze_run(ab, "ab"), pb = analyze_run(ba, "ba");
    const std::optional<BothRolesFit> joined = fit_both_roles(pa.hulls, pb.hulls);
    REQUIRE(joined);
    const HardBand& band = joined->free_fit.band;
    REQUIRE(band.feasible);
    INFO("seed " << seed << ": [" << band.offset_lo_ticks << ", " << band.offset_hi_ticks << "]");
    CHECK(band.offset_lo_ticks <= -400);
    CHECK(band.offset_hi_ticks >= -400);
    // Each role alone: θ_01 in a->b's band; −θ_10 in b->a's. No drift: comparable anywhere.
    CHECK(band.offset_lo_ticks >= pa.fit.band.offset_lo_ticks - 1e-6);
    CHECK(band.offset_hi_ticks <= pa.fit.band.offset_hi_ticks + 1e-6);
    CHECK(band.offset_lo_ticks >= -pb.fit.band.offset_hi_ticks - 1e-6);
    CHECK(band.offset_hi_ticks <= -pb.fit.band.offset_lo_ticks + 1e-6);
  }
}

TEST_CASE("role hulls: one role in a slow regime costs nothing, the fast role's band stands") {
  const SimulatedMachine machine(two_cpus(0, 0, 4, 7));
  const PairAnalysis fast = analyze_run(machine.simulate_pair(0, 1).run, "fast");
  const PairAnalysis slow = analyze_run(machine.simulate_pair(1, 0).run, "slow");
  const double fast_width = fast.fit.band.offset_hi_ticks - fast.fit.band.offset_lo_ticks;
  const double slow_width = slow.fit.band.offset_hi_ticks - slow.fit.band.offset_lo_ticks;
  REQUIRE(slow_width > 3 * fast_width);  // the slow regime: four times the delays
  const std::optional<BothRolesFit> joined = fit_both_roles(fast.hulls, slow.hulls);
  REQUIRE(joined);
  const HardBand& band = joined->free_fit.band;
  REQUIRE(band.feasible);
  CHECK(band.offset_lo_ticks <= 0);
  CHECK(band.offset_hi_ticks >= 0);
  CHECK(band.offset_hi_ticks - band.offset_lo_ticks <= fast_width + 1e-6);
}

TEST_CASE("role hulls: roles that fit no one line, and coordinates beyond 2^62") {
  // The offset moved between the roles: each fits its own line, the two fit none.
  const SimulatedMachine before(two_cpus(0, 0, 1, 3)), after(two_cpus(3000, 0, 1, 3));
  const PairAnalysis ab = analyze_run(before.simulate_pair(0, 1).run, "ab");
  const PairAnalysis ba = analyze_run(after.simulate_pair(1, 0).run, "ba");
  REQUIRE(ab.fit.band.feasible);
  REQUIRE(ba.fit.band.feasible);
  const std::optional<BothRolesFit> joined = fit_both_roles(ab.hulls, ba.hulls);
  REQUIRE(joined);
  CHECK_FALSE(joined->free_fit.band.feasible);
  // Hostile coordinates: no join, rather than a wrong one.
  FrameHulls far = ab.hulls;
  far.upper.front().y = (std::int64_t{1} << 62) + 1;
  CHECK_FALSE(fit_both_roles(ab.hulls, far));
  FrameHulls distant = ba.hulls;
  distant.t_ref_tick = ab.hulls.t_ref_tick + (std::uint64_t{1} << 63);
  CHECK_FALSE(fit_both_roles(ab.hulls, distant));
  CHECK_FALSE(fit_both_roles(ab.hulls, FrameHulls{}));
}

TEST_CASE("role hulls: the responder's frame is the initiator's turned, and turned back") {
  const SimulatedMachine machine(two_cpus(120, 0, 1, 5));
  const FrameHulls h = every_round(machine.simulate_pair(0, 1).run, 1);
  const std::optional<FrameHulls> r = responder_frame(h);
  REQUIRE(r);
  // θ' = −θ: the responder's band is the initiator's, sign flipped.
  const EnvelopeFit a = fit_hulls(h.upper, h.lower, 1), b = fit_hulls(r->upper, r->lower, 1);
  REQUIRE(a.band.feasible);
  REQUIRE(b.band.feasible);
  // Each frame's band at its own x = 0 (the same tick on the two counters); the line drifts
  // by at most kMaxDrift × the offset between them.
  const double slack = kMaxDrift * 200;
  CHECK(b.band.offset_lo_ticks == Approx(-a.band.offset_hi_ticks).margin(slack));
  CHECK(b.band.offset_hi_ticks == Approx(-a.band.offset_lo_ticks).margin(slack));
  const std::optional<FrameHulls> back = responder_frame(*r);
  REQUIRE(back);
  CHECK(back->upper == h.upper);
  CHECK(back->lower == h.lower);
}
