// The report stays a size a browser opens at once however large the machine: the document
// of a 1024-CPU matrix, its sparse design's 36888 ordered pairs measured and one CPU off,
// renders to HTML well under 5 MB, and the per-pair file it links holds every pair.
#include <catch2/catch.hpp>

#include <cstddef>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "matrix/sparse_design.hpp"
#include "matrix/topology_order.hpp"
#include "render/report_builder.hpp"
#include "render/report_doc.hpp"
#include "render/report_pairs.hpp"

using namespace tscaudit;

namespace {

constexpr std::size_t kCpus = 1024;  // 2 packages × 256 cores × 2 SMT siblings
constexpr std::size_t kOffCpu = 77;  // 400 ticks ahead of the rest

struct BigReport {
  ReportInputs in;
  std::set<std::pair<int, int>> planned;  // ordered pairs, CPU numbers
};

/// The matrix as `report --from` builds it of a simulated machine: the sparse design's pairs
/// measured in both roles, the rest left out by the plan. The per-CPU offsets are set, not
/// solved (the solver is tested on its own; Floyd–Warshall over 1024 CPUs takes seconds).
BigReport big_report() {
  BigReport r;
  std::vector<CpuPlace> places;
  std::vector<int> cpus;
  for (std::size_t i = 0; i < kCpus; ++i) {
    const int cpu = static_cast<int>(i);
    places.push_back(CpuPlace{.cpu = cpu, .package = cpu / 512, .core = cpu / 2});
    cpus.push_back(cpu);
  }
  const OrderedCpus order = order_by_topology(places, cpus);
  const SparseDesign design = sparse_design(order);

  ReportInputs& in = r.in;
  in.host = "big";
  MatrixResult& m = in.ordered.matrix;
  m.cpus = order.cpu_numbers();
  m.places = order.cpus;
  for (int cpu : m.cpus) m.labels.push_back(std::to_string(cpu));
  m.send = recorded_variant(std::optional<std::string_view>("rdtsc"));
  m.recv = recorded_variant(std::optional<std::string_view>("lfence_rdtsc"));
  m.tsc_hz = 2.3e9;
  m.cells.resize(kCpus * kCpus);
  m.planned.assign(kCpus * kCpus, 0);
  std::vector<double> x(kCpus, 0.0);
  x[kOffCpu] = 400;
  in.check.cpus = kCpus;
  in.check.sparse = true;
  in.check.tsc_hz = m.tsc_hz;
  for (const IndexPair& p : design.pairs) {
    for (const auto& [a, b] : {std::pair{p.first, p.second}, std::pair{p.second, p.first}}) {
      m.planned[a * kCpus + b] = 1;
      PairCell& c = m.cells[a * kCpus + b];
      c.measured = true;
      c.band_feasible = true;
      c.rounds = 400;
      c.offset_ticks = x[b] - x[a];
      c.rtt_min_ticks = m.places[a].package == m.places[b].package ? 600 : 1000;
      c.rtt_p50_ticks = c.rtt_min_ticks + 60;
      c.offset_lo_ticks = c.offset_ticks - c.rtt_min_ticks / 2 + 1;
      c.offset_hi_ticks = c.offset_ticks + c.rtt_min_ticks / 2 - 1;
      c.verdict.kind = VerdictKind::synchronized;
      c.verdict.fit.kind = VerdictKind::synchronized;
      c.verdict.fit.offset_lo_ticks = c.offset_lo_ticks;
      c.verdict.fit.offset_hi_ticks = c.offset_hi_ticks;
      r.planned.insert({m.cpus[a], m.cpus[b]});
      if (c.offset_lo_ticks > 0 || c.offset_hi_ticks < 0) {
        CheckFailure f;
        f.a = m.cpus[a];
        f.b = m.cpus[b];
        f.kind = CheckFailureKind::offset;
        f.offset_ticks = c.offset_ticks;
        f.offset_lo_ticks = c.offset_lo_ticks;
        f.offset_hi_ticks = c.offset_hi_ticks;
        f.gap_ticks = c.offset_lo_ticks > 0 ? c.offset_lo_ticks : -c.offset_hi_ticks;
        in.check.failures.push_back(f);
      }
    }
  }
  in.check.pairs_checked = r.planned.size();
  in.check.failing_pairs = in.check.failures.size();
  in.check.shown = 0;
  in.check.cpus_off = {static_cast<int>(kOffCpu)};
  m.cpu.offset_ticks = x;
  m.cpu.lo_ticks = x;
  m.cpu.hi_ticks = x;
  m.cpu.rms_residual_ticks = 0;
  m.cpu.max_antisymmetry_ticks = 0;
  in.ordered.ordered_pairs = r.planned.size();
  in.ordered.visits = 4;
  in.ordered.elapsed_seconds = 90;
  in.info_text = "cpu  model x\n";
  in.generated_utc = "2026-11-25T04:00:00.000Z";
  in.tool_version = "0.1.0";
  in.command_line = "tscaudit report --from big";
  in.rebuilt_from = ReportSource{"big/matrix/run", "big", "2026-11-25T03:58:00.000Z", "2026-11-25T03:59:30.000Z"};
  return r;
}

}  // namespace

TEST_CASE("report at 1024 CPUs: HTML under 5 MB, every pair in the linked file") {
  const BigReport r = big_report();
  REQUIRE(r.planned.size() > 30'000);  // the sparse design's ordered pairs at 1024 CPUs
  const ReportDoc doc = build_report_doc(r.in);
  // Each heatmap 500 kB: gnuplot's SVG of a 1024-CPU heatmap (the cells as one embedded
  // image) was 110 to 153 kB in `report --from` of a simulated 1024-CPU machine, and the
  // per-CPU offsets' SVG 169 kB. Five pictures in this report, which has no plain matrix
  // and no read variants: the per-CPU offsets, the proven and estimated offsets, two
  // round trips.
  const std::string svg = "<svg>" + std::string(500'000, 'x') + "</svg>";
  const std::string html = report_html(doc, [&](const std::string&) { return svg; });
  const std::string markdown = report_markdown(doc);
  INFO("HTML " << html.size() << " bytes, Markdown " << markdown.size() << " bytes");
  CHECK(html.size() < 5'000'000);
  // Without the pictures the text is small: the pairs are in the linked file.
  CHECK(html.size() - 5 * svg.size() < 100'000);
  CHECK(markdown.size() < 100'000);
  CHECK(html.find("href=\"pair_verdicts.txt\"") != std::string::npos);

  const std::string pairs = report_pairs_text(r.in);
  std::istringstream lines(pairs);
  std::string line;
  std::set<std::pair<int, int>> listed;
  std::size_t rows = 0, comments = 0, foreign = 0;
  while (std::getline(lines, line)) {
    if (line.starts_with("# ")) {
      ++comments;
      continue;
    }
    if (line.starts_with("run\t")) continue;  // the header
    ++rows;
    if (!line.starts_with("matrix\t")) {
      ++foreign;
      continue;
    }
    const std::size_t a_end = line.find('\t', 7), b_end = line.find('\t', a_end + 1);
    listed.insert({std::stoi(line.substr(7, a_end - 7)), std::stoi(line.substr(a_end + 1, b_end - a_end - 1))});
  }
  CHECK(comments == 2);
  CHECK(foreign == 0);
  CHECK(rows == r.planned.size());
  CHECK(listed == r.planned);
}
