#include "render/report_pairs.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "core/format.hpp"
#include "matrix/pair_distance.hpp"
#include "render/verdict_text.hpp"

namespace tscaudit {
namespace {

std::string number(double v) { return std::isfinite(v) ? format_sig(v + 0.0, 6) : "-"; }  // + 0.0: no "-0"

/// A verdict sentence on one line, with no tab in it (a column of its own).
std::string one_line(std::string text) {
  std::replace_if(
      text.begin(), text.end(), [](char c) { return c == '\t' || c == '\n' || c == '\r'; }, ' ');
  return text;
}

void append_run(std::string& out, const MatrixResult& m, std::string_view run,
                const std::map<std::pair<int, int>, std::string>* failing) {
  std::vector<std::size_t> by_number(m.size());
  std::iota(by_number.begin(), by_number.end(), std::size_t{0});
  std::sort(by_number.begin(), by_number.end(), [&](std::size_t x, std::size_t y) { return m.cpus[x] < m.cpus[y]; });
  for (std::size_t i : by_number) {
    for (std::size_t j : by_number) {
      const PairCell& c = m.at(i, j);
      if (i == j || (!c.measured && !m.is_planned(i, j))) continue;  // a sparse design left it out
      const std::string a = std::to_string(m.cpus[i]), b = std::to_string(m.cpus[j]);
      std::string check = "-";
      if (failing != nullptr) {
        const auto it = failing->find({m.cpus[i], m.cpus[j]});
        check = it == failing->end() ? "passes" : "fails: " + it->second;
      }
      out += run;
      for (const std::string& field : {a, b, pair_distance_text(m, i, j), check, number(c.offset_ticks),
                                       number(c.offset_lo_ticks), number(c.offset_hi_ticks), number(c.rtt_min_ticks),
                                       std::to_string(c.causality_violations), std::to_string(c.rounds)}) {
        out += '\t';
        out += field;
      }
      out += '\t';
      if (!c.measured) {
        out += "not measured\t-\n";
        continue;
      }
      out += one_line(verdict_text(c.verdict)) + '\t';
      out.append(run).append("/pairs/pair_").append(a).append("_").append(b).append(".txt\n");
    }
  }
}

}  // namespace

std::map<std::pair<int, int>, std::string> failing_pairs(const CheckResult& check) {
  std::map<std::pair<int, int>, std::string> failing;
  for (const CheckFailure& f : check.failures) {
    if (f.a < 0 || f.b < 0) continue;
    std::string& kinds = failing[{f.a, f.b}];
    if (!kinds.empty()) kinds += ", ";
    kinds += check_failure_kind_name(f.kind);
  }
  return failing;
}

std::string pair_distance_text(const MatrixResult& m, std::size_t a, std::size_t b) {
  if (m.places.size() != m.size()) return "-";
  const PairDistance d = pair_distance(m.places[a], m.places[b]);
  return d == PairDistance::unknown ? "-" : std::string(pair_distance_name(d));
}

std::string report_pairs_text(const ReportInputs& in) {
  const std::string counter(counter_name(in.ordered.matrix.recv));
  std::string out = "# tscaudit per-pair verdicts of " + in.host +
                    ": every ordered pair measured, a initiates, b responds; offset = " + counter + "_b - " + counter +
                    "_a at the pair's reference time, its hard band, and the minimum round trip, in ticks\n"
                    "# run matrix: receive " +
                    in.ordered.matrix.recv.name + ", the verdict's run, each pair as the check judged it" +
                    (in.plain ? "; run " + report_plain_dir(in.plain->matrix.recv.name) + ": plain " +
                                    in.plain->matrix.recv.name + " on both sides, not checked"
                              : std::string()) +
                    "\n";
  out +=
      "run\ta\tb\tdistance\tcheck\toffset_ticks\tband_lo_ticks\tband_hi_ticks\trtt_min_ticks\tcausality_violations\t"
      "rounds\tverdict\tdetails\n";
  const auto failing = failing_pairs(in.check);
  append_run(out, in.ordered.matrix, kReportMatrixDir, &failing);
  if (in.plain) append_run(out, in.plain->matrix, report_plain_dir(in.plain->matrix.recv.name), nullptr);
  return out;
}

}  // namespace tscaudit
