// The analysis of a monitor run's interval log (`tscaudit analyze` on a tscaudit-monitor/1
// file): the same reasoning as analyze.hpp, on the order statistics each interval kept
// instead of every round, plus what a long run adds: where the offset moved, the worst
// intervals, the totals, memory over time, and how the run ended.
//
// Pure: the same IntervalLog gives the same MonitorAnalysis.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/read_variant.hpp"
#include "estimate/fit.hpp"
#include "formats/interval_log.hpp"
#include "pair/verdict.hpp"

namespace tscaudit {

/// How many intervals each ranking of the worst lists.
inline constexpr std::size_t kWorstIntervals = 5;

/// How the log ended (its trailer's status; none: the process died mid-run).
enum class MonitorStatus { complete, interrupted, aborted, cut_short };

/// "complete", "interrupted", "aborted", "cut short".
const char* monitor_status_name(MonitorStatus status);

/// One k of the sweep: the whole run fitted on every interval's k-th smallest forward
/// and reverse latency, and the pieces the offset needs at that k.
struct IntervalSweepStep {
  std::uint64_t k = 1;
  std::size_t intervals = 0;  // intervals holding at least k rounds (one point each way)
  bool feasible = false;      // one line fits the whole run
  double offset_ticks = 0;    // the max-margin line at t_ref (bounds crossed: still the
  double margin_ticks = 0;    // least-crossing line, margin negative)
  std::size_t pieces = 0;     // pieces of offset_segments at this k
  bool resolved = true;       // false: more than kMaxPieces (contaminated at this k)
  std::size_t set_aside = 0;  // bounds in transients
};

/// The per-interval picture at the chosen k: the offset band the interval alone gives,
/// [(-rev_k) - q, fwd_k + q], read as if the offset held still within the interval (its
/// two bounds lie at different times; drift moves the offset by drift x interval between
/// them, far below q at any drift seen on one machine).
struct IntervalBand {
  std::uint64_t index = 0;
  bool present = false;              // both order statistics present (>= k rounds)
  double mid_x = 0;                  // middle of the interval, a's ticks from t_ref
  double lo_ticks = 0;               // (-rev_k) - q
  double hi_ticks = 0;               // fwd_k + q
  double estimate_ticks = 0;         // (fwd_k - rev_k) / 2: the interval's own midpoint
  std::optional<double> line_ticks;  // the reported line of its piece at mid_x
  std::optional<std::size_t> piece;  // the piece whose time span holds mid_x
  /// Its bounds contradict the whole-run line (at their own times, within q).
  bool excludes_whole_run_line = false;
  bool set_aside = false;  // one of its bounds lies in a transient
  /// Rounds proven below every offset the band allows (k-th statistics of k < chosen k,
  /// and k = chosen, beyond the robust band): at least this many early reads.
  std::uint64_t fwd_violations_at_least = 0;
  std::uint64_t rev_violations_at_least = 0;
};

/// A stretch of the run over which one line fits the bounds.
struct MonitorPiece {
  std::uint64_t first_interval = 0;
  std::uint64_t last_interval = 0;  // inclusive
  std::uint64_t t_ref_tick = 0;     // the piece's middle; offsets below are there
  double offset_ticks = 0;          // the reported line at t_ref_tick
  double offset_lo_ticks = 0;       // its band there
  double offset_hi_ticks = 0;
  double drift_ppb = 0;     // the reported line's drift (0 with zero_drift)
  double drift_lo_ppb = 0;  // the drift-free band's drift range
  double drift_hi_ppb = 0;
  double margin_ticks = 0;
  bool zero_drift = false;
  bool drift_identifiable = true;  // false: the optimum sits on the drift prior
  EnvelopeFit fit;                 // drift free; x relative to the run's t_ref
  LineEstimate line;               // reported; x relative to the run's t_ref
};

/// Where the offset left one piece's line for the next one's.
struct MonitorStep {
  std::size_t before_piece = 0;
  std::uint64_t interval = 0;               // holds at_tick
  std::uint64_t window_first_interval = 0;  // the change lies in the window: after the
  std::uint64_t window_last_interval = 0;   // last bound the new line cannot fit, at or
  std::uint64_t window_lo_tick = 0;         // before the first bound the old one cannot
  std::uint64_t window_hi_tick = 0;
  std::uint64_t at_tick = 0;  // the window's middle
  double at_s = 0;            // seconds into the run (NaN without tsc_hz)
  double size_ticks = 0;      // new line minus old line at at_tick
  double size_lo_ticks = 0;   // what the two bands allow
  double size_hi_ticks = 0;
  bool proven = false;  // the bands are disjoint at at_tick
};

/// Bounds set aside: they contradict the line that fits their neighbours on both sides.
struct MonitorTransient {
  std::uint64_t first_interval = 0;
  std::uint64_t last_interval = 0;
  std::size_t bounds = 0;
};

/// A shift of the interval estimates inside one piece (level_shifts.hpp): statistical,
/// not proven; the bands on both sides still admit one line.
struct MonitorMove {
  std::size_t piece = 0;
  std::uint64_t interval = 0;      // the first interval after the shift
  std::uint64_t at_tick = 0;       // its start
  double at_s = 0;                 // seconds into the run (NaN without tsc_hz)
  double size_ticks = 0;           // median estimate after minus before
  double residual_sd_ticks = 0;    // the intervals' scatter about the two levels
  double margin_change_ticks = 0;  // median margin after minus before
  bool offset_like = false;        // the margin stayed: both floors moved together
};

/// An interval and the value that ranks it.
struct RankedInterval {
  std::uint64_t interval = 0;
  std::int64_t value = 0;
  friend bool operator==(const RankedInterval&, const RankedInterval&) = default;
};

/// The top kWorstIntervals by each measure, worst first (ties: earlier first). Counts
/// list only intervals where the count is > 0; rtt only intervals with rounds.
struct WorstIntervals {
  std::vector<RankedInterval> rtt_max;
  std::vector<RankedInterval> rtt_p999;
  std::vector<RankedInterval> negatives;  // fwd_negative + rev_negative
  std::vector<RankedInterval> self_inconsistent;
  std::vector<RankedInterval> lost;
  std::vector<RankedInterval> stall_ms;
};

struct MonitorTotals {
  std::uint64_t intervals = 0;
  std::uint64_t rounds = 0;
  std::uint64_t lost = 0;
  std::uint64_t late = 0;
  std::uint64_t fwd_negative = 0;
  std::uint64_t rev_negative = 0;
  std::uint64_t self_inconsistent = 0;
  std::uint64_t switches_a = 0;
  std::uint64_t switches_b = 0;
  std::uint64_t stall_ms_max = 0;
  std::uint64_t empty_intervals = 0;  // rounds == 0
  std::int64_t rtt_min = 0;           // over intervals with rounds
  std::int64_t rtt_max = 0;
};

/// Peak resident set at one interval.
struct RssSample {
  std::string label;  // "first", "1 min", "10 min", "last"
  std::uint64_t interval = 0;
  double at_s = 0;  // the interval's end, seconds into the run (NaN without tsc_hz)
  std::uint64_t peak_rss_kib = 0;
};

/// The verdict of a monitor run as data: its parts in the order a sentence gives them,
/// each present or not (render/verdict_text.hpp words them).
struct MonitorVerdict {
  VerdictKind kind = VerdictKind::synchronized;  // the first part's: unsafe_reads, offset_stepped,
                                                 // changed_course, or the last piece's answer
  double tsc_hz = 0;                             // 0: unknown, no ns and no seconds
  std::optional<UnsafeReads> unsafe;             // counts at least (at_least)
  struct ProvenStep {
    double size_ticks = 0;
    std::uint64_t interval = 0;
    double at_s = 0;  // seconds into the run (NaN without tsc_hz)
  };
  std::vector<ProvenStep> proven_steps;  // in time order
  std::size_t unproven_changes = 0;      // changes of course within the bands
  std::optional<FitVerdict> last_piece;  // when the last piece has a band
  bool several_pieces = false;           // the answer is the last piece's, not the run's
  std::size_t transients = 0;            // set aside ...
  std::size_t transient_bounds = 0;      // ... holding this many bounds
  std::uint64_t k = 1;                   // the chosen k
  std::uint64_t unproven_negatives = 0;  // negative one-way latencies, when no violation is proven
};

/// The analysis of one log; its PairIdentity (a, b, send, recv) from the log's header.
struct MonitorAnalysis : PairIdentity {
  std::string source;
  MonitorStatus status = MonitorStatus::complete;
  std::optional<std::string> incomplete;  // interval_log_incomplete_reason
  std::size_t intervals = 0;
  std::uint64_t first_tick = 0;  // the first interval's start
  std::uint64_t last_tick = 0;   // the last interval's end
  std::uint64_t t_ref_tick = 0;  // their middle: whole-run offsets are given there
  double span_ticks = 0;
  double span_s = 0;  // NaN without tsc_hz
  std::int64_t quantum_ticks = 1;
  std::string quantum_source;  // "metadata", or "assumed" (no quantum_ticks: 1)
  double tsc_hz = 0;           // 0: unknown, no ns or seconds

  std::vector<IntervalSweepStep> sweep;
  std::uint64_t k = 1;
  bool sweep_settled = true;  // false: no k was shown stable (the largest usable one is
                              // used; its offset may still hold early reads)
  EnvelopeFit free_fit;       // whole run, drift free, at k (bounds may cross)
  EnvelopeFit fit;            // free_fit's band with the reported line (zero-drift refit)
  bool zero_drift = false;

  /// False: at the chosen k the bounds break into more than kMaxPieces pieces, too small
  /// all over (early reads), not a few changes; pieces then holds the whole run alone.
  bool pieces_resolved = true;
  std::vector<MonitorPiece> pieces;  // one when a line fits the run (transients aside)
  std::vector<MonitorStep> steps;    // pieces.size() - 1; proven or not
  std::vector<MonitorTransient> transients;
  std::vector<MonitorMove> moves;   // level shifts of the estimates within the pieces
  std::vector<IntervalBand> bands;  // one per interval
  /// Consecutive intervals that contradict the whole-run line, as [first, last].
  std::vector<std::pair<std::uint64_t, std::uint64_t>> runs_excluding_line;
  std::uint64_t fwd_violations_at_least = 0;  // sums over the intervals
  std::uint64_t rev_violations_at_least = 0;

  MonitorTotals totals;
  WorstIntervals worst;
  std::vector<RssSample> rss;  // first, 1 min, 10 min (when the run got there), last
  std::uint64_t peak_rss_max_kib = 0;

  MonitorVerdict verdict;
};

/// Analyzes a log. `source` names it in the output.
/// \throws InputError when the log has no intervals.
MonitorAnalysis analyze_interval_log(const IntervalLog& log, const std::string& source);

/// Adds one interval to the totals (the analysis's, or a running monitor's as the
/// intervals come).
void add_interval(MonitorTotals& totals, const IntervalSummary& interval);

/// Seconds from the run's first tick to `tick`; NaN without the frequency.
double monitor_seconds(const MonitorAnalysis& m, std::uint64_t tick);

}  // namespace tscaudit
