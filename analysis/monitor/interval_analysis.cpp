#include "monitor/interval_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

#include "core/errors.hpp"
#include "estimate/k_sweep.hpp"
#include "estimate/offset_segments.hpp"
#include "formats/text_fields.hpp"
#include "monitor/interval_pieces.hpp"

namespace tscaudit {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// The bounds of every interval's k-th statistics (ki: index into kIntervalKs), at x =
/// their tick - t_ref; source = the interval's position in the log.
std::vector<TimedBound> bounds_at(const IntervalLog& log, std::size_t ki, std::uint64_t t_ref) {
  std::vector<TimedBound> out;
  out.reserve(2 * log.intervals.size());
  for (std::size_t i = 0; i < log.intervals.size(); ++i) {
    const IntervalSummary& s = log.intervals[i];
    if (s.fwd_k[ki].present) out.push_back({{x_of(s.fwd_k[ki].at_tick, t_ref), s.fwd_k[ki].value_ticks}, true, i});
    if (s.rev_k[ki].present) out.push_back({{x_of(s.rev_k[ki].at_tick, t_ref), -s.rev_k[ki].value_ticks}, false, i});
  }
  return out;
}

/// Both sides present (a fit is possible).
bool two_sided(const std::vector<TimedBound>& bounds) {
  bool up = false, low = false;
  for (const TimedBound& b : bounds) (b.upper ? up : low) = true;
  return up && low;
}

/// The whole-run fit of a set of bounds. \pre two_sided(bounds).
EnvelopeFit whole_fit(const std::vector<TimedBound>& bounds, std::int64_t q) {
  std::vector<TimedBound> sorted = bounds;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const TimedBound& a, const TimedBound& b) { return a.point.x < b.point.x; });
  std::vector<Point> upper, lower;
  for (const TimedBound& b : sorted) (b.upper ? upper : lower).push_back(b.point);
  return fit_envelopes(upper, lower, q);
}

EnvelopeFit zero_drift_fit(const std::vector<TimedBound>& bounds, std::int64_t q) {
  std::vector<Point> upper, lower;
  for (const TimedBound& b : bounds) (b.upper ? upper : lower).push_back(b.point);
  return fit_zero_drift(upper, lower, q);
}

/// The top kWorstIntervals by `value_of`, worst first, ties earlier first; `eligible`
/// filters.
template <class Value, class Eligible>
std::vector<RankedInterval> rank(const std::vector<IntervalSummary>& intervals, Value value_of, Eligible eligible) {
  std::vector<RankedInterval> all;
  for (const IntervalSummary& s : intervals) {
    if (eligible(s)) all.push_back({s.index, value_of(s)});
  }
  const std::size_t n = std::min(kWorstIntervals, all.size());
  std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n), all.end(),
                    [](const RankedInterval& x, const RankedInterval& y) {
                      return x.value != y.value ? x.value > y.value : x.interval < y.interval;
                    });
  all.resize(n);
  return all;
}

std::int64_t as_i64(std::uint64_t v) {
  return v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
             ? std::numeric_limits<std::int64_t>::max()
             : static_cast<std::int64_t>(v);
}

/// The verdict's parts: unsafe reads, proven steps, changes of course within the bands,
/// the last piece's answer, transients, negatives not proven early.
MonitorVerdict verdict_of(const MonitorAnalysis& m) {
  MonitorVerdict v;
  v.tsc_hz = m.tsc_hz;
  v.k = m.k;
  const std::uint64_t violations = m.fwd_violations_at_least + m.rev_violations_at_least;
  const bool no_band = m.pieces.empty() || std::none_of(m.pieces.begin(), m.pieces.end(),
                                                        [](const MonitorPiece& p) { return p.fit.band.feasible; });
  if (violations > 0 || m.totals.self_inconsistent > 0 || no_band) {
    UnsafeReads u;
    u.send = m.send;
    u.recv = m.recv;
    u.fwd_violations = m.fwd_violations_at_least;
    u.rev_violations = m.rev_violations_at_least;
    u.at_least = true;
    u.self_inconsistent = m.totals.self_inconsistent;
    u.no_band = no_band;
    u.k = m.k;
    u.unresolved_pieces = !m.pieces_resolved;
    u.max_pieces = kMaxPieces;
    v.unsafe = u;
  }
  for (const MonitorStep& s : m.steps) {
    if (s.proven) v.proven_steps.push_back({s.size_ticks, s.interval, s.at_s});
  }
  v.unproven_changes = m.steps.size() - v.proven_steps.size();
  if (!m.pieces.empty() && m.pieces.back().fit.band.feasible) {
    const MonitorPiece& p = m.pieces.back();
    v.last_piece = judge_fit(!p.zero_drift, p.offset_ticks, p.offset_lo_ticks, p.offset_hi_ticks, p.drift_ppb,
                             p.drift_lo_ppb, p.drift_hi_ppb);
    v.several_pieces = m.pieces.size() > 1;
  }
  v.transients = m.transients.size();
  for (const MonitorTransient& t : m.transients) v.transient_bounds += t.bounds;
  if (violations == 0) v.unproven_negatives = m.totals.fwd_negative + m.totals.rev_negative;
  if (v.unsafe) {
    v.kind = VerdictKind::unsafe_reads;
  } else if (!v.proven_steps.empty()) {
    v.kind = VerdictKind::offset_stepped;
  } else if (v.unproven_changes > 0) {
    v.kind = VerdictKind::changed_course;
  } else if (v.last_piece) {
    v.kind = v.last_piece->kind;
  }
  return v;
}

}  // namespace

const char* monitor_status_name(MonitorStatus status) {
  switch (status) {
    case MonitorStatus::complete: return "complete";
    case MonitorStatus::interrupted: return "interrupted";
    case MonitorStatus::aborted: return "aborted";
    case MonitorStatus::cut_short: return "cut short";
  }
  return "?";
}

void add_interval(MonitorTotals& t, const IntervalSummary& s) {
  ++t.intervals;
  t.rounds += s.rounds;
  t.lost += s.lost;
  t.late += s.late;
  t.fwd_negative += s.fwd_negative;
  t.rev_negative += s.rev_negative;
  t.self_inconsistent += s.self_inconsistent;
  t.switches_a += s.switches_a;
  t.switches_b += s.switches_b;
  t.stall_ms_max = std::max(t.stall_ms_max, s.stall_ms);
  if (s.rounds == 0) {
    ++t.empty_intervals;
    return;
  }
  const bool first_rtt = t.intervals - t.empty_intervals == 1;
  t.rtt_min = first_rtt ? s.rtt_min : std::min(t.rtt_min, s.rtt_min);
  t.rtt_max = first_rtt ? s.rtt_max : std::max(t.rtt_max, s.rtt_max);
}

double monitor_seconds(const MonitorAnalysis& m, std::uint64_t tick) {
  return m.tsc_hz > 0 ? static_cast<double>(diff_ticks(tick, m.first_tick)) / m.tsc_hz : kNaN;
}

namespace {

MonitorStatus status_of(const IntervalLog& log) {
  const auto status = log.trailer.get("status");
  if (!status) return MonitorStatus::cut_short;
  if (*status == kStatusComplete) return MonitorStatus::complete;
  if (*status == kStatusInterrupted) return MonitorStatus::interrupted;
  if (*status == kStatusAborted) return MonitorStatus::aborted;
  return MonitorStatus::cut_short;  // "compl": the status line itself was cut
}

/// What the log says of itself: names, status, quantum, frequency, time span.
/// \throws InputError when the log has no intervals.
MonitorAnalysis read_log(const IntervalLog& log, const std::string& source) {
  if (log.intervals.empty()) throw InputError(source + ": no intervals to analyze");
  MonitorAnalysis m;
  static_cast<PairIdentity&>(m) = pair_identity(log.header);
  m.source = source;
  m.status = status_of(log);
  m.incomplete = interval_log_incomplete_reason(log);
  if (const auto q = metadata_i64(log.header, "quantum_ticks"); q && *q >= 1) {
    m.quantum_ticks = *q;
    m.quantum_source = "metadata";
  } else {
    // An interval log keeps no consecutive reads to infer it from (analyze does that
    // from a run's rounds): 1 tick, the most optimistic, and said so.
    m.quantum_ticks = 1;
    m.quantum_source = "assumed";
  }
  m.tsc_hz = static_cast<double>(std::max<std::int64_t>(0, metadata_i64(log.header, "tsc_hz").value_or(0)));
  const std::vector<IntervalSummary>& iv = log.intervals;
  m.intervals = iv.size();
  m.first_tick = iv.front().start_tick;
  m.last_tick = iv.back().end_tick;
  m.t_ref_tick = m.first_tick + (m.last_tick - m.first_tick) / 2;
  m.span_ticks = static_cast<double>(m.last_tick - m.first_tick);
  m.span_s = m.tsc_hz > 0 ? m.span_ticks / m.tsc_hz : kNaN;
  return m;
}

/// One usable k of the sweep: its bounds, their whole-run fit, and their pieces.
struct SweepAtK {
  std::size_t ki = 0;  // index into kIntervalKs
  std::vector<TimedBound> bounds;
  EnvelopeFit fit;
  OffsetSegmentation segmentation;
};

/// Every k at which some interval gives a forward and some a reverse bound, fitted and
/// cut into pieces; their steps into m.sweep, in the same order.
/// \throws InputError when there is no such k.
std::vector<SweepAtK> sweep_ks(const IntervalLog& log, MonitorAnalysis& m) {
  const std::int64_t q = m.quantum_ticks;
  std::vector<SweepAtK> usable;
  for (std::size_t ki = 0; ki < kIntervalKCount; ++ki) {
    std::vector<TimedBound> bounds = bounds_at(log, ki, m.t_ref_tick);
    if (!two_sided(bounds)) continue;
    SweepAtK at{ki, std::move(bounds), {}, {}};
    at.fit = whole_fit(at.bounds, q);
    at.segmentation = segment_offset(at.bounds, q);
    IntervalSweepStep step;
    step.k = kIntervalKs[ki];
    for (const IntervalSummary& s : log.intervals) {
      step.intervals += s.fwd_k[ki].present && s.rev_k[ki].present ? 1U : 0U;
    }
    step.feasible = at.fit.band.feasible;
    step.offset_ticks = at.fit.line.offset_ticks;
    step.margin_ticks = at.fit.line.margin_ticks;
    step.resolved = at.segmentation.resolved;
    step.pieces = at.segmentation.pieces.size();
    for (const OffsetTransient& t : at.segmentation.transients) step.set_aside += t.bounds.size();
    m.sweep.push_back(step);
    usable.push_back(std::move(at));
  }
  if (usable.empty()) {
    throw InputError(m.source + ": no interval holds both a forward and a reverse latency: nothing to fit");
  }
  return usable;
}

/// The k-sweep over kIntervalKs (estimate/k_sweep.hpp, the rule analyze uses): the stable
/// k, or without one the largest feasible k. Each interval's k-th statistics stand for
/// analyze's per-bin ones: up to k - 1 too-small values per interval (early reads) cannot
/// cut into the envelope. A step in the offset makes every whole-run fit infeasible; then
/// the pieces decide. Sets m.sweep_settled; returns the position in m.sweep.
std::size_t choose_k(MonitorAnalysis& m) {
  const std::size_t n = m.sweep.size();
  std::vector<SweepFit> steps;
  for (const IntervalSweepStep& s : m.sweep) steps.push_back({s.feasible, s.offset_ticks, s.margin_ticks});
  const SweepChoice choice = choose_sweep_step(steps, m.quantum_ticks);
  // With only three k, the largest one passing the rule with nothing after it to agree
  // with may still be moving: then the sweep is not shown stable.
  m.sweep_settled = choice.shown;
  if (const auto chosen = choice.stable ? choice.stable : choice.largest_feasible) return *chosen;
  // No k fits the whole run: the pieces decide (estimate/k_sweep.hpp).
  std::vector<SweepPieces> pieces;
  for (const IntervalSweepStep& s : m.sweep) pieces.push_back({s.resolved, s.pieces, s.set_aside});
  const std::optional<std::size_t> chosen = choose_pieces_step(pieces);
  if (!chosen) m.sweep_settled = false;
  return chosen.value_or(n - 1);
}

/// The whole-run fit at the chosen k: drift free, then refitted without drift when none
/// is detectable (its band stays the drift-free one).
void fit_at(const SweepAtK& at, MonitorAnalysis& m) {
  m.k = kIntervalKs[at.ki];
  m.free_fit = at.fit;
  const HardBand& free_band = m.free_fit.band;
  m.zero_drift = free_band.feasible && free_band.drift_lo <= 0 && free_band.drift_hi >= 0;
  m.fit = m.free_fit;
  if (m.zero_drift) m.fit.line = zero_drift_fit(at.bounds, m.quantum_ticks).line;
}

WorstIntervals worst_of(const std::vector<IntervalSummary>& iv) {
  WorstIntervals w;
  auto has_rounds = [](const IntervalSummary& s) { return s.rounds > 0; };
  w.rtt_max = rank(
      iv, [](const IntervalSummary& s) { return s.rtt_max; }, has_rounds);
  w.rtt_p999 = rank(
      iv, [](const IntervalSummary& s) { return s.rtt_p999; }, has_rounds);
  w.negatives = rank(
      iv, [](const IntervalSummary& s) { return as_i64(s.fwd_negative + s.rev_negative); },
      [](const IntervalSummary& s) { return s.fwd_negative + s.rev_negative > 0; });
  w.self_inconsistent = rank(
      iv, [](const IntervalSummary& s) { return as_i64(s.self_inconsistent); },
      [](const IntervalSummary& s) { return s.self_inconsistent > 0; });
  w.lost = rank(
      iv, [](const IntervalSummary& s) { return as_i64(s.lost); }, [](const IntervalSummary& s) { return s.lost > 0; });
  w.stall_ms = rank(
      iv, [](const IntervalSummary& s) { return as_i64(s.stall_ms); },
      [](const IntervalSummary& s) { return s.stall_ms > 0; });
  return w;
}

/// Peak RSS (VmHWM never falls): at the first interval, at the intervals holding 1 and 10
/// minutes into the run when it got there, and at the last. Flat from 1 minute on means
/// the monitor's memory does not grow with the run.
void add_rss(const std::vector<IntervalSummary>& iv, MonitorAnalysis& m) {
  auto rss_at = [&](const char* label, std::size_t i) {
    m.rss.push_back({label, iv[i].index, monitor_seconds(m, iv[i].end_tick), iv[i].peak_rss_kib});
  };
  rss_at("first", 0);
  if (m.tsc_hz > 0) {
    for (const auto& [label, seconds] : {std::pair{"1 min", 60.0}, std::pair{"10 min", 600.0}}) {
      const double ticks = seconds * m.tsc_hz;
      if (ticks >= m.span_ticks) continue;
      const std::uint64_t tick = m.first_tick + static_cast<std::uint64_t>(ticks);
      const std::size_t i = interval_at(iv, tick);
      if (i > 0 && i + 1 < iv.size()) rss_at(label, i);
    }
  }
  if (iv.size() > 1) rss_at("last", iv.size() - 1);
  for (const IntervalSummary& s : iv) m.peak_rss_max_kib = std::max(m.peak_rss_max_kib, s.peak_rss_kib);
}

}  // namespace

MonitorAnalysis analyze_interval_log(const IntervalLog& log, const std::string& source) {
  const std::vector<IntervalSummary>& iv = log.intervals;
  MonitorAnalysis m = read_log(log, source);
  const std::vector<SweepAtK> usable = sweep_ks(log, m);
  const SweepAtK& at = usable[choose_k(m)];
  fit_at(at, m);
  add_pieces(at.segmentation, iv, m);
  add_steps(at.segmentation, iv, m);
  const std::vector<bool> aside = add_transients(at.segmentation, iv, m);
  add_bands(at.segmentation, at.ki, aside, iv, m);
  add_moves(iv, m);
  for (const IntervalSummary& s : iv) add_interval(m.totals, s);
  m.worst = worst_of(iv);
  add_rss(iv, m);
  m.verdict = verdict_of(m);
  return m;
}

}  // namespace tscaudit
