#include "render/report_builder.hpp"

#include <algorithm>
#include <numeric>

#include "core/format.hpp"
#include "render/matrix_output.hpp"
#include "render/verdict_text.hpp"

namespace tscsync {
namespace {

using Kind = ReportBlock::Kind;

ReportBlock paragraph(std::string text) { return {Kind::paragraph, std::move(text), {}, "", ""}; }
ReportBlock pre(std::string text) { return {Kind::pre, std::move(text), {}, "", ""}; }
ReportBlock bullets(std::vector<std::string> items) { return {Kind::bullets, "", std::move(items), "", ""}; }

/// A picture of the report directory, `svg_path` being its SVG (the PNG and the .dat input
/// lie beside it). When the PNG or the SVG is missing, `missing` says why and where its
/// input is: "gnuplot not found; its input is matrix/offset_ticks.dat".
ReportBlock picture(const ReportInputs& in, std::string caption, std::string svg_path) {
  const std::string stem = svg_path.substr(0, svg_path.size() - 4);
  std::string missing;
  for (const std::string& path : {stem + ".svg", stem + ".png"}) {
    const auto it = in.missing_pictures.find(path);
    if (it != in.missing_pictures.end()) {
      missing = it->second + "; its input is " + stem + ".dat";
      break;
    }
  }
  return {Kind::picture, std::move(caption), {}, std::move(svg_path), std::move(missing)};
}

std::string in_dir(std::string_view dir, const char* file) { return std::string(dir) + "/" + file; }

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

/// Median over the measured pairs of one field (the upper median of an even count).
double median_of(const MatrixResult& m, double (*field)(const PairCell&)) {
  std::vector<double> v;
  for (const PairCell& c : m.cells) {
    if (c.measured) v.push_back(field(c));
  }
  if (v.empty()) return kNoValue;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double rtt_min(const PairCell& c) { return c.rtt_min_ticks; }
double rtt_p50(const PairCell& c) { return c.rtt_p50_ticks; }

std::vector<std::string> pair_verdicts(const ReportMatrixRun& run, std::string_view dir) {
  std::vector<std::string> items;
  // By CPU number, as the pairs' analyses are written.
  const MatrixResult& m = run.matrix;
  std::vector<std::size_t> by_number(m.size());
  std::iota(by_number.begin(), by_number.end(), std::size_t{0});
  std::sort(by_number.begin(), by_number.end(), [&](std::size_t x, std::size_t y) { return m.cpus[x] < m.cpus[y]; });
  for (std::size_t i : by_number) {
    for (std::size_t j : by_number) {
      if (!m.at(i, j).measured) continue;
      const std::string a = std::to_string(m.cpus[i]), b = std::to_string(m.cpus[j]);
      std::string item = a;
      item += "->";
      item += b;
      item += ": ";
      item += verdict_text(m.at(i, j).verdict);
      item += " (details: ";
      item += dir;
      item += "/pairs/pair_";
      item += a;
      item += "_";
      item += b;
      item += ".txt)";
      items.push_back(std::move(item));
    }
  }
  return items;
}

ReportSection verdict_section(const ReportInputs& in) {
  const MatrixResult& m = in.ordered.matrix;
  const CheckResult& check = in.check;
  ReportSection s;
  s.title = "Verdict";
  s.blocks.push_back(paragraph(check_reason_text(check) + "."));
  std::vector<std::string> failures;
  for (std::size_t i = 0; i < check.failures.size() && i < 20; ++i)
    failures.push_back(check_failure_text(check.failures[i], check));
  if (check.failures.size() > 20) {
    failures.push_back(std::to_string(check.failures.size() - 20) + " more in " +
                       in_dir(kReportMatrixDir, "matrix.json"));
  }
  if (!failures.empty()) s.blocks.push_back(bullets(failures));
  const bool sparse = pairs_left_out(m) > 0;
  const std::string pairs = sparse ? "the " + std::to_string(in.ordered.ordered_pairs) +
                                         " ordered pairs of a sparse design, of " +
                                         std::to_string(m.size() * (m.size() - 1)) + ","
                                   : std::to_string(in.ordered.ordered_pairs) + " ordered pairs,";
  s.blocks.push_back(paragraph("Measured " + std::to_string(m.size()) + " CPUs (" + pairs + " each visited " +
                               std::to_string(in.ordered.visits) + " times, " + std::to_string(total_rounds(m)) +
                               " rounds in all) with send " + m.send.name + " and receive " + m.recv.name + " in " +
                               format_sig(in.ordered.elapsed_seconds, 3) +
                               " s. A pair's hard band holds every offset that no round "
                               "contradicts, assuming only causality, a linear offset and reads within one quantum (" +
                               std::to_string(m.quantum_ticks) + " ticks here)."));
  if (in.variants) {
    const VariantsVerdict& vv = in.variants->verdict;
    s.blocks.push_back(paragraph(
        vv.recommended ? "Receive read to use here: " + std::string(variant_name(vv.recommended->recv)) + " (" +
                             ticks_with_ns(vv.recommended->cost_ticks, m.tsc_hz) +
                             " per read, the cheapest that waits for earlier loads with no causality violation; "
                             "see \"Read variants\")."
                       : "No receive read that waits for earlier loads was free of causality violations: see "
                         "\"Read variants\"."));
  }
  std::vector<std::string> warnings;
  for (const ReportWarning& w : in.warnings) warnings.push_back(w.code + ": " + w.message + " " + w.advice);
  if (!warnings.empty()) {
    s.blocks.push_back(paragraph("What on this platform makes the answer less certain:"));
    s.blocks.push_back(bullets(warnings));
  }
  return s;
}

ReportSection offsets_section(const ReportInputs& in) {
  ReportSection s;
  s.title = "Offsets";
  s.blocks.push_back(picture(in,
                             "TSC offset per ordered pair (row a initiates, column b responds), ticks; "
                             "0 means the two counters agree",
                             in_dir(kReportMatrixDir, "offset_ticks.svg")));
  s.blocks.push_back(pre(matrix_text(in.ordered.matrix)));
  return s;
}

ReportSection latency_section(const ReportInputs& in) {
  const MatrixResult& m = in.ordered.matrix;
  ReportSection s;
  s.title = "Latency";
  s.blocks.push_back(
      paragraph("Round trip (t4 - t1) - (t3 - t2) per pair: same-clock on both sides, so no offset is in it. Median "
                "over pairs of the minimum: " +
                ticks_with_ns(median_of(m, rtt_min), m.tsc_hz) +
                "; of the median: " + ticks_with_ns(median_of(m, rtt_p50), m.tsc_hz) + "."));
  s.blocks.push_back(picture(in, "Minimum round trip per pair, ticks", in_dir(kReportMatrixDir, "rtt_min_ticks.svg")));
  s.blocks.push_back(picture(in, "Median round trip per pair, ticks", in_dir(kReportMatrixDir, "rtt_p50_ticks.svg")));
  return s;
}

ReportSection plain_section(const ReportInputs& in) {
  const MatrixResult& m = in.ordered.matrix;
  const MatrixResult& pm = in.plain->matrix;
  const double hz = m.tsc_hz;
  ReportSection s;
  s.title = "Plain rdtsc: what speculation does here";
  s.blocks.push_back(paragraph(
      "The same pairs with plain rdtsc on both sides (" + std::to_string(total_rounds(pm)) +
      " rounds): " + std::to_string(total_violations(pm)) +
      " one-way latencies below every offset the rest of the run allows "
      "(causality violations: a receive read ran before the message arrived), and " +
      std::to_string(total_self_inconsistent(pm)) + " rounds impossible for any offset. With receive " + m.recv.name +
      ": " + std::to_string(total_violations(m)) + " and " + std::to_string(total_self_inconsistent(m)) +
      ". Median minimum round trip: plain " + ticks_with_ns(median_of(pm, rtt_min), hz) + ", " + m.recv.name + " " +
      ticks_with_ns(median_of(m, rtt_min), hz) + "."));
  s.blocks.push_back(picture(in, "Causality violations per pair with plain rdtsc",
                             in_dir(kReportPlainDir, "causality_violations.svg")));
  s.blocks.push_back(pre(matrix_text(pm)));
  return s;
}

ReportSection variants_section(const ReportInputs& in) {
  const VariantsResult& v = *in.variants;
  ReportSection s;
  s.title = "Read variants: what each costs, what each gets wrong";
  s.blocks.push_back(paragraph(
      "CPUs " + std::to_string(v.cpu_a) + " and " + std::to_string(v.cpu_b) + ", " +
      std::to_string(v.rounds_per_combination) + " rounds per send/recv combination in both roles, interleaved over " +
      std::to_string(v.passes) + " passes; read costs on CPU " + std::to_string(v.cpu_a) + "."));
  s.blocks.push_back(bullets(variants_findings(v.verdict)));
  s.blocks.push_back(picture(in, "Read cost per call (p50, bar from min to p99.9), ticks",
                             in_dir(kReportVariantsDir, "variants_cost.svg")));
  s.blocks.push_back(picture(in, "Cost of the receive read against causality violations per million one-way latencies",
                             in_dir(kReportVariantsDir, "variants_tradeoff.svg")));
  s.blocks.push_back(picture(in, "One-way latency percentiles per send/recv combination",
                             in_dir(kReportVariantsDir, "variants_percentiles.svg")));
  if (v.switch_run && v.switch_run->problem.empty()) {
    s.blocks.push_back(picture(
        in,
        "One run that switches its receive read from " + std::string(variant_name(v.switch_run->first.recv)) + " to " +
            std::string(variant_name(v.switch_run->second.recv)) + " half-way: per-bin minimum and median latency",
        in_dir(kReportVariantsDir, "variants_switch.svg")));
  }
  s.blocks.push_back(pre(variants_text(v)));
  return s;
}

ReportSection pairs_section(const ReportInputs& in) {
  ReportSection s;
  s.title = "Per-pair verdicts";
  s.blocks.push_back(bullets(pair_verdicts(in.ordered, kReportMatrixDir)));
  if (in.plain) {
    s.blocks.push_back(paragraph("With plain rdtsc:"));
    s.blocks.push_back(bullets(pair_verdicts(*in.plain, kReportPlainDir)));
  }
  return s;
}

ReportSection how_made_section(const ReportInputs& in) {
  ReportSection s;
  s.title = "How this report was made";
  s.blocks.push_back(
      paragraph("Generated " + in.generated_utc + " by tscsync " + in.tool_version + ": " + in.command_line));
  s.blocks.push_back(bullets({"info.txt, info.json: the platform facts",
                              std::string(kReportMatrixDir) + "/: the " +
                                  (pairs_left_out(in.ordered.matrix) > 0 ? "sparse-design" : "all-pairs") +
                                  " run with receive " + in.ordered.matrix.recv.name +
                                  ": matrix.json (tscsync-matrix/1, with the check), matrix.txt, analysis.json, "
                                  "*.dat for gnuplot, heatmaps (PNG, SVG), pairs/ (one analysis per pair)",
                              std::string(kReportPlainDir) + "/: the same with plain rdtsc on both sides",
                              std::string(kReportVariantsDir) +
                                  "/: the read variants on one pair: variants.json (tscsync-variants/1), "
                                  "variants.txt, the plots and their .dat inputs",
                              "Redraw a heatmap: gnuplot -c plots/heatmap_offset.gp matrix/offset_ticks.dat out.png"}));
  if (!in.problems.empty()) {
    s.blocks.push_back(paragraph("Problems while making it:"));
    s.blocks.push_back(bullets(in.problems));
  }
  return s;
}

}  // namespace

ReportDoc build_report_doc(const ReportInputs& in) {
  ReportDoc doc;
  doc.title = "tscsync report of " + in.host;
  doc.sections.push_back(verdict_section(in));
  doc.sections.push_back(offsets_section(in));
  doc.sections.push_back(latency_section(in));
  if (in.plain) doc.sections.push_back(plain_section(in));
  if (in.variants) doc.sections.push_back(variants_section(in));
  doc.sections.push_back(pairs_section(in));
  ReportSection platform;
  platform.title = "Platform";
  platform.blocks.push_back(pre(in.info_text));
  doc.sections.push_back(std::move(platform));
  doc.sections.push_back(how_made_section(in));
  return doc;
}

}  // namespace tscsync
