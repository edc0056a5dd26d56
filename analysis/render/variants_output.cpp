#include "render/variants_output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "core/format.hpp"
#include "render/pair_output.hpp"
#include "render/text_wrap.hpp"
#include "render/verdict_text.hpp"

namespace tscaudit {

namespace {

const CostStats& believed(const ReadCost& c) { return c.believe == CostMethod::deltas ? c.delta_ticks : c.batch_ticks; }

const char* method_name(CostMethod m) { return m == CostMethod::deltas ? "deltas" : "batch"; }

/// Right-aligned.
std::string rpad(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

/// A cost for the table: 4 significant digits below 1000, whole ticks above (no exponent:
/// cpuid_rdtsc costs about 10^4 ticks under a hypervisor).
std::string num(double v) {
  if (!std::isfinite(v)) return "-";
  return std::fabs(v) >= 1000 ? format_fixed(v, 0) : format_sig(v, 4);
}

nlohmann::ordered_json stats_json(const CostStats& s, double scale) {
  return {{"min", s.min * scale},
          {"p50", s.p50 * scale},
          {"mean", s.mean * scale},
          {"p99.9", s.p99_9 * scale},
          {"samples", s.samples}};
}

nlohmann::ordered_json standing_json(const RecvStanding& s, double tsc_hz) {
  nlohmann::ordered_json j;
  j["recv"] = variant_text(s.recv);
  j["orders_earlier_loads"] = s.orders_earlier_loads;
  j["cost_ticks"] = s.measured_cost ? nlohmann::ordered_json(s.cost_ticks) : nlohmann::ordered_json(nullptr);
  j["cost_ns"] = s.measured_cost && tsc_hz > 0 ? nlohmann::ordered_json(ticks_to_ns(s.cost_ticks, tsc_hz))
                                               : nlohmann::ordered_json(nullptr);
  j["clean"] = s.clean;
  j["one_way"] = s.one_way;
  j["violations"] = s.violations;
  j["self_inconsistent"] = s.self_inconsistent;
  return j;
}

/// The clocks by believed p50, cheapest first; those not measured last, in input order.
std::vector<const ReadCost*> ranked(const std::vector<ReadCost>& costs) {
  std::vector<const ReadCost*> out;
  out.reserve(costs.size());
  for (const ReadCost& c : costs) out.push_back(&c);
  std::stable_sort(out.begin(), out.end(), [](const ReadCost* x, const ReadCost* y) {
    const bool xm = x->error.empty() && believed(*x).samples > 0;
    const bool ym = y->error.empty() && believed(*y).samples > 0;
    if (xm != ym) return xm;
    return xm && believed(*x).p50 < believed(*y).p50;
  });
  return out;
}

void append_row(std::string& out, const std::string& line) {
  out += line;
  // No trailing blanks: the tables are compared exactly in the tests.
  while (!out.empty() && out.back() == ' ') out.pop_back();
  out += '\n';
}

}  // namespace

std::string variants_text(const VariantsResult& r) {
  // The answer first: the receive read to use and what it costs (the recommendation of
  // the answer below), or why there is none; then the setting, the tables and the rest.
  const std::vector<std::string> findings = variants_findings(r.verdict);
  const auto recommended = std::find_if(findings.begin(), findings.end(),
                                        [](const std::string& f) { return f.starts_with("recommended receive read"); });
  std::string out = "tscaudit variants: ";
  if (recommended != findings.end()) {
    out += *recommended + "\n";
  } else {
    out += "no receive read to recommend" + (findings.empty() ? std::string() : ": " + findings.front()) + "\n";
  }
  out += "  measured on CPUs " + std::to_string(r.cpu_a) + " and " + std::to_string(r.cpu_b) + ", " +
         std::to_string(r.rounds_per_combination) + " rounds per combination (both roles, " + std::to_string(r.passes) +
         (r.passes == 1 ? " pass), " : " passes), ") + std::string(counter_name(variant_arch(r.verdict.plain_read))) +
         " " + (r.tsc_hz > 0 ? format_fixed(r.tsc_hz / 1e6, 3) + " MHz" : std::string("frequency unknown")) +
         ", quantum " + ticks_with_ns_if_coarse(static_cast<double>(r.quantum_ticks), r.tsc_hz) + "\n";

  out += "\nread cost per call on CPU " + std::to_string(r.cpu_a) +
         " (ticks, the believed method's figures), cheapest first\n";
  append_row(out, "  " + pad_right("clock", 21) + rpad("min", 9) + rpad("p50", 9) + rpad("mean", 9) + rpad("p99.9", 9) +
                      rpad("p50 ns", 9) + "  " + pad_right("method", 8) + rpad("batch p50", 10) + rpad("delta p50", 10));
  std::vector<std::string> by_batch, by_deltas, trapped;
  for (const ReadCost* cp : ranked(r.read_costs)) {
    const ReadCost& c = *cp;
    if (!c.error.empty()) {
      append_row(out, "  " + pad_right(c.name, 21) + "not measured: " + c.error);
      continue;
    }
    (c.believe == CostMethod::deltas ? by_deltas : by_batch).push_back(c.name);
    const CostStats& s = believed(c);
    append_row(out, "  " + pad_right(c.name, 21) + rpad(num(s.min), 9) + rpad(num(s.p50), 9) + rpad(num(s.mean), 9) +
                        rpad(num(s.p99_9), 9) + rpad(num(ticks_to_ns(s.p50, r.tsc_hz)), 9) + "  " +
                        pad_right(method_name(c.believe), 8) + rpad(num(c.batch_ticks.p50), 10) +
                        rpad(num(c.delta_ticks.p50), 10) +
                        (read_looks_trapped(c, r.tsc_hz) ? std::string("  trapped") : std::string()));
    if (read_looks_trapped(c, r.tsc_hz)) trapped.push_back(c.name);
  }
  // Which method to believe, said once per method (each clock's own reason is in the JSON).
  auto names = [](const std::vector<std::string>& v) {
    std::string s;
    for (const std::string& n : v) s += (s.empty() ? "" : ", ") + n;
    return s;
  };
  if (!by_deltas.empty()) {
    out += "  deltas believed (" + names(by_deltas) + "): a call costs at least " +
           format_sig(kDeltaResolutionSteps, 3) +
           " steps of the counter, so single back-to-back deltas resolve it "
           "and show its spread\n";
  }
  if (!by_batch.empty()) {
    out += "  batch believed (" + names(by_batch) + "): a call costs less than " +
           format_sig(kDeltaResolutionSteps, 3) +
           " steps of the counter, so single deltas are quantized; the "
           "batch average is not\n";
  }
  if (!trapped.empty()) {
    out += "  trapped (" + names(trapped) + "): more than " + format_sig(kTrappedReadNs, 4) +
           " ns per read of CNTVCT_EL0: the kernel traps the read and emulates it (a counter erratum's workaround; "
           "tscaudit info names it), so these are the trap's figures, not the instruction's\n";
  }
  out += "  the mean moves with every preemption during the measurement; the p50 does not\n";

  // Two tables of the same rows, so that each fits 100 columns with the longest label
  // (39 characters, --all): what each combination costs, then its early reads.
  std::size_t label_width = 9;
  for (const ExchangeSummary& e : r.exchanges)
    label_width = std::max(label_width, combination_label(e.combination).size());
  label_width += 2;
  out += "\nexchange per send/recv, both roles (ticks)\n";
  append_row(out, "  " + pad_right("send/recv", label_width) + rpad("rtt min", 8) + rpad("p50", 7) + rpad("p99", 8) +
                      rpad("1-way min", 10) + rpad("min vs plain", 13));
  for (std::size_t i = 0; i < r.exchanges.size(); ++i) {
    const ExchangeSummary& e = r.exchanges[i];
    const Inflation* f = i < r.verdict.inflation.size() ? &r.verdict.inflation[i] : nullptr;
    std::string vs = "-";
    if (f != nullptr && r.verdict.plain) {
      vs = (f->rtt_min_over_plain_ticks >= 0 ? "+" : "") + std::to_string(f->rtt_min_over_plain_ticks);
    }
    append_row(out, "  " + pad_right(combination_label(e.combination), label_width) +
                        rpad(std::to_string(e.rtt_ticks.min()), 8) +
                        rpad(std::to_string(e.rtt_ticks.value_at_percentile(50)), 7) +
                        rpad(std::to_string(e.rtt_ticks.value_at_percentile(99)), 8) +
                        rpad(std::to_string(e.one_way_ticks.min()), 10) + rpad(vs, 13));
  }
  out += "\nearly reads per send/recv, both roles (one-way latencies; rtt<-2q: rounds)\n";
  append_row(out, "  " + pad_right("send/recv", label_width) + rpad("negative", 9) + rpad("own band", 9) +
                      rpad("ref band", 9) + rpad("per 1M", 9) + rpad("rtt<-2q", 8));
  for (const ExchangeSummary& e : r.exchanges) {
    append_row(out, "  " + pad_right(combination_label(e.combination), label_width) + rpad(std::to_string(e.negative), 9) +
                        rpad(std::to_string(e.causality_violations), 9) +
                        rpad(e.reference_checked ? std::to_string(e.below_reference) : std::string("-"), 9) +
                        rpad(format_fixed(e.violations_per_million(), 1), 9) +
                        rpad(std::to_string(e.self_inconsistent), 8));
  }
  out +=
      "  own band: below every offset the run's own band allows; ref band: below the band of the ordering\n"
      "  receive reads of the same pair (early reads either way); per 1M: violations by either test;\n"
      "  min vs plain: the smallest rtt >= 0 against plain " + combination_label(plain_combination(variant_arch(r.verdict.plain_read))) +
      "'s (an rtt < 0 is impossible)\n";
  for (const ReferenceBand& b : r.reference_bands) {
    out += "  reference band " + b.a + "->" + b.b + ": " +
           (b.ok ? format_range(b.lo_ticks, b.hi_ticks) + " ticks from " + std::to_string(b.from) + " ordering reads"
                 : "none (" + reference_problem_text(b) + ")") +
           "\n";
  }

  out += "\nanswer\n";
  for (const std::string& f : findings) out += "  - " + f + "\n";
  if (!r.left_out.empty()) {
    out += "\nleft out\n";
    for (const std::string& p : r.left_out) out += "  - " + p + "\n";
  }
  if (!r.problems.empty()) {
    out += "\nproblems\n";
    for (const std::string& p : r.problems) out += "  - " + p + "\n";
  }
  if (!r.warnings.empty()) {
    out += "\nwarnings\n";
    for (const Warning& w : r.warnings) out += "  - " + warning_line(w) + "\n";
  }
  return wrap_lines(out);
}

nlohmann::ordered_json variants_json(const VariantsResult& r) {
  nlohmann::ordered_json j;
  j["schema"] = kVariantsSchema;
  j["cpus"] = {r.cpu_a, r.cpu_b};
  j["tsc_hz"] = r.tsc_hz;
  j["quantum_ticks"] = r.quantum_ticks;
  j["rounds_per_combination"] = r.rounds_per_combination;
  j["passes"] = r.passes;
  const double ns_per_tick = r.tsc_hz > 0 ? 1e9 / r.tsc_hz : 0;

  auto& costs = j["read_cost"] = nlohmann::ordered_json::array();
  const std::vector<const ReadCost*> order = ranked(r.read_costs);
  for (const ReadCost& c : r.read_costs) {
    nlohmann::ordered_json e;
    e["variant"] = c.name;
    e["tsc_variant"] = c.tsc_variant;
    // aarch64's reads only: x86-64's JSON stays as it was.
    if (const auto v = parse_variant(c.name); v && variant_arch(*v) == CounterArch::aarch64) {
      e["trapped"] = read_looks_trapped(c, r.tsc_hz);
    }
    if (!c.error.empty()) {
      e["error"] = c.error;
      costs.push_back(e);
      continue;
    }
    // "ticks"/"ns": the method to believe; both methods follow in full.
    e["ticks"] = stats_json(believed(c), 1);
    e["ns"] = r.tsc_hz > 0 ? stats_json(believed(c), ns_per_tick) : nlohmann::ordered_json(nullptr);
    e["rank"] = std::find(order.begin(), order.end(), &c) - order.begin() + 1;  // 1: cheapest by p50
    e["believe"] = method_name(c.believe);
    e["believe_reason"] = c.believe_reason;
    e["batch_ticks"] = stats_json(c.batch_ticks, 1);
    e["deltas_ticks"] = stats_json(c.delta_ticks, 1);
    e["resolution_ticks"] = c.resolution_ticks;
    if (c.tsc_variant) e["quantum_ticks"] = c.quantum.quantum_ticks;
    costs.push_back(e);
  }

  auto& bands = j["reference_bands"] = nlohmann::ordered_json::array();
  for (const ReferenceBand& b : r.reference_bands) {
    bands.push_back({{"a", b.a},
                     {"b", b.b},
                     {"offset_ticks", b.ok ? nlohmann::ordered_json({{"lo", b.lo_ticks}, {"hi", b.hi_ticks}})
                                           : nlohmann::ordered_json(nullptr)},
                     {"from", b.from},
                     {"problem", reference_problem_text(b)}});
  }
  auto& exchange = j["exchange"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < r.exchanges.size(); ++i) {
    const ExchangeSummary& x = r.exchanges[i];
    nlohmann::ordered_json e;
    e["send"] = variant_text(x.combination.send);
    e["recv"] = variant_text(x.combination.recv);
    e["recv_orders_earlier_loads"] = x.recv_orders_earlier_loads;
    e["rounds"] = x.rounds;
    e["rtt_ticks"] = distribution_json(x.rtt_ticks);
    e["one_way_ticks"] = distribution_json(x.one_way_ticks);
    e["classes"] = {{"fwd", classes_json(x.fwd)}, {"rev", classes_json(x.rev)}};
    e["negative"] = x.negative;
    e["causality_violations"] = x.causality_violations;
    e["below_reference"] =
        x.reference_checked ? nlohmann::ordered_json(x.below_reference) : nlohmann::ordered_json(nullptr);
    e["violations"] = x.violations;
    e["violations_per_million"] = x.violations_per_million();
    e["self_inconsistent"] = x.self_inconsistent;
    e["quantum_ticks"] = x.quantum_ticks;
    if (i < r.verdict.inflation.size() && r.verdict.plain) {
      e["rtt_min_over_plain_ticks"] = r.verdict.inflation[i].rtt_min_over_plain_ticks;
      e["rtt_p50_over_plain_ticks"] = r.verdict.inflation[i].rtt_p50_over_plain_ticks;
    } else {
      e["rtt_min_over_plain_ticks"] = nullptr;
      e["rtt_p50_over_plain_ticks"] = nullptr;
    }
    auto& roles = e["roles"] = nlohmann::ordered_json::array();
    for (const auto& p : x.roles) {
      const HardBand& band = p->fit.band;
      nlohmann::ordered_json role;
      role["a"] = p->a;
      role["b"] = p->b;
      role["rounds"] = p->rounds;
      if (band.feasible) {
        role["offset_ticks"] = {
            {"estimate", p->fit.line.offset_ticks}, {"lo", band.offset_lo_ticks}, {"hi", band.offset_hi_ticks}};
      } else {
        role["offset_ticks"] = {{"estimate", p->fit.line.offset_ticks}, {"lo", nullptr}, {"hi", nullptr}};
      }
      role["classes"] = {{"fwd", classes_json(p->fwd_classes)}, {"rev", classes_json(p->rev_classes)}};
      role["self_inconsistent"] = p->self_inconsistent;
      role["rtt_min_ticks"] = p->rtt_ticks.min();
      role["verdict"] = verdict_text(p->verdict);
      if (p->incomplete) role["incomplete"] = *p->incomplete;
      roles.push_back(role);
    }
    e["problems"] = x.problems;
    exchange.push_back(e);
  }

  if (r.control) {
    const ControlSummary& c = *r.control;
    j["control"] = {{"cpus", {c.cpu_a, c.cpu_b}},
                    {"same_cpu", c.same_cpu},
                    {"send", variant_text(c.combination.send)},
                    {"recv", variant_text(c.combination.recv)},
                    {"rounds", c.rounds},
                    {"negative", c.negative},
                    {"below_quantum", c.below_quantum},
                    {"causality_violations", c.causality_violations},
                    {"min_one_way_ticks", c.min_one_way_ticks},
                    {"rtt_min_ticks", c.rtt_min_ticks},
                    {"rtt_p50_ticks", c.rtt_p50_ticks},
                    {"problem", c.problem}};
  } else {
    j["control"] = nullptr;
  }

  if (r.switch_run) {
    const SwitchRun& w = *r.switch_run;
    j["switch"] = {{"first", combination_label(w.first)},
                   {"second", combination_label(w.second)},
                   {"rounds", {w.first_run.rounds.size(), w.second_run.rounds.size()}},
                   {"problem", w.problem}};
  } else {
    j["switch"] = nullptr;
  }

  const VariantsVerdict& v = r.verdict;
  nlohmann::ordered_json rec;
  if (v.recommended) {
    rec = standing_json(*v.recommended, r.tsc_hz);
    rec["cost_over_plain_ticks"] = v.recommended_cost_over_plain_ticks;
  } else {
    rec = nullptr;
  }
  j["recommendation"] = {{"recv", rec},
                         {"cheapest_clean", v.cheapest_clean ? standing_json(*v.cheapest_clean, r.tsc_hz)
                                                             : nlohmann::ordered_json(nullptr)}};
  auto& standings = j["standings"] = nlohmann::ordered_json::array();
  for (const RecvStanding& s : v.standings) standings.push_back(standing_json(s, r.tsc_hz));
  j["findings"] = variants_findings(v);
  j["warnings"] = warning_lines(r.warnings);
  j["problems"] = r.problems;
  if (!r.left_out.empty()) j["left_out"] = r.left_out;
  return j;
}

std::vector<double> curve_percentiles(std::uint64_t samples) {
  std::vector<double> out = {0, 10, 20, 30, 40, 50, 60, 70, 75, 80, 85, 90, 95};
  // Each decade of the tail and its half-way point (99, 99.5, 99.9, 99.95 ...), while at
  // least one sample lies beyond it: past that the curve would repeat the maximum. The
  // tail 1/d is tested in integers: in doubles 10^-6 * 2 * 10^6 falls just below 1.
  for (std::uint64_t d = 100; d <= samples && d <= 1'000'000'000'000; d *= 10) {
    out.push_back(100.0 * (1.0 - 1.0 / static_cast<double>(d)));
    if (2 * d <= samples) out.push_back(100.0 * (1.0 - 0.5 / static_cast<double>(d)));
  }
  return out;
}

std::string cost_dat(const std::vector<ReadCost>& costs, int cpu, double tsc_hz) {
  std::string out = "# title: read cost per call on CPU " + std::to_string(cpu) + "\n";
  out += "# tsc_hz: " + format_sig(tsc_hz, 12) + "\n";
  out += "# columns: name p50_ticks min_ticks mean_ticks p99_9_ticks method\n";
  for (const ReadCost& c : costs) {
    if (!c.error.empty()) continue;
    const CostStats& s = believed(c);
    if (s.samples == 0) continue;
    out += c.name + " " + format_sig(s.p50, 6) + " " + format_sig(s.min, 6) + " " + format_sig(s.mean, 6) + " " +
           format_sig(s.p99_9, 6) + " " + method_name(c.believe) + "\n";
  }
  return out;
}

std::string tradeoff_dat(const std::vector<ReadCost>& costs, const std::vector<ExchangeSummary>& exchanges) {
  // The plain send of the exchanges' architecture (rdtsc, cntvct).
  const ReadVariant plain = exchanges.empty() ? ReadVariant::rdtsc : plain_variant_of(exchanges.front().combination.send);
  std::string out = "# title: cost against causality violations, send " + variant_text(plain) + "\n";
  out +=
      "# columns: recv cost_p50_ticks violations_per_million violations one_way_latencies min_rtt_ticks "
      "orders_earlier_loads\n";
  for (const ExchangeSummary& e : exchanges) {
    if (e.combination.send != plain) continue;
    const std::optional<double> cost = believed_cost_ticks(costs, e.combination.recv);
    if (!cost) continue;  // no cost, no place on the x axis
    out += variant_text(e.combination.recv) + " " + format_sig(*cost, 6) + " " + format_sig(e.violations_per_million(), 6) +
           " " + std::to_string(e.violations) + " " + std::to_string(e.one_way) + " " +
           std::to_string(e.rtt_ticks.min()) + " " + (e.recv_orders_earlier_loads ? "1" : "0") + "\n";
  }
  return out;
}

std::string percentiles_dat(const std::vector<ExchangeSummary>& exchanges, int cpu_a, int cpu_b) {
  std::string out =
      "# title: one-way latency percentiles, CPUs " + std::to_string(cpu_a) + " and " + std::to_string(cpu_b) + "\n";
  std::size_t blocks = 0;
  for (const ExchangeSummary& e : exchanges)
    if (e.one_way_ticks.total() > 0) ++blocks;
  out += "# blocks: " + std::to_string(blocks) + "\n";
  bool first = true;
  for (const ExchangeSummary& e : exchanges) {
    const SignedHistogram& h = e.one_way_ticks;
    if (h.total() == 0) continue;
    if (!first) out += "\n\n";
    first = false;
    out += combination_label(e.combination) + " inverse_tail ticks\n";
    for (double p : curve_percentiles(h.total())) {
      out += format_sig(p, 8) + " " + format_sig(1.0 / (1.0 - p / 100.0), 8) + " " +
             std::to_string(h.value_at_percentile(p)) + "\n";
    }
  }
  return out;
}

std::string switch_dat(const SwitchRun& s, int cpu_a, int cpu_b, double tsc_hz, std::size_t bins_per_half) {
  if (tsc_hz <= 0) throw std::invalid_argument("switch_dat: the TSC frequency is unknown");
  if (s.first_run.rounds.empty() || s.second_run.rounds.empty()) {
    throw std::invalid_argument("switch_dat: a half of the switching run has no rounds");
  }
  if (bins_per_half == 0) bins_per_half = 1;
  const std::uint64_t t0 = s.first_run.rounds.front().t1;
  const double ms_per_tick = 1e3 / tsc_hz;
  auto ms_of = [&](std::uint64_t t1) { return static_cast<double>(diff_ticks(t1, t0)) * ms_per_tick; };

  std::string out = "# title: CPUs " + std::to_string(cpu_a) + " -> " + std::to_string(cpu_b) + ": receive read " +
                    variant_text(s.first.recv) + ", then " + variant_text(s.second.recv) + "\n";
  out += "# switch_ms: " + format_fixed(ms_of(s.second_run.rounds.front().t1), 4) + "\n";
  out += "# first: " + combination_label(s.first) + "\n";
  out += "# second: " + combination_label(s.second) + "\n";
  out += "# columns: time_ms fwd_min_ticks fwd_p50_ticks rev_min_ticks rev_p50_ticks rtt_min_ticks\n";
  std::vector<std::int64_t> fwd, rev;
  for (const Run* run : {&s.first_run, &s.second_run}) {
    const std::vector<Round>& rounds = run->rounds;
    const std::size_t n = rounds.size();
    const std::size_t bins = std::min(bins_per_half, n);
    for (std::size_t b = 0; b < bins; ++b) {
      const std::size_t lo = b * n / bins;
      const std::size_t hi = (b + 1) * n / bins;
      fwd.clear();
      rev.clear();
      std::int64_t rtt_min = rtt_ticks(rounds[lo]);
      for (std::size_t i = lo; i < hi; ++i) {
        fwd.push_back(fwd_ticks(rounds[i]));
        rev.push_back(rev_ticks(rounds[i]));
        rtt_min = std::min(rtt_min, rtt_ticks(rounds[i]));
      }
      // Lower median: the middle value of the bin, no interpolation (ticks stay integers).
      auto median = [](std::vector<std::int64_t>& v) {
        auto mid = v.begin() + static_cast<std::ptrdiff_t>((v.size() - 1) / 2);
        std::nth_element(v.begin(), mid, v.end());
        return *mid;
      };
      const std::int64_t fwd_min = *std::min_element(fwd.begin(), fwd.end());
      const std::int64_t rev_min = *std::min_element(rev.begin(), rev.end());
      out += format_fixed(ms_of(rounds[lo].t1), 4) + " " + std::to_string(fwd_min) + " " + std::to_string(median(fwd)) +
             " " + std::to_string(rev_min) + " " + std::to_string(median(rev)) + " " + std::to_string(rtt_min) + "\n";
    }
  }
  return out;
}

}  // namespace tscaudit
