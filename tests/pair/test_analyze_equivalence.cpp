// analyze_run against a plain reference, on simulated runs: the analysis reads the rounds
// a chunk at a time and skips the work that a chunk's summary shows cannot matter; the
// reference takes every round through every test, one at a time, as the definitions read.
// Every field must agree exactly, doubles bit for bit. Only two decisions are taken from
// the analysis unchecked, because the reference would repeat the same code: the k chosen
// from the sweep (each k's fit is checked) and whether a step is proven (each segment's
// analysis is checked).
//
// The reference repeats, on purpose, what classify.cpp and bounds.cpp do (and
// analyze.cpp's constants), in their plainest form: a test oracle that shared their
// code would let a mistake in it pass both.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "core/histogram.hpp"
#include "estimate/blocks.hpp"
#include "estimate/fit.hpp"
#include "estimate/hull.hpp"
#include "pair/analyze.hpp"
#include "pair/classify.hpp"
#include "simulate/simulate.hpp"

using namespace tscaudit;

namespace {

// analyze.cpp's constants, which the reference needs to make the same constraint sets.
constexpr std::size_t kRoundsPerBin = 1024;
constexpr std::size_t kMinBins = 128;
constexpr std::size_t kMaxBins = 16384;
constexpr std::array<std::uint64_t, 7> kSweep = {1, 2, 4, 8, 16, 32, 64};
constexpr std::size_t kBlocks = 16;

bool same(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

bool same_vertices(const std::vector<std::pair<double, double>>& a, const std::vector<std::pair<double, double>>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!same(a[i].first, b[i].first) || !same(a[i].second, b[i].second)) return false;
  }
  return true;
}

void require_same(const EnvelopeFit& a, const EnvelopeFit& b) {
  CHECK(same(a.line.offset_ticks, b.line.offset_ticks));
  CHECK(same(a.line.drift, b.line.drift));
  CHECK(same(a.line.margin_ticks, b.line.margin_ticks));
  CHECK(a.line.drift_at_prior_bound == b.line.drift_at_prior_bound);
  CHECK(a.band.feasible == b.band.feasible);
  CHECK(same(a.band.offset_lo_ticks, b.band.offset_lo_ticks));
  CHECK(same(a.band.offset_hi_ticks, b.band.offset_hi_ticks));
  CHECK(same(a.band.drift_lo, b.band.drift_lo));
  CHECK(same(a.band.drift_hi, b.band.drift_hi));
  CHECK(same_vertices(a.band.top_vertices, b.band.top_vertices));
  CHECK(same_vertices(a.band.bottom_vertices, b.band.bottom_vertices));
  CHECK(a.upper_vertices == b.upper_vertices);
  CHECK(a.lower_vertices == b.lower_vertices);
}

void require_same(const LogLinearHistogram& a, const LogLinearHistogram& b) {
  CHECK(a.total() == b.total());
  CHECK(a.overflow() == b.overflow());
  CHECK(a.min() == b.min());
  CHECK(a.max() == b.max());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < LogLinearHistogram::kCountsLength; ++i) {
    differing += static_cast<std::size_t>(a.count_at_index(i) != b.count_at_index(i));
  }
  CHECK(differing == 0);
}

void require_same(const SignedHistogram& a, const SignedHistogram& b) {
  CHECK(a.total() == b.total());
  CHECK(a.negative_count() == b.negative_count());
  CHECK(a.overflow() == b.overflow());
  CHECK(a.min() == b.min());
  CHECK(a.max() == b.max());
  CHECK(same(a.mean(), b.mean()));
  for (const double percentile : kStandardPercentiles) {
    CHECK(a.value_at_percentile(percentile) == b.value_at_percentile(percentile));
  }
  require_same(a.negative_magnitudes(), b.negative_magnitudes());
  require_same(a.non_negatives(), b.non_negatives());
}

void require_same(const std::optional<Evidence>& a, const std::optional<Evidence>& b) {
  REQUIRE(a.has_value() == b.has_value());
  if (!a) return;
  CHECK(a->seq == b->seq);
  CHECK(a->value_ticks == b->value_ticks);
  CHECK(same(a->beyond_band_ticks, b->beyond_band_ticks));
  CHECK(a->since_start_ticks == b->since_start_ticks);
  CHECK(a->around == b->around);
}

void require_same(const DirectionClasses& a, const DirectionClasses& b) {
  CHECK(a.normal == b.normal);
  CHECK(a.offset_explained == b.offset_explained);
  CHECK(a.marginal == b.marginal);
  CHECK(a.causality_violation == b.causality_violation);
}

void require_same(const BlockFit& a, const BlockFit& b) {
  CHECK(a.valid == b.valid);
  CHECK(a.reason == b.reason);
  CHECK(a.blocks == b.blocks);
  REQUIRE(a.per_block.size() == b.per_block.size());
  for (std::size_t i = 0; i < a.per_block.size(); ++i) {
    CHECK(same(a.per_block[i].tau_ticks, b.per_block[i].tau_ticks));
    CHECK(same(a.per_block[i].theta_ticks, b.per_block[i].theta_ticks));
    CHECK(same(a.per_block[i].margin_ticks, b.per_block[i].margin_ticks));
    CHECK(a.per_block[i].first_round == b.per_block[i].first_round);
    CHECK(a.per_block[i].last_round == b.per_block[i].last_round);
  }
  for (const auto member :
       {&BlockFit::offset_ticks, &BlockFit::offset_se_ticks, &BlockFit::offset_ci_ticks, &BlockFit::drift,
        &BlockFit::drift_se, &BlockFit::drift_ci, &BlockFit::zero_drift_offset_ticks, &BlockFit::zero_drift_se_ticks,
        &BlockFit::zero_drift_ci_ticks, &BlockFit::split_margin_change_ticks}) {
    CHECK(same(a.*member, b.*member));
  }
  CHECK(a.runs.runs == b.runs.runs);
  CHECK(a.runs.n_plus == b.runs.n_plus);
  CHECK(a.runs.n_minus == b.runs.n_minus);
  CHECK(same(a.runs.expected, b.runs.expected));
  CHECK(same(a.runs.z, b.runs.z));
  CHECK(a.runs.structured == b.runs.structured);
  REQUIRE(a.step.has_value() == b.step.has_value());
  if (a.step) {
    CHECK(a.step->after_block == b.step->after_block);
    CHECK(a.step->first_round_after == b.step->first_round_after);
    CHECK(a.step->t1_tick == b.step->t1_tick);
    CHECK(same(a.step->size_ticks, b.step->size_ticks));
    CHECK(a.step->refined_to_round == b.step->refined_to_round);
  }
  CHECK(a.delays_changed == b.delays_changed);
}

/// What the reference computes from the rounds of one run or segment.
struct Reference {
  std::uint64_t t_ref_tick = 0;
  double span_ticks = 0;
  std::size_t bins = 0;
  std::vector<std::uint64_t> ks;                   // 1, then every k > 1 that each bin can hold twice over
  std::vector<EnvelopeFit> fits;                   // one per k
  std::vector<std::vector<Point>> uppers, lowers;  // the constraint sets per k
};

/// The k_max first points of a bin under `before`: collect_bounds's bounded heap, replayed
/// round by round, so that ties in y are broken as it breaks them (a heap's order).
template <class Before>
std::vector<Point> first_points(const std::vector<Point>& points, std::size_t k_max, Before before) {
  std::vector<Point> heap;
  for (const Point& p : points) {
    if (heap.size() == k_max && !before(p, heap.front())) continue;
    if (heap.size() < k_max) {
      heap.push_back(p);
      std::push_heap(heap.begin(), heap.end(), before);
    } else {
      std::pop_heap(heap.begin(), heap.end(), before);
      heap.back() = p;
      std::push_heap(heap.begin(), heap.end(), before);
    }
  }
  std::sort_heap(heap.begin(), heap.end(), before);
  return heap;
}

std::vector<Point> sorted_by_x(std::vector<Point> v) {
  std::sort(v.begin(), v.end(), [](const Point& p, const Point& q) { return p.x < q.x; });
  return v;
}

/// The reference time, the sweep's constraint sets from every bound, and their fits.
Reference reference_fits(std::span<const Round> rounds, std::int64_t q) {
  Reference ref;
  const std::size_t n = rounds.size();
  std::uint64_t first = rounds.front().t1, last = rounds.front().t4;
  for (const Round& r : rounds) {
    first = std::min(first, r.t1);
    last = std::max(last, r.t4);
  }
  ref.t_ref_tick = first + (last - first) / 2;
  ref.span_ticks = static_cast<double>(last - first);
  ref.bins = std::clamp(n / kRoundsPerBin, kMinBins, kMaxBins);
  for (const std::uint64_t k : kSweep) {
    if (k == 1 || n / ref.bins >= 2 * k) ref.ks.push_back(k);
  }
  auto upper_of = [&](const Round& r) { return Point{diff_ticks(r.t1, ref.t_ref_tick), fwd_ticks(r)}; };
  auto lower_of = [&](const Round& r) { return Point{diff_ticks(r.t4, ref.t_ref_tick), -rev_ticks(r)}; };
  std::vector<Point> all_upper, all_lower;
  for (const Round& r : rounds) {
    all_upper.push_back(upper_of(r));
    all_lower.push_back(lower_of(r));
  }
  ref.uppers.push_back(lower_hull(sorted_by_x(all_upper)));
  ref.lowers.push_back(upper_hull(sorted_by_x(all_lower)));
  std::vector<std::vector<Point>> kth_upper(ref.ks.size()), kth_lower(ref.ks.size());
  const auto k_max = static_cast<std::size_t>(ref.ks.back());
  for (std::size_t bin = 0; bin < ref.bins && k_max > 1; ++bin) {
    std::vector<Point> u, l;
    for (std::size_t i = bin * n / ref.bins; i < (bin + 1) * n / ref.bins; ++i) {
      u.push_back(upper_of(rounds[i]));
      l.push_back(lower_of(rounds[i]));
    }
    const std::vector<Point> smallest =
        first_points(u, k_max, [](const Point& a, const Point& b) { return a.y < b.y; });
    const std::vector<Point> largest = first_points(l, k_max, [](const Point& a, const Point& b) { return a.y > b.y; });
    for (std::size_t j = 1; j < ref.ks.size(); ++j) {
      kth_upper[j].push_back(smallest[static_cast<std::size_t>(ref.ks[j] - 1)]);
      kth_lower[j].push_back(largest[static_cast<std::size_t>(ref.ks[j] - 1)]);
    }
  }
  for (std::size_t j = 1; j < ref.ks.size(); ++j) {
    ref.uppers.push_back(lower_hull(sorted_by_x(kth_upper[j])));
    ref.lowers.push_back(upper_hull(sorted_by_x(kth_lower[j])));
  }
  for (std::size_t j = 0; j < ref.ks.size(); ++j) ref.fits.push_back(fit_hulls(ref.uppers[j], ref.lowers[j], q));
  return ref;
}

/// analyze.cpp's k for a block.
std::uint64_t block_k(std::uint64_t k, std::size_t bins, std::uint64_t rounds) {
  if (k == 1 || bins == 0) return 1;
  const std::uint64_t per_block = rounds / kBlocks;
  const std::uint64_t per_bin = std::max<std::uint64_t>(1, rounds / bins);
  return std::clamp<std::uint64_t>(k * per_block / per_bin, 1, std::max<std::uint64_t>(1, per_block / 2));
}

/// Each block's k-th values by sorting every drift-free bound of the block, as
/// blocks.hpp defines them.
void require_block_values(const BlockFit& fit, std::span<const Round> rounds, std::uint64_t t_ref, double drift,
                          std::uint64_t k) {
  if (!fit.valid) return;
  const std::int64_t shift = (fwd_ticks(rounds[0]) - rev_ticks(rounds[0])) / 2;
  auto x_of = [&](std::uint64_t tick) { return static_cast<double>(diff_ticks(tick, t_ref)); };
  for (const BlockEstimate& e : fit.per_block) {
    std::vector<double> upper, lower;
    for (std::size_t i = e.first_round; i < e.last_round; ++i) {
      const Round& r = rounds[i];
      upper.push_back(static_cast<double>(fwd_ticks(r) - shift) - drift * (x_of(r.t1) - e.tau_ticks));
      lower.push_back(static_cast<double>(-rev_ticks(r) - shift) - drift * (x_of(r.t4) - e.tau_ticks));
    }
    std::sort(upper.begin(), upper.end());
    std::sort(lower.begin(), lower.end(), std::greater<>());
    const double u = upper[static_cast<std::size_t>(k - 1)], l = lower[static_cast<std::size_t>(k - 1)];
    double theta = 0.5 * (u + l);
    theta += static_cast<double>(shift);
    CHECK(same(e.theta_ticks, theta));
    CHECK(same(e.margin_ticks, 0.5 * (u - l)));
  }
}

/// Every round's classes, floors, histograms, evidence and rank, one round at a time,
/// under the fit `fit` (its band, or its line when the band is empty) and the robust
/// line `robust`.
PairAnalysis reference_rounds(std::span<const Round> rounds, std::uint64_t t_ref, std::int64_t q,
                              const EnvelopeFit& fit, const LineEstimate& robust) {
  PairAnalysis p;
  auto lo_at = [&](double x) { return fit.band.feasible ? fit.band.offset_lo_at(x) : fit.line.at(x); };
  auto hi_at = [&](double x) { return fit.band.feasible ? fit.band.offset_hi_at(x) : fit.line.at(x); };
  auto shorter = [](const std::pair<std::uint64_t, std::int64_t>& x, const std::pair<std::uint64_t, std::int64_t>& y) {
    return x.second > y.second;
  };
  auto& longest = p.longest_rounds;  // the analysis's min-heap on rtt, replayed (its order of ties)
  double worst_fwd = 0, worst_rev = 0;
  std::int64_t worst_rtt = -2 * q;
  for (std::size_t i = 0; i < rounds.size(); ++i) {
    const Round& r = rounds[i];
    const std::int64_t fwd = fwd_ticks(r), rev = rev_ticks(r), rtt = rtt_ticks(r);
    p.fwd_ticks.record(fwd);
    p.rev_ticks.record(rev);
    p.rtt_ticks.record(rtt);
    if (longest.size() < kLongestRounds) {
      longest.emplace_back(r.seq, rtt);
      std::push_heap(longest.begin(), longest.end(), shorter);
    } else if (rtt > longest.front().second) {
      std::pop_heap(longest.begin(), longest.end(), shorter);
      longest.back() = {r.seq, rtt};
      std::push_heap(longest.begin(), longest.end(), shorter);
    }
    const double top = static_cast<double>(fwd + q);
    const auto x1 = static_cast<double>(diff_ticks(r.t1, t_ref));
    if (top < lo_at(x1)) {
      ++p.fwd_classes.causality_violation;
      p.fwd_violation_seqs.push_back(r.seq);
      const double beyond = lo_at(x1) - top;
      if (beyond > worst_fwd) {
        worst_fwd = beyond;
        p.worst_fwd = make_evidence(rounds, i, fwd, beyond);
      }
    } else if (fwd >= 0) {
      ++p.fwd_classes.normal;
    } else if (top >= hi_at(x1)) {
      ++p.fwd_classes.offset_explained;
    } else {
      ++p.fwd_classes.marginal;
    }
    const double bottom = static_cast<double>(-rev - q);
    const auto x4 = static_cast<double>(diff_ticks(r.t4, t_ref));
    if (bottom > hi_at(x4)) {
      ++p.rev_classes.causality_violation;
      p.rev_violation_seqs.push_back(r.seq);
      const double beyond = bottom - hi_at(x4);
      if (beyond > worst_rev) {
        worst_rev = beyond;
        p.worst_rev = make_evidence(rounds, i, rev, beyond);
      }
    } else if (rev >= 0) {
      ++p.rev_classes.normal;
    } else if (bottom <= lo_at(x4)) {
      ++p.rev_classes.offset_explained;
    } else {
      ++p.rev_classes.marginal;
    }
    p.below_floor_fwd += top < robust.at(x1) + robust.margin_ticks;
    p.below_floor_rev += bottom > robust.at(x4) - robust.margin_ticks;
    if (rtt < -2 * q) {
      ++p.self_inconsistent;
      if (rtt < worst_rtt) {
        worst_rtt = rtt;
        p.worst_rtt = make_evidence(rounds, i, rtt, static_cast<double>(-2 * q - rtt));
      }
    }
  }
  std::sort_heap(longest.begin(), longest.end(), shorter);
  return p;
}

void require_same_rounds(const PairAnalysis& fast, const PairAnalysis& ref) {
  require_same(fast.fwd_classes, ref.fwd_classes);
  require_same(fast.rev_classes, ref.rev_classes);
  CHECK(fast.self_inconsistent == ref.self_inconsistent);
  CHECK(fast.below_floor_fwd == ref.below_floor_fwd);
  CHECK(fast.below_floor_rev == ref.below_floor_rev);
  CHECK(fast.fwd_violation_seqs == ref.fwd_violation_seqs);
  CHECK(fast.rev_violation_seqs == ref.rev_violation_seqs);
  require_same(fast.worst_fwd, ref.worst_fwd);
  require_same(fast.worst_rev, ref.worst_rev);
  require_same(fast.worst_rtt, ref.worst_rtt);
}

/// Checks `fast`, the analysis of `rounds`, against the reference. \returns the
/// reference's per-round results (for the sums over the segments).
PairAnalysis check_against_reference(const PairAnalysis& fast, std::span<const Round> rounds, bool find_steps) {
  const std::int64_t q = fast.quantum_ticks;
  CHECK(fast.rounds == rounds.size());
  const Reference ref = reference_fits(rounds, q);
  CHECK(fast.t_ref_tick == ref.t_ref_tick);
  CHECK(same(fast.span_ticks, ref.span_ticks));
  CHECK(fast.bins == ref.bins);
  REQUIRE(fast.sweep.size() == ref.ks.size());
  std::size_t chosen = ref.ks.size();
  for (std::size_t j = 0; j < ref.ks.size(); ++j) {
    CHECK(fast.sweep[j].k == ref.ks[j]);
    CHECK(fast.sweep[j].feasible == ref.fits[j].band.feasible);
    CHECK(same(fast.sweep[j].offset_ticks, ref.fits[j].line.offset_ticks));
    CHECK(same(fast.sweep[j].margin_ticks, ref.fits[j].line.margin_ticks));
    if (ref.ks[j] == fast.k) chosen = j;
  }
  REQUIRE(chosen < ref.ks.size());
  require_same(fast.free_fit, ref.fits[chosen]);
  const HardBand& free_band = ref.fits[chosen].band;
  const bool zero_drift = free_band.feasible && free_band.drift_lo <= 0 && free_band.drift_hi >= 0;
  CHECK(fast.zero_drift == zero_drift);
  EnvelopeFit fit = ref.fits[chosen];
  if (zero_drift) fit.line = fit_zero_drift(ref.uppers[chosen], ref.lowers[chosen], q).line;
  require_same(fast.fit, fit);

  PairAnalysis per_round = reference_rounds(rounds, ref.t_ref_tick, q, fit, ref.fits[chosen].line);
  require_same(fast.fwd_ticks, per_round.fwd_ticks);
  require_same(fast.rev_ticks, per_round.rev_ticks);
  require_same(fast.rtt_ticks, per_round.rtt_ticks);
  CHECK(fast.longest_rounds == per_round.longest_rounds);

  const std::uint64_t k_blocks = block_k(fast.k, fast.bins, fast.rounds);
  const BlockFit blocks = fit_blocks(rounds, ref.t_ref_tick, q, fit.line.drift, k_blocks, kBlocks, TimeOrder::check);
  require_same(fast.blocks, blocks);
  require_block_values(blocks, rounds, ref.t_ref_tick, fit.line.drift, k_blocks);

  if (!find_steps || fast.steps.empty()) {
    CHECK(fast.segments.empty());
    require_same_rounds(fast, per_round);
    return per_round;
  }
  // Proven steps: each segment between them alone (a round in flight at a step in none),
  // and the run's counts are their sums.
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  std::size_t first = 0;
  for (const OffsetStep& step : fast.steps) {
    const auto at = std::find_if(rounds.begin(), rounds.end(),
                                 [&](const Round& r) { return r.seq == step.first_round_after; });
    REQUIRE(at != rounds.end());
    const auto after = static_cast<std::size_t>(at - rounds.begin());
    ranges.emplace_back(first, after - (step.in_flight ? 1 : 0));
    first = after;
  }
  ranges.emplace_back(first, rounds.size());
  REQUIRE(fast.segments.size() == ranges.size());
  PairAnalysis sums;
  for (std::size_t s = 0; s < ranges.size(); ++s) {
    INFO("segment " << s);
    const PairAnalysis part = check_against_reference(
        fast.segments[s], rounds.subspan(ranges[s].first, ranges[s].second - ranges[s].first), false);
    for (auto [to, from] :
         {std::pair{&sums.fwd_classes, &part.fwd_classes}, std::pair{&sums.rev_classes, &part.rev_classes}}) {
      to->normal += from->normal;
      to->offset_explained += from->offset_explained;
      to->marginal += from->marginal;
      to->causality_violation += from->causality_violation;
    }
    sums.self_inconsistent += part.self_inconsistent;
    sums.below_floor_fwd += part.below_floor_fwd;
    sums.below_floor_rev += part.below_floor_rev;
    sums.fwd_violation_seqs.insert(sums.fwd_violation_seqs.end(), part.fwd_violation_seqs.begin(),
                                   part.fwd_violation_seqs.end());
    sums.rev_violation_seqs.insert(sums.rev_violation_seqs.end(), part.rev_violation_seqs.begin(),
                                   part.rev_violation_seqs.end());
    for (auto [to, from] : {std::pair{&sums.worst_fwd, &part.worst_fwd}, std::pair{&sums.worst_rev, &part.worst_rev},
                            std::pair{&sums.worst_rtt, &part.worst_rtt}}) {
      if (*from && (!*to || (*from)->beyond_band_ticks > (*to)->beyond_band_ticks)) *to = *from;
    }
  }
  require_same_rounds(fast, sums);
  return sums;
}

/// A scenario: the spec, and how the rounds are reordered after simulating (an imported
/// table out of time order).
struct Scenario {
  std::string name;
  SimulationSpec spec;
  enum class Order { kept, shuffled, swapped } order = Order::kept;
};

std::vector<Scenario> scenarios() {
  std::vector<Scenario> out;
  std::uint64_t seed = 9100;
  auto add = [&](const std::string& name, std::uint64_t rounds, std::function<void(SimulationSpec&)> tweak,
                 Scenario::Order order = Scenario::Order::kept) {
    Scenario s;
    s.name = name;
    s.spec.rounds = rounds;
    s.spec.seed = ++seed;
    tweak(s.spec);
    s.order = order;
    out.push_back(s);
  };
  // Offsets, drifts and quanta, each with the default delays (1 % Pareto tails).
  for (const double offset : {-150.0, 0.0, 3000.0, -400000.0}) {
    for (const double drift_ppb : {0.0, 200.0, -2000.0, 20000.0}) {
      for (const std::uint64_t q : {std::uint64_t{1}, std::uint64_t{26}}) {
        std::ostringstream name;
        name << "offset " << offset << " drift " << drift_ppb << " q " << q;
        add(name.str(), 3000 + 7919 * (seed % 9), [=](SimulationSpec& s) {
          s.offset_ticks = offset;
          s.drift_ppb = drift_ppb;
          s.quantum_ticks = q;
        });
      }
    }
  }
  // Early reads on either side and both, near the floor and far below it, rare and
  // frequent; then so many that no k gives a feasible band.
  for (const double rate : {0.001, 0.01, 0.05}) {
    for (const int sides : {1, 2, 3}) {
      for (const std::uint64_t q : {std::uint64_t{1}, std::uint64_t{26}}) {
        std::ostringstream name;
        name << "early reads rate " << rate << " sides " << sides << " q " << q;
        add(name.str(), 140000, [=](SimulationSpec& s) {
          s.offset_ticks = -150;
          s.drift_ppb = 200;
          s.quantum_ticks = q;
          const SpeculationSpec early = {rate, 50, q == 26 ? 200.0 : 900.0};
          if (sides & 1) s.spec_b = early;
          if (sides & 2) s.spec_a = early;
          s.gap_ticks = 1000;
          s.turnaround_base_ticks = 500;
        });
      }
    }
  }
  add("early reads far below the floor, q 26, both sides", 100000, [](SimulationSpec& s) {
    s.offset_ticks = 2000;
    s.drift_ppb = -1000;
    s.quantum_ticks = 26;
    s.fwd.tail_fraction = s.rev.tail_fraction = 0;
    s.gap_ticks = 2000;
    s.turnaround_base_ticks = 500;
    s.spec_b = {0.002, 800, 1000};
    s.spec_a = {0.001, 700, 800};
  });
  add("early reads everywhere: no feasible band", 60000, [](SimulationSpec& s) {
    s.quantum_ticks = 26;
    s.spec_a = s.spec_b = {0.4, 100, 400};
  });
  // Heavy tails, asymmetric delays, the quantum left to inference.
  add("heavy tails q 26", 90000, [](SimulationSpec& s) {
    s.quantum_ticks = 26;
    s.drift_ppb = -300;
    s.fwd.tail_fraction = s.rev.tail_fraction = 0.2;
    s.fwd.tail_scale_ticks = 5000;
  });
  add("asymmetric, quantum inferred", 50000, [](SimulationSpec& s) {
    s.quantum_ticks = 26;
    s.rev.base_ticks = 260;
    s.include_quantum_metadata = false;
  });
  // Steps: proven (split into segments), unproven, with drift and early reads.
  for (const double step : {500.0, -700.0, 100.0}) {
    add("step " + std::to_string(step), 200000, [=](SimulationSpec& s) {
      s.offset_ticks = 100;
      s.quantum_ticks = 26;
      s.steps = {{step, 0.3}};
      s.spec_b = {0.002, 50, 300};
    });
  }
  add("step with drift, q 1", 120000, [](SimulationSpec& s) {
    s.drift_ppb = 5000;
    s.steps = {{-900, 0.6}};
  });
  // Tiny runs: one partial chunk, no k > 1, too few rounds for blocks.
  for (const std::uint64_t rounds : {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{300}, std::uint64_t{1500}}) {
    add("tiny " + std::to_string(rounds), rounds, [](SimulationSpec& s) { s.quantum_ticks = 26; });
  }
  // Imported tables out of time order.
  add(
      "shuffled", 70000,
      [](SimulationSpec& s) {
        s.spec_b = {0.01, 50, 300};
      },
      Scenario::Order::shuffled);
  add(
      "shuffled q 26 drift", 70000,
      [](SimulationSpec& s) {
        s.quantum_ticks = 26;
        s.drift_ppb = 20000;
      },
      Scenario::Order::shuffled);
  add(
      "a few rounds swapped", 70000,
      [](SimulationSpec& s) {
        s.quantum_ticks = 26;
        s.spec_a = {0.01, 50, 300};
      },
      Scenario::Order::swapped);
  return out;
}

}  // namespace

TEST_CASE("analyze_run equals a plain reference field by field on simulated runs", "[slow]") {
  struct {
    std::uint64_t fwd_violations = 0, rev_violations = 0, fwd_marginal = 0, rev_marginal = 0, fwd_explained = 0,
                  rev_explained = 0, self_inconsistent = 0, below_floor_fwd = 0, below_floor_rev = 0, proven_steps = 0,
                  infeasible = 0;
  } seen;
  for (const Scenario& scenario : scenarios()) {
    INFO(scenario.name << " (seed " << scenario.spec.seed << ", " << scenario.spec.rounds << " rounds)");
    SimulationTruth truth;
    Run run = simulate(scenario.spec, truth);
    std::mt19937_64 rng(scenario.spec.seed);
    if (scenario.order == Scenario::Order::shuffled) std::shuffle(run.rounds.begin(), run.rounds.end(), rng);
    if (scenario.order == Scenario::Order::swapped) {
      for (int i = 0; i < 20; ++i)
        std::swap(run.rounds[rng() % run.rounds.size()], run.rounds[rng() % run.rounds.size()]);
    }
    const PairAnalysis fast = analyze_run(run, "sim");
    check_against_reference(fast, run.rounds, true);
    // What the scenarios exercised, so that the comparison cannot pass on runs that
    // never reach a class, a floor crossing or a segment.
    seen.fwd_violations += fast.fwd_classes.causality_violation;
    seen.rev_violations += fast.rev_classes.causality_violation;
    seen.fwd_marginal += fast.fwd_classes.marginal;
    seen.rev_marginal += fast.rev_classes.marginal;
    seen.fwd_explained += fast.fwd_classes.offset_explained;
    seen.rev_explained += fast.rev_classes.offset_explained;
    seen.self_inconsistent += fast.self_inconsistent;
    seen.below_floor_fwd += fast.below_floor_fwd;
    seen.below_floor_rev += fast.below_floor_rev;
    seen.proven_steps += fast.steps.size();
    seen.infeasible += static_cast<std::uint64_t>(!fast.fit.band.feasible);
  }
  CHECK(seen.fwd_violations > 0);
  CHECK(seen.rev_violations > 0);
  CHECK(seen.fwd_marginal > 0);
  CHECK(seen.rev_marginal > 0);
  CHECK(seen.fwd_explained > 0);
  CHECK(seen.rev_explained > 0);
  CHECK(seen.self_inconsistent > 0);
  CHECK(seen.below_floor_fwd > 0);
  CHECK(seen.below_floor_rev > 0);
  CHECK(seen.proven_steps > 0);
  CHECK(seen.infeasible > 0);
}
