#include "variants/variants.hpp"

#include <algorithm>
#include <cmath>

namespace tscaudit {

namespace {

bool contains(std::span<const ReadVariant> available, ReadVariant v) {
  return std::find(available.begin(), available.end(), v) != available.end();
}

}  // namespace

std::vector<Combination> default_combinations(std::span<const ReadVariant> available) {
  std::vector<Combination> out;
  if (available.empty()) return out;
  const CounterArch arch = variant_arch(available.front());
  const ReadVariant plain = plain_variant(arch);
  if (!contains(available, plain)) return out;
  for (ReadVariant recv : available) out.push_back({plain, recv});
  const std::vector<Combination> extra =
      arch == CounterArch::x86_64
          ? std::vector<Combination>{{ReadVariant::rdtsc_lfence, ReadVariant::rdtscp},
                                     {ReadVariant::rdtscp, ReadVariant::rdtscp},
                                     {ReadVariant::lfence_rdtsc, ReadVariant::lfence_rdtsc}}
          : std::vector<Combination>{{ReadVariant::isb_cntvct, ReadVariant::isb_cntvct},
                                     {ReadVariant::isb_cntvct_dep, ReadVariant::isb_cntvct_dep}};
  for (const Combination& c : extra) {
    if (contains(available, c.send) && contains(available, c.recv)) out.push_back(c);
  }
  return out;
}

std::vector<Combination> all_combinations(std::span<const ReadVariant> available) {
  std::vector<Combination> out;
  for (ReadVariant send : available) {
    for (ReadVariant recv : available) out.push_back({send, recv});
  }
  return out;
}

double ExchangeSummary::violations_per_million() const {
  return one_way == 0 ? 0.0 : 1e6 * static_cast<double>(violations) / static_cast<double>(one_way);
}

ExchangeSummary summarize_exchange(const Combination& combination, std::vector<std::shared_ptr<const Run>> runs,
                                   std::vector<std::shared_ptr<const PairAnalysis>> analyses) {
  ExchangeSummary s;
  s.combination = combination;
  s.recv_orders_earlier_loads = variant_orders_earlier_loads(combination.recv);
  s.roles = std::move(analyses);
  s.runs = std::move(runs);
  for (const auto& run : s.runs) {
    for (const Round& r : run->rounds) {
      s.one_way_ticks.record(fwd_ticks(r));
      s.one_way_ticks.record(rev_ticks(r));
      s.rtt_ticks.record(rtt_ticks(r));
    }
  }
  for (const auto& p : s.roles) {
    s.rounds += p->rounds;
    for (auto [sum, part] : {std::pair{&s.fwd, &p->fwd_classes}, std::pair{&s.rev, &p->rev_classes}}) {
      sum->normal += part->normal;
      sum->offset_explained += part->offset_explained;
      sum->marginal += part->marginal;
      sum->causality_violation += part->causality_violation;
    }
    s.self_inconsistent += p->self_inconsistent;
    s.quantum_ticks = std::max(s.quantum_ticks, p->quantum_ticks);
  }
  s.one_way = 2 * s.rounds;
  s.offset_explained = s.fwd.offset_explained + s.rev.offset_explained;
  s.marginal = s.fwd.marginal + s.rev.marginal;
  s.causality_violations = s.fwd.causality_violation + s.rev.causality_violation;
  s.negative = s.offset_explained + s.marginal + s.causality_violations;
  s.violations = s.causality_violations;
  return s;
}

std::vector<ReferenceBand> reference_bands(const std::vector<ExchangeSummary>& exchanges) {
  std::vector<ReferenceBand> bands;
  auto band_of = [&](const std::string& a, const std::string& b) -> ReferenceBand& {
    for (ReferenceBand& r : bands) {
      if (r.a == a && r.b == b) return r;
    }
    ReferenceBand r;
    r.a = a;
    r.b = b;
    bands.push_back(r);
    return bands.back();
  };
  for (const ExchangeSummary& e : exchanges) {
    for (const auto& p : e.roles) {
      ReferenceBand& r = band_of(p->a, p->b);
      if (!e.recv_orders_earlier_loads) continue;
      if (r.problem != ReferenceBand::Problem::none && r.from > 0) continue;  // already ruled out
      const HardBand& band = p->fit.band;
      if (!band.feasible || !p->zero_drift || !p->segments.empty()) {
        r.ok = false;
        r.problem = !band.feasible   ? ReferenceBand::Problem::no_feasible_band
                    : !p->zero_drift ? ReferenceBand::Problem::drift
                                     : ReferenceBand::Problem::offset_step;
        r.culprit = e.combination;
        ++r.from;
        continue;
      }
      r.lo_ticks = r.from == 0 ? band.offset_lo_ticks : std::max(r.lo_ticks, band.offset_lo_ticks);
      r.hi_ticks = r.from == 0 ? band.offset_hi_ticks : std::min(r.hi_ticks, band.offset_hi_ticks);
      ++r.from;
      r.ok = r.lo_ticks <= r.hi_ticks;
      r.problem = r.ok ? ReferenceBand::Problem::none : ReferenceBand::Problem::disjoint;
    }
  }
  return bands;
}

void check_against_reference(std::vector<ExchangeSummary>& exchanges, const std::vector<ReferenceBand>& bands) {
  for (ExchangeSummary& e : exchanges) {
    e.below_reference = 0;
    e.reference_checked = false;
    e.violations = 0;
    for (std::size_t i = 0; i < e.roles.size(); ++i) {
      const PairAnalysis& p = *e.roles[i];
      const ReferenceBand* band = nullptr;
      for (const ReferenceBand& r : bands) {
        if (r.a == p.a && r.b == p.b && r.ok) band = &r;
      }
      std::vector<std::uint64_t> fwd_seqs = p.fwd_violation_seqs;
      std::vector<std::uint64_t> rev_seqs = p.rev_violation_seqs;
      std::sort(fwd_seqs.begin(), fwd_seqs.end());
      std::sort(rev_seqs.begin(), rev_seqs.end());
      if (band == nullptr || i >= e.runs.size()) {
        e.violations += fwd_seqs.size() + rev_seqs.size();
        continue;
      }
      e.reference_checked = true;
      const auto q = static_cast<double>(p.quantum_ticks);
      for (const Round& r : e.runs[i]->rounds) {
        const bool fwd_below = static_cast<double>(fwd_ticks(r)) < band->lo_ticks - q;
        const bool rev_below = static_cast<double>(rev_ticks(r)) < -band->hi_ticks - q;
        e.below_reference += (fwd_below ? 1u : 0u) + (rev_below ? 1u : 0u);
        const std::uint64_t seq = r.seq;
        if (fwd_below || std::binary_search(fwd_seqs.begin(), fwd_seqs.end(), seq)) ++e.violations;
        if (rev_below || std::binary_search(rev_seqs.begin(), rev_seqs.end(), seq)) ++e.violations;
      }
    }
  }
}

ControlSummary summarize_control(int cpu_a, int cpu_b, const Combination& combination, const Run& run,
                                 std::int64_t quantum_ticks, const PairAnalysis* analysis) {
  ControlSummary c;
  c.cpu_a = cpu_a;
  c.cpu_b = cpu_b;
  c.same_cpu = cpu_a == cpu_b;
  c.combination = combination;
  c.rounds = run.rounds.size();
  SignedHistogram rtt;
  bool first = true;
  for (const Round& r : run.rounds) {
    for (std::int64_t v : {fwd_ticks(r), rev_ticks(r)}) {
      if (v < 0) ++c.negative;
      if (v < -quantum_ticks) ++c.below_quantum;
      c.min_one_way_ticks = first ? v : std::min(c.min_one_way_ticks, v);
      first = false;
    }
    rtt.record(rtt_ticks(r));
  }
  c.rtt_min_ticks = rtt.min();
  c.rtt_p50_ticks = rtt.value_at_percentile(50);
  if (analysis != nullptr) {
    c.causality_violations = analysis->fwd_classes.causality_violation + analysis->rev_classes.causality_violation;
  }
  if (auto error = run.trailer.get("error")) c.problem = std::string(*error);
  return c;
}

std::int64_t min_non_negative(const SignedHistogram& h) {
  return h.total() > h.negative_count() ? h.value_at_rank(h.negative_count() + 1) : 0;
}

std::optional<double> believed_cost_ticks(const std::vector<ReadCost>& costs, ReadVariant variant) {
  return believed_cost_ticks(costs, variant_name(variant));
}

std::optional<double> believed_cost_ticks(const std::vector<ReadCost>& costs, std::string_view name) {
  for (const ReadCost& c : costs) {
    if (c.name != name || !c.error.empty()) continue;
    const CostStats& s = c.believe == CostMethod::deltas ? c.delta_ticks : c.batch_ticks;
    if (s.samples == 0) return std::nullopt;
    return s.p50;
  }
  return std::nullopt;
}

namespace {

/// One standing per receive variant, cheapest first (those without a cost figure last,
/// ties in the order first measured), and from them the cheapest clean read and the
/// cheapest clean read that waits for earlier loads (the recommendation).
void add_standings(VariantsVerdict& v, const std::vector<ReadCost>& costs,
                   const std::vector<ExchangeSummary>& exchanges) {
  for (const ExchangeSummary& e : exchanges) {
    auto it = std::find_if(v.standings.begin(), v.standings.end(),
                           [&](const RecvStanding& s) { return s.recv == e.combination.recv; });
    if (it == v.standings.end()) {
      RecvStanding s;
      s.recv = e.combination.recv;
      s.orders_earlier_loads = variant_orders_earlier_loads(s.recv);
      if (auto cost = believed_cost_ticks(costs, s.recv)) {
        s.measured_cost = true;
        s.cost_ticks = *cost;
      }
      v.standings.push_back(s);
      it = std::prev(v.standings.end());
    }
    it->one_way += e.one_way;
    it->violations += e.violations;
    it->self_inconsistent += e.self_inconsistent;
  }
  for (RecvStanding& s : v.standings) s.clean = s.one_way > 0 && s.violations == 0 && s.self_inconsistent == 0;
  std::stable_sort(v.standings.begin(), v.standings.end(), [](const RecvStanding& x, const RecvStanding& y) {
    if (x.measured_cost != y.measured_cost) return x.measured_cost;
    return x.measured_cost && x.cost_ticks < y.cost_ticks;
  });
  for (const RecvStanding& s : v.standings) {
    if (!s.clean || !s.measured_cost) continue;
    if (!v.cheapest_clean) v.cheapest_clean = s;
    if (s.orders_earlier_loads) {
      v.recommended = s;
      break;
    }
  }
}

/// Each combination's round trip against the plain/plain one's, when that was measured.
void add_inflation(VariantsVerdict& v, const std::vector<ExchangeSummary>& exchanges) {
  for (std::size_t i = 0; i < exchanges.size(); ++i) {
    if (is_plain_combination(exchanges[i].combination)) v.plain = i;
  }
  for (const ExchangeSummary& e : exchanges) {
    Inflation f;
    f.combination = e.combination;
    f.rtt_min_ticks = min_non_negative(e.rtt_ticks);
    f.rtt_negative = e.rtt_ticks.negative_count();
    f.rtt_p50_ticks = e.rtt_ticks.value_at_percentile(50);
    if (v.plain) {
      const ExchangeSummary& p = exchanges[*v.plain];
      f.rtt_min_over_plain_ticks = f.rtt_min_ticks - min_non_negative(p.rtt_ticks);
      f.rtt_p50_over_plain_ticks = f.rtt_p50_ticks - p.rtt_ticks.value_at_percentile(50);
    }
    v.inflation.push_back(f);
  }
}

/// Plain reads against the recommended receive read (with plain sends), on the round
/// trip. \pre v.plain and v.recommended.
void add_rtt_comparisons(VariantsVerdict& v, const std::vector<ReadCost>& costs,
                         const std::vector<ExchangeSummary>& exchanges) {
  const ExchangeSummary& p = exchanges[*v.plain];
  for (const Inflation& f : v.inflation) {
    if (f.combination != Combination{v.plain_read, v.recommended->recv}) continue;
    RttComparison c;
    c.recv = v.recommended->recv;
    c.plain_rtt_min_ticks = min_non_negative(p.rtt_ticks);
    c.plain_rtt_negative = p.rtt_ticks.negative_count();
    c.rtt_min_ticks = f.rtt_min_ticks;
    c.rtt_min_over_plain_ticks = f.rtt_min_over_plain_ticks;
    c.plain_rtt_p50_ticks = p.rtt_ticks.value_at_percentile(50);
    c.rtt_p50_ticks = f.rtt_p50_ticks;
    c.rtt_p50_over_plain_ticks = f.rtt_p50_over_plain_ticks;
    if (auto recv_cost = believed_cost_ticks(costs, c.recv); recv_cost && v.plain_cost_ticks) {
      c.read_cost_over_plain_ticks = *recv_cost - *v.plain_cost_ticks;
    }
    v.rtt_comparisons.push_back(c);
  }
}

/// The findings' figures, in the order they are told.
void add_findings(VariantsVerdict& v, const std::vector<ReadCost>& costs,
                  const std::vector<ExchangeSummary>& exchanges) {
  if (v.plain) {
    const ExchangeSummary& p = exchanges[*v.plain];
    v.plain_reads = PlainReadsFinding{p.negative,          p.one_way,         p.causality_violations, p.quantum_ticks,
                                      p.reference_checked, p.below_reference, p.self_inconsistent};
  }
  // Which receive reads removed the negatives (with plain sends, same pair, same run).
  for (const ExchangeSummary& e : exchanges) {
    if (e.combination.send != v.plain_read || e.combination.recv == v.plain_read) continue;
    v.receive_outcomes.push_back({e.combination.recv, e.negative == 0 && e.clean(), e.negative, e.violations});
  }
  if (v.plain && v.recommended) add_rtt_comparisons(v, costs, exchanges);
  if (v.cheapest_clean && (!v.recommended || v.cheapest_clean->recv != v.recommended->recv)) {
    for (const ExchangeSummary& e : exchanges) {
      if (e.combination.recv == v.cheapest_clean->recv) v.cheapest_clean_negative += e.negative;
    }
  }
}

}  // namespace

VariantsVerdict decide_variants(const std::vector<ReadCost>& costs, const std::vector<ExchangeSummary>& exchanges,
                                const std::optional<ControlSummary>& control, double tsc_hz) {
  VariantsVerdict v;
  v.tsc_hz = tsc_hz;
  v.control = control;
  // The exchanges are of one architecture (one machine measured them).
  if (!exchanges.empty()) v.plain_read = plain_variant_of(exchanges.front().combination.send);
  add_standings(v, costs, exchanges);
  v.plain_cost_ticks = believed_cost_ticks(costs, v.plain_read);
  if (v.recommended && v.plain_cost_ticks) {
    v.recommended_cost_over_plain_ticks = v.recommended->cost_ticks - *v.plain_cost_ticks;
  }
  add_inflation(v, exchanges);
  add_findings(v, costs, exchanges);
  return v;
}

}  // namespace tscaudit
