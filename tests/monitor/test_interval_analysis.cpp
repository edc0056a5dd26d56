// analyze_interval_log held to account on interval logs of simulated runs with known
// truth (interval_fixture.hpp), and on hand-made logs for the exact parts.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "interval_fixture.hpp"
#include "monitor/interval_accumulator.hpp"
#include "monitor/interval_analysis.hpp"
#include "render/monitor_output.hpp"
#include "simulate/simulate.hpp"

using namespace tscaudit;

namespace {

struct Outcome {
  IntervalLog log;
  SimulationTruth truth;
  MonitorAnalysis analysis;
};

/// 400 000 rounds of about 485 ticks in 100 intervals of about 4000 rounds each.
SimulationSpec base_spec(std::uint64_t seed) {
  SimulationSpec spec;
  spec.rounds = 400'000;
  spec.seed = seed;
  return spec;
}

/// base_spec with the offset stepping by `step_ticks` from offset_ticks at
/// `step_at_fraction` of the run.
SimulationSpec step_spec(std::uint64_t seed, double offset_ticks, double step_ticks, double step_at_fraction) {
  SimulationSpec spec = base_spec(seed);
  spec.offset_ticks = offset_ticks;
  spec.steps = {{step_ticks, step_at_fraction}};
  return spec;
}

Outcome run_scenario(const SimulationSpec& spec, const std::function<void(Run&, const SimulationTruth&)>& edit = {}) {
  Outcome o;
  Run run = simulate(spec, o.truth);
  if (edit) edit(run, o.truth);
  o.log = interval_log_of(run, 100);
  o.analysis = analyze_interval_log(o.log, "sim.log");
  return o;
}

/// The position of the interval whose [start, end) holds `tick`.
std::uint64_t interval_holding(const IntervalLog& log, std::uint64_t tick) {
  for (const IntervalSummary& s : log.intervals) {
    if (tick >= s.start_tick && tick < s.end_tick) return s.index;
  }
  FAIL("tick " << tick << " lies in no interval");
  return 0;
}

/// The documented accuracy (docs/method.md §3.6): half a quantum plus a tick from the
/// truth with symmetric delays.
double estimate_limit(std::int64_t q) { return static_cast<double>(q) / 2 + 1; }

}  // namespace

TEST_CASE("interval fixture: the sorting reference agrees with the monitor's IntervalAccumulator") {
  // The logs these tests analyze are made by sorting; the monitor's are made by the
  // accumulator. Field for field the same, early reads and a quantum included.
  SimulationSpec spec = base_spec(81);
  spec.rounds = 40'000;
  spec.quantum_ticks = 26;
  spec.spec_b.rate = 2e-3;
  SimulationTruth truth;
  const Run run = simulate(spec, truth);
  const IntervalLog log = interval_log_of(run, 10);
  IntervalAccumulator acc(26);
  std::size_t next = 0;
  for (const IntervalSummary& want : log.intervals) {
    acc.begin(want.index, want.start_tick, want.end_tick);
    while (next < run.rounds.size() && run.rounds[next].t1 < want.end_tick) acc.add(run.rounds[next++]);
    INFO("interval " << want.index);
    CHECK(acc.summary() == want);
  }
}

TEST_CASE("interval analysis: a clean run without drift: the band holds the truth and no drift or step is found") {
  for (std::uint64_t q : {std::uint64_t{1}, std::uint64_t{26}}) {
    SimulationSpec spec = base_spec(11 + q);
    spec.offset_ticks = 3000;
    spec.quantum_ticks = q;
    const Outcome o = run_scenario(spec);
    const MonitorAnalysis& m = o.analysis;
    INFO("q = " << q << "\n" << monitor_text(m));
    CHECK(m.status == MonitorStatus::complete);
    CHECK_FALSE(m.incomplete.has_value());
    CHECK(m.quantum_ticks == static_cast<std::int64_t>(q));
    CHECK(m.quantum_source == "metadata");
    CHECK(m.intervals == 100);
    CHECK(m.totals.rounds == spec.rounds);
    REQUIRE(m.fit.band.feasible);
    const double truth = true_offset_ticks(o.truth, static_cast<double>(m.t_ref_tick));
    CHECK(m.fit.band.offset_lo_ticks <= truth);
    CHECK(m.fit.band.offset_hi_ticks >= truth);
    CHECK(std::fabs(m.fit.line.offset_ticks - truth) <= estimate_limit(m.quantum_ticks));
    CHECK(m.zero_drift);
    CHECK(m.fit.line.drift == Approx(0.0).margin(0));  // the zero-drift refit
    CHECK(m.free_fit.band.drift_lo <= 0);
    CHECK(m.free_fit.band.drift_hi >= 0);
    CHECK(m.pieces.size() == 1);
    CHECK(m.steps.empty());
    CHECK(m.transients.empty());
    CHECK(m.moves.empty());
    CHECK(m.runs_excluding_line.empty());
    CHECK(m.fwd_violations_at_least == 0);
    CHECK(m.rev_violations_at_least == 0);
    CHECK(m.k == 1);  // nothing to set aside: k = 1 is stable
    CHECK(m.sweep_settled);
    CHECK(m.sweep.size() == 3);
    CHECK(m.verdict.kind == VerdictKind::offset);
    // Every interval's own band holds the truth at its middle.
    for (const IntervalBand& b : m.bands) {
      REQUIRE(b.present);
      const double t = true_offset_ticks(o.truth, static_cast<double>(m.t_ref_tick) + b.mid_x);
      CHECK(b.lo_ticks <= t);
      CHECK(b.hi_ticks >= t);
      REQUIRE(b.line_ticks.has_value());
      CHECK(*b.line_ticks == Approx(m.fit.line.offset_ticks));
    }
  }
}

TEST_CASE("interval analysis: drift is recovered within its band") {
  for (double drift_ppb : {-2000.0, 20000.0}) {
    SimulationSpec spec = base_spec(31);
    spec.offset_ticks = -150;
    spec.drift_ppb = drift_ppb;
    const Outcome o = run_scenario(spec);
    const MonitorAnalysis& m = o.analysis;
    INFO("drift " << drift_ppb << " ppb\n" << monitor_text(m));
    REQUIRE(m.fit.band.feasible);
    CHECK_FALSE(m.zero_drift);
    CHECK(m.free_fit.band.drift_lo * 1e9 <= drift_ppb);
    CHECK(m.free_fit.band.drift_hi * 1e9 >= drift_ppb);
    const double truth = true_offset_ticks(o.truth, static_cast<double>(m.t_ref_tick));
    CHECK(m.fit.band.offset_lo_ticks <= truth);
    CHECK(m.fit.band.offset_hi_ticks >= truth);
    CHECK(std::fabs(m.fit.line.offset_ticks - truth) <= estimate_limit(1));
    // One point per interval and side: the drift resolution is 2 (q + 1) / span, as for
    // analyze's bins.
    CHECK(std::fabs(m.fit.line.drift * 1e9 - drift_ppb) <= 2.0 * 2 / m.span_ticks * 1e9);
    CHECK(m.steps.empty());
    CHECK(m.verdict.kind == VerdictKind::drifting);
  }
}

TEST_CASE("interval analysis: an offset step is found at its interval with its size") {
  for (std::uint64_t q : {std::uint64_t{1}, std::uint64_t{26}}) {
    SimulationSpec spec = base_spec(41 + q);
    spec.offset_ticks = -150;
    spec.quantum_ticks = q;
    spec.steps = {{2002, 0.375}};  // 77 quanta of 26, in the middle of interval 37
    const Outcome o = run_scenario(spec);
    const MonitorAnalysis& m = o.analysis;
    INFO("q = " << q << "\n" << monitor_text(m));
    REQUIRE(m.steps.size() == 1);
    REQUIRE(m.pieces.size() == 2);
    const MonitorStep& s = m.steps[0];
    CHECK(s.proven);
    CHECK(s.interval == interval_holding(o.log, o.truth.steps.at(0).tick));
    CHECK(s.interval == 37);
    CHECK(s.window_lo_tick < o.truth.steps.at(0).tick + q);
    CHECK(s.window_hi_tick + q >= o.truth.steps.at(0).tick);
    CHECK(s.size_lo_ticks <= 2002);
    CHECK(s.size_hi_ticks >= 2002);
    CHECK(std::fabs(s.size_ticks - 2002) <= static_cast<double>(q) + 2);
    CHECK(m.pieces[0].first_interval == 0);
    CHECK(m.pieces[1].last_interval == 99);
    CHECK(m.pieces[0].zero_drift);
    CHECK(m.pieces[1].zero_drift);
    CHECK(std::fabs(m.pieces[0].offset_ticks + 150) <= estimate_limit(m.quantum_ticks));
    CHECK(std::fabs(m.pieces[1].offset_ticks - 1852) <= estimate_limit(m.quantum_ticks));
    // Every k sees it: it is no early read.
    for (const IntervalSweepStep& k : m.sweep) CHECK(k.pieces == 2);
    // Bounds near the step are judged against both pieces: none is taken for an early read.
    CHECK(m.fwd_violations_at_least == 0);
    CHECK(m.rev_violations_at_least == 0);
    CHECK(m.verdict.kind == VerdictKind::offset_stepped);
    REQUIRE(m.verdict.proven_steps.size() == 1);
    CHECK(m.verdict.proven_steps[0].interval == 37);
    // The whole-run line fits neither side: the intervals against it are most of the run.
    CHECK_FALSE(m.runs_excluding_line.empty());
  }
}

TEST_CASE("interval analysis: a step at an interval's start: the bounds after it are no early reads") {
  // The step falls a few hundred ticks into interval 50. Its upper bounds after the step
  // do not contradict the old line, so the old piece reaches into interval 50; its lower
  // bounds belong to the new offset. Judged against the old piece alone they would look
  // like early reads.
  const Outcome o = run_scenario(step_spec(47, -150, 3000, 0.5));
  const MonitorAnalysis& m = o.analysis;
  INFO(monitor_text(m));
  REQUIRE(m.steps.size() == 1);
  const std::uint64_t truth = interval_holding(o.log, o.truth.steps.at(0).tick);
  CHECK(truth == 50);
  CHECK(m.steps[0].window_first_interval <= truth);
  CHECK(m.steps[0].window_last_interval >= truth);
  CHECK(m.steps[0].window_last_interval - m.steps[0].window_first_interval <= 1);
  CHECK(m.fwd_violations_at_least == 0);
  CHECK(m.rev_violations_at_least == 0);
  CHECK(m.verdict.kind == VerdictKind::offset_stepped);
  CHECK(m.verdict.proven_steps.size() == 1);
  const IntervalBand& after = m.bands[truth + 1];
  REQUIRE(after.line_ticks.has_value());
  CHECK(std::fabs(*after.line_ticks - 2850) <= 2);  // the new piece's line
}

TEST_CASE("interval analysis: a step smaller than the bands is not proven but the estimate's move is reported") {
  // 100 ticks against bands about 360 wide: a constant offset with an equal and opposite
  // change of the two delays fits the bounds as well, so no step can be proven.
  const Outcome o = run_scenario(step_spec(45, -150, 100, 0.375));
  const MonitorAnalysis& m = o.analysis;
  INFO(monitor_text(m));
  CHECK(m.steps.empty());
  CHECK(m.pieces.size() == 1);
  REQUIRE(m.moves.size() == 1);
  const MonitorMove& mv = m.moves[0];
  CHECK(mv.offset_like);
  // The first interval wholly after the step: interval 37 holds both offsets.
  CHECK(mv.interval == interval_holding(o.log, o.truth.steps.at(0).tick) + 1);
  CHECK(std::fabs(mv.size_ticks - 100) <= 3);
  CHECK(std::fabs(mv.margin_change_ticks) <= 2);
  CHECK(m.verdict.kind == VerdictKind::synchronized);
  CHECK(monitor_text(m).find("  moved     the estimate moved by ") != std::string::npos);
  CHECK(monitor_timeseries_dat(m, o.log).find("\n# moves: ") != std::string::npos);
}

TEST_CASE(
    "interval analysis: a slower forward path moves estimate and margin together: the delays changed and not the "
    "offset") {
  SimulationSpec spec = base_spec(46);
  std::uint64_t from = 0;
  const Outcome o = run_scenario(spec, [&](Run& run, const SimulationTruth&) {
    from = run.rounds.front().t1 + (run.rounds.back().t1 - run.rounds.front().t1) / 2;
    for (Round& r : run.rounds) {
      if (r.t1 < from) continue;
      r.t2 += 100;  // the ping arrives 100 ticks later; everything after it moves too
      r.t3 += 100;
      r.t4 += 100;
    }
  });
  const MonitorAnalysis& m = o.analysis;
  INFO(monitor_text(m));
  CHECK(m.steps.empty());
  REQUIRE(m.moves.size() == 1);
  CHECK_FALSE(m.moves[0].offset_like);
  CHECK(std::fabs(m.moves[0].size_ticks - 50) <= 3);
  CHECK(std::fabs(m.moves[0].margin_change_ticks - 50) <= 3);
  CHECK(monitor_text(m).find("  delays    changed from interval ") != std::string::npos);
}

TEST_CASE("interval analysis: two steps and a step with its return are each found") {
  struct TwoSteps {
    std::uint64_t seed;
    double first_ticks;
    double first_fraction;  // of the run's time
    std::uint64_t first_interval;
    std::uint64_t second_interval;  // the second step lies in its middle
    double second_ticks;
  };
  // Up 2000 at interval 25, down 1200 at interval 70; up 3000 at interval 30, back at 60.
  const TwoSteps c = GENERATE(TwoSteps{51, 2000, 0.255, 25, 70, -1200}, TwoSteps{52, 3000, 0.305, 30, 60, -3000});
  SimulationSpec spec = base_spec(c.seed);
  spec.steps = {{c.first_ticks, c.first_fraction}};
  std::uint64_t second = 0;
  const Outcome o = run_scenario(spec, [&](Run& run, const SimulationTruth&) {
    const std::uint64_t span = run.rounds.back().t1 - run.rounds.front().t1;
    second = run.rounds.front().t1 + span / 100 * c.second_interval + span / 200;
    add_offset_step(run, second, static_cast<std::int64_t>(c.second_ticks));
  });
  const MonitorAnalysis& m = o.analysis;
  INFO(monitor_text(m));
  REQUIRE(m.steps.size() == 2);
  CHECK(m.steps[0].proven);
  CHECK(m.steps[1].proven);
  CHECK(m.steps[0].interval == interval_holding(o.log, o.truth.steps.at(0).tick));
  CHECK(m.steps[0].interval == c.first_interval);
  CHECK(m.steps[1].interval == interval_holding(o.log, second));
  CHECK(m.steps[1].interval == c.second_interval);
  CHECK(std::fabs(m.steps[0].size_ticks - c.first_ticks) <= 3);
  CHECK(std::fabs(m.steps[1].size_ticks - c.second_ticks) <= 3);
  // A round that straddles the step back can read as impossible for any offset; the
  // verdict then leads with that, and the steps follow.
  CHECK(m.verdict.kind == (m.totals.self_inconsistent > 0 ? VerdictKind::unsafe_reads : VerdictKind::offset_stepped));
  CHECK(m.verdict.proven_steps.size() == 2);
  // The last piece is the first moved by both steps: back where it was after a return.
  REQUIRE(m.pieces.size() == 3);
  CHECK(std::fabs(m.pieces[2].offset_ticks - m.pieces[0].offset_ticks - (c.first_ticks + c.second_ticks)) <= 2);
}

TEST_CASE("interval analysis: early reads cut into k = 1 and the sweep steps over them") {
  SimulationSpec spec = base_spec(61);
  spec.offset_ticks = -150;
  spec.quantum_ticks = 26;
  spec.spec_b.rate = 3e-4;  // about 1.2 early t2 per interval
  spec.spec_b.early_min_ticks = 800;
  spec.spec_b.early_max_ticks = 1000;
  const Outcome o = run_scenario(spec);
  const MonitorAnalysis& m = o.analysis;
  INFO(monitor_text(m) << "early t2: " << o.truth.early_t2_count);
  REQUIRE(o.truth.early_t2_count > 0);
  REQUIRE(m.sweep.size() == 3);
  CHECK_FALSE(m.sweep[0].feasible);  // k = 1 crossed
  CHECK(m.k > 1);
  REQUIRE(m.fit.band.feasible);
  const double truth = true_offset_ticks(o.truth, static_cast<double>(m.t_ref_tick));
  CHECK(m.fit.band.offset_lo_ticks <= truth);
  CHECK(m.fit.band.offset_hi_ticks >= truth);
  CHECK(std::fabs(m.fit.line.offset_ticks - truth) <= estimate_limit(26));
  CHECK(m.steps.empty());
  // A lower bound: every violation counted is an injected early read, and some are.
  CHECK(m.fwd_violations_at_least > 0);
  CHECK(m.fwd_violations_at_least <= o.truth.early_t2_count);
  CHECK(m.rev_violations_at_least == 0);
  for (const IntervalBand& b : m.bands) {
    if (b.fwd_violations_at_least == 0) continue;
    const IntervalSummary& s = o.log.intervals[b.index];
    CHECK(s.fwd_k[0].value_ticks < 0);  // b's counter is behind: early t2 reads go negative
  }
  CHECK(m.verdict.kind == VerdictKind::unsafe_reads);
}

TEST_CASE("interval analysis: a step under early reads: the sweep finds the k where only the step remains") {
  SimulationSpec spec = step_spec(62, -150, 3000, 0.655);  // the middle of interval 65
  spec.spec_b.rate = 1e-3;                                 // about 4 early t2 per interval: k = 1 and k = 4 cut
  spec.spec_b.early_min_ticks = 800;
  spec.spec_b.early_max_ticks = 1000;
  const Outcome o = run_scenario(spec);
  const MonitorAnalysis& m = o.analysis;
  INFO(monitor_text(m));
  REQUIRE(m.sweep.size() == 3);
  CHECK_FALSE(m.sweep[0].resolved);  // k = 1: early reads everywhere, no handful of changes
  CHECK(m.k == 16);
  CHECK(m.sweep_settled);
  REQUIRE(m.steps.size() == 1);
  CHECK(m.steps[0].proven);
  CHECK(m.steps[0].interval == 65);
  CHECK(std::fabs(m.steps[0].size_ticks - 3000) <= 3);
  CHECK(m.transients.empty());
  CHECK(m.fwd_violations_at_least > 0);
  CHECK(m.fwd_violations_at_least <= o.truth.early_t2_count);
  CHECK(m.rev_violations_at_least == 0);  // no early t4 was injected
}

namespace {

/// A log of `n` hand-made intervals, consistent (offset 0, latencies 200 each way), with
/// the interference fields set by `edit`.
IntervalLog hand_log(std::size_t n, const std::function<void(IntervalSummary&)>& edit) {
  IntervalLog log;
  log.header.set("a", "0");
  log.header.set("b", "1");
  log.header.set("send", "rdtsc");
  log.header.set("recv", "lfence_rdtsc");
  log.header.set("quantum_ticks", "1");
  log.header.set("tsc_hz", "1000000");  // 1 MHz: an interval of 10^7 ticks is 10 s
  for (std::size_t i = 0; i < n; ++i) {
    IntervalSummary s;
    s.index = i;
    s.start_tick = 5'000'000 + i * 10'000'000;
    s.end_tick = s.start_tick + 10'000'000;
    s.rounds = 1000;
    for (std::size_t ki = 0; ki < kIntervalKCount; ++ki) {
      s.fwd_k[ki] = {true, 200 + static_cast<std::int64_t>(ki), s.start_tick + 100 + ki};
      s.rev_k[ki] = {true, 200 + static_cast<std::int64_t>(ki), s.start_tick + 5'000'000 + ki};
    }
    s.rtt_min = 400;
    s.rtt_p50 = 420;
    s.rtt_p99 = 500;
    s.rtt_p999 = 600;
    s.rtt_max = 700;
    s.peak_rss_kib = 4000;
    edit(s);
    log.intervals.push_back(s);
  }
  log.trailer.set("status", "complete");
  return log;
}

}  // namespace

TEST_CASE("interval analysis: a bound inside a step's window is judged against both pieces") {
  // Offset 0, then 1000 from interval 10 on; latencies 200 each way. In interval 10 the
  // k = 4 forward latency comes first (+100 ticks), the k = 1 reverse one in the middle
  // (+300) and the k = 4 reverse one last (+500). One early forward read in interval 3
  // crosses k = 1, so k = 4 is chosen; the k = 1 reverse bound of interval 10 then lies
  // between the old piece's last bound and the new piece's first: above the old band,
  // inside the new one. Not an early read.
  const IntervalLog log = hand_log(20, [](IntervalSummary& s) {
    if (s.index == 3) s.fwd_k[0].value_ticks = -900;
    if (s.index < 10) return;
    for (std::size_t ki = 0; ki < kIntervalKCount; ++ki) {
      s.fwd_k[ki].value_ticks += 1000;
      s.rev_k[ki].value_ticks -= 1000;
    }
    if (s.index != 10) return;
    for (std::size_t ki = 0; ki < kIntervalKCount; ++ki) {
      s.fwd_k[ki].at_tick = s.start_tick + 100 + ki;
      s.rev_k[ki].at_tick = s.start_tick + (ki == 0 ? 300 : 500 + ki);
    }
  });
  const MonitorAnalysis m = analyze_interval_log(log, "window.log");
  INFO(monitor_text(m));
  CHECK(m.k == 4);
  REQUIRE(m.steps.size() == 1);
  CHECK(m.steps[0].proven);
  CHECK(m.steps[0].size_ticks == Approx(1000));
  CHECK(m.steps[0].window_last_interval == 10);
  CHECK(m.rev_violations_at_least == 0);
  CHECK(m.fwd_violations_at_least == 1);  // interval 3's early read
  CHECK(m.bands[3].fwd_violations_at_least == 1);
}

TEST_CASE("interval analysis: the worst intervals and the totals and memory exactly") {
  const IntervalLog log = hand_log(80, [](IntervalSummary& s) {
    const std::uint64_t i = s.index;
    s.rtt_max = 700 + static_cast<std::int64_t>((i * 37) % 11) * 100;  // 0..10 -> 700..1700, ties
    s.rtt_p999 = i == 3 ? 5000 : 600;
    s.fwd_negative = i % 10 == 0 ? i : 0;
    s.rev_negative = i == 10 ? 5 : 0;
    s.self_inconsistent = i == 44 ? 2 : 0;
    s.lost = i == 7 || i == 8 ? 100 : 0;
    s.late = i == 9 ? 3 : 0;
    s.stall_ms = i == 79 ? 250 : (i == 12 ? 250 : 0);
    s.switches_a = 1;
    s.switches_b = i % 2;
    s.peak_rss_kib = 4000 + std::min<std::uint64_t>(i, 6) * 10;  // grows for a minute, then flat
    if (i == 19) s.rounds = 0;                                   // no rounds: not ranked by rtt
  });
  const MonitorAnalysis m = analyze_interval_log(log, "hand.log");
  INFO(monitor_text(m));
  // (i * 37) % 11 == 10 for i = 8, 19, 30, 41, 52, 63, 74; interval 19 holds no rounds.
  CHECK(m.worst.rtt_max == std::vector<RankedInterval>{{8, 1700}, {30, 1700}, {41, 1700}, {52, 1700}, {63, 1700}});
  CHECK(m.worst.rtt_p999.front() == RankedInterval{3, 5000});
  CHECK(m.worst.rtt_p999.size() == kWorstIntervals);
  CHECK(m.worst.negatives == std::vector<RankedInterval>{{70, 70}, {60, 60}, {50, 50}, {40, 40}, {30, 30}});
  CHECK(m.worst.self_inconsistent == std::vector<RankedInterval>{{44, 2}});
  CHECK(m.worst.lost == std::vector<RankedInterval>{{7, 100}, {8, 100}});
  CHECK(m.worst.stall_ms == std::vector<RankedInterval>{{12, 250}, {79, 250}});
  CHECK(m.totals.rounds == 79'000);
  CHECK(m.totals.lost == 200);
  CHECK(m.totals.late == 3);
  CHECK(m.totals.fwd_negative == 10 + 20 + 30 + 40 + 50 + 60 + 70);
  CHECK(m.totals.rev_negative == 5);
  CHECK(m.totals.self_inconsistent == 2);
  CHECK(m.totals.switches_a == 80);
  CHECK(m.totals.switches_b == 40);
  CHECK(m.totals.stall_ms_max == 250);
  CHECK(m.totals.empty_intervals == 1);
  CHECK(m.span_s == Approx(800));
  // 1 min into the run: interval 6 holds [60 s, 70 s); 10 min: interval 60.
  REQUIRE(m.rss.size() == 4);
  CHECK(m.rss[0].label == "first");
  CHECK(m.rss[0].peak_rss_kib == 4000);
  CHECK(m.rss[1].label == "1 min");
  CHECK(m.rss[1].interval == 6);
  CHECK(m.rss[1].peak_rss_kib == 4060);
  CHECK(m.rss[2].label == "10 min");
  CHECK(m.rss[2].interval == 60);
  CHECK(m.rss[3].label == "last");
  CHECK(m.rss[3].interval == 79);
  CHECK(m.rss[3].peak_rss_kib == 4060);
  CHECK(m.peak_rss_max_kib == 4060);
  // Offset 0 with 200 ticks each way: synchronized within the band.
  CHECK(m.fit.line.offset_ticks == Approx(0.0).margin(1e-9));
  REQUIRE(m.verdict.unsafe.has_value());
  CHECK(m.verdict.kind == VerdictKind::unsafe_reads);
  CHECK(m.verdict.unsafe->self_inconsistent == 2);  // 2 rounds impossible for any offset
  const nlohmann::ordered_json j = monitor_json(m);
  CHECK(j["schema"] == "tscaudit-monitor-analysis/1");
  CHECK(j["worst"]["lost"].dump() == R"([{"interval":7,"value":100},{"interval":8,"value":100}])");
  CHECK(j["peak_rss_kib"]["samples"][1]["at"] == "1 min");
  CHECK(j["totals"]["rounds"] == 79'000);
}

TEST_CASE("interval analysis: a short run has no 1 min sample and without a frequency no seconds") {
  IntervalLog log = hand_log(3, [](IntervalSummary&) {});
  log.header = {};
  const MonitorAnalysis m = analyze_interval_log(log, "short.log");
  CHECK_FALSE(m.tsc_hz > 0);
  CHECK(std::isnan(m.span_s));
  CHECK(m.quantum_source == "assumed");
  REQUIRE(m.rss.size() == 2);
  CHECK(m.rss[0].label == "first");
  CHECK(m.rss[1].label == "last");
  CHECK(m.a == "?");
  const std::string dat = monitor_timeseries_dat(m, log);
  CHECK(dat.find("# xlabel: interval\n") != std::string::npos);
}

TEST_CASE("interval analysis: interrupted and aborted and cut-short logs are analyzed and flagged") {
  struct Ending {
    std::vector<std::pair<std::string, std::string>> trailer;  // none: the process died mid-run
    MonitorStatus status;
    const char* status_name;  // JSON
    const char* text;         // the text's status line
  };
  const Ending e = GENERATE(Ending{{{"signal", "SIGINT"}, {"status", "interrupted"}},
                                   MonitorStatus::interrupted,
                                   "interrupted",
                                   "  status    INTERRUPTED: "},
                            Ending{{{"error", "partner stopped answering"}, {"status", "aborted"}},
                                   MonitorStatus::aborted,
                                   "aborted",
                                   "  status    ABORTED: "},
                            Ending{{}, MonitorStatus::cut_short, "cut short", "  status    CUT SHORT: "});
  IntervalLog log = hand_log(10, [](IntervalSummary&) {});
  log.trailer = {};
  for (const auto& [key, value] : e.trailer) log.trailer.set(key, value);
  const MonitorAnalysis m = analyze_interval_log(log, "m.log");
  INFO(e.status_name);
  CHECK(m.status == e.status);
  CHECK(m.incomplete.has_value());
  CHECK(monitor_text(m).find(e.text) != std::string::npos);
  const nlohmann::ordered_json j = monitor_json(m);
  CHECK(j["status"] == e.status_name);
  CHECK(j["complete"] == false);
  CHECK(m.intervals == 10);
  CHECK(m.fit.band.feasible);  // still analyzed
}

TEST_CASE("interval analysis: a log without intervals is refused") {
  IntervalLog log;
  CHECK_THROWS_MATCHES(analyze_interval_log(log, "empty.log"), InputError,
                       Catch::Message("empty.log: no intervals to analyze"));
}

TEST_CASE("interval analysis: CSV has one row per interval and the time series one line per interval") {
  SimulationSpec spec = base_spec(71);
  spec.steps = {{1000, 0.5}};
  const Outcome o = run_scenario(spec);
  const std::string csv = monitor_csv_header() + monitor_csv_rows(o.analysis, o.log);
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 101);
  CHECK(csv.rfind("source,interval,start_tick,", 0) == 0);
  CHECK(csv.find("\nsim.log,0,") != std::string::npos);
  const std::string dat = monitor_timeseries_dat(o.analysis, o.log);
  std::size_t rows = 0, pos = 0;
  while ((pos = dat.find('\n', pos)) != std::string::npos) {
    ++pos;
    if (pos < dat.size() && dat[pos] != '#') ++rows;
  }
  CHECK(rows == 100);
  CHECK(dat.find("# steps: ") != std::string::npos);
  CHECK(dat.find("# columns: time band_lo_ticks band_hi_ticks estimate_ticks line_ticks ") != std::string::npos);
}

// The logs in tests/data/monitor/, made here from simulated rounds (the CLI tests and the
// example in docs/commands.md read them). TSCAUDIT_WRITE_FIXTURES=1 writes them; otherwise the test
// checks that the committed files are what this code makes.
namespace {

const std::string kMonitorData = std::string(TSCAUDIT_TEST_DATA) + "/monitor";

/// 42 intervals of about 15 s at 2.3 GHz, about 60 rounds each: offset -150 ticks, a step
/// of +5000 ticks 60 % into the run (interval 25), a stall with lost rounds in interval
/// 9, memory that grows for the first minute and then stays flat.
IntervalLog fixture_step_log() {
  SimulationSpec spec;
  spec.rounds = std::uint64_t{42} * 60;
  spec.seed = 2026;
  spec.offset_ticks = -150;
  spec.steps = {{5000, 0.6}};
  spec.tsc_hz = 2.3e9;
  spec.gap_ticks = 15 * spec.tsc_hz / 60;  // one round every 0.25 s
  spec.gap_exp_mean_ticks = 1e6;
  SimulationTruth truth;
  const Run run = simulate(spec, truth);
  IntervalLog log = interval_log_of(run, 42);
  log.header.set("simulated", "yes: tests/test_interval_analysis.cpp, seed 2026, step +5000 ticks at 60 %");
  for (IntervalSummary& s : log.intervals) {
    s.peak_rss_kib = 3100 + 16 * std::min<std::uint64_t>(s.index, 3);
    s.switches_a = s.index % 7 == 0 ? 1 : 0;
    s.switches_b = s.index == 30 ? 5 : 0;
  }
  IntervalSummary& stalled = log.intervals[9];
  stalled.lost = 120;
  stalled.late = 3;
  stalled.stall_ms = 350;
  stalled.switches_a = 2;
  return log;
}

std::string text_of(const IntervalLog& log) {
  std::string text = interval_log_head(log.header);
  for (const IntervalSummary& s : log.intervals) text += interval_log_line(s);
  return text + interval_log_tail(log.trailer);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Every fixture: name and text.
std::vector<std::pair<std::string, std::string>> monitor_fixtures() {
  const IntervalLog step = fixture_step_log();
  IntervalLog interrupted = step;
  interrupted.intervals.resize(12);
  interrupted.trailer = {};
  interrupted.trailer.set("signal", "SIGINT");
  interrupted.trailer.set("status", "interrupted");
  IntervalLog cut = step;
  cut.intervals.resize(9);
  cut.trailer = {};
  std::string cut_text = text_of(cut);
  const std::string tenth = interval_log_line(step.intervals[9]);
  cut_text += tenth.substr(0, tenth.size() / 2);  // the process died while writing it
  // A bad field: interval 3's rounds count spelled "6O" (the letter O).
  std::string bad = text_of(interrupted);
  std::size_t field = bad.find("\n3,") + 1;
  for (int comma = 0; comma < 3; ++comma) field = bad.find(',', field) + 1;
  bad.replace(field, bad.find(',', field) - field, "6O");
  return {{"step.log", text_of(step)},
          {"interrupted.log", text_of(interrupted)},
          {"cut_short.log", cut_text},
          {"bad_field.log", bad}};
}

}  // namespace

TEST_CASE("monitor fixtures: the committed logs are what the fixture code makes") {
  const bool write = std::getenv("TSCAUDIT_WRITE_FIXTURES") != nullptr;
  for (const auto& [name, text] : monitor_fixtures()) {
    INFO(name << " (TSCAUDIT_WRITE_FIXTURES=1 tests/tscaudit_tests 'monitor fixtures*' rewrites it)");
    CHECK(text.size() < 20'000);
    if (write) std::ofstream(kMonitorData + "/" + name, std::ios::binary) << text;
    CHECK(slurp(kMonitorData + "/" + name) == text);
  }
}

TEST_CASE("monitor fixtures: the step log read back gives the step and the stall and flat memory") {
  const IntervalLog log = read_interval_log_file(kMonitorData + "/step.log");
  const MonitorAnalysis m = analyze_interval_log(log, "step.log");
  INFO(monitor_text(m));
  REQUIRE(m.steps.size() == 1);
  CHECK(m.steps[0].proven);
  CHECK(m.steps[0].interval == 25);
  CHECK(std::fabs(m.steps[0].size_ticks - 5000) <= 3);
  CHECK(m.worst.lost == std::vector<RankedInterval>{{9, 120}});
  CHECK(m.worst.stall_ms == std::vector<RankedInterval>{{9, 350}});
  REQUIRE(m.rss.size() == 4);
  CHECK(m.rss[1].interval == 3);                          // 60 s falls in [45.06, 60.08) s
  CHECK(m.rss[1].peak_rss_kib == m.rss[3].peak_rss_kib);  // flat from the first minute on
  CHECK(m.status == MonitorStatus::complete);
  const IntervalLog cut = read_interval_log_file(kMonitorData + "/cut_short.log");
  CHECK(cut.cut_line != 0);
  CHECK(analyze_interval_log(cut, "cut_short.log").status == MonitorStatus::cut_short);
  CHECK(analyze_interval_log(read_interval_log_file(kMonitorData + "/interrupted.log"), "i.log").status ==
        MonitorStatus::interrupted);
}

TEST_CASE("monitor fixtures: interval_log's example.log (accumulator-made) is analyzed") {
  // tests/data/monitor/README.md: offset -120 ticks, q = 26, early t2 reads at 0.2 %
  // (about 10 per interval of 5000 rounds), interrupted after 10 intervals.
  const IntervalLog log = read_interval_log_file(kMonitorData + "/example.log");
  const MonitorAnalysis m = analyze_interval_log(log, "example.log");
  INFO(monitor_text(m));
  CHECK(m.status == MonitorStatus::interrupted);
  CHECK(m.quantum_ticks == 26);
  CHECK(m.k == 16);
  CHECK_FALSE(m.sweep_settled);  // the offset still moved from k = 4 to k = 16
  REQUIRE(m.fit.band.feasible);
  CHECK(m.fit.band.offset_lo_ticks <= -120);
  CHECK(m.fit.band.offset_hi_ticks >= -120);
  CHECK(m.worst.lost == std::vector<RankedInterval>{{4, 1200}});
  CHECK(m.totals.late == 3);
  CHECK(m.steps.empty());
}
