// The comparison of read variants (`tscaudit variants`): what each way of reading the
// counter costs, and what each gets wrong on one pair of CPUs. Pure: decided over the
// read costs and the analyses of the exchanges that the caller measured.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/histogram.hpp"
#include "core/read_variant.hpp"
#include "core/run.hpp"
#include "pair/analyze.hpp"
#include "variants/read_cost_summary.hpp"

namespace tscaudit {

/// One (send, receive) combination of read variants.
struct Combination {
  ReadVariant send = ReadVariant::rdtsc;
  ReadVariant recv = ReadVariant::rdtsc;
  friend bool operator==(const Combination&, const Combination&) = default;
};

/// "send/recv", as the text and the report name a combination.
inline std::string combination_label(const Combination& c) {
  return variant_text(c.send) + "/" + variant_text(c.recv);
}

/// The plain read on both sides (rdtsc, or cntvct on aarch64): the baseline every other
/// combination is held against.
constexpr Combination plain_combination(CounterArch arch) { return {plain_variant(arch), plain_variant(arch)}; }
constexpr bool is_plain_combination(const Combination& c) {
  return variant_is_plain(c.send) && c.recv == c.send;
}

/// The combinations measured by default, the ones that answer the usual questions: both
/// plain; plain send with every other receive read (which ones remove the early receive
/// stamps); then per architecture:
///  - x86-64: rdtsc_lfence send with rdtscp receive (the pairing Intel's white paper
///    uses); both rdtscp; both lfence_rdtsc;
///  - aarch64: both isb_cntvct (an isb before every read); both isb_cntvct_dep (Linux's
///    read on both sides).
/// `available` is every variant this machine can run, of one architecture, in interface
/// order (variants_of), the plain read first; the result keeps that order.
std::vector<Combination> default_combinations(std::span<const ReadVariant> available);

/// Every (send, receive) pair of `available`, send-major.
std::vector<Combination> all_combinations(std::span<const ReadVariant> available);

/// What one combination showed, over every role measured (a initiates, then b).
struct ExchangeSummary {
  Combination combination;
  bool recv_orders_earlier_loads = false;
  std::uint64_t rounds = 0;       // all roles
  std::uint64_t one_way = 0;      // one-way latencies: 2 per round
  SignedHistogram one_way_ticks;  // every forward and reverse latency of every role
  SignedHistogram rtt_ticks;
  DirectionClasses fwd;  // sums over the roles; forward = initiator to responder
  DirectionClasses rev;
  std::uint64_t negative = 0;              // one-way latencies below 0
  std::uint64_t offset_explained = 0;      // negative, explained by every offset in the band
  std::uint64_t marginal = 0;              // negative, explained by some offset in the band
  std::uint64_t causality_violations = 0;  // below every offset its own band allows: early reads
  /// Below the offset band that the ordering receive reads of the same pair and role set
  /// (see check_against_reference); 0 when there is no such band.
  std::uint64_t below_reference = 0;
  bool reference_checked = false;  // a reference band was there to check against
  /// One-way latencies that are a causality violation by either test (counted once).
  std::uint64_t violations = 0;
  std::uint64_t self_inconsistent = 0;     // rounds with rtt < -2q
  std::int64_t quantum_ticks = 1;          // the largest of the roles'
  /// The analyses behind it and their runs, same order: held by the summary as long as it
  /// lives, shared with whoever else keeps them (the command that saves the runs).
  std::vector<std::shared_ptr<const PairAnalysis>> roles;
  std::vector<std::shared_ptr<const Run>> runs;
  std::vector<std::string> problems;  // visits that failed

  /// `violations` per million one-way latencies (0 when none were measured).
  [[nodiscard]] double violations_per_million() const;
  /// No causality violation by either test and no self-inconsistent round.
  [[nodiscard]] bool clean() const { return violations == 0 && self_inconsistent == 0; }
};

/// Sums the analyses of the roles of one combination and pools the latencies of their
/// runs. \pre runs.size() == analyses.size() >= 1, runs[i] is what analyses[i] analyzed.
ExchangeSummary summarize_exchange(const Combination& combination, std::vector<std::shared_ptr<const Run>> runs,
                                   std::vector<std::shared_ptr<const PairAnalysis>> analyses);

/// The offset band of one role (a initiates, b responds) that the receive reads which wait
/// for earlier loads establish: the intersection of their hard bands. Such reads cannot be
/// early, so a one-way latency of the same pair below this band, under any read, is a
/// causality violation even when the run's own band (which its early reads widen or move)
/// allows it. Only with no detectable drift in any of them: the band is then the same at
/// every moment of the interleaved runs.
struct ReferenceBand {
  /// Why there is no band.
  enum class Problem {
    none,              // there is one (ok)
    not_measured,      // no receive read that waits for earlier loads was measured
    no_feasible_band,  // `culprit` has no feasible band
    drift,             // `culprit` has detectable drift
    offset_step,       // `culprit` has an offset step
    disjoint,          // the ordering reads' bands do not overlap
  };
  std::string a, b;
  bool ok = false;
  double lo_ticks = 0;  // offset theta = TSC_b - TSC_a, ticks
  double hi_ticks = 0;
  std::size_t from = 0;  // analyses intersected
  Problem problem = Problem::not_measured;
  Combination culprit;  // the combination a problem names
};

/// One band per role seen in the exchanges, in the order first seen.
std::vector<ReferenceBand> reference_bands(const std::vector<ExchangeSummary>& exchanges);

/// Sets below_reference, reference_checked and violations of every exchange: a forward
/// latency below lo - q or a reverse one below -hi - q is below the band.
void check_against_reference(std::vector<ExchangeSummary>& exchanges, const std::vector<ReferenceBand>& bands);

/// The same-CPU control: both threads on one CPU (one counter, so the offset is exactly 0
/// and every negative one-way latency is an early read), or SMT siblings.
struct ControlSummary {
  int cpu_a = 0;
  int cpu_b = 0;
  bool same_cpu = true;  // false: SMT siblings, analyzed like any pair
  Combination combination;
  std::uint64_t rounds = 0;
  std::uint64_t negative = 0;              // one-way latencies below 0 (same CPU: below -q cannot be the quantum)
  std::uint64_t below_quantum = 0;         // below -q: impossible on one counter without an early read
  std::uint64_t causality_violations = 0;  // SMT siblings: from the analysis
  std::int64_t min_one_way_ticks = 0;
  std::int64_t rtt_min_ticks = 0;
  std::int64_t rtt_p50_ticks = 0;
  std::string problem;  // why the control did not run or is incomplete; empty when fine
};

/// Counts a control run's rounds. \param analysis  for SMT siblings (nullptr: same CPU).
ControlSummary summarize_control(int cpu_a, int cpu_b, const Combination& combination, const Run& run,
                                 std::int64_t quantum_ticks, const PairAnalysis* analysis);

/// A receive variant's standing in the recommendation.
struct RecvStanding {
  ReadVariant recv = ReadVariant::rdtsc;
  bool measured_cost = false;  // read_cost has a figure for it
  double cost_ticks = 0;       // believed p50 per call
  bool orders_earlier_loads = false;
  bool clean = false;            // no violation in any combination with this receive read
  std::uint64_t one_way = 0;     // one-way latencies behind `clean`
  std::uint64_t violations = 0;  // by either test (ExchangeSummary::violations)
  std::uint64_t self_inconsistent = 0;
};

/// How much a combination moves the measured round trip against the plain baseline.
/// Round trips below 0 are impossible for any offset (an early read); the minimum the
/// comparison uses is therefore that of the round trips >= 0, and those below are counted.
struct Inflation {
  Combination combination;
  std::int64_t rtt_min_ticks = 0;  // the smallest rtt >= 0 (0 when there is none)
  std::uint64_t rtt_negative = 0;  // rounds with rtt < 0, left out of the minimum
  std::int64_t rtt_p50_ticks = 0;
  std::int64_t rtt_min_over_plain_ticks = 0;  // this combination's minimum rtt - the plain one's
  std::int64_t rtt_p50_over_plain_ticks = 0;
};

/// The smallest value >= 0 of a histogram (exact below 2048), 0 when there is none.
std::int64_t min_non_negative(const SignedHistogram& h);

/// The first finding: what plain reads on both sides did.
struct PlainReadsFinding {
  std::uint64_t negative = 0;  // negative one-way latencies
  std::uint64_t one_way = 0;   // of these
  std::uint64_t causality_violations = 0;
  std::int64_t quantum_ticks = 1;
  bool reference_checked = false;  // a band of ordering reads was there to check against
  std::uint64_t below_reference = 0;
  std::uint64_t self_inconsistent = 0;  // rounds with rtt < -2q
};

/// A receive read measured with plain sends: whether negative one-way latencies remained.
struct ReceiveOutcome {
  ReadVariant recv = ReadVariant::rdtsc;
  bool none = false;  // no negative one-way latency and no violation
  std::uint64_t negative = 0;
  std::uint64_t violations = 0;
};

/// Plain reads against the recommended receive read (plain sends), on the round trip.
struct RttComparison {
  ReadVariant recv = ReadVariant::rdtsc;
  std::int64_t plain_rtt_min_ticks = 0;       // the smallest plain rtt >= 0
  std::uint64_t plain_rtt_negative = 0;       // plain rounds with rtt < 0, left out of it
  std::int64_t rtt_min_ticks = 0;             // the smallest rtt >= 0 with `recv`
  std::int64_t rtt_min_over_plain_ticks = 0;  // > 0: plain reads make the pair look faster
  std::int64_t plain_rtt_p50_ticks = 0;
  std::int64_t rtt_p50_ticks = 0;
  std::int64_t rtt_p50_over_plain_ticks = 0;
  std::optional<double> read_cost_over_plain_ticks;  // per read, when both costs are known
};

struct VariantsVerdict {
  /// The cheapest receive variant that waits for earlier loads and showed no causality
  /// violation and no self-inconsistent round in any combination it was measured in;
  /// empty when there is none.
  std::optional<RecvStanding> recommended;
  double recommended_cost_over_plain_ticks = 0;  // per read, against the plain read's cost
  /// The cheapest receive variant with no violation at all, ordering or not. When it does
  /// not wait for earlier loads (rdtsc, rdtsc_lfence, cntvct, cntvct_isb) it is not
  /// recommended: nothing stops its read from running early, so its clean record is this
  /// run's luck, not a guarantee.
  std::optional<RecvStanding> cheapest_clean;
  std::vector<RecvStanding> standings;     // every receive variant measured, cheapest first
  std::vector<Inflation> inflation;        // every combination, in measured order
  ReadVariant plain_read = ReadVariant::rdtsc;  // the plain read of the exchanges' architecture
  std::optional<std::size_t> plain;            // index of the plain/plain exchange, if measured
  std::optional<double> plain_cost_ticks;      // the plain read's believed cost per read, if measured

  // The findings, the answer in the order it is told (render/verdict_text.hpp words them).
  double tsc_hz = 0;                             // 0: unknown, no ns
  std::optional<PlainReadsFinding> plain_reads;  // plain reads on both sides, when measured
  std::vector<ReceiveOutcome> receive_outcomes;  // plain send, every other receive read, measured order
  std::vector<RttComparison> rtt_comparisons;    // plain against the recommended read
  /// Negative one-way latencies of the cheapest clean read (all its combinations), told
  /// when it is not the recommended one.
  std::uint64_t cheapest_clean_negative = 0;
  std::optional<ControlSummary> control;
};

/// Decides. A receive variant's cost is its read cost's believed p50 (read_cost.hpp);
/// variants without a cost figure are ranked after those with one and never recommended.
VariantsVerdict decide_variants(const std::vector<ReadCost>& costs, const std::vector<ExchangeSummary>& exchanges,
                                const std::optional<ControlSummary>& control, double tsc_hz);

/// The believed per-call p50 of the clock `name` in `costs`, if it was measured.
std::optional<double> believed_cost_ticks(const std::vector<ReadCost>& costs, std::string_view name);
/// The same of a read variant's clock.
std::optional<double> believed_cost_ticks(const std::vector<ReadCost>& costs, ReadVariant variant);

}  // namespace tscaudit
