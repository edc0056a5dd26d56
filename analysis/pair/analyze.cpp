#include "pair/analyze.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <span>

#include "core/errors.hpp"
#include "estimate/bounds.hpp"
#include "estimate/k_sweep.hpp"
#include "estimate/quantum.hpp"
#include "formats/run_format.hpp"
#include "formats/text_fields.hpp"
#include "pair/classify.hpp"
#include "pair/run_pieces.hpp"

namespace tscaudit {
namespace {

/// Time bins of the robust envelopes (docs/method.md §4.2): about this many rounds
/// per bin, so that the early reads in any one bin stay few however long the run (at the
/// 0.1 % early-read rate of the AMD machines, one per bin on average), within
/// [kMinBins, kMaxBins] bins.
constexpr std::size_t kRoundsPerBin = 1024;
constexpr std::size_t kMinBins = 128;
constexpr std::size_t kMaxBins = 16384;
/// k = 1 is every round (the exact hard band); larger k keep the k-th order statistic per
/// bin, so up to k - 1 too-small values per bin cannot cut into the envelope.
constexpr std::array<std::uint64_t, 7> kSweep = {1, 2, 4, 8, 16, 32, 64};
/// Rounds per chunk of the classification pass (three arrays of this many latencies).
constexpr std::size_t kClassChunk = 512;
/// Rounds read for the quantum when the metadata does not give it.
constexpr std::size_t kQuantumRounds = 200000;

/// The quantum from the same-clock sequences in the data: a's reads t1, t4, t1, ... and
/// b's reads t2, t3, t2, ... are each non-decreasing, so their differences are whole
/// steps of that counter. A round whose counter ran backwards (t4 < t1, t3 < t2) says
/// nothing of that counter's step, and its difference modulo 2^64 can be almost 2^64:
/// its pair of reads is left out.
std::int64_t infer_quantum(std::span<const Round> rounds) {
  const std::size_t n = std::min(rounds.size(), kQuantumRounds);
  std::vector<std::uint64_t> a_reads, b_reads;
  a_reads.reserve(2 * n);
  b_reads.reserve(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    const Round& r = rounds[i];
    if (diff_ticks(r.t4, r.t1) >= 0) {
      a_reads.push_back(r.t1);
      a_reads.push_back(r.t4);
    }
    if (diff_ticks(r.t3, r.t2) >= 0) {
      b_reads.push_back(r.t2);
      b_reads.push_back(r.t3);
    }
  }
  const std::uint64_t q = std::max(estimate_quantum(a_reads).quantum_ticks, estimate_quantum(b_reads).quantum_ticks);
  return static_cast<std::int64_t>(q);
}

/// The verdict of a whole run (or segment): unsafe reads, or what its fit says.
/// `band_feasible`: every fit the counts were judged against has a band (the run's, or,
/// after a step, each segment's).
PairVerdict verdict_of(const PairAnalysis& p, bool band_feasible) {
  const HardBand& band = p.fit.band;
  PairVerdict v;
  v.tsc_hz = p.tsc_hz;
  v.rounds = p.rounds;
  const std::uint64_t violations = p.fwd_classes.causality_violation + p.rev_classes.causality_violation;
  const std::uint64_t backwards = p.counter_backwards_a + p.counter_backwards_b;
  // Too few rounds for a verdict, unless one of them is impossible by itself (rtt < -2q, a
  // counter that ran backwards): that proves unsafe reads whatever the count.
  if (too_few_rounds(p.rounds) && p.self_inconsistent == 0 && backwards == 0) {
    v.kind = VerdictKind::too_few_rounds;
    return v;
  }
  if (violations > 0 || p.self_inconsistent > 0 || backwards > 0 || !band_feasible) {
    v.kind = VerdictKind::unsafe_reads;
    v.unsafe.send = p.send;
    v.unsafe.recv = p.recv;
    v.unsafe.fwd_violations = p.fwd_classes.causality_violation;
    v.unsafe.rev_violations = p.rev_classes.causality_violation;
    v.unsafe.self_inconsistent = p.self_inconsistent;
    v.unsafe.counter_backwards_a = p.counter_backwards_a;
    v.unsafe.counter_backwards_b = p.counter_backwards_b;
    v.unsafe.no_band = !band_feasible;
    v.unsafe.k = p.k;
    return v;
  }
  v.fit = judge_fit(!p.zero_drift, p.fit.line.offset_ticks, band.offset_lo_ticks, band.offset_hi_ticks,
                    p.fit.line.drift * 1e9, band.drift_lo * 1e9, band.drift_hi * 1e9);
  v.kind = v.fit.kind;
  v.negatives.count = p.fwd_ticks.negative_count() + p.rev_ticks.negative_count();
  v.negatives.explained = p.fwd_classes.offset_explained + p.rev_classes.offset_explained;
  v.negatives.marginal = p.fwd_classes.marginal + p.rev_classes.marginal;
  return v;
}

}  // namespace

StepVerdict step_verdict(const OffsetStep& s) {
  return {s.size_ticks, s.first_round_after, s.first_round_lo, s.first_round_hi, s.size_lo_ticks, s.size_hi_ticks};
}

double ticks_to_ns(double ticks, double tsc_hz) {
  return tsc_hz > 0 ? ticks / tsc_hz * 1e9 : std::numeric_limits<double>::quiet_NaN();
}

namespace {

/// Blocks for the statistical CI (docs/method.md §6.1).
constexpr std::size_t kBlocks = 16;

PairAnalysis analyze_rounds(const Run& run, std::span<const Round> rounds, const std::string& source, bool find_steps);

/// The k for a block: the sweep's k counts per bin of about kRoundsPerBin rounds, a block
/// holds many bins' worth, so the same share of each block is set aside.
std::uint64_t block_k(const PairAnalysis& p) {
  if (p.k == 1 || p.bins == 0) return 1;
  const std::uint64_t per_block = p.rounds / kBlocks;
  const std::uint64_t per_bin = std::max<std::uint64_t>(1, p.rounds / p.bins);
  return std::clamp<std::uint64_t>(p.k * per_block / per_bin, 1, std::max<std::uint64_t>(1, per_block / 2));
}

/// x of a's tick `at` in a segment's own time (its reference time).
double x_in(const PairAnalysis& s, std::uint64_t at) { return static_cast<double>(x_of(at, s.t_ref_tick)); }

/// No offset fits both segments at a's tick `at`: their hard bands are disjoint there.
bool disjoint_at(const PairAnalysis& before, const PairAnalysis& after, std::uint64_t at) {
  const HardBand& b = before.fit.band;
  const HardBand& a = after.fit.band;
  if (!b.feasible || !a.feasible) return false;
  return b.offset_hi_at(x_in(before, at)) < a.offset_lo_at(x_in(after, at)) ||
         a.offset_hi_at(x_in(after, at)) < b.offset_lo_at(x_in(before, at));
}

/// The counts, evidence and verdict of a run whose offset stepped: the sums of its
/// segments' (a round in flight at a step is in no segment).
void add_segments(PairAnalysis& p, std::vector<PairAnalysis> parts) {
  p.fwd_classes = {};
  p.rev_classes = {};
  p.self_inconsistent = 0;
  p.fwd_violation_seqs.clear();
  p.rev_violation_seqs.clear();
  p.worst_fwd.reset();
  p.worst_rev.reset();
  p.worst_rtt.reset();
  p.counter_backwards_a = p.counter_backwards_b = 0;
  p.worst_backwards_a.reset();
  p.worst_backwards_b.reset();
  p.below_floor_fwd = p.below_floor_rev = 0;
  auto add = [](DirectionClasses& to, const DirectionClasses& from) {
    to.normal += from.normal;
    to.offset_explained += from.offset_explained;
    to.marginal += from.marginal;
    to.causality_violation += from.causality_violation;
  };
  auto worse = [](std::optional<Evidence>& to, const std::optional<Evidence>& from) {
    if (from && (!to || from->beyond_band_ticks > to->beyond_band_ticks)) to = from;
  };
  for (PairAnalysis& s : parts) {
    add(p.fwd_classes, s.fwd_classes);
    add(p.rev_classes, s.rev_classes);
    p.self_inconsistent += s.self_inconsistent;
    p.below_floor_fwd += s.below_floor_fwd;
    p.below_floor_rev += s.below_floor_rev;
    p.fwd_violation_seqs.insert(p.fwd_violation_seqs.end(), s.fwd_violation_seqs.begin(), s.fwd_violation_seqs.end());
    p.rev_violation_seqs.insert(p.rev_violation_seqs.end(), s.rev_violation_seqs.begin(), s.rev_violation_seqs.end());
    worse(p.worst_fwd, s.worst_fwd);
    worse(p.worst_rev, s.worst_rev);
    worse(p.worst_rtt, s.worst_rtt);
    p.counter_backwards_a += s.counter_backwards_a;
    p.counter_backwards_b += s.counter_backwards_b;
    worse(p.worst_backwards_a, s.worst_backwards_a);
    worse(p.worst_backwards_b, s.worst_backwards_b);
  }
  p.segments = std::move(parts);
  const bool every_band =
      std::all_of(p.segments.begin(), p.segments.end(), [](const PairAnalysis& s) { return s.fit.band.feasible; });
  // Early reads in a segment make the run unsafe as they would without the step.
  PairVerdict v = verdict_of(p, every_band);
  if (v.kind != VerdictKind::unsafe_reads) {
    v = PairVerdict{};
    v.kind = VerdictKind::offset_stepped;
    v.tsc_hz = p.tsc_hz;
    for (const OffsetStep& step : p.steps) v.steps.push_back(step_verdict(step));
    for (const PairAnalysis& s : p.segments) v.segments.push_back(s.verdict);
  }
  p.verdict = std::move(v);
}

/// The segments of a run between candidate splits, each analyzed alone. Rounds in flight
/// at a split belong to neither side.
class Segments {
 public:
  Segments(const PairAnalysis& p, const Run& run, std::span<const Round> rounds, std::vector<RoundSplit> splits)
      : p_(p), run_(run), rounds_(rounds), splits_(std::move(splits)) {
    analyze_all();
  }

  [[nodiscard]] const std::vector<RoundSplit>& splits() const { return splits_; }
  std::vector<PairAnalysis>& parts() { return parts_; }

  /// Merges the sides of every split that is no proven step, a pass at a time, no two
  /// merges of one pass sharing a segment (a segment grown by a merge is judged again in
  /// the next pass, against its new bounds), until a pass merges nothing. Then every split
  /// left is a proven step.
  void merge() {
    for (bool merged = true; merged && !splits_.empty();) {
      merged = false;
      std::vector<RoundSplit> splits;
      std::vector<PairAnalysis> parts;
      parts.push_back(std::move(parts_[0]));
      bool grew = false;  // parts.back() was merged in this pass: its judgement is stale
      for (std::size_t j = 0; j < splits_.size(); ++j) {
        if (!grew && !proven_[j]) {
          parts.back() = analyze(first_of(j), last_of(j + 1));
          grew = merged = true;
          continue;
        }
        grew = false;
        splits.push_back(splits_[j]);
        parts.push_back(std::move(parts_[j + 1]));
      }
      splits_ = std::move(splits);
      parts_ = std::move(parts);
      judge_all();
    }
  }

  /// Locates each split again in the stretch its candidate left it in, a bin more either
  /// side, against the two segments' own bands and drift-free lines, which rest on every
  /// round and are tighter than the levels' (a round put on the wrong side contradicts
  /// them). Returns whether one moved; then every segment is analyzed again.
  bool relocate(std::size_t per_bin) {
    bool moved = false;
    for (std::size_t j = 0; j < splits_.size(); ++j) {
      const RoundSplit& split = splits_[j];
      // The segments either side keep rounds of their own: the first round after lies in
      // [lowest, highest), a round in flight before it too.
      const std::size_t lowest = j == 0 ? 1 : splits_[j - 1].first_after + 1;
      const std::size_t highest = last_of(j + 1);
      const std::size_t w0 = std::max(lowest, split.first_after_lo > per_bin ? split.first_after_lo - per_bin : 0);
      const std::size_t w1 = std::min(highest, split.first_after_hi + per_bin + 1);
      if (w0 >= w1) continue;
      const PairAnalysis& before = parts_[j];
      const PairAnalysis& after = parts_[j + 1];
      const RoundSplit again =
          locate_change(rounds_, w0, w1, p_.quantum_ticks, {before.fit.band, before.free_fit.line, before.t_ref_tick},
                        {after.fit.band, after.free_fit.line, after.t_ref_tick});
      const bool keeps_rounds = again.first_after - (again.in_flight ? 1 : 0) >= lowest && again.first_after < highest;
      if (keeps_rounds && (again.first_after != split.first_after || again.in_flight != split.in_flight)) {
        splits_[j] = again;
        moved = true;
      }
    }
    if (moved) analyze_all();
    return moved;
  }

 private:
  /// The first round of segment j, and one past its last (a round in flight left out).
  [[nodiscard]] std::size_t first_of(std::size_t j) const { return j == 0 ? 0 : splits_[j - 1].first_after; }
  [[nodiscard]] std::size_t last_of(std::size_t j) const {
    return j == splits_.size() ? rounds_.size() : splits_[j].first_after - (splits_[j].in_flight ? 1 : 0);
  }

  PairAnalysis analyze(std::size_t first, std::size_t last) const {
    const std::span<const Round> part = rounds_.subspan(first, last - first);
    return analyze_rounds(
        run_, part,
        printable_text(p_.source) + " [rounds " + std::to_string(part.front().seq) + ".." + std::to_string(part.back().seq) + "]",
        false);
  }

  void analyze_all() {
    parts_.clear();
    for (std::size_t j = 0; j <= splits_.size(); ++j) parts_.push_back(analyze(first_of(j), last_of(j)));
    judge_all();
  }

  /// Whether each split is a proven step: the hard bands of its two sides are disjoint at
  /// the split, so no one offset fits both.
  void judge_all() {
    proven_.clear();
    for (std::size_t j = 0; j < splits_.size(); ++j) {
      proven_.push_back(disjoint_at(parts_[j], parts_[j + 1], rounds_[splits_[j].first_after].t1));
    }
  }

  const PairAnalysis& p_;
  const Run& run_;
  std::span<const Round> rounds_;
  std::vector<RoundSplit> splits_;
  std::vector<PairAnalysis> parts_;
  std::vector<bool> proven_;  // per split
};

/// How often the splits are located again against the segments' own bands.
constexpr int kRelocations = 3;

/// No line fits the run: its levels (run_pieces.hpp) give the candidate splits. The rounds
/// between them are analyzed alone; the sides of a split that is no proven step are
/// merged; the splits left are located again against the segments (Segments::relocate) and
/// the merging repeated, until no split moves. Without a split the analysis stays the
/// whole run's (docs/method.md §6.4).
void analyze_pieces(PairAnalysis& p, const Run& run, std::span<const Round> rounds) {
  Segments segments(p, run, rounds, p.pieces->splits);
  const std::size_t per_bin = rounds.size() / std::max<std::size_t>(1, p.bins);
  segments.merge();
  for (int relocated = 0; relocated < kRelocations && !segments.splits().empty() && segments.relocate(per_bin);
       ++relocated) {
    segments.merge();
  }
  const std::vector<RoundSplit>& splits = segments.splits();
  std::vector<PairAnalysis>& parts = segments.parts();
  if (splits.empty()) return;
  for (std::size_t j = 0; j < splits.size(); ++j) {
    const RoundSplit& split = splits[j];
    const PairAnalysis& before = parts[j];
    const PairAnalysis& after = parts[j + 1];
    OffsetStep step;
    step.first_round_after = rounds[split.first_after].seq;
    step.first_round_lo = rounds[split.first_after_lo].seq;
    step.first_round_hi = rounds[std::min(split.first_after_hi, rounds.size() - 1)].seq;
    step.t1_tick = rounds[split.first_after].t1;
    step.since_start_ticks = static_cast<double>(diff_ticks(step.t1_tick, rounds.front().t1));
    const double xb = x_in(before, step.t1_tick);
    const double xa = x_in(after, step.t1_tick);
    step.size_ticks = after.free_fit.line.at(xa) - before.free_fit.line.at(xb);
    step.size_lo_ticks = after.fit.band.offset_lo_at(xa) - before.fit.band.offset_hi_at(xb);
    step.size_hi_ticks = after.fit.band.offset_hi_at(xa) - before.fit.band.offset_lo_at(xb);
    if (split.in_flight) {
      const std::size_t i = split.first_after - 1;
      step.in_flight = make_evidence(rounds, i, rtt_ticks(rounds[i]), 0);
    }
    p.steps.push_back(std::move(step));
  }
  add_segments(p, std::move(parts));
}

}  // namespace

PairAnalysis analyze_run(const Run& run, const std::string& source) {
  return analyze_rounds(run, run.rounds, source, true);
}

namespace {

/// The analysis of `rounds`, with the metadata of `run` (the whole run, or a segment of it).
PairAnalysis analyze_rounds(const Run& run, std::span<const Round> rounds, const std::string& source, bool find_steps) {
  if (rounds.empty()) throw InputError(source + ": no rounds to analyze");
  PairAnalysis p;
  static_cast<PairIdentity&>(p) = pair_identity(run.header);
  p.source = source;
  p.rounds = rounds.size();
  p.incomplete = incomplete_reason(run);

  if (const auto q = metadata_i64(run.header, "quantum_ticks"); q && *q >= 1) {
    p.quantum_ticks = *q;
    p.quantum_source = "metadata";
  } else {
    p.quantum_ticks = infer_quantum(rounds);
    p.quantum_source = "inferred";
  }
  p.tsc_hz = static_cast<double>(metadata_i64(run.header, "tsc_hz").value_or(0));
  const std::int64_t q = p.quantum_ticks;

  // The k-sweep (estimate/k_sweep.hpp): the stable k, or without one the largest feasible
  // k, or the last.
  const std::size_t bins = std::clamp(rounds.size() / kRoundsPerBin, kMinBins, kMaxBins);
  std::vector<std::uint64_t> ks;  // k > 1 that every bin can hold twice over
  for (std::uint64_t k : kSweep) {
    if (k > 1 && rounds.size() / bins >= 2 * k) ks.push_back(k);
  }
  const BoundSets bounds = collect_bounds(rounds, ks, bins);
  // The reference time: the middle of the run on a's counter. Offsets are reported there.
  p.t_ref_tick = bounds.t_ref_tick;
  p.span_ticks = static_cast<double>(bounds.last_tick - bounds.first_tick);
  // Constraint set i, as the two hulls: k = 1 (every bound) for i = 0, then each k > 1.
  auto upper_set = [&](std::size_t i) -> std::span<const Point> {
    return i == 0 ? std::span<const Point>(bounds.upper_hull) : std::span<const Point>(bounds.kth_upper[i - 1]);
  };
  auto lower_set = [&](std::size_t i) -> std::span<const Point> {
    return i == 0 ? std::span<const Point>(bounds.lower_hull) : std::span<const Point>(bounds.kth_lower[i - 1]);
  };
  ks.insert(ks.begin(), 1);
  std::vector<EnvelopeFit> fits;
  std::vector<SweepFit> steps;
  for (std::size_t i = 0; i < ks.size(); ++i) {
    fits.push_back(fit_hulls(std::vector<Point>(upper_set(i).begin(), upper_set(i).end()),
                             std::vector<Point>(lower_set(i).begin(), lower_set(i).end()), q));
    p.sweep.push_back({ks[i], fits.back().band.feasible, fits.back().line.offset_ticks, fits.back().line.margin_ticks});
    steps.push_back({fits.back().band.feasible, fits.back().line.offset_ticks, fits.back().line.margin_ticks});
  }
  const SweepChoice choice = choose_sweep_step(steps, q);
  const std::size_t chosen = choice.stable.value_or(choice.largest_feasible.value_or(fits.size() - 1));
  p.bins = bins;
  p.k = ks[chosen];
  p.free_fit = fits[chosen];
  // No detectable drift when 0 lies in the drift band: refit with the drift fixed at 0.
  const HardBand& free_band = p.free_fit.band;
  p.zero_drift = free_band.feasible && free_band.drift_lo <= 0 && free_band.drift_hi >= 0;
  // The estimate comes from the zero-drift refit; the band stays the drift-free one, which
  // holds the truth whatever the drift within the band (the zero-drift band would assume
  // the drift is exactly 0). At x = 0 the refit's offset lies inside it.
  p.fit = p.free_fit;
  if (p.zero_drift) p.fit.line = fit_zero_drift(upper_set(chosen), lower_set(chosen), q).line;
  p.hulls.t_ref_tick = p.t_ref_tick;
  p.hulls.upper.assign(upper_set(chosen).begin(), upper_set(chosen).end());
  p.hulls.lower.assign(lower_set(chosen).begin(), lower_set(chosen).end());
  p.hulls.quantum_ticks = q;

  // A chunk at a time: its latencies into small arrays (cache-resident) that the
  // histograms take in one batch each, then the per-round tests, which the chunk's
  // extremes mostly settle at once (classify.hpp), then the statistical view's block
  // values from the same rounds while they are in cache. The statistical view:
  // per-block estimates, least squares, and the runs test, which finds an offset that
  // stepped during the run (then each segment is analyzed alone).
  RoundClassifier classifier(p, rounds);
  BlockEstimator block_values(rounds, p.t_ref_tick, q, p.fit.line.drift, block_k(p), kBlocks,
                              bounds.in_time_order ? TimeOrder::known : TimeOrder::check);
  std::array<std::int64_t, kClassChunk> fwd_chunk{}, rev_chunk{}, rtt_chunk{};
  for (std::size_t chunk_first = 0; chunk_first < rounds.size(); chunk_first += kClassChunk) {
    const std::size_t chunk_size = std::min(kClassChunk, rounds.size() - chunk_first);
    const Round& front = rounds[chunk_first];
    ChunkExtremes extremes{fwd_ticks(front),
                           fwd_ticks(front),
                           rev_ticks(front),
                           rev_ticks(front),
                           rtt_ticks(front),
                           rtt_ticks(front),
                           diff_ticks(front.t4, front.t1),
                           diff_ticks(front.t3, front.t2),
                           {x_of(front.t1, p.t_ref_tick), x_of(front.t1, p.t_ref_tick), x_of(front.t4, p.t_ref_tick),
                            x_of(front.t4, p.t_ref_tick)}};
    for (std::size_t j = 0; j < chunk_size; ++j) {
      const Round& r = rounds[chunk_first + j];
      prefetch_ahead(rounds.data(), chunk_first + j, rounds.size());
      const std::int64_t fwd = fwd_ticks(r), rev = rev_ticks(r), rtt = rtt_ticks(r);
      const std::int64_t x1 = x_of(r.t1, p.t_ref_tick), x4 = x_of(r.t4, p.t_ref_tick);
      fwd_chunk[j] = fwd;
      rev_chunk[j] = rev;
      rtt_chunk[j] = rtt;
      extremes.min_fwd = std::min(extremes.min_fwd, fwd);
      extremes.max_fwd = std::max(extremes.max_fwd, fwd);
      extremes.min_rev = std::min(extremes.min_rev, rev);
      extremes.max_rev = std::max(extremes.max_rev, rev);
      extremes.min_rtt = std::min(extremes.min_rtt, rtt);
      extremes.max_rtt = std::max(extremes.max_rtt, rtt);
      extremes.min_a_span = std::min(extremes.min_a_span, diff_ticks(r.t4, r.t1));
      extremes.min_b_span = std::min(extremes.min_b_span, diff_ticks(r.t3, r.t2));
      extremes.time.min_x1 = std::min(extremes.time.min_x1, x1);
      extremes.time.max_x1 = std::max(extremes.time.max_x1, x1);
      extremes.time.min_x4 = std::min(extremes.time.min_x4, x4);
      extremes.time.max_x4 = std::max(extremes.time.max_x4, x4);
    }
    const auto fwd_values = std::span(fwd_chunk).first(chunk_size);
    const auto rev_values = std::span(rev_chunk).first(chunk_size);
    const auto rtt_values = std::span(rtt_chunk).first(chunk_size);
    p.fwd_ticks.record_all(fwd_values, extremes.min_fwd, extremes.max_fwd);
    p.rev_ticks.record_all(rev_values, extremes.min_rev, extremes.max_rev);
    p.rtt_ticks.record_all(rtt_values, extremes.min_rtt, extremes.max_rtt);
    classifier.add(chunk_first, fwd_values, rev_values, rtt_values, extremes);
    block_values.add(chunk_first, chunk_first + chunk_size, extremes.time);
  }
  classifier.finish();
  p.verdict = verdict_of(p, p.fit.band.feasible);

  p.blocks = block_values.finish();
  // No line fits the run at any k: an offset that stepped, or early reads all over. The
  // pieces of the bins' bounds tell them apart (docs/method.md §6.4). The bins are stretches
  // of time when the rounds follow one another in time, but for a few places where a's
  // counter went back; not in a table sorted by something else.
  if (find_steps && !p.free_fit.band.feasible && bounds.time_reversals <= kMaxPieces) {
    p.pieces = find_run_pieces(rounds, p.t_ref_tick, q, ks, bins);
    analyze_pieces(p, run, rounds);
  }
  return p;
}

}  // namespace

}  // namespace tscaudit
