// The metrics of check and monitor on fabricated matrices and intervals, exact: which
// families, names, labels and values (ticks to seconds with the TSC frequency), what is left
// out without a frequency, the per-CPU limit and the per-pair series.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "cut_short.hpp"
#include "render/exposition.hpp"
#include "render/matrix_output.hpp"
#include "render/openmetrics_output.hpp"
#include "render/verdict_text.hpp"

using namespace tscaudit;

namespace {

/// Three CPUs with x = {0, 5, 400} ticks at 1 GHz (a tick is a nanosecond): every pair
/// measured with its band ±100 around θ_ab = x_b − x_a; 1000 rounds, 10 negative one-way
/// latencies and one causality violation each; one drift band, one drift found.
MatrixResult three_cpus() {
  MatrixResult m;
  m.cpus = {0, 1, 2};
  m.send = recorded_variant(ReadVariant::rdtsc);
  m.recv = recorded_variant(ReadVariant::lfence_rdtsc);
  m.tsc_hz = 1e9;
  m.quantum_ticks = 2;
  const std::vector<double> x = {0, 5, 400};
  m.cells.assign(9, PairCell{});
  for (std::size_t a = 0; a < 3; ++a) {
    for (std::size_t b = 0; b < 3; ++b) {
      if (a == b) continue;
      PairCell& c = m.cells[a * 3 + b];
      c.measured = true;
      c.band_feasible = true;
      c.rounds = 1000;
      c.negative = 10;
      c.causality_violations = 1;
      c.offset_ticks = x[b] - x[a];
      c.offset_lo_ticks = c.offset_ticks - 100;
      c.offset_hi_ticks = c.offset_ticks + 100;
      c.rtt_min_ticks = 200 + static_cast<double>(a * 3 + b);
    }
  }
  m.cells[0 * 3 + 1].drift_lo_ppb = -100;
  m.cells[0 * 3 + 1].drift_hi_ppb = 200;
  m.cells[0 * 3 + 2].drift_detectable = true;
  m.cpu.offset_ticks = x;
  m.cpu.lo_ticks = {0, -95, 300};
  m.cpu.hi_ticks = {0, 105, 500};
  return m;
}

CheckResult cpu2_off() {
  CheckResult c;
  c.synchronized = false;
  CheckFailure f;
  f.a = 0;
  f.b = 2;
  f.kind = CheckFailureKind::offset;
  c.failures = {f};
  c.shown = 0;
  c.failing_pairs = 4;
  c.cpus_off = {2};
  c.cpus = 3;
  c.pairs_checked = 6;
  c.settings.tolerance_ticks = 10;
  c.bound_ticks = 105;
  Finding found;
  found.cpus = {2};
  found.against = {0, 1};
  found.lo = 300;
  found.hi = 495;
  c.diagnosis.findings = {found};
  return c;
}

CheckRunFacts facts() {
  CheckRunFacts f;
  f.version = "9.9.9";
  f.clocksource = "tsc";
  f.hypervisor = "KVMKVMKVM";
  f.end_unix_s = 1795737600.5;
  f.duration_s = 91.25;
  return f;
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("check metrics: every family of a check that names CPU 2 off, exact") {
  const std::string text =
      exposition_text(check_metrics(three_cpus(), cpu2_off(), facts(), CheckExport{}), ExpositionDialect::openmetrics);
  CHECK(text ==
        "# HELP tscaudit_check_success 1 when the last check found every pair's offset band within the tolerance, 0 "
        "when not (reason: the kind of the failure its verdict names; inconclusive (--max-bound), one_cpu, "
      "too_few_rounds, pairs_missing or unjudged; or interrupted)\n"
        "# TYPE tscaudit_check_success gauge\n"
        "tscaudit_check_success{reason=\"offset\"} 0\n"
        "# HELP tscaudit_check_outcome 1 for the last check's outcome: synchronized, not_synchronized, inconclusive "
        "or incomplete\n"
        "# TYPE tscaudit_check_outcome gauge\n"
        "tscaudit_check_outcome{outcome=\"not_synchronized\"} 1\n"
        "# HELP tscaudit_check_pairs Ordered pairs of CPUs the check measured and judged\n"
        "# TYPE tscaudit_check_pairs gauge\n"
        "tscaudit_check_pairs 6\n"
        "# HELP tscaudit_check_failing_pairs Ordered pairs of CPUs that fail the check\n"
        "# TYPE tscaudit_check_failing_pairs gauge\n"
        "tscaudit_check_failing_pairs 4\n"
        "# HELP tscaudit_check_cpus CPUs the check measured\n"
        "# TYPE tscaudit_check_cpus gauge\n"
        "tscaudit_check_cpus 3\n"
        "# HELP tscaudit_check_cpus_off CPUs the check names off from the rest\n"
        "# TYPE tscaudit_check_cpus_off gauge\n"
        "tscaudit_check_cpus_off 1\n"
        "# HELP tscaudit_cpu_off 1 for each CPU the check names off from the rest\n"
        "# TYPE tscaudit_cpu_off gauge\n"
        "tscaudit_cpu_off{cpu=\"2\"} 1\n"
        "# HELP tscaudit_check_findings Proven differences between groups of CPUs (offset, drift, step)\n"
        "# TYPE tscaudit_check_findings gauge\n"
        "tscaudit_check_findings 1\n"
        "# HELP tscaudit_finding_lower_seconds Hard lower bound of a finding's offset or step: its CPUs minus those it "
        "is compared with\n"
        "# TYPE tscaudit_finding_lower_seconds gauge\n"
        "# UNIT tscaudit_finding_lower_seconds seconds\n"
        "tscaudit_finding_lower_seconds{kind=\"offset\",name=\"2\",cpus=\"2\"} 3e-07\n"
        "# HELP tscaudit_finding_upper_seconds Hard upper bound of a finding's offset or step\n"
        "# TYPE tscaudit_finding_upper_seconds gauge\n"
        "# UNIT tscaudit_finding_upper_seconds seconds\n"
        "tscaudit_finding_upper_seconds{kind=\"offset\",name=\"2\",cpus=\"2\"} 4.95e-07\n"
        "# HELP tscaudit_check_bound_seconds Every passing pair's offset is proven within plus or minus this (the "
        "verdict's width)\n"
        "# TYPE tscaudit_check_bound_seconds gauge\n"
        "# UNIT tscaudit_check_bound_seconds seconds\n"
        "tscaudit_check_bound_seconds 1.05e-07\n"
        "# HELP tscaudit_check_tolerance_seconds How far from 0 an offset band may lie and pass\n"
        "# TYPE tscaudit_check_tolerance_seconds gauge\n"
        "# UNIT tscaudit_check_tolerance_seconds seconds\n"
        "tscaudit_check_tolerance_seconds 1e-08\n"
        "# HELP tscaudit_cpu_offset_seconds TSC offset of each CPU against the reference CPU (least squares over every "
        "pair)\n"
        "# TYPE tscaudit_cpu_offset_seconds gauge\n"
        "# UNIT tscaudit_cpu_offset_seconds seconds\n"
        "tscaudit_cpu_offset_seconds{cpu=\"0\"} 0\n"
        "tscaudit_cpu_offset_seconds{cpu=\"1\"} 5e-09\n"
        "tscaudit_cpu_offset_seconds{cpu=\"2\"} 4e-07\n"
        "# HELP tscaudit_cpu_offset_lower_seconds Hard lower bound of each CPU's offset against the reference CPU\n"
        "# TYPE tscaudit_cpu_offset_lower_seconds gauge\n"
        "# UNIT tscaudit_cpu_offset_lower_seconds seconds\n"
        "tscaudit_cpu_offset_lower_seconds{cpu=\"0\"} 0\n"
        "tscaudit_cpu_offset_lower_seconds{cpu=\"1\"} -9.5e-08\n"
        "tscaudit_cpu_offset_lower_seconds{cpu=\"2\"} 3e-07\n"
        "# HELP tscaudit_cpu_offset_upper_seconds Hard upper bound of each CPU's offset against the reference CPU\n"
        "# TYPE tscaudit_cpu_offset_upper_seconds gauge\n"
        "# UNIT tscaudit_cpu_offset_upper_seconds seconds\n"
        "tscaudit_cpu_offset_upper_seconds{cpu=\"0\"} 0\n"
        "tscaudit_cpu_offset_upper_seconds{cpu=\"1\"} 1.05e-07\n"
        "tscaudit_cpu_offset_upper_seconds{cpu=\"2\"} 5e-07\n"
        "# HELP tscaudit_cpu_offset_spread_seconds Largest minus smallest per-CPU offset estimate\n"
        "# TYPE tscaudit_cpu_offset_spread_seconds gauge\n"
        "# UNIT tscaudit_cpu_offset_spread_seconds seconds\n"
        "tscaudit_cpu_offset_spread_seconds 4e-07\n"
        "# HELP tscaudit_cpu_offset_spread_lower_seconds The least spread of the per-CPU offsets that their hard "
        "bounds allow\n"
        "# TYPE tscaudit_cpu_offset_spread_lower_seconds gauge\n"
        "# UNIT tscaudit_cpu_offset_spread_lower_seconds seconds\n"
        "tscaudit_cpu_offset_spread_lower_seconds 3e-07\n"
        "# HELP tscaudit_cpu_offset_spread_upper_seconds The most spread of the per-CPU offsets that their hard "
        "bounds allow\n"
        "# TYPE tscaudit_cpu_offset_spread_upper_seconds gauge\n"
        "# UNIT tscaudit_cpu_offset_spread_upper_seconds seconds\n"
        "tscaudit_cpu_offset_spread_upper_seconds 5.95e-07\n"
        "# HELP tscaudit_worst_pair_offset_seconds Offset TSC_b - TSC_a of the measured pair with the largest offset "
        "estimate\n"
        "# TYPE tscaudit_worst_pair_offset_seconds gauge\n"
        "# UNIT tscaudit_worst_pair_offset_seconds seconds\n"
        "tscaudit_worst_pair_offset_seconds{a=\"0\",b=\"2\"} 4e-07\n"
        "# HELP tscaudit_worst_pair_offset_lower_seconds Hard lower bound of the worst pair's offset\n"
        "# TYPE tscaudit_worst_pair_offset_lower_seconds gauge\n"
        "# UNIT tscaudit_worst_pair_offset_lower_seconds seconds\n"
        "tscaudit_worst_pair_offset_lower_seconds{a=\"0\",b=\"2\"} 3e-07\n"
        "# HELP tscaudit_worst_pair_offset_upper_seconds Hard upper bound of the worst pair's offset\n"
        "# TYPE tscaudit_worst_pair_offset_upper_seconds gauge\n"
        "# UNIT tscaudit_worst_pair_offset_upper_seconds seconds\n"
        "tscaudit_worst_pair_offset_upper_seconds{a=\"0\",b=\"2\"} 5e-07\n"
        "# HELP tscaudit_drift_lower_ratio Smallest lower bound of the pairs' drift bands (rate of TSC_b against "
        "TSC_a, minus 1)\n"
        "# TYPE tscaudit_drift_lower_ratio gauge\n"
        "# UNIT tscaudit_drift_lower_ratio ratio\n"
        "tscaudit_drift_lower_ratio -1e-07\n"
        "# HELP tscaudit_drift_upper_ratio Largest upper bound of the pairs' drift bands\n"
        "# TYPE tscaudit_drift_upper_ratio gauge\n"
        "# UNIT tscaudit_drift_upper_ratio ratio\n"
        "tscaudit_drift_upper_ratio 2e-07\n"
        "# HELP tscaudit_drift_detectable_pairs Ordered pairs whose analysis finds a drift\n"
        "# TYPE tscaudit_drift_detectable_pairs gauge\n"
        "tscaudit_drift_detectable_pairs 1\n"
        "# HELP tscaudit_check_rounds Rounds the check analyzed, over every pair\n"
        "# TYPE tscaudit_check_rounds gauge\n"
        "tscaudit_check_rounds{send=\"rdtsc\",recv=\"lfence_rdtsc\"} 6000\n"
        "# HELP tscaudit_negative_latency_ratio Share of one-way latencies below 0 under these read variants (an "
        "offset explains most)\n"
        "# TYPE tscaudit_negative_latency_ratio gauge\n"
        "# UNIT tscaudit_negative_latency_ratio ratio\n"
        "tscaudit_negative_latency_ratio{send=\"rdtsc\",recv=\"lfence_rdtsc\"} 0.005\n"
        "# HELP tscaudit_causality_violation_ratio Share of one-way latencies below every offset the band allows: "
        "receive reads taken early\n"
        "# TYPE tscaudit_causality_violation_ratio gauge\n"
        "# UNIT tscaudit_causality_violation_ratio ratio\n"
        "tscaudit_causality_violation_ratio{send=\"rdtsc\",recv=\"lfence_rdtsc\"} 5e-04\n"
        "# HELP tscaudit_tsc_frequency_hertz TSC frequency the offsets are converted with\n"
        "# TYPE tscaudit_tsc_frequency_hertz gauge\n"
        "# UNIT tscaudit_tsc_frequency_hertz hertz\n"
        "tscaudit_tsc_frequency_hertz 1e+09\n"
        "# HELP tscaudit_tsc_quantum_seconds Step of the counter between two reads, the largest over the pairs\n"
        "# TYPE tscaudit_tsc_quantum_seconds gauge\n"
        "# UNIT tscaudit_tsc_quantum_seconds seconds\n"
        "tscaudit_tsc_quantum_seconds 2e-09\n"
        "# HELP tscaudit_info The check's version, clocksource, hypervisor, read variants and which check ran\n"
        "# TYPE tscaudit_info gauge\n"
        "tscaudit_info{version=\"9.9.9\",check=\"full\",clocksource=\"tsc\",hypervisor=\"KVMKVMKVM\",send=\"rdtsc\","
        "recv=\"lfence_"
        "rdtsc\",reference_cpu=\"0\"} 1\n"
        "# HELP tscaudit_check_timestamp_seconds When the check's measuring ended, Unix time\n"
        "# TYPE tscaudit_check_timestamp_seconds gauge\n"
        "# UNIT tscaudit_check_timestamp_seconds seconds\n"
        "tscaudit_check_timestamp_seconds 1795737600.5\n"
        "# HELP tscaudit_check_duration_seconds How long the check measured\n"
        "# TYPE tscaudit_check_duration_seconds gauge\n"
        "# UNIT tscaudit_check_duration_seconds seconds\n"
        "tscaudit_check_duration_seconds 91.25\n"
        "# EOF\n");
}

TEST_CASE("check metrics: a synchronized check has success 1 without a reason") {
  CheckResult c;
  c.synchronized = true;
  const std::string text =
      exposition_text(check_metrics(three_cpus(), c, facts(), CheckExport{}), ExpositionDialect::openmetrics);
  CHECK(text.find("\ntscaudit_check_success 1\n") != std::string::npos);
  CHECK(text.find("tscaudit_cpu_off{") == std::string::npos);  // none named: the family is left out
  CHECK(text.find("# HELP tscaudit_cpu_off ") == std::string::npos);
}

TEST_CASE("check metrics: a check cut short is incomplete, reason interrupted, no verdict in text or JSON") {
  CheckResult cut = cpu2_off();
  testing::cut_short_by(cut, "interrupted by SIGTERM after 3 of 12 slots (6 of 24 pair visits)");
  CHECK(cut.outcome == CheckOutcome::incomplete);
  CHECK_FALSE(cut.synchronized);
  const std::string text =
      exposition_text(check_metrics(three_cpus(), cut, facts(), CheckExport{}), ExpositionDialect::openmetrics);
  CHECK(text.find("\ntscaudit_check_success{reason=\"interrupted\"} 0\n") != std::string::npos);
  CHECK(text.find("\ntscaudit_check_outcome{outcome=\"incomplete\"} 1\n") != std::string::npos);
  // The part measured still shows its finding, as evidence, after the words that say no verdict.
  CHECK(check_reason_text(cut).starts_with(
      "incomplete, no verdict: interrupted by SIGTERM after 3 of 12 slots (6 of 24 pair visits); what was measured "
      "already shows that "));
  const auto j = check_json(cut);
  CHECK(j["outcome"] == "incomplete");
  CHECK(j["synchronized"].is_null());
  CHECK(j["cut_short"] == "interrupted by SIGTERM after 3 of 12 slots (6 of 24 pair visits)");
  // Without a finding, the words say that nothing was proven against the counters.
  CheckResult quiet = cut;
  quiet.diagnosis.findings.clear();
  CHECK(check_reason_text(quiet) ==
        "incomplete, no verdict: interrupted by SIGTERM after 3 of 12 slots (6 of 24 pair visits); what was measured "
        "proves no difference between the counters");
}

TEST_CASE("check metrics: without the TSC frequency, the families in seconds are left out") {
  MatrixResult m = three_cpus();
  m.tsc_hz = 0;
  CheckRunFacts f = facts();
  f.clocksource.clear();
  f.hypervisor.clear();
  const auto families = check_metrics(m, cpu2_off(), f, CheckExport{.max_cpus = kDefaultExportCpus, .pairs = true});
  const std::string text = exposition_text(families, ExpositionDialect::openmetrics);
  for (const MetricFamily& family : families) {
    const bool in_seconds = family.name.ends_with("_seconds") && family.name != "tscaudit_check_timestamp_seconds" &&
                            family.name != "tscaudit_check_duration_seconds";
    CHECK_FALSE(in_seconds);
    CHECK(family.name != "tscaudit_tsc_frequency_hertz");
  }
  CHECK(text.find("tscaudit_check_success{reason=\"offset\"} 0\n") != std::string::npos);
  CHECK(text.find("tscaudit_negative_latency_ratio{send=\"rdtsc\",recv=\"lfence_rdtsc\"} 0.005\n") != std::string::npos);
  CHECK(text.find("clocksource=\"unknown\",hypervisor=\"unknown\"") != std::string::npos);
}

TEST_CASE("check metrics: --export-pairs adds four series per measured pair") {
  MatrixResult m = three_cpus();
  m.cells[1 * 3 + 2] = PairCell{};  // 1->2 not measured
  const auto plain = check_metrics(m, cpu2_off(), facts(), CheckExport{});
  const auto pairs = check_metrics(m, cpu2_off(), facts(), CheckExport{.max_cpus = kDefaultExportCpus, .pairs = true});
  CHECK(exposition_series(pairs) == exposition_series(plain) + 4 * 5);
  const std::string text = exposition_text(pairs, ExpositionDialect::openmetrics);
  CHECK(text.find("tscaudit_pair_offset_seconds{a=\"2\",b=\"0\"} -4e-07\n") != std::string::npos);
  CHECK(text.find("tscaudit_pair_offset_lower_seconds{a=\"0\",b=\"1\"} -9.5e-08\n") != std::string::npos);
  CHECK(text.find("tscaudit_pair_offset_upper_seconds{a=\"2\",b=\"1\"} -2.95e-07\n") != std::string::npos);
  CHECK(text.find("tscaudit_pair_rtt_min_seconds{a=\"1\",b=\"0\"} 2.03e-07\n") != std::string::npos);
  CHECK(text.find("{a=\"1\",b=\"2\"}") == std::string::npos);
}

TEST_CASE("check metrics: the series count is 26 + 3 per exported CPU + 1 per exported CPU off + 2 per finding") {
  // 3 CPUs, one off, one finding: 26 + 9 + 1 + 2.
  CHECK(exposition_series(check_metrics(three_cpus(), cpu2_off(), facts(), CheckExport{})) == 38);
  CHECK(exposition_series(check_metrics(three_cpus(), cpu2_off(), facts(), CheckExport{.max_cpus = 0})) ==
        28);  // CPU 2 counted, not listed
  // At most 6 findings get series, whatever the machine.
  CheckResult many = cpu2_off();
  many.diagnosis.findings.assign(20, many.diagnosis.findings.front());
  CHECK(exposition_series(check_metrics(three_cpus(), many, facts(), CheckExport{})) == 38 - 2 + 12);
}

TEST_CASE("check metrics: beyond --export-cpus, the reference and the CPUs farthest from the median") {
  // 10 CPUs numbered 10..19 at offsets 0, 1, ..., 9 ticks, but CPU 13 at +500 and CPU 17 at -300.
  MatrixResult m;
  m.tsc_hz = 1e9;
  for (int i = 0; i < 10; ++i) {
    m.cpus.push_back(19 - i);  // matrix order is not CPU order
    m.cpu.offset_ticks.push_back(i);
    m.cpu.lo_ticks.push_back(i - 10.0);
    m.cpu.hi_ticks.push_back(i + 10.0);
  }
  m.cpu.offset_ticks[6] = 500;   // CPU 13
  m.cpu.offset_ticks[2] = -300;  // CPU 17
  m.cells.assign(100, PairCell{});
  const auto chosen = exported_cpus(m, 3);
  REQUIRE(chosen.size() == 3);
  CHECK(m.cpus[chosen[0]] == 13);  // in CPU number order
  CHECK(m.cpus[chosen[1]] == 17);
  CHECK(m.cpus[chosen[2]] == 19);  // the reference
  CHECK(exported_cpus(m, 10).size() == 10);
  CHECK(exported_cpus(m, 0).empty());
  const std::string text = exposition_text(check_metrics(m, CheckResult{}, facts(), CheckExport{.max_cpus = 3}),
                                           ExpositionDialect::openmetrics);
  CHECK(count_of(text, "tscaudit_cpu_offset_seconds{") == 3);
  CHECK(text.find("tscaudit_cpu_offset_seconds{cpu=\"13\"} 5e-07\n") != std::string::npos);
  CHECK(text.find("tscaudit_check_cpus 10\n") != std::string::npos);
  // A CPU named off but not exported is counted, not listed.
  CheckResult off;
  off.cpus_off = {13, 15};
  const std::string named =
      exposition_text(check_metrics(m, off, facts(), CheckExport{.max_cpus = 3}), ExpositionDialect::openmetrics);
  CHECK(named.find("tscaudit_check_cpus_off 2\n") != std::string::npos);
  CHECK(named.find("tscaudit_cpu_off{cpu=\"13\"} 1\n") != std::string::npos);
  CHECK(named.find("tscaudit_cpu_off{cpu=\"15\"}") == std::string::npos);
  // The spread covers every CPU, exported or not; a CPU without bounds makes it unbounded above.
  CHECK(text.find("tscaudit_cpu_offset_spread_seconds 8e-07\n") != std::string::npos);
  m.cpu.hi_ticks[4] = kNoValue;
  const std::string unbounded =
      exposition_text(check_metrics(m, CheckResult{}, facts(), CheckExport{}), ExpositionDialect::openmetrics);
  CHECK(unbounded.find("tscaudit_cpu_offset_upper_seconds{cpu=\"15\"} NaN\n") != std::string::npos);
  CHECK(unbounded.find("tscaudit_cpu_offset_spread_upper_seconds +Inf\n") != std::string::npos);
}

TEST_CASE("monitor metrics: counters, the last interval and the histogram, exact (Prometheus text)") {
  MonitorMetricsState st;
  st.a = 0;
  st.b = 1;
  st.send = "rdtsc";
  st.recv = "lfence_rdtsc";
  st.version = "9.9.9";
  st.tsc_hz = 1e9;
  st.quantum_ticks = 2;
  st.interval_s = 1;
  st.totals.rounds = 3000;
  st.totals.lost = 7;
  st.totals.fwd_negative = 11;
  st.totals.rev_negative = 13;
  st.totals.self_inconsistent = 1;
  IntervalSummary last;
  last.rounds = 1000;
  last.fwd_k[0].value_ticks = 120;
  last.rev_k[0].value_ticks = 80;
  last.rtt_min = 210;
  st.last = last;
  st.last_end_unix_s = 1795737601.25;
  RttBuckets rtt(1e9);
  for (const std::int64_t v : {-30, 40, 50, 51, 150, 20000, 20000000}) rtt.record(v);
  st.rtt = &rtt;
  const std::string text = exposition_text(monitor_metrics(st), ExpositionDialect::prometheus_text);
  CHECK(text ==
        "# HELP tscaudit_monitor_rounds_total Rounds the monitor recorded\n"
        "# TYPE tscaudit_monitor_rounds_total counter\n"
        "tscaudit_monitor_rounds_total{a=\"0\",b=\"1\"} 3000\n"
        "# HELP tscaudit_monitor_lost_rounds_total Rounds measured but not recorded: the queue to the aggregator was "
        "full\n"
        "# TYPE tscaudit_monitor_lost_rounds_total counter\n"
        "tscaudit_monitor_lost_rounds_total{a=\"0\",b=\"1\"} 7\n"
        "# HELP tscaudit_monitor_negative_latencies_total One-way latencies below 0 (an offset explains most; "
        "tscaudit analyze tells)\n"
        "# TYPE tscaudit_monitor_negative_latencies_total counter\n"
        "tscaudit_monitor_negative_latencies_total{a=\"0\",b=\"1\",direction=\"fwd\"} 11\n"
        "tscaudit_monitor_negative_latencies_total{a=\"0\",b=\"1\",direction=\"rev\"} 13\n"
        "# HELP tscaudit_monitor_self_inconsistent_rounds_total Rounds whose round trip is below minus twice the "
        "quantum: impossible for any offset\n"
        "# TYPE tscaudit_monitor_self_inconsistent_rounds_total counter\n"
        "tscaudit_monitor_self_inconsistent_rounds_total{a=\"0\",b=\"1\"} 1\n"
        "# HELP tscaudit_monitor_interval_offset_lower_seconds Hard lower bound of the offset TSC_b - TSC_a in the "
        "last interval (every round)\n"
        "# TYPE tscaudit_monitor_interval_offset_lower_seconds gauge\n"
        "tscaudit_monitor_interval_offset_lower_seconds{a=\"0\",b=\"1\"} -8.2e-08\n"
        "# HELP tscaudit_monitor_interval_offset_upper_seconds Hard upper bound of the offset TSC_b - TSC_a in the "
        "last interval (every round)\n"
        "# TYPE tscaudit_monitor_interval_offset_upper_seconds gauge\n"
        "tscaudit_monitor_interval_offset_upper_seconds{a=\"0\",b=\"1\"} 1.22e-07\n"
        "# HELP tscaudit_monitor_interval_fwd_min_seconds Smallest one-way latency a to b in the last interval\n"
        "# TYPE tscaudit_monitor_interval_fwd_min_seconds gauge\n"
        "tscaudit_monitor_interval_fwd_min_seconds{a=\"0\",b=\"1\"} 1.2e-07\n"
        "# HELP tscaudit_monitor_interval_rev_min_seconds Smallest one-way latency b to a in the last interval\n"
        "# TYPE tscaudit_monitor_interval_rev_min_seconds gauge\n"
        "tscaudit_monitor_interval_rev_min_seconds{a=\"0\",b=\"1\"} 8e-08\n"
        "# HELP tscaudit_monitor_interval_rtt_min_seconds Shortest round trip in the last interval\n"
        "# TYPE tscaudit_monitor_interval_rtt_min_seconds gauge\n"
        "tscaudit_monitor_interval_rtt_min_seconds{a=\"0\",b=\"1\"} 2.1e-07\n"
        "# HELP tscaudit_monitor_interval_rounds Rounds recorded in the last interval\n"
        "# TYPE tscaudit_monitor_interval_rounds gauge\n"
        "tscaudit_monitor_interval_rounds{a=\"0\",b=\"1\"} 1000\n"
        "# HELP tscaudit_monitor_interval_timestamp_seconds When the last interval was written, Unix time\n"
        "# TYPE tscaudit_monitor_interval_timestamp_seconds gauge\n"
        "tscaudit_monitor_interval_timestamp_seconds{a=\"0\",b=\"1\"} 1795737601.25\n"
        "# HELP tscaudit_monitor_running 1 while the monitor runs, 0 once it has ended\n"
        "# TYPE tscaudit_monitor_running gauge\n"
        "tscaudit_monitor_running{a=\"0\",b=\"1\"} 1\n"
        "# HELP tscaudit_monitor_interval_seconds Length of one interval\n"
        "# TYPE tscaudit_monitor_interval_seconds gauge\n"
        "tscaudit_monitor_interval_seconds{a=\"0\",b=\"1\"} 1\n"
        "# HELP tscaudit_monitor_info The monitor's version and read variants\n"
        "# TYPE tscaudit_monitor_info gauge\n"
        "tscaudit_monitor_info{a=\"0\",b=\"1\",version=\"9.9.9\",send=\"rdtsc\",recv=\"lfence_rdtsc\"} 1\n"
        "# HELP tscaudit_monitor_rtt_seconds Round trips of every recorded round since the monitor started\n"
        "# TYPE tscaudit_monitor_rtt_seconds histogram\n"
        "tscaudit_monitor_rtt_seconds_bucket{a=\"0\",b=\"1\",le=\"5e-08\"} 3\n"
        "tscaudit_monitor_rtt_seconds_bucket{a=\"0\",b=\"1\",le=\"1e-07\"} 4\n"
        "tscaudit_monitor_rtt_seconds_bucket{a=\"0\",b=\"1\",le=\"2e-07\"} 5\n"
        "tscaudit_monitor_rtt_seconds_bucket{a=\"0\",b=\"1\",le=\"5e-07\"} 5\n"
        "tscaudit_monitor_rtt_seconds_bucket{a=\"0\",b=\"1\",le=\"1e-06\"} 5\n"
        "tscaudit_monitor_rtt_seconds_bucket{a=\"0\",b=\"1\",le=\"2e-06\"} 5\n"
        "tscaudit_monitor_rtt_seconds_bucket{a=\"0\",b=\"1\",le=\"5e-06\"} 5\n"
        "tscaudit_monitor_rtt_seconds_bucket{a=\"0\",b=\"1\",le=\"1e-05\"} 5\n"
        "tscaudit_monitor_rtt_seconds_bucket{a=\"0\",b=\"1\",le=\"1e-04\"} 6\n"
        "tscaudit_monitor_rtt_seconds_bucket{a=\"0\",b=\"1\",le=\"0.001\"} 6\n"
        "tscaudit_monitor_rtt_seconds_bucket{a=\"0\",b=\"1\",le=\"0.01\"} 6\n"
        "tscaudit_monitor_rtt_seconds_bucket{a=\"0\",b=\"1\",le=\"+Inf\"} 7\n"
        "tscaudit_monitor_rtt_seconds_sum{a=\"0\",b=\"1\"} 0.020020261\n"
        "tscaudit_monitor_rtt_seconds_count{a=\"0\",b=\"1\"} 7\n");
}

TEST_CASE("monitor metrics: before the first interval, the counters at 0 and no interval gauges") {
  MonitorMetricsState st;
  st.tsc_hz = 1e9;
  st.running = false;
  const std::string text = exposition_text(monitor_metrics(st), ExpositionDialect::prometheus_text);
  CHECK(text.find("tscaudit_monitor_rounds_total{a=\"0\",b=\"0\"} 0\n") != std::string::npos);
  CHECK(text.find("tscaudit_monitor_interval_") == text.find("tscaudit_monitor_interval_seconds"));
  CHECK(text.find("tscaudit_monitor_running{a=\"0\",b=\"0\"} 0\n") != std::string::npos);
  CHECK(text.find("_bucket") == std::string::npos);
}
