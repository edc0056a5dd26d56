#include "app/report_command.hpp"

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "app/check_command.hpp"
#include "app/info_command.hpp"
#include "core/cpu_list.hpp"
#include "core/errors.hpp"
#include "core/format.hpp"
#include "formats/output_file.hpp"
#include "render/matrix_output.hpp"
#include "render/plan_output.hpp"
#include "render/report_doc.hpp"
#include "render/variants_output.hpp"
#include "render/verdict_text.hpp"
#include "version.hpp"

namespace tscsync {
namespace {

namespace fs = std::filesystem;
using Kind = ReportBlock::Kind;

ReportBlock paragraph(std::string text) { return {Kind::paragraph, std::move(text), {}, ""}; }
ReportBlock pre(std::string text) { return {Kind::pre, std::move(text), {}, ""}; }
ReportBlock bullets(std::vector<std::string> items) { return {Kind::bullets, "", std::move(items), ""}; }
ReportBlock picture(std::string caption, std::string path) {
  return {Kind::picture, std::move(caption), {}, std::move(path)};
}

std::uint64_t total_violations(const MatrixResult& m) {
  std::uint64_t n = 0;
  for (const PairCell& c : m.cells) n += c.causality_violations;
  return n;
}

std::uint64_t total_self_inconsistent(const MatrixResult& m) {
  std::uint64_t n = 0;
  for (const PairCell& c : m.cells) n += c.self_inconsistent;
  return n;
}

std::uint64_t total_rounds(const MatrixResult& m) {
  std::uint64_t n = 0;
  for (const PairCell& c : m.cells) n += c.rounds;
  return n;
}

/// Median over the measured pairs of one field.
double median_of(const MatrixResult& m, double (*field)(const PairCell&)) {
  std::vector<double> v;
  for (const PairCell& c : m.cells) {
    if (c.measured) v.push_back(field(c));
  }
  if (v.empty()) return kNoValue;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::vector<std::string> pair_verdicts(const MatrixOutcome& o, const std::string& dir) {
  std::vector<std::string> items;
  for (const PairAnalysis& p : o.analyses) {
    items.push_back(p.a + "->" + p.b + ": " + verdict_text(p.verdict) + " (details: " + dir + "/pairs/pair_" + p.a +
                    "_" + p.b + ".txt)");
  }
  return items;
}

}  // namespace

int run_report(const ReportOptions& options) {
  const fs::path root(options.out_dir);
  make_directories(options.out_dir);
  std::vector<std::string> problems;

  std::cerr << "tscsync report: platform facts\n";
  const InfoReport info = gather_info(0);
  write_text_file((root / "info.txt").string(), info_text(info));
  write_text_file((root / "info.json").string(), info_json(info).dump(2) + "\n");

  // The matrix with the default, ordering receive read: the verdict.
  MatrixOptions ordered = options.matrix;
  ordered.choice = ExchangeChoice{};
  ordered.out_dir = (root / "matrix").string();
  ordered.command_line = options.command_line;
  PlannedMatrix planned = plan_matrix(ordered);
  std::cerr << "tscsync report: all pairs, send " << variant_name(ordered.choice.send) << ", recv "
            << variant_name(ordered.choice.recv) << "\n"
            << plan_text(planned.plan);
  const MatrixOutcome o = measure_matrix(ordered, std::move(planned));
  CheckSettings settings;
  const CheckResult check = decide_check(o.matrix, settings, check_warnings(o.warnings));
  for (const std::string& p : write_matrix_dir(ordered.out_dir, o, &check, &settings, false)) problems.push_back(p);
  problems.insert(problems.end(), o.problems.begin(), o.problems.end());

  // The same pairs with plain rdtsc on both sides: what speculation does on this machine.
  std::optional<MatrixOutcome> plain;
  if (options.plain) {
    MatrixOptions p = options.matrix;
    p.choice.send = p.choice.recv = Variant::rdtsc;
    p.out_dir = (root / "matrix_plain_rdtsc").string();
    p.command_line = options.command_line;
    PlannedMatrix planned_plain = plan_matrix(p);
    std::cerr << "tscsync report: all pairs again, plain rdtsc on both sides\n";
    plain = measure_matrix(p, std::move(planned_plain));
    for (const std::string& q : write_matrix_dir(p.out_dir, *plain, nullptr, nullptr, false)) problems.push_back(q);
    problems.insert(problems.end(), plain->problems.begin(), plain->problems.end());
  }

  // The read variants on one pair: what each costs and what each gets wrong.
  std::optional<VariantsOutcome> variants;
  if (options.variants) {
    VariantsOptions v = options.variants_options;
    if (!options.matrix.cpus.empty()) {
      const std::vector<int> cpus = parse_cpu_list(options.matrix.cpus);
      if (cpus.size() >= 2 && cpus[0] != cpus[1]) v.cpus = std::to_string(cpus[0]) + "," + std::to_string(cpus[1]);
    }
    v.out_dir = (root / "variants").string();
    v.command_line = options.command_line;
    make_directories(v.out_dir);
    std::cerr << "tscsync report: read variants on one pair\n";
    variants = measure_variants(v);
    for (const std::string& q : write_variants_dir(v.out_dir, *variants)) problems.push_back(q);
    problems.insert(problems.end(), variants->result.problems.begin(), variants->result.problems.end());
  }

  // The document: the verdict first, then the evidence.
  const MatrixResult& m = o.matrix;
  const double hz = m.tsc_hz;
  ReportDoc doc;
  doc.title = "tscsync report of " + o.platform.host;
  {
    ReportSection s;
    s.title = "Verdict";
    s.blocks.push_back(paragraph(check_reason_text(check) + "."));
    std::vector<std::string> failures;
    for (std::size_t i = 0; i < check.failures.size() && i < 20; ++i)
      failures.push_back(check_failure_text(check.failures[i], check));
    if (check.failures.size() > 20)
      failures.push_back(std::to_string(check.failures.size() - 20) + " more in matrix/matrix.json");
    if (!failures.empty()) s.blocks.push_back(bullets(failures));
    s.blocks.push_back(
        paragraph("Measured " + std::to_string(m.size()) + " CPUs (" + std::to_string(o.planned.plan.ordered_pairs) +
                  " ordered pairs, each visited " + std::to_string(o.planned.plan.spec.visits) + " times, " +
                  std::to_string(total_rounds(m)) + " rounds in all) with send " + m.send.name + " and receive " +
                  m.recv.name + " in " + format_sig(o.elapsed_seconds, 3) +
                  " s. A pair's hard band holds every offset that no round "
                  "contradicts, assuming only causality, a linear offset and reads within one quantum (" +
                  std::to_string(m.quantum_ticks) + " ticks here)."));
    if (variants) {
      const VariantsVerdict& vv = variants->result.verdict;
      s.blocks.push_back(paragraph(
          vv.recommended ? "Receive read to use here: " + std::string(variant_name(vv.recommended->recv)) + " (" +
                               ticks_with_ns(vv.recommended->cost_ticks, hz) +
                               " per read, the cheapest that waits for earlier loads with no causality violation; "
                               "see \"Read variants\")."
                         : "No receive read that waits for earlier loads was free of causality violations: see "
                           "\"Read variants\"."));
    }
    std::vector<std::string> warnings;
    for (const Warning& w : o.warnings) warnings.push_back(w.code + ": " + w.message + " " + w.advice);
    if (!warnings.empty()) {
      s.blocks.push_back(paragraph("What on this platform makes the answer less certain:"));
      s.blocks.push_back(bullets(warnings));
    }
    doc.sections.push_back(std::move(s));
  }
  {
    ReportSection s;
    s.title = "Offsets";
    s.blocks.push_back(
        picture("TSC offset per ordered pair (row a initiates, column b responds), ticks; "
                "0 means the two counters agree",
                "matrix/offset_ticks.svg"));
    s.blocks.push_back(pre(matrix_text(m)));
    doc.sections.push_back(std::move(s));
  }
  {
    ReportSection s;
    s.title = "Latency";
    s.blocks.push_back(paragraph(
        "Round trip (t4 - t1) - (t3 - t2) per pair: same-clock on both sides, so no offset is in it. Median "
        "over pairs of the minimum: " +
        ticks_with_ns(median_of(m, [](const PairCell& c) { return c.rtt_min_ticks; }), hz) + "; of the median: " +
        ticks_with_ns(median_of(m, [](const PairCell& c) { return c.rtt_p50_ticks; }), hz) + "."));
    s.blocks.push_back(picture("Minimum round trip per pair, ticks", "matrix/rtt_min_ticks.svg"));
    s.blocks.push_back(picture("Median round trip per pair, ticks", "matrix/rtt_p50_ticks.svg"));
    doc.sections.push_back(std::move(s));
  }
  if (plain) {
    const MatrixResult& pm = plain->matrix;
    ReportSection s;
    s.title = "Plain rdtsc: what speculation does here";
    s.blocks.push_back(paragraph(
        "The same pairs with plain rdtsc on both sides (" + std::to_string(total_rounds(pm)) +
        " rounds): " + std::to_string(total_violations(pm)) +
        " one-way latencies below every offset the rest of the run allows "
        "(causality violations: a receive read ran before the message arrived), and " +
        std::to_string(total_self_inconsistent(pm)) + " rounds impossible for any offset. With receive " + m.recv.name +
        ": " + std::to_string(total_violations(m)) + " and " + std::to_string(total_self_inconsistent(m)) +
        ". Median minimum round trip: plain " +
        ticks_with_ns(median_of(pm, [](const PairCell& c) { return c.rtt_min_ticks; }), hz) + ", " + m.recv.name + " " +
        ticks_with_ns(median_of(m, [](const PairCell& c) { return c.rtt_min_ticks; }), hz) + "."));
    s.blocks.push_back(
        picture("Causality violations per pair with plain rdtsc", "matrix_plain_rdtsc/causality_violations.svg"));
    s.blocks.push_back(pre(matrix_text(pm)));
    doc.sections.push_back(std::move(s));
  }
  if (variants) {
    const VariantsResult& v = variants->result;
    ReportSection s;
    s.title = "Read variants: what each costs, what each gets wrong";
    s.blocks.push_back(paragraph("CPUs " + std::to_string(v.cpu_a) + " and " + std::to_string(v.cpu_b) + ", " +
                                 std::to_string(v.rounds_per_combination) +
                                 " rounds per send/recv combination in both roles, interleaved over " +
                                 std::to_string(v.passes) + " passes; read costs on CPU " + std::to_string(v.cpu_a) +
                                 "."));
    s.blocks.push_back(bullets(variants_findings(v.verdict)));
    s.blocks.push_back(picture("Read cost per call (p50, bar from min to p99.9), ticks", "variants/variants_cost.svg"));
    s.blocks.push_back(picture("Cost of the receive read against causality violations per million one-way latencies",
                               "variants/variants_tradeoff.svg"));
    s.blocks.push_back(
        picture("One-way latency percentiles per send/recv combination", "variants/variants_percentiles.svg"));
    if (v.switch_run && v.switch_run->problem.empty()) {
      s.blocks.push_back(picture("One run that switches its receive read from " +
                                     std::string(variant_name(v.switch_run->first.recv)) + " to " +
                                     std::string(variant_name(v.switch_run->second.recv)) +
                                     " half-way: per-bin minimum and median latency",
                                 "variants/variants_switch.svg"));
    }
    s.blocks.push_back(pre(variants_text(v)));
    doc.sections.push_back(std::move(s));
  }
  {
    ReportSection s;
    s.title = "Per-pair verdicts";
    s.blocks.push_back(bullets(pair_verdicts(o, "matrix")));
    if (plain) {
      s.blocks.push_back(paragraph("With plain rdtsc:"));
      s.blocks.push_back(bullets(pair_verdicts(*plain, "matrix_plain_rdtsc")));
    }
    doc.sections.push_back(std::move(s));
  }
  {
    ReportSection s;
    s.title = "Platform";
    s.blocks.push_back(pre(info_text(info)));
    doc.sections.push_back(std::move(s));
  }
  {
    ReportSection s;
    s.title = "How this report was made";
    s.blocks.push_back(paragraph("Generated " + format_utc(std::chrono::system_clock::now()) + " by tscsync " +
                                 std::string(kToolVersion) + ": " + options.command_line));
    s.blocks.push_back(
        bullets({"info.txt, info.json: the platform facts",
                 "matrix/: the all-pairs run with receive " + m.recv.name +
                     ": matrix.json (tscsync-matrix/1, with the check), matrix.txt, analysis.json, "
                     "*.dat for gnuplot, heatmaps (PNG, SVG), pairs/ (one analysis per pair)",
                 "matrix_plain_rdtsc/: the same with plain rdtsc on both sides",
                 "variants/: the read variants on one pair: variants.json (tscsync-variants/1), "
                 "variants.txt, the plots and their .dat inputs",
                 "Redraw a heatmap: gnuplot -c plots/heatmap_offset.gp matrix/offset_ticks.dat out.png"}));
    if (!problems.empty()) {
      s.blocks.push_back(paragraph("Problems while making it:"));
      s.blocks.push_back(bullets(problems));
    }
    doc.sections.push_back(std::move(s));
  }
  write_text_file((root / "report.md").string(), report_markdown(doc));
  write_text_file((root / "report.html").string(),
                  report_html(doc, [&](const std::string& path) -> std::optional<std::string> {
                    std::ifstream in(root / path, std::ios::binary);
                    if (!in) return std::nullopt;
                    std::ostringstream text;
                    text << in.rdbuf();
                    return text.str();
                  }));
  std::cout << check_reason_text(check) << "\n";
  std::cerr << "tscsync report: wrote " << (root / "report.md").string() << " and " << (root / "report.html").string()
            << "\n";
  for (const std::string& p : problems) std::cerr << "tscsync report: problem: " << p << "\n";
  return problems.empty() ? kExitOk : kExitRuntime;
}

}  // namespace tscsync
