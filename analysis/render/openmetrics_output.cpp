#include "render/openmetrics_output.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/cpu_list.hpp"
#include "matrix/matrix_worst.hpp"
#include "render/verdict_text.hpp"

namespace tscaudit {
namespace {

MetricFamily family(std::string name, MetricType type, std::string unit, std::string help) {
  MetricFamily f;
  f.name = std::move(name);
  f.type = type;
  f.unit = std::move(unit);
  f.help = std::move(help);
  return f;
}

MetricFamily gauge(std::string name, std::string unit, std::string help) {
  return family(std::move(name), MetricType::gauge, std::move(unit), std::move(help));
}

void add(MetricFamily& f, double value, std::vector<MetricLabel> labels = {}, std::string suffix = "") {
  f.samples.push_back(MetricSample{std::move(suffix), std::move(labels), value});
}

/// The findings given a series each, the most important first: a handful, whatever the machine.
constexpr std::size_t kFindingSeries = 6;

std::vector<MetricLabel> cpu_label(int cpu) { return {{"cpu", std::to_string(cpu)}}; }
std::vector<MetricLabel> pair_labels(int a, int b) { return {{"a", std::to_string(a)}, {"b", std::to_string(b)}}; }

/// The kind of the failure the reason names: the `reason` label of a failed check.
std::string failure_reason(const CheckResult& c) {
  // Inconclusive by --max-bound keeps its old word; the other whys name themselves, so that a
  // machine of one CPU ("one_cpu") is told from a check that could not answer.
  if (c.outcome == CheckOutcome::inconclusive) {
    return c.inconclusive == InconclusiveWhy::max_bound ? "inconclusive" : std::string(inconclusive_why_name(c.inconclusive));
  }
  if (c.outcome == CheckOutcome::incomplete) return "interrupted";  // not a desynchronization: no verdict
  if (c.shown && *c.shown < c.failures.size()) return std::string(check_failure_kind_name(c.failures[*c.shown].kind));
  if (!c.failures.empty()) return std::string(check_failure_kind_name(c.failures.front().kind));
  return "not_synchronized";
}

/// The spread of the per-CPU offsets: of the estimates, and the least and most the hard
/// bounds allow (max lo − min hi is a lower bound of x_c − x_d for the two CPUs that give
/// it, so of the spread; max hi − min lo an upper bound, +Inf when a CPU is unbounded).
struct Spread {
  double estimate = kNoValue, lower = kNoValue, upper = kNoValue;
};

Spread spread_of(const CpuOffsets& x) {
  Spread s;
  double emin = INFINITY, emax = -INFINITY, lo_max = -INFINITY, hi_min = INFINITY, hi_max = -INFINITY,
         lo_min = INFINITY;
  std::size_t estimates = 0;
  bool unbounded = false;
  for (std::size_t i = 0; i < x.offset_ticks.size(); ++i) {
    if (std::isfinite(x.offset_ticks[i])) {
      emin = std::min(emin, x.offset_ticks[i]);
      emax = std::max(emax, x.offset_ticks[i]);
      ++estimates;
    }
    const double lo = i < x.lo_ticks.size() ? x.lo_ticks[i] : kNoValue;
    const double hi = i < x.hi_ticks.size() ? x.hi_ticks[i] : kNoValue;
    if (std::isfinite(lo)) lo_max = std::max(lo_max, lo), lo_min = std::min(lo_min, lo);
    if (std::isfinite(hi)) hi_min = std::min(hi_min, hi), hi_max = std::max(hi_max, hi);
    if (!std::isfinite(lo) || !std::isfinite(hi)) unbounded = true;
  }
  if (estimates >= 2) s.estimate = emax - emin;
  if (std::isfinite(lo_max) && std::isfinite(hi_min)) s.lower = std::max(0.0, lo_max - hi_min);
  s.upper = unbounded ? INFINITY : hi_max - lo_min;
  return s;
}

}  // namespace

std::vector<std::size_t> exported_cpus(const MatrixResult& m, std::size_t max_cpus) {
  const std::size_t n = m.size();
  std::vector<std::size_t> chosen;
  if (n <= max_cpus) {
    for (std::size_t i = 0; i < n; ++i) chosen.push_back(i);
  } else if (max_cpus > 0) {
    chosen.push_back(0);  // the reference: every offset is relative to it
    for (std::size_t i : worst_of(m, max_cpus).cpus) {
      if (chosen.size() == max_cpus) break;
      if (i != 0) chosen.push_back(i);
    }
  }
  std::sort(chosen.begin(), chosen.end(), [&](std::size_t x, std::size_t y) { return m.cpus[x] < m.cpus[y]; });
  return chosen;
}

std::vector<MetricFamily> check_metrics(const MatrixResult& m, const CheckResult& c, const CheckRunFacts& facts,
                                        const CheckExport& what) {
  std::vector<MetricFamily> out;
  const double hz = m.tsc_hz;
  const bool seconds = hz > 0;
  const auto s = [hz](double ticks) { return ticks / hz; };  // NaN and ±Inf stay what they are

  MetricFamily success = gauge("tscaudit_check_success", "",
                               "1 when the last check found every pair's offset band within the tolerance, 0 when not "
                               "(reason: the kind of the failure its verdict names; inconclusive (--max-bound), one_cpu, "
                               "too_few_rounds, pairs_missing or unjudged; or interrupted)");
  if (c.synchronized) {
    add(success, 1);
  } else {
    add(success, 0, {{"reason", failure_reason(c)}});
  }
  out.push_back(std::move(success));
  MetricFamily outcome =
      gauge("tscaudit_check_outcome", "",
            "1 for the last check's outcome: synchronized, not_synchronized, inconclusive or incomplete");
  add(outcome, 1, {{"outcome", std::string(check_outcome_name(c.outcome))}});
  out.push_back(std::move(outcome));

  MetricFamily pairs = gauge("tscaudit_check_pairs", "", "Ordered pairs of CPUs the check measured and judged");
  add(pairs, static_cast<double>(c.pairs_checked));
  out.push_back(std::move(pairs));
  MetricFamily failing = gauge("tscaudit_check_failing_pairs", "", "Ordered pairs of CPUs that fail the check");
  add(failing, static_cast<double>(c.failing_pairs));
  out.push_back(std::move(failing));
  MetricFamily cpus = gauge("tscaudit_check_cpus", "", "CPUs the check measured");
  add(cpus, static_cast<double>(m.size()));
  out.push_back(std::move(cpus));
  MetricFamily off_count = gauge("tscaudit_check_cpus_off", "", "CPUs the check names off from the rest");
  add(off_count, static_cast<double>(c.cpus_off.size()));
  out.push_back(std::move(off_count));
  // Named CPUs outside the exported ones are counted above, not listed: the per-CPU
  // families stay within --export-cpus.
  const std::vector<std::size_t> exported = exported_cpus(m, what.max_cpus);
  MetricFamily off = gauge("tscaudit_cpu_off", "", "1 for each CPU the check names off from the rest");
  for (std::size_t i : exported) {
    if (std::find(c.cpus_off.begin(), c.cpus_off.end(), m.cpus[i]) != c.cpus_off.end())
      add(off, 1, cpu_label(m.cpus[i]));
  }
  out.push_back(std::move(off));
  // The findings: a handful of series at most, whatever the machine's size.
  MetricFamily found = gauge("tscaudit_check_findings", "", "Proven differences between groups of CPUs (offset, drift, step)");
  add(found, static_cast<double>(c.diagnosis.findings.size()));
  out.push_back(std::move(found));
  MetricFamily f_lo = gauge("tscaudit_finding_lower_seconds", "seconds",
                            "Hard lower bound of a finding's offset or step: its CPUs minus those it is compared with");
  MetricFamily f_hi = gauge("tscaudit_finding_upper_seconds", "seconds", "Hard upper bound of a finding's offset or step");
  MetricFamily d_f_lo = gauge("tscaudit_finding_drift_lower_ratio", "ratio",
                              "Hard lower bound of a finding's drift: its CPUs' rate against those it is compared with, minus 1");
  MetricFamily d_f_hi = gauge("tscaudit_finding_drift_upper_ratio", "ratio", "Hard upper bound of a finding's drift");
  for (std::size_t k = 0; k < c.diagnosis.findings.size() && k < kFindingSeries; ++k) {
    const Finding& f = c.diagnosis.findings[k];
    const std::vector<MetricLabel> labels = {{"kind", std::string(finding_kind_name(f.kind))},
                                             {"name", f.name.empty() ? format_cpu_list(f.cpus) : f.name},
                                             {"cpus", format_cpu_list(f.cpus)}};
    if (f.kind == FindingKind::drift) {
      add(d_f_lo, f.lo / 1e9, labels);
      add(d_f_hi, f.hi / 1e9, labels);
    } else if (seconds) {
      add(f_lo, s(f.lo), labels);
      add(f_hi, s(f.hi), labels);
    }
  }
  if (seconds) {
    out.push_back(std::move(f_lo));
    out.push_back(std::move(f_hi));
  }
  out.push_back(std::move(d_f_lo));
  out.push_back(std::move(d_f_hi));
  if (seconds) {
    MetricFamily bound = gauge("tscaudit_check_bound_seconds", "seconds",
                               "Every passing pair's offset is proven within plus or minus this (the verdict's width)");
    add(bound, s(c.bound_ticks));
    out.push_back(std::move(bound));
    if (c.settings.max_bound_ticks > 0) {
      MetricFamily max_bound = gauge("tscaudit_check_max_bound_seconds", "seconds",
                                     "The widest proof the check accepts (--max-bound); wider is inconclusive");
      add(max_bound, s(c.settings.max_bound_ticks));
      out.push_back(std::move(max_bound));
    }
    MetricFamily tolerance =
        gauge("tscaudit_check_tolerance_seconds", "seconds", "How far from 0 an offset band may lie and pass");
    add(tolerance, s(c.settings.tolerance_ticks));
    out.push_back(std::move(tolerance));

    MetricFamily x = gauge("tscaudit_cpu_offset_seconds", "seconds",
                           "TSC offset of each CPU against the reference CPU (least squares over every pair)");
    MetricFamily lo = gauge("tscaudit_cpu_offset_lower_seconds", "seconds",
                            "Hard lower bound of each CPU's offset against the reference CPU");
    MetricFamily hi = gauge("tscaudit_cpu_offset_upper_seconds", "seconds",
                            "Hard upper bound of each CPU's offset against the reference CPU");
    for (std::size_t i : exported) {
      add(x, s(m.cpu.offset_ticks.at(i)), cpu_label(m.cpus[i]));
      add(lo, s(m.cpu.lo_ticks.at(i)), cpu_label(m.cpus[i]));
      add(hi, s(m.cpu.hi_ticks.at(i)), cpu_label(m.cpus[i]));
    }
    out.push_back(std::move(x));
    out.push_back(std::move(lo));
    out.push_back(std::move(hi));

    const Spread spread = spread_of(m.cpu);
    MetricFamily sp =
        gauge("tscaudit_cpu_offset_spread_seconds", "seconds", "Largest minus smallest per-CPU offset estimate");
    MetricFamily sp_lo = gauge("tscaudit_cpu_offset_spread_lower_seconds", "seconds",
                               "The least spread of the per-CPU offsets that their hard bounds allow");
    MetricFamily sp_hi = gauge("tscaudit_cpu_offset_spread_upper_seconds", "seconds",
                               "The most spread of the per-CPU offsets that their hard bounds allow");
    add(sp, s(spread.estimate));
    add(sp_lo, s(spread.lower));
    add(sp_hi, s(spread.upper));
    out.push_back(std::move(sp));
    out.push_back(std::move(sp_lo));
    out.push_back(std::move(sp_hi));

    const MatrixWorst worst = worst_of(m, 1);
    MetricFamily w = gauge("tscaudit_worst_pair_offset_seconds", "seconds",
                           "Offset TSC_b - TSC_a of the measured pair with the largest offset estimate");
    MetricFamily w_lo =
        gauge("tscaudit_worst_pair_offset_lower_seconds", "seconds", "Hard lower bound of the worst pair's offset");
    MetricFamily w_hi =
        gauge("tscaudit_worst_pair_offset_upper_seconds", "seconds", "Hard upper bound of the worst pair's offset");
    if (!worst.offset_pairs.empty()) {
      const CellIndex k = worst.offset_pairs.front();
      const PairCell& cell = m.at(k.a, k.b);
      const auto labels = pair_labels(m.cpus[k.a], m.cpus[k.b]);
      add(w, s(cell.offset_ticks), labels);
      add(w_lo, s(cell.offset_lo_ticks), labels);
      add(w_hi, s(cell.offset_hi_ticks), labels);
    }
    out.push_back(std::move(w));
    out.push_back(std::move(w_lo));
    out.push_back(std::move(w_hi));
  }

  // The drift bands' envelope and the latency ratios, over the measured pairs' cells.
  double drift_lo = INFINITY, drift_hi = -INFINITY;
  std::uint64_t detectable = 0, rounds = 0, negative = 0, violations = 0;
  for (const PairCell& cell : m.cells) {
    if (!cell.measured) continue;
    if (std::isfinite(cell.drift_lo_ppb) && std::isfinite(cell.drift_hi_ppb)) {
      drift_lo = std::min(drift_lo, cell.drift_lo_ppb);
      drift_hi = std::max(drift_hi, cell.drift_hi_ppb);
    }
    if (cell.drift_detectable) ++detectable;
    rounds += cell.rounds;
    negative += cell.negative;
    violations += cell.causality_violations;
  }
  MetricFamily d_lo = gauge("tscaudit_drift_lower_ratio", "ratio",
                            "Smallest lower bound of the pairs' drift bands (rate of TSC_b against TSC_a, minus 1)");
  MetricFamily d_hi = gauge("tscaudit_drift_upper_ratio", "ratio", "Largest upper bound of the pairs' drift bands");
  if (std::isfinite(drift_lo)) {
    add(d_lo, drift_lo / 1e9);  // ppb to a ratio; a division by 1e9 rounds once
    add(d_hi, drift_hi / 1e9);
  }
  out.push_back(std::move(d_lo));
  out.push_back(std::move(d_hi));
  MetricFamily d_n = gauge("tscaudit_drift_detectable_pairs", "", "Ordered pairs whose analysis finds a drift");
  add(d_n, static_cast<double>(detectable));
  out.push_back(std::move(d_n));

  const std::vector<MetricLabel> variants = {{"send", m.send.name}, {"recv", m.recv.name}};
  MetricFamily r = gauge("tscaudit_check_rounds", "", "Rounds the check analyzed, over every pair");
  add(r, static_cast<double>(rounds), variants);
  out.push_back(std::move(r));
  MetricFamily neg = gauge("tscaudit_negative_latency_ratio", "ratio",
                           "Share of one-way latencies below 0 under these read variants (an offset explains most)");
  MetricFamily vio = gauge("tscaudit_causality_violation_ratio", "ratio",
                           "Share of one-way latencies below every offset the band allows: receive reads taken early");
  if (rounds > 0) {
    add(neg, static_cast<double>(negative) / (2.0 * static_cast<double>(rounds)), variants);
    add(vio, static_cast<double>(violations) / (2.0 * static_cast<double>(rounds)), variants);
  }
  out.push_back(std::move(neg));
  out.push_back(std::move(vio));

  if (seconds) {
    MetricFamily f = gauge("tscaudit_tsc_frequency_hertz", "hertz", "TSC frequency the offsets are converted with");
    add(f, hz);
    out.push_back(std::move(f));
    MetricFamily q = gauge("tscaudit_tsc_quantum_seconds", "seconds",
                           "Step of the counter between two reads, the largest over the pairs");
    add(q, s(static_cast<double>(m.quantum_ticks)));
    out.push_back(std::move(q));
  }

  MetricFamily info =
      gauge("tscaudit_info", "", "The check's version, clocksource, hypervisor, read variants and which check ran");
  add(info, 1,
      {{"version", facts.version},
       {"check", facts.check},
       {"clocksource", facts.clocksource.empty() ? "unknown" : facts.clocksource},
       {"hypervisor", facts.hypervisor.empty() ? "unknown" : facts.hypervisor},
       {"send", m.send.name},
       {"recv", m.recv.name},
       {"reference_cpu", m.cpus.empty() ? "" : std::to_string(m.cpus.front())}});
  out.push_back(std::move(info));

  MetricFamily t = gauge("tscaudit_check_timestamp_seconds", "seconds", "When the check's measuring ended, Unix time");
  if (std::isfinite(facts.end_unix_s)) add(t, facts.end_unix_s);
  out.push_back(std::move(t));
  MetricFamily dur = gauge("tscaudit_check_duration_seconds", "seconds", "How long the check measured");
  if (std::isfinite(facts.duration_s)) add(dur, facts.duration_s);
  out.push_back(std::move(dur));
  if (facts.moved_since_boot) {
    MetricFamily moved = gauge("tscaudit_boot_moved_cpus", "",
                               "CPUs whose offset against the reference CPU moved since the previous boot's check, "
                               "proven by disjoint hard bands (check --history)");
    add(moved, static_cast<double>(*facts.moved_since_boot));
    out.push_back(std::move(moved));
  }

  if (what.pairs && seconds) {
    MetricFamily p = gauge("tscaudit_pair_offset_seconds", "seconds", "Offset TSC_b - TSC_a of each measured pair");
    MetricFamily p_lo = gauge("tscaudit_pair_offset_lower_seconds", "seconds", "Hard lower bound of each pair's offset");
    MetricFamily p_hi = gauge("tscaudit_pair_offset_upper_seconds", "seconds", "Hard upper bound of each pair's offset");
    MetricFamily rtt = gauge("tscaudit_pair_rtt_min_seconds", "seconds", "Shortest round trip of each measured pair");
    for (std::size_t a = 0; a < m.size(); ++a) {
      for (std::size_t b = 0; b < m.size(); ++b) {
        const PairCell& cell = m.at(a, b);
        if (a == b || !cell.measured) continue;
        const auto labels = pair_labels(m.cpus[a], m.cpus[b]);
        add(p, s(cell.offset_ticks), labels);
        add(p_lo, s(cell.offset_lo_ticks), labels);
        add(p_hi, s(cell.offset_hi_ticks), labels);
        add(rtt, s(cell.rtt_min_ticks), labels);
      }
    }
    out.push_back(std::move(p));
    out.push_back(std::move(p_lo));
    out.push_back(std::move(p_hi));
    out.push_back(std::move(rtt));
  }
  return out;
}

std::vector<MetricFamily> monitor_metrics(const MonitorMetricsState& st) {
  std::vector<MetricFamily> out;
  const auto pair = pair_labels(st.a, st.b);
  const auto with = [&](std::string name, std::string value) {
    auto labels = pair;
    labels.push_back({std::move(name), std::move(value)});
    return labels;
  };
  const auto s = [&](double ticks) { return ticks / st.tsc_hz; };

  MetricFamily rounds = family("tscaudit_monitor_rounds", MetricType::counter, "", "Rounds the monitor recorded");
  add(rounds, static_cast<double>(st.totals.rounds), pair, "_total");
  out.push_back(std::move(rounds));
  MetricFamily lost = family("tscaudit_monitor_lost_rounds", MetricType::counter, "",
                             "Rounds measured but not recorded: the queue to the aggregator was full");
  add(lost, static_cast<double>(st.totals.lost), pair, "_total");
  out.push_back(std::move(lost));
  MetricFamily neg = family("tscaudit_monitor_negative_latencies", MetricType::counter, "",
                            "One-way latencies below 0 (an offset explains most; tscaudit analyze tells)");
  add(neg, static_cast<double>(st.totals.fwd_negative), with("direction", "fwd"), "_total");
  add(neg, static_cast<double>(st.totals.rev_negative), with("direction", "rev"), "_total");
  out.push_back(std::move(neg));
  MetricFamily bad = family("tscaudit_monitor_self_inconsistent_rounds", MetricType::counter, "",
                            "Rounds whose round trip is below minus twice the quantum: impossible for any offset");
  add(bad, static_cast<double>(st.totals.self_inconsistent), pair, "_total");
  out.push_back(std::move(bad));

  MetricFamily lo = gauge("tscaudit_monitor_interval_offset_lower_seconds", "seconds",
                          "Hard lower bound of the offset TSC_b - TSC_a in the last interval (every round)");
  MetricFamily hi = gauge("tscaudit_monitor_interval_offset_upper_seconds", "seconds",
                          "Hard upper bound of the offset TSC_b - TSC_a in the last interval (every round)");
  MetricFamily fwd = gauge("tscaudit_monitor_interval_fwd_min_seconds", "seconds",
                           "Smallest one-way latency a to b in the last interval");
  MetricFamily rev = gauge("tscaudit_monitor_interval_rev_min_seconds", "seconds",
                           "Smallest one-way latency b to a in the last interval");
  MetricFamily rtt =
      gauge("tscaudit_monitor_interval_rtt_min_seconds", "seconds", "Shortest round trip in the last interval");
  MetricFamily n = gauge("tscaudit_monitor_interval_rounds", "", "Rounds recorded in the last interval");
  MetricFamily at =
      gauge("tscaudit_monitor_interval_timestamp_seconds", "seconds", "When the last interval was written, Unix time");
  if (st.last) {
    const IntervalSummary& l = *st.last;
    const auto q = static_cast<double>(st.quantum_ticks);
    if (l.rounds > 0) {
      add(lo, s(-static_cast<double>(l.rev_k[0].value_ticks) - q), pair);
      add(hi, s(static_cast<double>(l.fwd_k[0].value_ticks) + q), pair);
      add(fwd, s(static_cast<double>(l.fwd_k[0].value_ticks)), pair);
      add(rev, s(static_cast<double>(l.rev_k[0].value_ticks)), pair);
      add(rtt, s(static_cast<double>(l.rtt_min)), pair);
    }
    add(n, static_cast<double>(l.rounds), pair);
    if (std::isfinite(st.last_end_unix_s)) add(at, st.last_end_unix_s, pair);
  }
  for (MetricFamily* f : {&lo, &hi, &fwd, &rev, &rtt, &n, &at}) out.push_back(std::move(*f));

  MetricFamily running = gauge("tscaudit_monitor_running", "", "1 while the monitor runs, 0 once it has ended");
  add(running, st.running ? 1 : 0, pair);
  out.push_back(std::move(running));
  MetricFamily interval = gauge("tscaudit_monitor_interval_seconds", "seconds", "Length of one interval");
  add(interval, st.interval_s, pair);
  out.push_back(std::move(interval));
  MetricFamily info = gauge("tscaudit_monitor_info", "", "The monitor's version and read variants");
  add(info, 1,
      {{"a", std::to_string(st.a)},
       {"b", std::to_string(st.b)},
       {"version", st.version},
       {"send", st.send},
       {"recv", st.recv}});
  out.push_back(std::move(info));

  if (st.rtt != nullptr) {
    MetricFamily h = family("tscaudit_monitor_rtt_seconds", MetricType::histogram, "seconds",
                            "Round trips of every recorded round since the monitor started");
    for (std::size_t i = 0; i <= kRttBucketBoundsS.size(); ++i) {
      const double le = i < kRttBucketBoundsS.size() ? kRttBucketBoundsS[i] : INFINITY;
      add(h, static_cast<double>(st.rtt->cumulative(i)), with("le", metric_value_text(le)), "_bucket");
    }
    add(h, st.rtt->sum_seconds(), pair, "_sum");
    add(h, static_cast<double>(st.rtt->count()), pair, "_count");
    out.push_back(std::move(h));
  }
  return out;
}

}  // namespace tscaudit
