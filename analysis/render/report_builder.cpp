#include "render/report_builder.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <set>

#include "core/format.hpp"
#include "matrix/matrix_totals.hpp"
#include "matrix/matrix_worst.hpp"
#include "matrix/pair_distance.hpp"
#include "render/matrix_output.hpp"
#include "render/report_kernel.hpp"
#include "render/report_pairs.hpp"
#include "render/text_wrap.hpp"
#include "render/verdict_text.hpp"

namespace tscaudit {

std::string report_plain_dir(std::string_view plain_read) { return "matrix_plain_" + std::string(plain_read); }

namespace {

/// The plain read of the report's architecture: the plain run's, else the plain read of
/// the verdict's receive read.
std::string plain_read_name(const ReportInputs& in) {
  if (in.plain) return in.plain->matrix.recv.name;
  const std::optional<ReadVariant>& recv = in.ordered.matrix.recv.variant;
  return std::string(variant_name(plain_variant_of(recv.value_or(ReadVariant::rdtsc))));
}

using Kind = ReportBlock::Kind;

ReportBlock paragraph(std::string text) { return {Kind::paragraph, std::move(text), {}, "", ""}; }
ReportBlock pre(std::string text) { return {Kind::pre, std::move(text), {}, "", ""}; }
ReportBlock bullets(std::vector<std::string> items) { return {Kind::bullets, "", std::move(items), "", ""}; }
ReportBlock table(std::vector<std::string> rows) { return {Kind::table, "", std::move(rows), "", ""}; }
ReportBlock link(std::string text, std::string path) { return {Kind::link, std::move(text), {}, std::move(path), ""}; }

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

std::string in_dir(std::string_view dir, std::string_view file) { return std::string(dir) + "/" + std::string(file); }

double rtt_min(const PairCell& c) { return c.rtt_min_ticks; }
double rtt_p50(const PairCell& c) { return c.rtt_p50_ticks; }

/// "+5" or "-3" with 4 significant digits, or with `decimals` >= 0 that many decimals
/// after rounding (so that a least-squares 1e-13 prints "0.0", not "-0.0"); "-" for none.
std::string signed_text(double v, int decimals = -1) {
  if (!std::isfinite(v)) return "-";
  if (decimals >= 0) {
    const double scale = std::pow(10.0, decimals);
    v = std::round(v * scale) / scale + 0.0;  // + 0.0: no "-0"
    return (v > 0 ? "+" : "") + format_fixed(v, decimals);
  }
  return (v > 0 ? "+" : "") + format_sig(v + 0.0, 4);
}

double ns_of(double ticks, double tsc_hz) { return ticks / tsc_hz * 1e9; }

/// "-3 .. +5 ticks, median 0 (-1.5 .. +2.5 ns, 0.0)", signed or not; "-" for no values.
std::string range_text(const ValueRange& r, double tsc_hz, bool with_sign) {
  if (!std::isfinite(r.min)) return "-";
  auto ticks = [&](double v) { return with_sign ? signed_text(v) : format_sig(v, 4); };
  auto ns = [&](double v) { return with_sign ? signed_text(ns_of(v, tsc_hz), 1) : format_fixed(ns_of(v, tsc_hz), 1); };
  std::string s = ticks(r.min) + " .. " + ticks(r.max) + " ticks, median " + ticks(r.median);
  if (tsc_hz > 0) s += " (" + ns(r.min) + " .. " + ns(r.max) + " ns, " + ns(r.median) + ")";
  return s;
}

/// "+400 ticks (+173.9 ns)": a signed offset with its ns when the frequency is known;
/// `decimals` as for signed_text.
std::string signed_ticks(double ticks, double tsc_hz, int decimals = -1) {
  std::string s = signed_text(ticks, decimals);
  if (s == "-") return s;
  s += " ticks";
  if (tsc_hz > 0) s += " (" + signed_text(ns_of(ticks, tsc_hz), 1) + " ns)";
  return s;
}

/// "[lo, hi]", or "-" where a side is unknown (no feasible band, no chain of bands).
std::string band_text(double lo, double hi) {
  return std::isfinite(lo) && std::isfinite(hi) ? format_range(lo + 0.0, hi + 0.0) : "-";
}

std::string pair_label(const MatrixResult& m, std::size_t a, std::size_t b) {
  return std::to_string(m.cpus[a]) + "->" + std::to_string(m.cpus[b]);
}

/// Where a CPU sits: "package 1, L3 4, core 38", its known levels only; "-" for none.
std::string place_text(const MatrixResult& m, std::size_t i) {
  if (m.places.size() != m.size()) return "-";
  const CpuPlace& p = m.places[i];
  std::string s;
  auto add = [&](const char* level, int index) {
    if (index < 0) return;
    if (!s.empty()) s += ", ";
    s += std::string(level) + " " + std::to_string(index);
  };
  add("package", p.package);
  add("L3", p.l3);
  add("core", p.core);
  return s.empty() ? "-" : s;
}

/// The check's word on one pair: "passes" or "fails: KINDS".
std::string check_text_of(const std::map<std::pair<int, int>, std::string>& failing, const MatrixResult& m,
                          std::size_t a, std::size_t b) {
  const auto it = failing.find({m.cpus[a], m.cpus[b]});
  return it == failing.end() ? "passes" : "fails: " + it->second;
}

/// The measured ordered pairs of `m`, by CPU number (a, then b).
std::vector<CellIndex> measured_pairs(const MatrixResult& m) {
  std::vector<std::size_t> by_number(m.size());
  std::iota(by_number.begin(), by_number.end(), std::size_t{0});
  std::sort(by_number.begin(), by_number.end(), [&](std::size_t x, std::size_t y) { return m.cpus[x] < m.cpus[y]; });
  std::vector<CellIndex> pairs;
  for (std::size_t i : by_number) {
    for (std::size_t j : by_number) {
      if (i != j && m.at(i, j).measured) pairs.push_back(CellIndex{i, j});
    }
  }
  return pairs;
}

/// One field of each of a few pairs: "259 ticks (99.8 ns) for 0->1, 260 ticks (100.1 ns)
/// for 1->0"; "no pair measured" for none.
std::string each_pair(const MatrixResult& m, const std::vector<CellIndex>& pairs, double (*field)(const PairCell&)) {
  if (pairs.empty()) return "no pair measured";
  std::string text;
  for (const CellIndex& k : pairs) {
    if (!text.empty()) text += ", ";
    text += ticks_with_ns(field(m.at(k.a, k.b)), m.tsc_hz) + " for " + pair_label(m, k.a, k.b);
  }
  return text;
}

/// Why plain pairs show an offset band that excludes 0 where the verdict's run finds none:
/// "" when no plain pair does.
std::string false_offsets_text(const ReportInputs& in) {
  if (!in.plain) return "";
  const MatrixResult& pm = in.plain->matrix;
  const MatrixResult& m = in.ordered.matrix;
  std::size_t n = 0, measured = 0;
  for (std::size_t i = 0; i < pm.size(); ++i) {
    for (std::size_t j = 0; j < pm.size(); ++j) {
      if (i == j || !pm.at(i, j).measured) continue;
      ++measured;
      if (false_plain_offset(pm, m, i, j)) ++n;
    }
  }
  if (n == 0) return "";
  const std::string& plain = pm.recv.name;
  return (n == measured
              ? std::string(n == 1 ? "The" : "All " + std::to_string(n)) + " plain " + plain +
                    (n == 1 ? " pair has" : " pairs have")
              : std::to_string(n) + " of the " + std::to_string(measured) + " plain " + plain + " pairs have") +
         " an offset band that excludes 0, where the same " + (n == 1 ? "pair" : "pairs") + " with receive " +
         m.recv.name + " have a band that contains 0. That is the plain reads, not the counters: plain " + plain +
         " can execute early, before the load that sees the message, so a receive stamp can be taken before the "
         "message arrived. Its one-way latencies come out too small in one direction, which shifts the measured band "
         "by as much: a false offset. The matrix with receive " +
         m.recv.name + ", whose read waits for earlier loads, is the one that decides the verdict.";
}

/// "0->1: VERDICT (details: matrix/pairs/pair_0_1.txt)" for the measured pairs of `run`,
/// at most kReportInlinePairs: those the check fails first (`failing`, may be empty), then
/// those whose verdict is not "synchronized", then the others, each by CPU number.
/// \param total  receives how many measured pairs there are.
/// \param plain_of  the report, when `run` is its plain run (false_plain_offset), else null.
std::vector<std::string> pair_verdicts(const ReportMatrixRun& run, std::string_view dir,
                                       const std::map<std::pair<int, int>, std::string>& failing, std::size_t& total,
                                       const ReportInputs* plain_of) {
  const MatrixResult& m = run.matrix;
  std::vector<std::size_t> by_number(m.size());
  std::iota(by_number.begin(), by_number.end(), std::size_t{0});
  std::sort(by_number.begin(), by_number.end(), [&](std::size_t x, std::size_t y) { return m.cpus[x] < m.cpus[y]; });
  std::array<std::vector<std::pair<std::size_t, std::size_t>>, 3> tiers;  // failing, not synchronized, the rest
  total = 0;
  for (std::size_t i : by_number) {
    for (std::size_t j : by_number) {
      const PairCell& c = m.at(i, j);
      if (i == j || !c.measured) continue;
      ++total;
      const std::size_t tier = failing.contains({m.cpus[i], m.cpus[j]})      ? 0
                               : c.verdict.kind != VerdictKind::synchronized ? 1
                                                                             : 2;
      if (tiers[tier].size() < kReportInlinePairs) tiers[tier].emplace_back(i, j);
    }
  }
  std::vector<std::string> items;
  for (const auto& tier : tiers) {
    for (const auto& [i, j] : tier) {
      if (items.size() == kReportInlinePairs) return items;
      const std::string a = std::to_string(m.cpus[i]), b = std::to_string(m.cpus[j]);
      std::string item = a;
      item.append("->").append(b).append(": ").append(verdict_text(m.at(i, j).verdict));
      if (plain_of != nullptr && false_plain_offset(m, plain_of->ordered.matrix, i, j)) {
        item.append(" (a false offset of the early plain reads, as said above)");
      }
      item.append(" (details: ");
      item.append(dir).append("/pairs/pair_").append(a).append("_").append(b).append(".txt)");
      items.push_back(std::move(item));
    }
  }
  return items;
}

/// Where the rounds of a rebuilt report come from, and what is not complete: before the
/// reason, so that a reader knows what the verdict stands on before reading it.
void add_source(const ReportInputs& in, ReportSection& s) {
  if (in.rebuilt_from) {
    const ReportSource& src = *in.rebuilt_from;
    const std::string when =
        src.started_utc.empty()
            ? "at a time not recorded"
            : "from " + src.started_utc + " to " + (src.ended_utc.empty() ? "an end not recorded" : src.ended_utc);
    if (src.simulated) {
      s.blocks.push_back(paragraph("Rebuilt from simulated rounds, nothing measured: " + printable_text(src.dir) +
                                   "; its times are the simulation's, counted from the Unix epoch (" + when + ")."));
    } else {
      s.blocks.push_back(paragraph("Rebuilt from saved rounds, nothing measured now: " + printable_text(src.dir) +
                                   ", measured on " + (src.host.empty() ? "a host not recorded" : src.host) + " " +
                                   when + "."));
    }
  }
  if (!in.incomplete.empty()) {
    std::string text = "Not complete: ";
    for (std::size_t i = 0; i < in.incomplete.size(); ++i) text += (i > 0 ? "; " : "") + in.incomplete[i];
    s.blocks.push_back(paragraph(text + "."));
  }
  if (!in.lost.empty()) {
    s.blocks.push_back(
        paragraph("Evidence lost: part of the saved rounds could not be read (damaged, cut off or "
                  "missing) and was passed over; the verdict stands on the rest:"));
    s.blocks.push_back(bullets(in.lost));
  }
}

/// `text` as a sentence: a full stop at its end (none added after one that ends it
/// already), its first letter upper-case with `capital`.
std::string sentence(std::string text, bool capital) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\n')) text.pop_back();
  if (text.empty()) return text;
  if (capital && text[0] >= 'a' && text[0] <= 'z') text[0] = static_cast<char>(text[0] - 'a' + 'A');
  if (text.back() != '.' && text.back() != '!' && text.back() != '?') text += '.';
  return text;
}

/// "virtual_machine: running under a hypervisor (KVM). The counters measured are ...": the
/// code, then the message and the advice each as a sentence of its own.
std::string warning_text(const Warning& w) {
  std::string text = w.code + ": " + sentence(w.message, false);
  if (!w.advice.empty()) text += " " + sentence(w.advice, true);
  return text;
}

ReportSection verdict_section(const ReportInputs& in) {
  const MatrixResult& m = in.ordered.matrix;
  const CheckResult& check = in.check;
  ReportSection s;
  s.title = "Verdict";
  add_source(in, s);
  s.blocks.push_back(
      {Kind::verdict, check_reason_text(check) + ".", {}, std::string(check_outcome_name(check.outcome)), ""});
  if (m.size() < 2) {
    // One CPU: nothing was measured, and there is nothing else to show.
    s.blocks.push_back(paragraph("One CPU has no pair: there is no other counter to compare its counter with, so "
                                 "nothing was measured. Run the report where the process may use two CPUs or more "
                                 "(taskset, cgroups and --cpus limit it)."));
    return s;
  }
  const bool sparse = pairs_left_out(m) > 0;
  const std::string pairs = sparse ? "the " + std::to_string(in.ordered.ordered_pairs) +
                                         " ordered pairs of a sparse design, of " +
                                         std::to_string(m.size() * (m.size() - 1)) + ","
                                   : std::to_string(in.ordered.ordered_pairs) + " ordered pairs,";
  const std::string visits =
      check.outcome == CheckOutcome::incomplete
          ? " planned to be visited " + std::to_string(in.ordered.visits) + " times each and cut short, "
      : !in.lost.empty() ? " visited up to " + std::to_string(in.ordered.visits) + " times each, the lost visits aside, "
                         : " each visited " + std::to_string(in.ordered.visits) + " times, ";
  s.blocks.push_back(paragraph("Measured " + std::to_string(m.size()) + " CPUs (" + pairs + visits +
                               std::to_string(total_rounds(m)) + " rounds in all) with send " + m.send.name +
                               " and receive " + m.recv.name + " in " + format_sig(in.ordered.elapsed_seconds, 3) +
                               " s. A pair's hard band holds every offset that no round "
                               "contradicts, assuming only causality, a linear offset and reads within one quantum (" +
                               ticks_with_ns_if_coarse(static_cast<double>(m.quantum_ticks), m.tsc_hz) + " here)."));
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
  for (const Warning& w : in.warnings) warnings.push_back(warning_text(w));
  if (!warnings.empty()) {
    s.blocks.push_back(paragraph("What on this platform makes the answer less certain:"));
    s.blocks.push_back(bullets(warnings));
  }
  return s;
}

/// The CPU the per-CPU offsets are relative to: "0", or "?" for a matrix without CPUs.
std::string first_cpu(const MatrixResult& m) { return m.cpus.empty() ? "?" : std::to_string(m.cpus[0]); }

/// What the check found, as structure, right under the verdict: each finding in a sentence,
/// the per-CPU offsets coloured by their offset groups, then the failing pairs.
ReportSection diagnosis_section(const ReportInputs& in) {
  const MatrixResult& m = in.ordered.matrix;
  const CheckResult& check = in.check;
  const Diagnosis& d = check.diagnosis;
  ReportSection s;
  s.title = "Diagnosis";
  if (d.findings.empty()) {
    s.blocks.push_back(paragraph(
        std::string("No finding: the hard bands single out no CPU and no group of CPUs whose counters differ from the "
                    "others") +
        (check.synchronized || check.failures.empty() ? "." : "; what fails is listed below, pair by pair.")));
  } else {
    s.blocks.push_back(paragraph(d.findings.size() == 1 ? "One finding, proven by the hard bands:"
                                                        : std::to_string(d.findings.size()) +
                                                              " findings, proven by the hard bands, the most "
                                                              "important first:"));
    std::vector<std::string> items;
    for (std::size_t i = 0; i < d.findings.size() && i < kReportFindings; ++i) {
      items.push_back(finding_text(d.findings[i], m.tsc_hz) + ".");
    }
    if (d.findings.size() > kReportFindings) {
      items.push_back(std::to_string(d.findings.size() - kReportFindings) + " more findings, smaller groups.");
    }
    s.blocks.push_back(bullets(std::move(items)));
  }
  const std::string counter(counter_name(m.recv));
  const std::string ticks =
      coarse_ticks(m.tsc_hz) ? "ticks (1 tick = " + format_sig(1e9 / m.tsc_hz, 4) + " ns)" : std::string("ticks");
  s.blocks.push_back(picture(in,
                             counter + " offset per CPU against CPU " + first_cpu(m) + ", " + ticks +
                                 ": the estimate as a point coloured by its offset group (CPUs whose counters the "
                                 "hard bands cannot tell apart; the reference group blue), the hard bounds as a bar",
                             in_dir(kReportMatrixDir, "cpu_offsets.svg")));
  std::vector<std::string> failures;
  for (std::size_t i = 0; i < check.failures.size() && i < kReportFailures; ++i)
    failures.push_back(check_failure_text(check.failures[i], check));
  if (check.failures.size() > kReportFailures) {
    // Failures, not pairs: a pair can fail in more than one way (an offset and a drift), so
    // both are counted, the pairs among them not already listed above.
    std::set<std::pair<int, int>> listed, more;
    for (std::size_t i = 0; i < check.failures.size(); ++i) {
      const std::pair<int, int> pair{check.failures[i].a, check.failures[i].b};
      if (i < kReportFailures) {
        listed.insert(pair);
      } else if (pair.first >= 0 && listed.count(pair) == 0) {
        more.insert(pair);
      }
    }
    failures.push_back(count_of(check.failures.size() - kReportFailures, "more failure", "more failures") + " (" +
                       count_of(more.size(), "pair", "pairs") + " not listed here) in " +
                       std::string(kReportPairsFile) + " and " + in_dir(kReportMatrixDir, "matrix.json"));
  }
  if (!failures.empty()) {
    s.blocks.push_back(paragraph("What fails, pair by pair:"));
    s.blocks.push_back(bullets(failures));
  }
  return s;
}

/// The figures of a matrix beside its heatmap: matrix_text when its pairs are few enough
/// to list inline (kReportInlinePairs); else a link to DIR/matrix.txt, which holds them,
/// and the consistency of the per-CPU offsets in one paragraph.
void add_matrix_figures(ReportSection& s, const MatrixResult& m, std::string_view dir) {
  const std::size_t n = m.size();
  if (n * (n - 1) - pairs_left_out(m) <= kReportInlinePairs) {
    s.blocks.push_back(pre(matrix_text(m)));
    return;
  }
  const CpuOffsets& x = m.cpu;
  std::string text =
      "Per-CPU offsets: least squares over the measured pairs, relative to CPU " + std::to_string(m.cpus[0]) +
      ". The pairs' bands " + (x.bands_consistent ? "are consistent with one another" : "CONTRADICT one another") +
      "; rms residual " + format_sig(x.rms_residual_ticks, 4) + " ticks; largest antisymmetry |θ_ab + θ_ba| " +
      format_sig(std::fabs(x.max_antisymmetry_ticks), 4) + " ticks";
  if (std::isfinite(x.max_loop_closure_ticks) && x.worst_loop.size() == 3) {
    text += "; largest loop closure " + format_sig(std::fabs(x.max_loop_closure_ticks), 4) + " ticks (CPUs " +
            std::to_string(x.worst_loop[0]) + ", " + std::to_string(x.worst_loop[1]) + ", " +
            std::to_string(x.worst_loop[2]) + ")";
  }
  text += "; " + std::to_string(x.disagreeing.size()) + " pairs disagree with the rest.";
  s.blocks.push_back(paragraph(std::move(text)));
  s.blocks.push_back(link(in_dir(dir, "matrix.txt") +
                              ": every CPU's offset with its hard bounds, every pair's figures, the pairs that "
                              "disagree",
                          in_dir(dir, "matrix.txt")));
}

ReportSection offsets_section(const ReportInputs& in) {
  const MatrixResult& m = in.ordered.matrix;
  const std::string counter(counter_name(m.recv));
  // ", ticks (1 tick = 40 ns)" for a coarse counter: the steps every band is made of.
  const std::string ticks =
      coarse_ticks(m.tsc_hz) ? "ticks (1 tick = " + format_sig(1e9 / m.tsc_hz, 4) + " ns)" : std::string("ticks");
  ReportSection s;
  s.title = "Offsets";
  s.blocks.push_back(picture(in,
                             counter + " offset proven per ordered pair (row a initiates, column b responds), " +
                                 ticks +
                                 ": how far the pair's hard band lies from 0; white where the band contains 0, "
                                 "so the two counters may agree",
                             in_dir(kReportMatrixDir, "proven_offset_ticks.svg")));
  s.blocks.push_back(picture(in,
                             counter + " offset estimate per ordered pair, " + ticks +
                                 ": the estimate inside each hard band; pale where it is small beside a typical "
                                 "band, and no proof of a difference on its own",
                             in_dir(kReportMatrixDir, "offset_ticks.svg")));
  add_matrix_figures(s, in.ordered.matrix, kReportMatrixDir);
  return s;
}

ReportSection latency_section(const ReportInputs& in) {
  const MatrixResult& m = in.ordered.matrix;
  ReportSection s;
  s.title = "Latency";
  const std::vector<CellIndex> pairs = measured_pairs(m);
  if (pairs.size() <= 2) {
    s.blocks.push_back(paragraph(
        "Round trip (t4 - t1) - (t3 - t2) per pair: same-clock on both sides, so no offset is in it. Minimum: " +
        each_pair(m, pairs, rtt_min) + "; median: " + each_pair(m, pairs, rtt_p50) + "."));
  } else {
    s.blocks.push_back(
        paragraph("Round trip (t4 - t1) - (t3 - t2) per pair: same-clock on both sides, so no offset is in it. Median "
                  "over pairs of the minimum: " +
                  ticks_with_ns(median_over_pairs(m, rtt_min), m.tsc_hz) +
                  "; of the median: " + ticks_with_ns(median_over_pairs(m, rtt_p50), m.tsc_hz) + "."));
  }
  s.blocks.push_back(picture(in, "Minimum round trip per pair, ticks", in_dir(kReportMatrixDir, "rtt_min_ticks.svg")));
  s.blocks.push_back(picture(in, "Median round trip per pair, ticks", in_dir(kReportMatrixDir, "rtt_p50_ticks.svg")));
  return s;
}

ReportSection plain_section(const ReportInputs& in) {
  const MatrixResult& m = in.ordered.matrix;
  const MatrixResult& pm = in.plain->matrix;
  const double hz = m.tsc_hz;
  const std::string& plain = pm.recv.name;
  const std::string dir = report_plain_dir(plain);
  ReportSection s;
  s.title = "Plain " + plain + ": what speculation does here";
  s.blocks.push_back(paragraph(
      "The same pairs with plain " + plain + " on both sides (" + std::to_string(total_rounds(pm)) +
      " rounds): " + std::to_string(total_causality_violations(pm)) +
      " one-way latencies below every offset the rest of the run allows "
      "(causality violations: a receive read ran before the message arrived), and " +
      std::to_string(total_self_inconsistent(pm)) + " rounds impossible for any offset. With receive " + m.recv.name +
      ": " + std::to_string(total_causality_violations(m)) + " and " + std::to_string(total_self_inconsistent(m)) + ". " +
      (m.size() <= 2 ? "Smallest round trip of the pair" : "Median minimum round trip") + ": plain " +
      ticks_with_ns(m.size() <= 2 ? smallest_over_pairs(pm, rtt_min) : median_over_pairs(pm, rtt_min), hz) + ", " + m.recv.name + " " +
      ticks_with_ns(m.size() <= 2 ? smallest_over_pairs(m, rtt_min) : median_over_pairs(m, rtt_min), hz) + "." +
      (smallest_over_pairs(pm, rtt_min) < smallest_over_pairs(m, rtt_min)
           ? " The plain round trip is shorter not because the pair is faster: the plain read is cheaper, and a "
             "receive read that runs early stamps the message before it has arrived. The ordering read's round trip "
             "is the one to trust."
           : "")));
  if (const std::string why = false_offsets_text(in); !why.empty()) s.blocks.push_back(paragraph(why));
  s.blocks.push_back(
      picture(in, "Causality violations per pair with plain " + plain, in_dir(dir, "causality_violations.svg")));
  add_matrix_figures(s, pm, dir);
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
  if (in.plain && v.verdict.cheapest_clean && v.verdict.cheapest_clean->recv == v.verdict.plain_read &&
      total_causality_violations(in.plain->matrix) > 0) {
    const std::string plain(variant_name(v.verdict.plain_read));
    s.blocks.push_back(paragraph(
        "Plain " + plain + " showed no causality violation in this run, but " +
        std::to_string(total_causality_violations(in.plain->matrix)) + " in the plain " + plain +
        " matrix above: early reads are rare and come and go from run to run, which is why a clean run of a read "
        "that does not wait for earlier loads proves nothing."));
  }
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

ReportSection distance_section(const ReportInputs& in) {
  const MatrixResult& m = in.ordered.matrix;
  const std::vector<DistanceClass> classes = summarize_by_distance(m);
  ReportSection s;
  s.title = "Pairs by topology distance";
  const std::string counter(counter_name(m.recv));
  s.blocks.push_back(paragraph(
      "The measured pairs of the verdict's run by how far apart their two CPUs sit. Latency grows with the distance, "
      "and with it the width of the offset bands: compare a pair with its class. The one-way latency bound is half "
      "the pair's minimum round trip; the offset is each ordered pair's estimate of " +
      counter + "_b - " + counter + "_a, so a class holds each offset with both signs."));
  if (classes.empty()) {
    s.blocks.push_back(paragraph("No pair was measured."));
    return s;
  }
  std::vector<std::string> rows = {"distance\tordered pairs\tone-way latency bound (rtt min / 2)\toffset"};
  for (const DistanceClass& c : classes) {
    const std::string name = classes.size() == 1 && c.distance == PairDistance::unknown
                                 ? std::string("all pairs")
                                 : std::string(pair_distance_name(c.distance));
    rows.push_back(name + "\t" + std::to_string(c.pairs) + "\t" + range_text(c.one_way_ticks, m.tsc_hz, false) + "\t" +
                   range_text(c.offset_ticks, m.tsc_hz, true));
  }
  s.blocks.push_back(table(std::move(rows)));
  return s;
}

/// Two CPUs: one pair, measured in both roles. Its two bands bound one difference of the
/// counters from either side; there is no worst CPU and no median to speak of.
ReportSection pair_section(const ReportInputs& in) {
  const MatrixResult& m = in.ordered.matrix;
  const double hz = m.tsc_hz;
  const auto failing = failing_pairs(in.check);
  const std::string counter(counter_name(m.recv));
  const std::string a = std::to_string(m.cpus[0]), b = std::to_string(m.cpus[1]);
  const std::string distance = pair_distance_text(m, 0, 1);
  ReportSection s;
  s.title = "The pair";
  s.blocks.push_back(paragraph(
      "Two CPUs make one pair, " + a + " and " + b + (distance == "-" ? std::string() : " (" + distance + ")") +
      ", measured in both roles: " + a + " initiates, then " + b +
      ". There is no worst CPU to single out: each role's band bounds the same difference of the two counters, "
      "seen from either side (the offset of " +
      b + "->" + a + " is minus that of " + a + "->" + b + ")."));
  const std::vector<CellIndex> pairs = measured_pairs(m);
  if (pairs.empty()) {
    s.blocks.push_back(paragraph("Neither role was measured."));
    return s;
  }
  std::vector<std::string> rows = {
      "role\toffset\tits own band, ticks\tone-way latency bound (rtt min / 2)\tcausality violations\tcheck"};
  for (const CellIndex& k : pairs) {
    const PairCell& c = m.at(k.a, k.b);
    rows.push_back(pair_label(m, k.a, k.b) + "\t" + signed_ticks(c.role_offset_ticks, hz) + "\t" +
                   band_text(c.role_offset_lo_ticks, c.role_offset_hi_ticks) + "\t" +
                   ticks_with_ns(c.rtt_min_ticks / 2, hz) + "\t" + std::to_string(c.causality_violations) + "\t" +
                   check_text_of(failing, m, k.a, k.b));
  }
  s.blocks.push_back(table(std::move(rows)));
  // The pair's band: every round of both roles and every visit on one line (docs/method.md
  // §3.7), what the verdict rests on; else the one role's.
  const PairCell& first = m.at(0, 1).measured ? m.at(0, 1) : m.at(1, 0);
  double lo = first.offset_lo_ticks, hi = first.offset_hi_ticks;
  if (&first != &m.at(0, 1)) std::tie(lo, hi) = std::pair{0.0 - hi, 0.0 - lo};
  if (!first.band_feasible || !std::isfinite(lo) || !std::isfinite(hi)) return s;
  const bool joined = first.band_source == BandSource::both_roles;
  std::string text = std::string(joined ? "Together, every round of both roles" : "The band") + " put" +
                     (joined ? "s " : " ") + counter + "_" + b + " - " + counter + "_" + a + " in " + band_text(lo, hi) +
                     " ticks";
  if (hz > 0) text += " (" + band_text(ns_of(lo, hz), ns_of(hi, hz)) + " ns)";
  if (lo <= 0 && hi >= 0) {
    text += ": 0 is inside, so the two counters may agree to within that.";
  } else {
    const double least = std::min(std::fabs(lo), std::fabs(hi));
    text += ": 0 is outside, so CPU " + b + "'s counter is " + (lo > 0 ? "ahead of" : "behind") + " CPU " + a +
            "'s by at least " + ticks_with_ns(least, hz);
    text += in.check.failures.empty()
                ? ", within the check's tolerance (" + ticks_with_ns(in.check.settings.tolerance_ticks, hz) +
                      "), so the check passes it."
                : ".";
  }
  s.blocks.push_back(paragraph(std::move(text)));
  // Estimates that are not opposite (beyond one quantum) look like a contradiction: they are not.
  if (pairs.size() == 2) {
    const double x = m.at(pairs[0].a, pairs[0].b).role_offset_ticks, y = m.at(pairs[1].a, pairs[1].b).role_offset_ticks;
    if (std::fabs(x + y) > static_cast<double>(std::max<std::int64_t>(m.quantum_ticks, 1))) {
      s.blocks.push_back(paragraph("The two estimates, " + signed_ticks(x, hz) + " and " + signed_ticks(y, hz) +
                                   ", are not opposite, and need not be: each is one point inside its own band, set "
                                   "by that role's delays. Read the bands."));
    }
  }
  return s;
}

ReportSection worst_section(const ReportInputs& in) {
  const MatrixResult& m = in.ordered.matrix;
  const double hz = m.tsc_hz;
  const Diagnosis& d = in.check.diagnosis;
  const MatrixWorst w = worst_of(m, kReportWorst, &d);
  const auto failing = failing_pairs(in.check);
  ReportSection s;
  s.title = "Worst CPUs and pairs";
  s.blocks.push_back(paragraph(in.check.cpus_off.empty() ? "The check names no CPU off from the rest."
                                                         : "By the check, " + cpus_off_text(in.check.cpus_off) + "."));
  // What distances are measured from: the median offset of the diagnosis' reference group
  // (the group the findings compare the others with: docs/machine.md §10.6), else of all.
  const std::string reference =
      w.reference_group_cpus > 0
          ? "the median per-CPU offset of the reference group (the " + std::to_string(w.reference_group_cpus) +
                (w.reference_group_cpus == 1 ? " CPU" : " CPUs") +
                " the findings compare the others with: " + signed_ticks(w.reference_offset_ticks, hz, 1) +
                " relative to CPU " + first_cpu(m) + ")"
          : "the median per-CPU offset (" + signed_ticks(w.reference_offset_ticks, hz, 1) + " relative to CPU " +
                first_cpu(m) + ")";
  // A CPU of no finding within one quantum of the reference is not singled out: that is
  // one reading's error.
  const auto deviation = [&](std::size_t i) { return std::fabs(m.cpu.offset_ticks[i] - w.reference_offset_ticks); };
  const double quantum = static_cast<double>(std::max<std::int64_t>(m.quantum_ticks, 1));
  std::vector<std::size_t> listed;
  std::vector<int> listed_findings;
  for (std::size_t k = 0; k < w.cpus.size(); ++k) {
    if (w.cpu_findings[k] >= 0 || deviation(w.cpus[k]) > quantum) {
      listed.push_back(w.cpus[k]);
      listed_findings.push_back(w.cpu_findings[k]);
    }
  }
  // The CPUs not listed: those of a finding (the diagnosis names them), the others with
  // their largest distance from the reference.
  std::set<int> in_findings;
  for (const Finding& f : d.findings) in_findings.insert(f.cpus.begin(), f.cpus.end());
  std::size_t others = 0, finding_others = 0;
  double others_max = 0;
  for (std::size_t i = 0; i < m.cpu.offset_ticks.size(); ++i) {
    if (std::find(listed.begin(), listed.end(), i) != listed.end()) continue;
    if (in_findings.contains(m.cpus[i])) {
      ++finding_others;
      continue;
    }
    if (!std::isfinite(m.cpu.offset_ticks[i])) continue;
    ++others;
    others_max = std::max(others_max, deviation(i));
  }
  const std::string within =
      " within " + ticks_with_ns(std::round(others_max * 10) / 10, hz) + " of " + reference + ".";
  if (listed.empty() && others > 0) {
    s.blocks.push_back(
        paragraph((others == 1 ? "The one CPU solved is" : "All " + std::to_string(others) + " CPUs are") + within));
  }
  if (!listed.empty()) {
    const bool any_finding = std::any_of(listed_findings.begin(), listed_findings.end(), [](int f) { return f >= 0; });
    s.blocks.push_back(paragraph(
        std::string(any_finding ? "The CPUs of the findings first, in turn from each, then those" : "The CPUs") +
        " farthest from " + reference + ", more than one quantum (" + ticks_with_ns(quantum, hz) +
        ") from it, with the hard bounds on their offsets:"));
    std::vector<std::string> rows = {"CPU\tplace\tfinding\toffset x\tfrom the reference\thard bounds, ticks"};
    for (std::size_t k = 0; k < listed.size(); ++k) {
      const std::size_t i = listed[k];
      std::string finding = "-";
      if (listed_findings[k] >= 0) {
        const Finding& f = d.findings[static_cast<std::size_t>(listed_findings[k])];
        finding = std::string(finding_kind_name(f.kind)) + (f.name.empty() ? "" : ": " + f.name);
      }
      rows.push_back(std::to_string(m.cpus[i]) + "\t" + place_text(m, i) + "\t" + finding + "\t" +
                     signed_ticks(m.cpu.offset_ticks[i], hz, 1) + "\t" +
                     signed_ticks(m.cpu.offset_ticks[i] - w.reference_offset_ticks, hz, 1) + "\t" +
                     band_text(m.cpu.lo_ticks[i], m.cpu.hi_ticks[i]));
    }
    s.blocks.push_back(table(std::move(rows)));
    if (finding_others > 0) {
      s.blocks.push_back(paragraph("Not listed: " + std::to_string(finding_others) + " more " +
                                   (finding_others == 1 ? "CPU" : "CPUs") +
                                   " of the findings (the Diagnosis names their groups)."));
    }
    if (others > 0) {
      const std::string of_no_finding = d.findings.empty() ? "" : " of no finding";
      s.blocks.push_back(
          paragraph((others == 1 ? "The other CPU" + of_no_finding + " is"
                                 : "The other " + std::to_string(others) + " CPUs" + of_no_finding + " are") +
                    within));
    }
  }
  double largest = 0;
  for (const CellIndex& k : w.offset_pairs) largest = std::max(largest, std::fabs(m.at(k.a, k.b).offset_ticks));
  if (!w.offset_pairs.empty() && largest <= quantum) {
    // A list of "the largest" offsets that are all 0 would single out pairs for nothing.
    s.blocks.push_back(paragraph("No pair stands out: every pair's offset estimate is within one quantum (" +
                                 ticks_with_ns(quantum, hz) + ") of 0."));
  } else if (!w.offset_pairs.empty()) {
    s.blocks.push_back(paragraph("The pairs with the largest |offset|:"));
    std::vector<std::string> rows = {"pair\tdistance\toffset\tband, ticks\tcheck"};
    for (const CellIndex& k : w.offset_pairs) {
      const PairCell& c = m.at(k.a, k.b);
      rows.push_back(pair_label(m, k.a, k.b) + "\t" + pair_distance_text(m, k.a, k.b) + "\t" +
                     signed_ticks(c.offset_ticks, hz) + "\t" + band_text(c.offset_lo_ticks, c.offset_hi_ticks) + "\t" +
                     check_text_of(failing, m, k.a, k.b));
    }
    s.blocks.push_back(table(std::move(rows)));
  }
  if (w.violation_pairs.empty()) {
    s.blocks.push_back(paragraph("No pair of this run has a causality violation."));
  } else {
    s.blocks.push_back(paragraph("The pairs with the most causality violations:"));
    std::vector<std::string> rows = {"pair\tdistance\tcausality violations\trounds"};
    for (const CellIndex& k : w.violation_pairs) {
      const PairCell& c = m.at(k.a, k.b);
      rows.push_back(pair_label(m, k.a, k.b) + "\t" + pair_distance_text(m, k.a, k.b) + "\t" +
                     std::to_string(c.causality_violations) + "\t" + std::to_string(c.rounds));
    }
    s.blocks.push_back(table(std::move(rows)));
  }
  return s;
}

/// The excerpt of one run's pairs: all when they are few, else the first kReportInlinePairs.
/// `plain_of`: the report, when `run` is its plain run: a pair whose band shows a false
/// offset (false_plain_offset) says so in its item.
void add_pair_excerpt(ReportSection& s, const ReportMatrixRun& run, std::string_view dir,
                      const std::map<std::pair<int, int>, std::string>& failing,
                      const ReportInputs* plain_of = nullptr) {
  std::size_t total = 0;
  std::vector<std::string> items = pair_verdicts(run, dir, failing, total, plain_of);
  if (total > items.size()) {
    s.blocks.push_back(paragraph(
        "The first " + std::to_string(items.size()) + " of " + std::to_string(total) + " measured pairs" +
        (failing.empty() ? std::string() : ": those the check fails first,") +
        " those whose verdict is not \"synchronized\" before the others, each by CPU number; every pair is in " +
        std::string(kReportPairsFile) + "."));
  }
  s.blocks.push_back(bullets(std::move(items)));
}

ReportSection pairs_section(const ReportInputs& in) {
  ReportSection s;
  s.title = "Per-pair verdicts";
  s.blocks.push_back(paragraph(
      "Every ordered pair is in the file below, one line each, tab-separated: its distance, the check's word, offset "
      "and band, minimum round trip, causality violations, rounds, verdict and where its analysis is."));
  s.blocks.push_back(link(std::string(kReportPairsFile), std::string(kReportPairsFile)));
  add_pair_excerpt(s, in.ordered, kReportMatrixDir, failing_pairs(in.check));
  if (in.plain) {
    const std::string why = false_offsets_text(in);
    s.blocks.push_back(paragraph("With plain " + in.plain->matrix.recv.name + ":" + (why.empty() ? "" : " " + why)));
    add_pair_excerpt(s, *in.plain, report_plain_dir(in.plain->matrix.recv.name), {}, &in);
  }
  return s;
}

ReportSection how_made_section(const ReportInputs& in) {
  ReportSection s;
  s.title = "How this report was made";
  s.blocks.push_back(
      paragraph("Generated " + in.generated_utc + " by tscaudit " + in.tool_version + ": " + in.command_line));
  // The parts this report has: no line for one it lacks (a report from one run has no
  // platform facts, no plain matrix and no read variants).
  std::vector<std::string> parts;
  if (in.info_files) parts.push_back("info.txt, info.json: the platform facts");
  parts.push_back(std::string(kReportPairsFile) + ": every ordered pair's verdict, one line each");
  parts.push_back(std::string(kReportMatrixDir) + "/: the " +
                  (pairs_left_out(in.ordered.matrix) > 0 ? "sparse-design" : "all-pairs") + " run with receive " +
                  in.ordered.matrix.recv.name +
                  ": matrix.json (tscaudit-matrix/1, with the check), matrix.txt, analysis.json, "
                  "*.dat for gnuplot, heatmaps (PNG, SVG), pairs/ (one analysis per pair)");
  if (in.plain) {
    parts.push_back(report_plain_dir(plain_read_name(in)) + "/: the same with plain " + plain_read_name(in) +
                    " on both sides");
  }
  if (in.variants) {
    parts.push_back(std::string(kReportVariantsDir) +
                    "/: the read variants on one pair: variants.json (tscaudit-variants/1), variants.txt, the plots "
                    "and their .dat inputs");
  }
  parts.push_back("Redraw a heatmap: gnuplot -c plots/heatmap_offset.gp matrix/offset_ticks.dat out.png");
  s.blocks.push_back(bullets(std::move(parts)));
  if (!in.problems.empty()) {
    s.blocks.push_back(paragraph("Problems while making it:"));
    s.blocks.push_back(bullets(in.problems));
  }
  return s;
}

}  // namespace

ReportDoc build_report_doc(const ReportInputs& in) {
  ReportDoc doc;
  doc.title = "tscaudit report of " + in.host;
  doc.sections.push_back(verdict_section(in));
  if (in.ordered.matrix.size() < 2) {
    // One CPU: the verdict and the platform, nothing measured to show between them.
    ReportSection platform;
    platform.title = "Platform";
    platform.blocks.push_back(pre(in.info_text));
    doc.sections.push_back(std::move(platform));
    doc.sections.push_back(how_made_section(in));
    return doc;
  }
  doc.sections.push_back(diagnosis_section(in));
  if (auto kernel = kernel_word_section(in)) doc.sections.push_back(std::move(*kernel));
  if (in.ordered.matrix.size() == 2) {
    doc.sections.push_back(pair_section(in));
  } else {
    doc.sections.push_back(distance_section(in));
    doc.sections.push_back(worst_section(in));
  }
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

std::string wrap_columns(std::string_view text, std::size_t columns, std::size_t indent) {
  std::string out = wrap_words(text, columns, std::string(indent, ' '));
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out;
}

std::string report_answer_text(const ReportInputs& in, std::string_view report_dir) {
  const MatrixResult& m = in.ordered.matrix;
  std::string read;
  if (in.variants && in.variants->verdict.recommended) {
    const RecvStanding& r = *in.variants->verdict.recommended;
    read = "read with " + std::string(variant_name(r.recv)) + ": " + ticks_with_ns(r.cost_ticks, m.tsc_hz) +
           " per read, the cheapest read here that waits for earlier loads with no causality violation";
  } else if (in.variants) {
    read =
        "read: no read that waits for earlier loads was free of causality violations here (see the report's "
        "read variants)";
  } else if (m.recv.variant) {
    read = "read with " + m.recv.name +
           ", the ordering read of the verdict's run (its cost is not known: the read variants were not measured)";
  } else {
    read = "read: not named (the rounds record no read variant, and the read variants were not measured)";
  }
  std::string dir = printable_text(report_dir);
  if (!dir.empty() && !dir.ends_with('/')) dir += '/';
  return wrap_columns(check_reason_text(in.check)) + wrap_columns(read) +
         wrap_columns("report: " + dir + "report.html (report.md beside it)");
}

}  // namespace tscaudit
