#include "render/verdict_text.hpp"

#include <algorithm>
#include <cmath>

#include "core/cpu_list.hpp"
#include "core/format.hpp"

namespace tscaudit {
namespace {

constexpr std::string_view kStepCauses = ": a TSC write, a vCPU moved, or a migration";

std::string count_of(std::uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

/// "0.98 %": two significant digits below 10 %, whole percents above.
std::string percent(double part, double whole) {
  if (!(whole > 0)) return "0 %";
  const double p = 100.0 * part / whole;
  return (p >= 10 ? format_fixed(p, 0) : format_sig(p, 2)) + " %";
}

std::string unsafe_text(const UnsafeReads& u) {
  std::string v = "unsafe reads: causality violated under this variant (send " + u.send.name + ", recv " + u.recv.name +
                  "): " + (u.at_least ? "at least " : "") + std::to_string(u.fwd_violations) + " forward and " +
                  std::to_string(u.rev_violations) +
                  " reverse one-way latencies below every offset the rest of the run allows";
  if (u.self_inconsistent > 0) v += ", " + std::to_string(u.self_inconsistent) + " rounds impossible for any offset";
  if (u.counter_backwards_a + u.counter_backwards_b > 0) {
    v += ", " + count_of(u.counter_backwards_a + u.counter_backwards_b, "round", "rounds") +
         " in which a counter ran backwards (a: " + std::to_string(u.counter_backwards_a) +
         ", b: " + std::to_string(u.counter_backwards_b) + ")";
  }
  if (u.no_band) v += "; no line fits the bounds even with k = " + std::to_string(u.k);
  if (u.unresolved_pieces) {
    v +=
        " (they break into more than " + std::to_string(u.max_pieces) + " pieces: too small all over, not a few steps)";
  }
  return v;
}

std::string fit_text(const FitVerdict& f, double tsc_hz) {
  const std::string band = format_range(f.offset_lo_ticks, f.offset_hi_ticks) + " ticks";
  switch (f.kind) {
    case VerdictKind::drifting:
      return "drifting by " + format_sig(f.drift_ppb, 3) + " ppb (band " + format_sig(f.drift_lo_ppb, 3) + " to " +
             format_sig(f.drift_hi_ppb, 3) + " ppb)";
    case VerdictKind::offset:
      return "offset of " + ticks_with_ns(f.offset_ticks, tsc_hz) + ": b's counter is " +
             (f.offset_ticks > 0 ? "ahead of" : "behind") + " a's; the band " + band + " excludes 0";
    default: return "synchronized within the band: the offset lies in " + band + ", which contains 0";
  }
}

std::string times(std::size_t n) { return std::to_string(n) + (n == 1 ? " time" : " times"); }

}  // namespace

std::string_view verdict_kind_name(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::too_few_rounds: return "too_few_rounds";
    case VerdictKind::unsafe_reads: return "unsafe_reads";
    case VerdictKind::offset_stepped: return "offset_stepped";
    case VerdictKind::changed_course: return "changed_course";
    case VerdictKind::drifting: return "drifting";
    case VerdictKind::synchronized: return "synchronized";
    case VerdictKind::offset: return "offset";
  }
  return "?";
}

std::string too_few_rounds_text(std::uint64_t rounds) {
  return "too few rounds to bound the offset (" + count_of(rounds, "round", "rounds") + "; at least " +
         std::to_string(kMinRoundsForVerdict) + " needed)";
}

std::string verdict_text(const PairVerdict& v) {
  if (v.kind == VerdictKind::too_few_rounds) return too_few_rounds_text(v.rounds);
  if (v.kind == VerdictKind::unsafe_reads) return unsafe_text(v.unsafe);
  if (v.kind == VerdictKind::offset_stepped) {
    // One step: "by X at round R ...; before: ...; after: ...". More: "N times: by X at
    // round R, by Y at round S ...; segment 1: ...; segment 2: ...".
    const bool one = v.steps.size() == 1;
    std::string s = "offset stepped " + (one ? std::string() : times(v.steps.size()) + ": ");
    for (std::size_t i = 0; i < v.steps.size(); ++i) {
      const StepVerdict& step = v.steps[i];
      s += std::string(i == 0 ? "" : ", ") + "by " + ticks_with_ns(step.size_ticks, v.tsc_hz) + " at round " +
           std::to_string(step.round);
      if (step.round_hi > step.round_lo) {
        s += " (between rounds " + std::to_string(step.round_lo) + " and " + std::to_string(step.round_hi) + ")";
      }
    }
    s += kStepCauses;
    for (std::size_t i = 0; i < v.segments.size(); ++i) {
      const std::string name = one ? (i == 0 ? "before" : "after") : "segment " + std::to_string(i + 1);
      s += "; " + name + ": " + verdict_text(v.segments[i]);
    }
    return s;
  }
  std::string s = fit_text(v.fit, v.tsc_hz);
  const NegativeLatencies& n = v.negatives;
  if (n.count > 0) {
    s += "; " + std::to_string(n.count) + " negative one-way latencies, none beyond the band (" +
         std::to_string(n.explained) + " explained by any offset in it, " + std::to_string(n.marginal) +
         " by some: not proof of early reads)";
  }
  return s;
}

std::string verdict_text(const MonitorVerdict& v) {
  std::vector<std::string> parts;
  if (v.unsafe) parts.push_back(unsafe_text(*v.unsafe));
  if (!v.proven_steps.empty()) {
    std::string s = "offset stepped " + times(v.proven_steps.size()) + ":";
    for (std::size_t i = 0; i < v.proven_steps.size(); ++i) {
      const MonitorVerdict::ProvenStep& step = v.proven_steps[i];
      s += std::string(i == 0 ? " " : ", ") + "by " + ticks_with_ns(step.size_ticks, v.tsc_hz) + " at interval " +
           std::to_string(step.interval);
      if (v.tsc_hz > 0) s += " (" + format_sig(step.at_s, 4) + " s into the run)";
    }
    parts.push_back(s + std::string(kStepCauses));
  }
  if (v.unproven_changes > 0) {
    parts.push_back("the offset changed course " + times(v.unproven_changes) +
                    " within the bands: no single line fits, but the bands meet at the change (a drift change, or a "
                    "step smaller than the bands)");
  }
  if (v.last_piece) parts.push_back((v.several_pieces ? "last piece: " : "") + fit_text(*v.last_piece, v.tsc_hz));
  if (v.transients > 0) {
    parts.push_back(std::to_string(v.transient_bounds) + " bounds in " + std::to_string(v.transients) + " transient" +
                    (v.transients == 1 ? "" : "s") +
                    " set aside (they contradict the line on both sides: early reads at k = " + std::to_string(v.k) +
                    " or brief excursions)");
  }
  if (v.unproven_negatives > 0) {
    parts.push_back(std::to_string(v.unproven_negatives) +
                    " negative one-way latencies, none proven beyond the band (the log keeps counts, not rounds)");
  }
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

std::string_view check_failure_kind_name(CheckFailureKind kind) {
  switch (kind) {
    case CheckFailureKind::offset: return "offset";
    case CheckFailureKind::offset_stepped: return "offset_stepped";
    case CheckFailureKind::drift: return "drift";
    case CheckFailureKind::self_inconsistent: return "self_inconsistent";
    case CheckFailureKind::no_band: return "no_band";
    case CheckFailureKind::roles_disagree: return "roles_disagree";
    case CheckFailureKind::inconsistent_bands: return "inconsistent_bands";
  }
  return "?";
}

std::string check_failure_text(const CheckFailure& f, const CheckResult& c) {
  const std::string pair = "pair " + std::to_string(f.a) + "->" + std::to_string(f.b) + ": ";
  switch (f.kind) {
    case CheckFailureKind::roles_disagree:
      return pair + "no one offset line fits the rounds of both roles (" + std::to_string(f.a) + " initiating, then " +
             std::to_string(f.b) + "): the offset moved between them, or a read ran early";
    case CheckFailureKind::self_inconsistent:
      return pair + std::to_string(f.self_inconsistent) + " rounds impossible for any offset under receive variant " +
             c.recv.name + ", which should order the read";
    case CheckFailureKind::no_band:
      return pair + "no offset fits every round (causality violated under recv " + c.recv.name +
             "): the offset cannot be bounded; use a receive variant that orders the read";
    case CheckFailureKind::offset:
      return pair + "CPU " + std::to_string(f.b) + (f.offset_ticks > 0 ? " is ahead of CPU " : " is behind CPU ") +
             std::to_string(f.a) + " by " + ticks_with_ns(std::fabs(f.offset_ticks), c.tsc_hz) + "; the band " +
             format_range(f.offset_lo_ticks, f.offset_hi_ticks) + " ticks misses " +
             (c.settings.tolerance_ticks > 0 ? "+/-" + ticks_text(c.settings.tolerance_ticks) : std::string("0")) +
             " by " + ticks_text(f.gap_ticks);
    case CheckFailureKind::drift:
      return pair + "drifting by " + format_sig(f.drift_ppb, 3) + " ppb; the drift band " +
             format_range(f.drift_lo_ppb, f.drift_hi_ppb) + " ppb misses " +
             (c.settings.drift_tolerance_ppb > 0 ? "+/-" + format_sig(c.settings.drift_tolerance_ppb, 3) + " ppb"
                                                  : std::string("0"));
    case CheckFailureKind::offset_stepped:
      return pair + "the offset stepped " + times(f.steps) + " during the run" +
             (f.steps == 1 ? ", by " : ", the largest by ") + ticks_with_ns(f.step_ticks, c.tsc_hz) + " at round " +
             std::to_string(f.step_round) + std::string(kStepCauses);
    case CheckFailureKind::inconsistent_bands:
      return "the pairs' offset bands contradict one another (a cycle of pairs admits no offsets): an offset moved "
             "between visits, or a band is wrong";
  }
  return pair + "?";
}

std::string cpus_off_text(const std::vector<int>& cpus) {
  if (cpus.empty()) return "";
  if (cpus.size() == 1) return "CPU " + std::to_string(cpus[0]) + " is off from the rest";
  // Up to kListed CPUs by number; beyond, the count of the others.
  constexpr std::size_t kListed = 8;
  const std::size_t listed = cpus.size() <= kListed ? cpus.size() : kListed;
  std::string s = "CPUs ";
  for (std::size_t i = 0; i < listed; ++i) {
    if (i > 0) s += (i + 1 == listed && listed == cpus.size()) ? " and " : ", ";
    s += std::to_string(cpus[i]);
  }
  if (listed < cpus.size()) s += " and " + std::to_string(cpus.size() - listed) + " more";
  return s + " are off from the rest";
}

std::string checked_pairs_text(const CheckResult& c) {
  if (!c.missing.empty()) {
    return "the " + std::to_string(c.pairs_checked - c.missing.size()) + " ordered pairs with rounds" +
           (c.sparse ? " of a sparse design" : "") + " over " + std::to_string(c.cpus) + " CPUs (of " +
           std::to_string(c.pairs_checked) + " planned)";
  }
  if (!c.sparse)
    return "all " + std::to_string(c.pairs_checked) + " ordered pairs of " + std::to_string(c.cpus) + " CPUs";
  return "the " + std::to_string(c.pairs_checked) + " ordered pairs of a sparse design over " + std::to_string(c.cpus) +
         " CPUs (of " + std::to_string(c.cpus * (c.cpus - 1)) + ")";
}

std::string missing_pairs_text(const CheckResult& c) {
  if (c.missing.empty()) return "";
  constexpr std::size_t kNamed = 4;
  std::string names;
  for (std::size_t i = 0; i < c.missing.size() && i < kNamed; ++i) names += (i == 0 ? "" : ", ") + c.missing[i];
  if (c.missing.size() > kNamed) names += " and " + std::to_string(c.missing.size() - kNamed) + " more";
  return count_of(c.missing.size(), "ordered pair", "ordered pairs") + " of " + std::to_string(c.pairs_checked) +
         (c.missing.size() == 1 ? " has" : " have") + " no rounds (" + names + "): " +
         (c.lost.empty() ? "the run holds none for " + std::string(c.missing.size() == 1 ? "it" : "them")
                         : "lost from the run directory (evidence lost: " + c.lost.front() +
                               (c.lost.size() > 1 ? "; and " + std::to_string(c.lost.size() - 1) + " more" : "") + ")");
}

std::string_view check_outcome_name(CheckOutcome outcome) {
  switch (outcome) {
    case CheckOutcome::synchronized: return "synchronized";
    case CheckOutcome::not_synchronized: return "not_synchronized";
    case CheckOutcome::inconclusive: return "inconclusive";
    case CheckOutcome::incomplete: return "incomplete";
  }
  return "?";
}

namespace {

/// Ticks or ppb to 4 significant digits, whole from 1000 on ("99.5", "1105", "12345").
std::string number_words(double v) { return std::fabs(v) >= 1000 ? format_fixed(v, 0) : format_sig(v, 4); }

/// Nanoseconds to 3 significant digits, whole from 100 on ("78.7", "461", "1100").
std::string ns_words(double ns) { return std::fabs(ns) >= 100 ? format_fixed(ns, 0) : format_sig(ns, 3); }

/// "461 ns (1061 ticks)", or "1061 ticks" when the frequency is unknown.
std::string amount_text(double ticks, double tsc_hz) {
  if (tsc_hz > 0) return ns_words(ticks / tsc_hz * 1e9) + " ns (" + number_words(ticks) + " ticks)";
  return number_words(ticks) + " ticks";
}

}  // namespace

std::string_view inconclusive_why_name(InconclusiveWhy why) {
  switch (why) {
    case InconclusiveWhy::none: return "none";
    case InconclusiveWhy::one_cpu: return "one_cpu";
    case InconclusiveWhy::unjudged: return "unjudged";
    case InconclusiveWhy::pairs_missing: return "pairs_missing";
    case InconclusiveWhy::too_few_rounds: return "too_few_rounds";
    case InconclusiveWhy::max_bound: return "max_bound";
  }
  return "?";
}

std::string_view band_source_name(BandSource source) {
  return source == BandSource::both_roles ? "both_roles" : "role";
}

std::string bound_text(double ticks, double tsc_hz) { return "\u00b1" + amount_text(ticks, tsc_hz); }

namespace {

/// A group of CPUs in words: "package 1 (CPUs 16-31)", "core 12 (CPUs 24-25)", "CPU 5",
/// "CPUs 6-11".
std::string group_words(const std::string& name, const std::vector<int>& cpus) {
  const std::string list = (cpus.size() == 1 ? "CPU " : "CPUs ") + format_cpu_list(cpus);
  return name.empty() ? list : name + " (" + list + ")";
}

/// "95 to 1105 ticks (41 to 480 ns)", magnitudes, the smaller first.
std::string magnitude_band(double lo, double hi, std::string_view unit, double tsc_hz) {
  const double a = std::min(std::fabs(lo), std::fabs(hi)), b = std::max(std::fabs(lo), std::fabs(hi));
  std::string s = number_words(a) + " to " + number_words(b) + " " + std::string(unit);
  if (unit == "ticks" && tsc_hz > 0) {
    s += " (" + ns_words(a / tsc_hz * 1e9) + " to " + ns_words(b / tsc_hz * 1e9) + " ns)";
  }
  return s;
}

}  // namespace

std::string finding_text(const Finding& f, double tsc_hz) {
  const std::string group = group_words(f.name, f.cpus);
  const std::string against = f.against_rest && f.against_name.empty() ? "the rest (" + group_words("", f.against) + ")"
                                                                       : group_words(f.against_name, f.against);
  const bool many = f.name.empty() && f.cpus.size() > 1;  // "CPUs 6-11 are", "package 1 (...) is"
  const bool up = f.lo > 0;  // the band misses 0 on one side: lo > 0 or hi < 0
  switch (f.kind) {
    case FindingKind::offset:
      return group + (many ? " are " : " is ") + (up ? "ahead of " : "behind ") + against + " by " +
             magnitude_band(f.lo, f.hi, "ticks", tsc_hz);
    case FindingKind::drift:
      return group + (many ? " run " : " runs ") + magnitude_band(f.lo, f.hi, "ppb", tsc_hz) +
             (up ? " faster than " : " slower than ") + against;
    case FindingKind::step:
      return group + (many ? "'s counters" : "'s counter") + " jumped " + (up ? "forward" : "back") + " by " +
             magnitude_band(f.lo, f.hi, "ticks", tsc_hz) + " during the run, against " + against + " (" +
             count_of(f.pairs, "ordered pair", "ordered pairs") + "; the largest jump at round " +
             std::to_string(f.step_round) + ")";
  }
  return "?";
}

std::string check_reason_text(const CheckResult& c) {
  const CheckSettings& s = c.settings;
  const std::string passed =
      checked_pairs_text(c) + " have offset bands that " +
      (s.tolerance_ticks <= 0 ? std::string("contain 0") : "meet ±" + amount_text(s.tolerance_ticks, c.tsc_hz)) +
      ", " +
      (s.drift_tolerance_ppb <= 0 ? std::string("no detectable drift")
                                  : "no drift beyond " + format_sig(s.drift_tolerance_ppb, 3) + " ppb") +
      (variant_orders_earlier_loads(c.recv) ? ", no self-inconsistent rounds" : "");
  if (c.outcome == CheckOutcome::synchronized) {
    std::string text = "synchronized to within " + bound_text(c.bound_ticks, c.tsc_hz) + ": " + passed;
    if (!c.missing.empty()) text += "; " + missing_pairs_text(c) + ", and the rest still link every CPU";
    return text;
  }
  const std::vector<Finding>& findings = c.diagnosis.findings;
  if (c.outcome == CheckOutcome::incomplete) {
    // No tally of failing pairs: the pairs never reached are not failures, and a cut run
    // proves nothing about them. A finding of the part measured is evidence all the same.
    std::string text = "incomplete, no verdict: " + c.cut_short;
    if (!findings.empty()) {
      text += "; what was measured already shows that " + finding_text(findings.front(), c.tsc_hz);
      if (findings.size() > 1) text += "; and " + count_of(findings.size() - 1, "more finding", "more findings");
    } else if (c.missing.size() >= c.pairs_checked) {
      text += "; no pair was measured";
    } else {
      text += "; what was measured proves no difference between the counters";
    }
    return text;
  }
  if (c.outcome == CheckOutcome::inconclusive) {
    const std::size_t measured = c.pairs_checked - c.missing.size();
    const std::string rest =
        measured > c.too_few_pairs && c.bound_ticks > 0 ? "; those measured are within " + bound_text(c.bound_ticks, c.tsc_hz) : "";
    switch (c.inconclusive) {
      case InconclusiveWhy::one_cpu:
        return "inconclusive: one CPU only" + (c.only_cpu >= 0 ? " (CPU " + std::to_string(c.only_cpu) + ")" : "") +
               ": there is no other counter to compare with";
      case InconclusiveWhy::unjudged: return "inconclusive: " + c.unjudged;
      case InconclusiveWhy::pairs_missing:
        if (measured == 0) return "inconclusive: " + missing_pairs_text(c);
        return "inconclusive: " + missing_pairs_text(c) + ", and the " +
               count_of(measured, "pair", "pairs") + " with rounds do not link every CPU" + rest;
      case InconclusiveWhy::too_few_rounds:
        return "inconclusive: " + too_few_rounds_text(c.fewest_rounds) + ": " + std::to_string(c.too_few_pairs) +
               " of " + std::to_string(measured) + " measured ordered pairs" +
               (!c.missing.empty() ? "; " + missing_pairs_text(c) : "");
      case InconclusiveWhy::max_bound:
      case InconclusiveWhy::none: break;
    }
    return "inconclusive: the offsets are proven only to within " + bound_text(c.bound_ticks, c.tsc_hz) +
           ", wider than the maximum bound of " + amount_text(s.max_bound_ticks, c.tsc_hz) + "; " + passed;
  }
  std::string cause;
  if (!findings.empty()) {
    cause = finding_text(findings.front(), c.tsc_hz);
    if (findings.size() > 1) cause += "; and " + count_of(findings.size() - 1, "more finding", "more findings");
  } else {
    cause = c.shown ? check_failure_text(c.failures[*c.shown], c) : std::string("?");
  }
  const std::size_t passing = c.pairs_checked - std::min(c.pairs_checked, c.failing_pairs);
  std::string tally = std::to_string(c.failing_pairs) + " of " +
                      (c.sparse ? "the " + std::to_string(c.pairs_checked) + " ordered pairs of a sparse design fail"
                                : std::to_string(c.pairs_checked) + " ordered pairs fail");
  if (passing > 0) tally += "; those that pass are within " + bound_text(c.bound_ticks, c.tsc_hz);
  return "not synchronized: " + cause + " (" + tally + ")";
}

namespace {

std::string plain_reads_text(const PlainReadsFinding& p, ReadVariant plain, double hz) {
  std::string s = "plain " + variant_text(plain) + " on both sides: " + std::to_string(p.negative) + " of " + std::to_string(p.one_way) +
                  " one-way latencies negative (" +
                  percent(static_cast<double>(p.negative), static_cast<double>(p.one_way)) + ")";
  const std::string quantum = " (" + ticks_with_ns_if_coarse(static_cast<double>(p.quantum_ticks), hz) + ") explain";
  if (p.negative == 0) {
    s += "; none here, which shows the reads were not early enough this time, not that they cannot be";
  } else if (p.causality_violations > 0) {
    s += ", " + std::to_string(p.causality_violations) +
         " beyond what any offset in the run's own band and the quantum" + quantum +
         ": causality violations, receive stamps read early";
  } else {
    s += ", none beyond what an offset in the run's own band and the quantum" + quantum;
  }
  if (p.reference_checked && p.negative > 0) {
    s += "; " + std::to_string(p.below_reference) +
         " below the offset band that the ordering receive reads of the same pair set";
    if (p.below_reference > 0) {
      s += std::string(": no offset explains ") + (p.below_reference == 1 ? "it" : "them") +
           ", the receive stamps were read early";
    }
  } else if (p.negative > 0 && p.causality_violations == 0) {
    s += ": not proof of early reads (no ordering receive read gave a band to check against)";
  }
  if (p.self_inconsistent > 0) {
    s += "; " + count_of(p.self_inconsistent, "round", "rounds") + " with rtt < -2q, impossible for any offset";
  }
  return s;
}

std::string rtt_comparison_text(const RttComparison& c, ReadVariant plain, double hz) {
  std::string s = "minimum rtt " + ticks_with_ns(static_cast<double>(c.plain_rtt_min_ticks), hz) + " with plain reads";
  if (c.plain_rtt_negative > 0) {
    s += " (leaving out " + count_of(c.plain_rtt_negative, "round", "rounds") +
         " with rtt < 0, impossible for any offset)";
  }
  s += " against " + ticks_with_ns(static_cast<double>(c.rtt_min_ticks), hz) + " with receive " + variant_text(c.recv) + ": ";
  const std::int64_t d_min = c.rtt_min_over_plain_ticks;
  if (d_min > 0) {
    s += "plain reads make the pair look " + ticks_with_ns(static_cast<double>(d_min), hz) + " faster than it is (" +
         percent(static_cast<double>(d_min), static_cast<double>(c.rtt_min_ticks)) + " of the ordered minimum)";
  } else {
    s += "plain reads do not make the minimum look faster here";
  }
  s += "; median " + std::to_string(c.plain_rtt_p50_ticks) + " against " + std::to_string(c.rtt_p50_ticks) +
       " ticks (" + (c.rtt_p50_over_plain_ticks >= 0 ? "+" : "") + std::to_string(c.rtt_p50_over_plain_ticks) + ")";
  if (c.read_cost_over_plain_ticks) {
    s += "; the read itself costs " + format_sig(*c.read_cost_over_plain_ticks, 3) +
         " ticks more than " + variant_text(plain) + ", two receive reads per round trip";
  }
  return s;
}

std::string control_text(const ControlSummary& c) {
  std::string s = c.same_cpu ? "same-CPU control (CPU " + std::to_string(c.cpu_a) + " with itself, one counter, " +
                                   combination_label(c.combination) + "): "
                             : "SMT-sibling control (CPUs " + std::to_string(c.cpu_a) + " and " +
                                   std::to_string(c.cpu_b) + ", " + combination_label(c.combination) + "): ";
  if (!c.problem.empty()) return s + "incomplete: " + c.problem;
  if (!c.same_cpu) {
    return s + std::to_string(c.causality_violations) + " causality violations in " + std::to_string(c.rounds) +
           " rounds";
  }
  return s + std::to_string(c.negative) + " negative one-way latencies in " + std::to_string(c.rounds) + " rounds, " +
         std::to_string(c.below_quantum) + " below -q" +
         (c.below_quantum > 0 ? ": on one counter only an early read gives these"
                              : ": the threads take turns on one CPU, so a context switch, far longer than any "
                                "early read, lies between every send and its receive");
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

}  // namespace

std::vector<std::string> variants_findings(const VariantsVerdict& v) {
  std::vector<std::string> findings;
  if (v.plain_reads) findings.push_back(plain_reads_text(*v.plain_reads, v.plain_read, v.tsc_hz));
  std::vector<std::string> none, some;
  for (const ReceiveOutcome& r : v.receive_outcomes) {
    if (r.none) {
      none.push_back(variant_text(r.recv));
    } else {
      some.push_back(variant_text(r.recv) + " (" + std::to_string(r.negative) + " negative, " + std::to_string(r.violations) +
                     " violations)");
    }
  }
  if (!none.empty()) findings.push_back("plain send, no negative one-way latency with receive " + join(none));
  if (!some.empty()) findings.push_back("plain send, negative one-way latencies remain with receive " + join(some));
  for (const RttComparison& c : v.rtt_comparisons) findings.push_back(rtt_comparison_text(c, v.plain_read, v.tsc_hz));
  if (v.recommended) {
    const RecvStanding& r = *v.recommended;
    std::string s = "recommended receive read: " + variant_text(r.recv) +
                    ", the cheapest read that waits for earlier loads with no causality violation here (0 in " +
                    std::to_string(r.one_way) + " one-way latencies); " + ticks_with_ns(r.cost_ticks, v.tsc_hz) +
                    " per read";
    if (v.plain_cost_ticks) {
      s += ", " + std::string(v.recommended_cost_over_plain_ticks >= 0 ? "+" : "") +
           format_sig(v.recommended_cost_over_plain_ticks, 3) + " ticks over plain " + variant_text(v.plain_read);
    }
    findings.push_back(s);
  } else if (!v.standings.empty()) {
    findings.push_back(
        "no receive read that waits for earlier loads was free of causality violations: when even they violate "
        "causality, the counters moved during the run (an offset step or a migration), not the reads; see the "
        "per-role verdicts");
  }
  if (v.cheapest_clean && (!v.recommended || v.cheapest_clean->recv != v.recommended->recv)) {
    const RecvStanding& c = *v.cheapest_clean;
    const std::uint64_t negative = v.cheapest_clean_negative;
    findings.push_back(variant_text(c.recv) + " is cheaper (" + ticks_with_ns(c.cost_ticks, v.tsc_hz) +
                       " per read) and showed no causality violation here (" +
                       (negative > 0 ? std::to_string(negative) +
                                           " negative one-way latencies, each within what an offset in the band "
                                           "explains"
                                     : std::string("no negative one-way latency")) +
                       "), but it does not wait for earlier loads: nothing stops a read from running early, so its "
                       "clean record is this run's luck, not a guarantee");
  }
  if (v.control) findings.push_back(control_text(*v.control));
  return findings;
}

std::string reference_problem_text(const ReferenceBand& band) {
  switch (band.problem) {
    case ReferenceBand::Problem::none: return "";
    case ReferenceBand::Problem::not_measured: return "no receive read that waits for earlier loads was measured";
    case ReferenceBand::Problem::no_feasible_band: return combination_label(band.culprit) + " has no feasible band";
    case ReferenceBand::Problem::drift: return combination_label(band.culprit) + " has detectable drift";
    case ReferenceBand::Problem::offset_step: return combination_label(band.culprit) + " has an offset step";
    case ReferenceBand::Problem::disjoint: return "the ordering reads' bands do not overlap";
  }
  return "?";
}

}  // namespace tscaudit
