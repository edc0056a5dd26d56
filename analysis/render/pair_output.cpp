#include "render/pair_output.hpp"

#include <algorithm>
#include <cmath>

#include "core/format.hpp"
#include "estimate/offset_segments.hpp"
#include "render/text_wrap.hpp"
#include "render/verdict_text.hpp"

namespace tscaudit {
namespace {

/// "p99.9": the key of a percentile.
std::string percentile_key(double percentile) {
  std::string key = "p";
  key += format_sig(percentile, 6);
  return key;
}

void classes_line(std::string& out, const char* name, const DirectionClasses& c, const SignedHistogram& h) {
  out += std::string("  ") + name + "  " + std::to_string(h.negative_count()) +
         " negative: " + std::to_string(c.offset_explained) + " offset_explained, " + std::to_string(c.marginal) +
         " marginal, " + std::to_string(c.causality_violation) + " causality_violation\n";
}

/// The raw rounds of a piece of evidence, whole: they are the evidence. The round itself
/// is marked '>'. Each column as wide as its widest value (counters of 15 digits, not the
/// 20 a uint64_t may need), so that the table fits 100 columns.
void rounds_table(std::string& out, const Evidence& e) {
  int seq_w = 3, t_w = 2, d_w = 3;
  for (const Round& r : e.around) {
    seq_w = std::max(seq_w, static_cast<int>(std::to_string(r.seq).size()));
    for (std::uint64_t t : {r.t1, r.t2, r.t3, r.t4}) t_w = std::max(t_w, static_cast<int>(std::to_string(t).size()));
    for (std::int64_t d : {fwd_ticks(r), rev_ticks(r), rtt_ticks(r)}) {
      d_w = std::max(d_w, static_cast<int>(std::to_string(d).size()));
    }
  }
  char line[256];
  std::snprintf(line, sizeof line, "      %-*s %*s %*s %*s %*s %*s %*s %*s\n", seq_w, "seq", t_w, "t1", t_w, "t2", t_w,
                "t3", t_w, "t4", d_w, "fwd", d_w, "rev", d_w, "rtt");
  out += line;
  for (const Round& r : e.around) {
    std::snprintf(line, sizeof line, "    %c %-*llu %*llu %*llu %*llu %*llu %*lld %*lld %*lld\n",
                  r.seq == e.seq ? '>' : ' ', seq_w, static_cast<unsigned long long>(r.seq), t_w,
                  static_cast<unsigned long long>(r.t1), t_w, static_cast<unsigned long long>(r.t2), t_w,
                  static_cast<unsigned long long>(r.t3), t_w, static_cast<unsigned long long>(r.t4), d_w,
                  static_cast<long long>(fwd_ticks(r)), d_w, static_cast<long long>(rev_ticks(r)), d_w,
                  static_cast<long long>(rtt_ticks(r)));
    out += line;
  }
}

/// "T ticks into the run (S s)": a's ticks from the first round's t1.
std::string into_run(double ticks, double hz) {
  return format_fixed(ticks, 0) + " ticks into the run" + (hz > 0 ? " (" + format_sig(ticks / hz, 4) + " s)" : "");
}

/// `beyond`: what beyond_band_ticks measures ("beyond the band", "back").
void evidence_block(std::string& out, const char* what, const Evidence& e, double hz,
                    const char* beyond = "beyond the band") {
  out += std::string("  worst ") + what + ": round " + std::to_string(e.seq) + ", " + std::to_string(e.value_ticks) +
         " ticks, " + format_sig(e.beyond_band_ticks, 4) + " ticks " + beyond + ", " +
         into_run(static_cast<double>(e.since_start_ticks), hz) + "\n";
  rounds_table(out, e);
}

/// The proven steps, one line each, and the round in flight at each with the rounds around
/// it; or why pieces that no line fits whole did not split the run.
void steps_text(std::string& out, const PairAnalysis& p) {
  if (p.pieces && p.steps.empty()) {
    if (!p.pieces->chosen) {
      out += "  pieces    no line fits the run at any k, and its bins' bounds break into more than " +
             std::to_string(kMaxPieces) + " pieces at every k: too small all over, not a few steps\n";
    } else {
      std::size_t pieces = 0;
      for (std::size_t i = 0; i < p.pieces->ks.size(); ++i) {
        if (p.pieces->ks[i] == p.pieces->k) pieces = p.pieces->sweep[i].pieces;
      }
      out += "  pieces    no line fits the run at any k; at k = " + std::to_string(p.pieces->k) +
             " its bins' bounds break into " + std::to_string(pieces) +
             " pieces, but no change between them is proven (the bands either side meet): the run is not split\n";
    }
  }
  for (std::size_t i = 0; i < p.steps.size(); ++i) {
    const OffsetStep& s = p.steps[i];
    out += "  step " + std::to_string(i + 1) + std::string(i + 1 < 10 ? "    " : "   ") + "by " +
           ticks_with_ns(s.size_ticks, p.tsc_hz) + " (" + format_range(s.size_lo_ticks, s.size_hi_ticks) +
           " ticks) at round " + std::to_string(s.first_round_after);
    if (s.first_round_hi > s.first_round_lo) {
      out += " (between rounds " + std::to_string(s.first_round_lo) + " and " + std::to_string(s.first_round_hi) + ")";
    }
    out += ", " + into_run(s.since_start_ticks, p.tsc_hz) + ": the bands before and after are disjoint there\n";
    if (s.in_flight) {
      out += "            round " + std::to_string(s.in_flight->seq) + " was in flight (rtt " +
             std::to_string(s.in_flight->value_ticks) +
             " ticks): b's counter jumped between its reads t2 and t3, so no one offset fits it; it is in neither "
             "segment\n";
      rounds_table(out, *s.in_flight);
    }
  }
}

nlohmann::ordered_json evidence_json(const std::optional<Evidence>& e) {
  if (!e) return nullptr;
  nlohmann::ordered_json rounds = nlohmann::ordered_json::array();
  for (const Round& r : e->around)
    rounds.push_back({{"seq", r.seq}, {"t1", r.t1}, {"t2", r.t2}, {"t3", r.t3}, {"t4", r.t4}, {"flags", r.flags}});
  return {{"seq", e->seq},
          {"value_ticks", e->value_ticks},
          {"beyond_band_ticks", e->beyond_band_ticks},
          {"since_start_ticks", e->since_start_ticks},
          {"rounds", rounds}};
}

}  // namespace

nlohmann::ordered_json distribution_json(const SignedHistogram& h) {
  nlohmann::ordered_json j;
  j["count"] = h.total();
  j["min"] = h.min();
  const std::vector<PercentileRow> rows = standard_percentiles(h);
  for (const PercentileRow& row : rows) j[percentile_key(row.percentile)] = row.value;
  j["max"] = h.max();
  j["mean"] = h.mean();
  j["negative"] = h.negative_count();
  // How many samples lie beyond each tail value: below kThinTailSamples it rests on a
  // handful of rounds.
  auto& tail = j["tail_samples"] = nlohmann::ordered_json::object();
  for (const PercentileRow& row : rows) tail[percentile_key(row.percentile)] = row.tail_samples;
  return j;
}

nlohmann::ordered_json classes_json(const DirectionClasses& c) {
  return {{"normal", c.normal},
          {"offset_explained", c.offset_explained},
          {"marginal", c.marginal},
          {"causality_violation", c.causality_violation}};
}

std::string fit_lines_text(const EnvelopeFit& fit, const EnvelopeFit& free_fit, bool zero_drift, double span_ticks,
                           std::uint64_t k, std::int64_t quantum_ticks, const std::string& quantum_source, double hz,
                           std::string_view robust_what) {
  const HardBand& band = fit.band;
  std::string out;
  if (band.feasible) {
    out += "  offset    " + ticks_with_ns(fit.line.offset_ticks, hz) + ", band " +
           format_range(band.offset_lo_ticks, band.offset_hi_ticks) + " ticks" +
           band_ns_if_coarse(band.offset_lo_ticks, band.offset_hi_ticks, hz) + " at the run's middle" +
           (k == 1 ? std::string(" (hard: every round obeys it)")
                   : " (robust: k = " + std::to_string(k) + ", " + std::string(robust_what) + ")") +
           "\n";
  } else {
    out += "  offset    " + format_sig(fit.line.offset_ticks, 4) + " ticks (no band: the bounds cross by " +
           format_sig(-fit.line.margin_ticks, 4) + " ticks)\n";
  }
  if (zero_drift) {
    out += "  drift     no detectable drift: |drift| < " +
           format_sig(std::max(std::fabs(free_fit.band.drift_lo), std::fabs(free_fit.band.drift_hi)) * 1e9, 3) +
           " ppb over " + format_sig(span_ticks, 4) + " ticks\n";
  } else {
    out += "  drift     " + format_sig(fit.line.drift * 1e9, 4) + " ppb, " +
           (band.feasible ? "band " + format_range(band.drift_lo * 1e9, band.drift_hi * 1e9, 3) + " ppb"
                          : std::string("no band")) +
           (free_fit.line.drift_at_prior_bound ? " (not identifiable: the bounds do not interleave in time)" : "") +
           "\n";
  }
  out += "  margin    " + format_sig(fit.line.margin_ticks, 4) +
         " ticks (about the minimum one-way latency), quantum " + std::to_string(quantum_ticks) + " (" +
         quantum_source +
         (coarse_ticks(hz) ? "; " + format_sig(static_cast<double>(quantum_ticks) / hz * 1e9, 4) + " ns" : "") +
         "), k = " + std::to_string(k) + "\n";
  return out;
}

namespace {

/// analysis_text wrapped to `width` columns (a segment's text is indented).
std::string analysis_text_in(const PairAnalysis& p, std::size_t width) {
  const double hz = p.tsc_hz;
  // The answer first: the file and its outcome, as check would decide it on this run alone,
  // with the verdict that explains it; then what was measured.
  std::string out = printable_text(p.source) + ": " + pair_answer_text(p) + "\n";
  out += "  run       CPU " + p.a + " -> CPU " + p.b + ", send " + p.send.name + ", recv " + p.recv.name + ", " +
         std::to_string(p.rounds) + (p.rounds == 1 ? " round\n" : " rounds\n");
  if (p.incomplete) out += "  NOT COMPLETE: " + *p.incomplete + "\n";
  if (!p.segments.empty()) {
    out += "  (the offset stepped: the whole-run line below is the wrong model; see each segment)\n";
  }
  steps_text(out, p);
  out += fit_lines_text(p.fit, p.free_fit, p.zero_drift, p.span_ticks, p.k, p.quantum_ticks, p.quantum_source, hz,
                        "the k-th smallest bounds of each time bin");
  const BlockFit& bf = p.blocks;
  if (bf.valid) {
    const bool flat = p.zero_drift;
    // Block estimates of quantized reads can agree to the tick: their scatter is then 0,
    // but no estimate is better than half a quantum.
    const double ci = flat ? bf.zero_drift_ci_ticks : bf.offset_ci_ticks;
    const double half_q = static_cast<double>(p.quantum_ticks) / 2;
    out +=
        "  stats     offset " + format_sig(flat ? bf.zero_drift_offset_ticks : bf.offset_ticks, 5) + " +/- " +
        (ci >= half_q ? format_sig(ci, 3)
                      : format_sig(half_q, 3) + " (q/2; the blocks scatter " + format_sig(ci, 2) + ")") +
        " ticks" +
        (flat ? "" : ", drift " + format_sig(bf.drift * 1e9, 4) + " +/- " + format_sig(bf.drift_ci * 1e9, 3) + " ppb") +
        " (95 %, " + std::to_string(bf.blocks) +
        " time blocks; statistical only: no asymmetry, no quantum); runs test " + std::to_string(bf.runs.runs) +
        " runs, z " + format_sig(bf.runs.z, 3) + (bf.runs.structured ? " (structured: a step or a bend)" : "") + "\n";
    if (bf.step && p.steps.empty()) {
      out += "  moved     the estimate moved by " + format_sig(bf.step->size_ticks, 3) + " ticks at round " +
             std::to_string(bf.step->first_round_after) +
             ", but the bands before and after overlap: an offset step or an equal and opposite change of the two "
             "delays, which two-way timing cannot tell apart\n";
    }
    if (bf.delays_changed) {
      out += "  delays    changed during the run: the best split moves the offset estimate, but the margin moved by " +
             format_sig(bf.split_margin_change_ticks, 3) + " ticks with it, so it is not an offset step\n";
    }
  } else {
    out += "  stats     no block statistics: " + bf.reason + "\n";
  }
  out += "  k-sweep  ";
  for (const SweepStep& step : p.sweep) {
    out += " k=" + std::to_string(step.k) + ": " +
           (step.feasible ? format_sig(step.offset_ticks, 4) : std::string("crossed")) + ";";
  }
  out += " stable from k = " + std::to_string(p.k) + "; below that floor: " + std::to_string(p.below_floor_fwd) +
         " fwd, " + std::to_string(p.below_floor_rev) + " rev rounds\n";
  classes_line(out, "fwd", p.fwd_classes, p.fwd_ticks);
  classes_line(out, "rev", p.rev_classes, p.rev_ticks);
  out += "  rtt < -2q " + std::to_string(p.self_inconsistent) + " rounds (impossible for any offset)\n";
  out += "  backwards a " + std::to_string(p.counter_backwards_a) + " rounds (t4 < t1), b " +
         std::to_string(p.counter_backwards_b) +
         " rounds (t3 < t2): a counter ran backwards, impossible for any offset\n";
  if (p.worst_fwd) evidence_block(out, "forward violation", *p.worst_fwd, hz);
  if (p.worst_rev) evidence_block(out, "reverse violation", *p.worst_rev, hz);
  if (p.worst_rtt) evidence_block(out, "rtt", *p.worst_rtt, hz);
  if (p.worst_backwards_a) evidence_block(out, "a backwards (t4 - t1)", *p.worst_backwards_a, hz, "back");
  if (p.worst_backwards_b) evidence_block(out, "b backwards (t3 - t2)", *p.worst_backwards_b, hz, "back");
  out += "  longest   ";
  for (const auto& [seq, rtt] : p.longest_rounds) {
    out += ' ';
    out += std::to_string(rtt) + " (round " + std::to_string(seq) + ")";
  }
  out += " ticks of rtt\n";
  // Every standard percentile; the row of tail counts says how many samples lie beyond
  // each (a "*" marks tails resting on fewer than kThinTailSamples). 8 columns a value:
  // the table fits 100 columns up to 7-digit latencies.
  out += "  ticks    min";
  for (double pct : kStandardPercentiles) {
    char head[32];
    std::snprintf(head, sizeof head, " %7s", percentile_key(pct).c_str());
    out += head;
  }
  out += "      max     mean\n";
  for (const auto& [name, h] :
       {std::pair{"fwd", &p.fwd_ticks}, std::pair{"rev", &p.rev_ticks}, std::pair{"rtt", &p.rtt_ticks}}) {
    char cell[48];
    std::snprintf(cell, sizeof cell, "  %-4s %7lld", name, static_cast<long long>(h->min()));
    out += cell;
    for (const PercentileRow& row : standard_percentiles(*h)) {
      std::snprintf(cell, sizeof cell, " %7lld", static_cast<long long>(row.value));
      out += cell;
    }
    std::snprintf(cell, sizeof cell, " %8lld %8s\n", static_cast<long long>(h->max()),
                  format_sig(h->mean(), 5).c_str());
    out += cell;
  }
  out += "  beyond      ";
  for (const PercentileRow& row : standard_percentiles(p.rtt_ticks)) {
    char cell[24];
    std::snprintf(cell, sizeof cell, " %6llu%s", static_cast<unsigned long long>(row.tail_samples),
                  row.tail_samples < kThinTailSamples ? "*" : " ");
    out += cell;
  }
  out += " rtt samples beyond\n";
  out = wrap_lines(out, width);
  constexpr std::string_view kSegmentPrefix = "    | ";
  for (const PairAnalysis& segment : p.segments) {
    const std::string inner = analysis_text_in(segment, width - kSegmentPrefix.size());
    std::string indented;
    for (std::size_t i = 0; i < inner.size(); ++i) {
      if (i == 0 || inner[i - 1] == '\n') indented += kSegmentPrefix;
      indented += inner[i];
    }
    out += "  segment\n" + indented;
  }
  return out;
}

}  // namespace

std::string pair_answer_text(const PairAnalysis& p) {
  const CheckResult decision = decide_pair(p);
  const std::string verdict = verdict_text(p.verdict);
  switch (decision.outcome) {
    case CheckOutcome::synchronized:
      return p.verdict.kind == VerdictKind::synchronized ? verdict : "synchronized; " + verdict;
    case CheckOutcome::not_synchronized: {
      // The verdict says why where it is the fit's (an offset, a drift, a step); after early
      // reads, the failure the decision names comes first.
      const VerdictKind k = p.verdict.kind;
      if (k == VerdictKind::offset || k == VerdictKind::drifting || k == VerdictKind::offset_stepped ||
          !decision.shown) {
        return "not synchronized: " + verdict;
      }
      return "not synchronized: " + check_failure_text(decision.failures[*decision.shown], decision) + "; " + verdict;
    }
    case CheckOutcome::inconclusive:
      if (p.verdict.kind == VerdictKind::too_few_rounds) return "inconclusive: " + verdict;
      return "inconclusive: " + too_few_rounds_text(decision.fewest_rounds) + "; " + verdict;
    case CheckOutcome::incomplete:
      return "incomplete, no verdict: " + p.incomplete.value_or(decision.cut_short) + "; the rounds it holds: " + verdict;
  }
  return verdict;
}

std::string analysis_text(const PairAnalysis& p) { return analysis_text_in(p, kTextColumns); }

namespace {

nlohmann::ordered_json pair_json(const PairAnalysis& p) {
  const HardBand& band = p.fit.band;
  nlohmann::ordered_json e;
  e["source"] = p.source;
  e["a"] = p.a;
  e["b"] = p.b;
  e["send"] = p.send.name;
  e["recv"] = p.recv.name;
  e["rounds"] = p.rounds;
  e["complete"] = !p.incomplete.has_value();
  if (p.incomplete) e["incomplete_reason"] = *p.incomplete;
  e["quantum_ticks"] = p.quantum_ticks;
  e["quantum_source"] = p.quantum_source;
  e["tsc_hz"] = p.tsc_hz > 0 ? nlohmann::ordered_json(p.tsc_hz) : nlohmann::ordered_json(nullptr);
  e["t_ref_tick"] = p.t_ref_tick;
  e["band_feasible"] = band.feasible;
  auto or_null = [&](double v) { return band.feasible ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr); };
  e["offset_ticks"] = {{"estimate", p.fit.line.offset_ticks},
                       {"lo", or_null(band.offset_lo_ticks)},
                       {"hi", or_null(band.offset_hi_ticks)}};
  if (p.tsc_hz > 0) {
    e["offset_ns"] = {
        {"estimate", ticks_to_ns(p.fit.line.offset_ticks, p.tsc_hz)},
        {"lo", band.feasible ? nlohmann::ordered_json(ticks_to_ns(band.offset_lo_ticks, p.tsc_hz)) : nullptr},
        {"hi", band.feasible ? nlohmann::ordered_json(ticks_to_ns(band.offset_hi_ticks, p.tsc_hz)) : nullptr}};
  }
  const HardBand& drift_band = p.free_fit.band;
  e["drift_ppb"] = {{"estimate", p.fit.line.drift * 1e9},
                    {"lo", drift_band.feasible ? nlohmann::ordered_json(drift_band.drift_lo * 1e9) : nullptr},
                    {"hi", drift_band.feasible ? nlohmann::ordered_json(drift_band.drift_hi * 1e9) : nullptr},
                    {"detectable", !p.zero_drift},
                    {"identifiable", !p.free_fit.line.drift_at_prior_bound}};
  e["margin_ticks"] = p.fit.line.margin_ticks;
  e["k"] = p.k;
  e["bins"] = p.bins;
  e["below_floor"] = {{"fwd", p.below_floor_fwd}, {"rev", p.below_floor_rev}};
  auto& sweep = e["k_sweep"] = nlohmann::ordered_json::array();
  for (const SweepStep& s : p.sweep) {
    sweep.push_back(
        {{"k", s.k}, {"feasible", s.feasible}, {"offset_ticks", s.offset_ticks}, {"margin_ticks", s.margin_ticks}});
  }
  e["fwd_ticks"] = distribution_json(p.fwd_ticks);
  e["rev_ticks"] = distribution_json(p.rev_ticks);
  e["rtt_ticks"] = distribution_json(p.rtt_ticks);
  e["classes"] = {{"fwd", classes_json(p.fwd_classes)}, {"rev", classes_json(p.rev_classes)}};
  e["self_inconsistent"] = p.self_inconsistent;
  e["counter_backwards"] = {{"a", p.counter_backwards_a}, {"b", p.counter_backwards_b}};
  e["worst"] = {{"fwd", evidence_json(p.worst_fwd)},
                {"rev", evidence_json(p.worst_rev)},
                {"rtt", evidence_json(p.worst_rtt)},
                {"backwards_a", evidence_json(p.worst_backwards_a)},
                {"backwards_b", evidence_json(p.worst_backwards_b)}};
  auto& longest = e["longest_rounds"] = nlohmann::ordered_json::array();
  for (const auto& [seq, rtt] : p.longest_rounds) longest.push_back({{"seq", seq}, {"rtt_ticks", rtt}});
  const BlockFit& bf = p.blocks;
  nlohmann::ordered_json stats = {{"valid", bf.valid}};
  if (bf.valid) {
    stats["blocks"] = bf.blocks;
    stats["offset_ticks"] = {{"estimate", bf.offset_ticks}, {"se", bf.offset_se_ticks}, {"ci95", bf.offset_ci_ticks}};
    stats["drift_ppb"] = {{"estimate", bf.drift * 1e9}, {"se", bf.drift_se * 1e9}, {"ci95", bf.drift_ci * 1e9}};
    stats["zero_drift_offset_ticks"] = {
        {"estimate", bf.zero_drift_offset_ticks}, {"se", bf.zero_drift_se_ticks}, {"ci95", bf.zero_drift_ci_ticks}};
    stats["delays_changed"] = bf.delays_changed;
    stats["split_margin_change_ticks"] = bf.split_margin_change_ticks;
    stats["runs_test"] = {
        {"runs", bf.runs.runs},         {"n_plus", bf.runs.n_plus}, {"n_minus", bf.runs.n_minus},
        {"expected", bf.runs.expected}, {"z", bf.runs.z},           {"structured", bf.runs.structured}};
  } else {
    stats["reason"] = bf.reason;
  }
  e["statistics"] = stats;
  if (bf.valid && bf.step) {
    e["step"] = {{"proven", !p.steps.empty()},
                 {"size_ticks", bf.step->size_ticks},
                 {"first_round_after", bf.step->first_round_after},
                 {"t1_tick", bf.step->t1_tick},
                 {"refined_to_round", bf.step->refined_to_round}};
  } else {
    e["step"] = nullptr;
  }
  auto& steps = e["steps"] = nlohmann::ordered_json::array();
  for (const OffsetStep& s : p.steps) {
    steps.push_back({{"first_round_after", s.first_round_after},
                     {"first_round_lo", s.first_round_lo},
                     {"first_round_hi", s.first_round_hi},
                     {"t1_tick", s.t1_tick},
                     {"since_start_ticks", s.since_start_ticks},
                     {"size_ticks", s.size_ticks},
                     {"size_lo_ticks", s.size_lo_ticks},
                     {"size_hi_ticks", s.size_hi_ticks},
                     {"in_flight", evidence_json(s.in_flight)}});
  }
  if (p.pieces) {
    nlohmann::ordered_json pieces_sweep = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < p.pieces->ks.size(); ++i) {
      const SweepPieces& step = p.pieces->sweep[i];
      pieces_sweep.push_back({{"k", p.pieces->ks[i]},
                              {"resolved", step.resolved},
                              {"pieces", step.pieces},
                              {"set_aside", step.set_aside}});
    }
    e["pieces"] = {{"k", p.pieces->chosen ? nlohmann::ordered_json(p.pieces->k) : nlohmann::ordered_json(nullptr)},
                   {"drift_ppb", p.pieces->drift * 1e9},
                   {"candidate_splits", p.pieces->splits.size()},
                   {"sweep", std::move(pieces_sweep)}};
  } else {
    e["pieces"] = nullptr;
  }
  auto& segments = e["segments"] = nlohmann::ordered_json::array();
  for (const PairAnalysis& segment : p.segments) segments.push_back(pair_json(segment));
  e["verdict"] = verdict_text(p.verdict);
  e["verdict_kind"] = verdict_kind_name(p.verdict.kind);
  // What check decides on this run alone (decide_pair), as every deciding command words it.
  const CheckResult decision = decide_pair(p);
  e["outcome"] = check_outcome_name(decision.outcome);
  e["outcome_reason"] = check_reason_text(decision);
  return e;
}

}  // namespace

nlohmann::ordered_json analysis_json(const std::vector<PairAnalysis>& pairs) {
  nlohmann::ordered_json j;
  j["schema"] = kAnalysisSchema;
  auto& arr = j["pairs"] = nlohmann::ordered_json::array();
  for (const PairAnalysis& p : pairs) arr.push_back(pair_json(p));
  return j;
}

AnalysisJsonStream::AnalysisJsonStream(std::function<void(std::string_view)> sink) : sink_(std::move(sink)) {
  sink_("{\n  \"schema\": \"" + std::string(kAnalysisSchema) + "\",\n  \"pairs\": [");
}

void AnalysisJsonStream::add(const PairAnalysis& p) {
  // dump(2) of the element, indented by the two levels it sits at in the whole document.
  const std::string element = pair_json(p).dump(2);
  std::string text = any_ ? ",\n    " : "\n    ";
  text.reserve(text.size() + element.size() + element.size() / 8);
  for (char c : element) {
    text += c;
    if (c == '\n') text += "    ";
  }
  sink_(text);
  any_ = true;
}

void AnalysisJsonStream::finish() { sink_(any_ ? "\n  ]\n}\n" : "]\n}\n"); }

std::string analysis_csv(const std::vector<PairAnalysis>& pairs) {
  std::string out =
      "source,a,b,send,recv,rounds,complete,quantum_ticks,offset_ticks,offset_lo_ticks,offset_hi_ticks,drift_ppb,"
      "drift_lo_ppb,drift_hi_ppb,margin_ticks,rtt_min_ticks,rtt_p50_ticks,fwd_negative,rev_negative,"
      "fwd_causality_violation,rev_causality_violation,self_inconsistent\n";
  for (const PairAnalysis& p : pairs) {
    const HardBand& band = p.fit.band;
    auto opt = [&](double v) { return band.feasible ? format_sig(v, 10) : std::string(); };
    const HardBand& db = p.free_fit.band;
    auto dopt = [&](double v) { return db.feasible ? format_sig(v * 1e9, 6) : std::string(); };
    // Fields with commas or quotes are quoted (file names may hold them).
    std::string source = p.source;
    if (source.find_first_of(",\"\n") != std::string::npos) {
      std::string q = "\"";
      for (char c : source) q += c == '"' ? std::string("\"\"") : std::string(1, c);
      source = q + "\"";
    }
    out += source + "," + p.a + "," + p.b + "," + p.send.name + "," + p.recv.name + "," + std::to_string(p.rounds) +
           "," + (p.incomplete ? "no" : "yes") + "," + std::to_string(p.quantum_ticks) + "," +
           format_sig(p.fit.line.offset_ticks, 10) + "," + opt(band.offset_lo_ticks) + "," + opt(band.offset_hi_ticks) +
           "," + format_sig(p.fit.line.drift * 1e9, 6) + "," + dopt(db.drift_lo) + "," + dopt(db.drift_hi) + "," +
           format_sig(p.fit.line.margin_ticks, 10) + "," + std::to_string(p.rtt_ticks.min()) + "," +
           std::to_string(p.rtt_ticks.value_at_percentile(50)) + "," + std::to_string(p.fwd_ticks.negative_count()) +
           "," + std::to_string(p.rev_ticks.negative_count()) + "," +
           std::to_string(p.fwd_classes.causality_violation) + "," + std::to_string(p.rev_classes.causality_violation) +
           "," + std::to_string(p.self_inconsistent) + "\n";
  }
  return out;
}

}  // namespace tscaudit
