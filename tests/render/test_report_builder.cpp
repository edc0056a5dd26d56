// build_report_doc on fabricated inputs, exact: the sections and their order, the verdict
// paragraphs, the pictures and what stands for a picture that is not there.
#include <catch2/catch.hpp>

#include <algorithm>

#include <string>
#include <vector>

#include "cut_short.hpp"
#include "render/matrix_output.hpp"
#include "render/report_builder.hpp"
#include "render/variants_output.hpp"
#include "render/verdict_text.hpp"

using namespace tscaudit;

namespace {

/// Two CPUs, both ordered pairs measured. rtt_min 300 and 320 (upper median 320), rtt_p50
/// 340 and 360 (360); at 2 GHz a tick is 0.5 ns.
MatrixResult two_cpus(const std::string& send, const std::string& recv, std::uint64_t violations_01,
                      std::uint64_t violations_10, std::uint64_t self_inconsistent_01) {
  MatrixResult m;
  m.cpus = {0, 1};
  m.labels = {"0", "1"};
  m.send = recorded_variant(std::optional<std::string_view>(send));
  m.recv = recorded_variant(std::optional<std::string_view>(recv));
  m.tsc_hz = 2e9;
  m.quantum_ticks = 2;
  m.cells.resize(4);
  PairCell& c01 = m.cells[1];
  c01.measured = true;
  c01.rounds = 1000;
  c01.offset_ticks = -38;
  c01.rtt_min_ticks = 300;
  c01.rtt_p50_ticks = 340;
  c01.causality_violations = violations_01;
  c01.self_inconsistent = self_inconsistent_01;
  PairCell& c10 = m.cells[2];
  c10.measured = true;
  c10.rounds = 1500;
  c10.offset_ticks = 38;
  c10.rtt_min_ticks = 320;
  c10.rtt_p50_ticks = 360;
  c10.causality_violations = violations_10;
  m.cpu = solve_cpu_offsets(m.cpus, m.cells, m.quantum_ticks);
  return m;
}

/// A pair whose counters agree (kind synchronized) or whose plain reads ran early
/// (unsafe_reads): the builder writes verdict_text() of either, tested on its own.
PairVerdict agreeing() {
  PairVerdict v;
  v.kind = VerdictKind::synchronized;
  v.fit.kind = VerdictKind::synchronized;
  v.fit.offset_lo_ticks = -40;
  v.fit.offset_hi_ticks = 36;
  return v;
}

PairVerdict early_reads() {
  PairVerdict v;
  v.kind = VerdictKind::unsafe_reads;
  v.unsafe.send = v.unsafe.recv = recorded_variant(ReadVariant::rdtsc);
  v.unsafe.fwd_violations = 5;
  return v;
}

ReportMatrixRun run_of(MatrixResult m, const PairVerdict& verdict) {
  ReportMatrixRun run;
  run.matrix = std::move(m);
  // The pairs' verdicts, as the analysis puts them in the cells.
  for (PairCell& cell : run.matrix.cells) {
    if (cell.measured) cell.verdict = verdict;
  }
  run.ordered_pairs = 2;
  run.visits = 4;
  run.elapsed_seconds = 0.01234;
  return run;
}

/// Every part present.
ReportInputs full() {
  ReportInputs in;
  in.host = "box";
  in.ordered = run_of(two_cpus("rdtsc", "lfence_rdtsc", 0, 0, 0), agreeing());
  in.check.synchronized = true;
  in.check.outcome = CheckOutcome::synchronized;
  in.check.cpus = 2;
  in.check.pairs_checked = 2;
  in.check.widest_band_ticks = 76;
  in.check.tsc_hz = 2e9;
  in.warnings = {{"virtual_machine", "running under a hypervisor.", "Measure on bare metal."}};
  in.plain = run_of(two_cpus("rdtsc", "rdtsc", 5, 7, 1), early_reads());
  VariantsResult v;
  v.cpu_a = 0;
  v.cpu_b = 1;
  v.tsc_hz = 2e9;
  v.rounds_per_combination = 8000;
  v.passes = 4;
  RecvStanding best;
  best.recv = ReadVariant::lfence_rdtsc;
  best.cost_ticks = 70;
  v.verdict.recommended = best;
  SwitchRun sw;
  sw.first = Combination{ReadVariant::rdtsc, ReadVariant::rdtsc};
  sw.second = Combination{ReadVariant::rdtsc, ReadVariant::lfence_rdtsc};
  v.switch_run = sw;
  in.variants = v;
  in.info_text = "cpu  model x\n";
  in.generated_utc = "2026-11-25 04:00:00 UTC";
  in.tool_version = "0.1.0";
  in.command_line = "tscaudit report --rounds 5000";
  return in;
}

std::vector<std::string> titles(const ReportDoc& doc) {
  std::vector<std::string> t;
  for (const ReportSection& s : doc.sections) t.push_back(s.title);
  return t;
}

/// The section titled `title`, which must hold `blocks` blocks.
const ReportSection& section(const ReportDoc& doc, const std::string& title, std::size_t blocks) {
  for (const ReportSection& s : doc.sections) {
    if (s.title != title) continue;
    REQUIRE(s.blocks.size() == blocks);
    return s;
  }
  FAIL("no section " << title);
  return doc.sections.front();
}

/// "path | caption | missing" of every picture, in document order.
std::vector<std::string> pictures(const ReportDoc& doc) {
  std::vector<std::string> p;
  for (const ReportSection& s : doc.sections) {
    for (const ReportBlock& b : s.blocks) {
      if (b.kind == ReportBlock::Kind::picture) p.push_back(b.path + " | " + b.text + " | " + b.missing);
    }
  }
  return p;
}

using Kind = ReportBlock::Kind;

/// Four CPUs in two packages, CPU 3 400 ticks ahead (defined below).
ReportInputs one_cpu_off();

}  // namespace

TEST_CASE("report builder: the sections, in order") {
  ReportInputs in = full();
  const ReportDoc doc = build_report_doc(in);
  CHECK(doc.title == "tscaudit report of box");
  // Two CPUs: one pair, "The pair" in place of the distance classes and the worst CPUs.
  CHECK(titles(doc) == std::vector<std::string>{"Verdict", "Diagnosis", "The pair", "Offsets", "Latency",
                                                "Plain rdtsc: what speculation does here",
                                                "Read variants: what each costs, what each gets wrong",
                                                "Per-pair verdicts", "Platform", "How this report was made"});
  in.plain.reset();
  in.variants.reset();
  CHECK(titles(build_report_doc(in)) == std::vector<std::string>{"Verdict", "Diagnosis", "The pair", "Offsets",
                                                                 "Latency", "Per-pair verdicts", "Platform",
                                                                 "How this report was made"});
  // More CPUs: both.
  CHECK(titles(build_report_doc(one_cpu_off())) ==
        std::vector<std::string>{"Verdict", "Diagnosis", "Pairs by topology distance", "Worst CPUs and pairs",
                                 "Offsets", "Latency", "Plain rdtsc: what speculation does here",
                                 "Read variants: what each costs, what each gets wrong", "Per-pair verdicts",
                                 "Platform", "How this report was made"});
}

TEST_CASE("report builder: the verdict, first") {
  const ReportDoc doc = build_report_doc(full());
  const ReportSection& s = section(doc, "Verdict", 5);
  CHECK(s.blocks[0].kind == Kind::verdict);
  CHECK(s.blocks[0].text == check_reason_text(full().check) + ".");
  CHECK(s.blocks[1].text ==
        "Measured 2 CPUs (2 ordered pairs, each visited 4 times, 2500 rounds in all) with send rdtsc and receive "
        "lfence_rdtsc in 0.0123 s. A pair's hard band holds every offset that no round contradicts, assuming only "
        "causality, a linear offset and reads within one quantum (2 ticks here).");
  CHECK(s.blocks[2].text ==
        "Receive read to use here: lfence_rdtsc (70 ticks (35.0 ns) per read, the cheapest that waits for earlier "
        "loads with no causality violation; see \"Read variants\").");
  CHECK(s.blocks[3].text == "What on this platform makes the answer less certain:");
  CHECK(s.blocks[4].kind == Kind::bullets);
  CHECK(s.blocks[4].items ==
        std::vector<std::string>{"virtual_machine: running under a hypervisor. Measure on bare metal."});
}

TEST_CASE("report builder: a sparse design's run says which pairs it measured") {
  ReportInputs in = full();
  in.ordered.matrix.planned = {0, 1, 0, 0};  // 0->1 only
  in.ordered.ordered_pairs = 1;
  const ReportDoc doc = build_report_doc(in);
  CHECK(section(doc, "Verdict", 5)
            .blocks[1]
            .text.starts_with("Measured 2 CPUs (the 1 ordered pairs of a sparse design, of 2, each visited 4 times, "
                              "2500 rounds in all) "));
  const ReportSection& how = doc.sections.back();
  REQUIRE(how.blocks.size() >= 2);
  CHECK(how.blocks[1].items.at(2).starts_with("matrix/: the sparse-design run with receive lfence_rdtsc: "));
}

TEST_CASE("report builder: a run cut short or with lost visits does not claim every visit") {
  ReportInputs lost = full();
  lost.lost = {"rounds/cpu-0.zst at byte 10 (frame 1, 20 bytes): pair 0 -> 1, visit=1 (300 rounds): damaged"};
  const ReportDoc lost_doc = build_report_doc(lost);
  const ReportSection& with_loss = section(lost_doc, "Verdict", 7);
  CHECK(std::any_of(with_loss.blocks.begin(), with_loss.blocks.end(), [](const ReportBlock& b) {
    return b.text.starts_with("Measured 2 CPUs (2 ordered pairs, visited up to 4 times each, the lost visits aside, ");
  }));
  ReportInputs cut = full();
  testing::cut_short_by(cut.check, "interrupted by SIGINT after 1 of 4 slots (1 of 4 pair visits)");
  const ReportDoc doc = build_report_doc(cut);
  const ReportSection& s = doc.sections.front();
  CHECK(s.blocks[0].text.starts_with("incomplete, no verdict: interrupted by SIGINT after 1 of 4 slots"));
  CHECK(s.blocks[1].text.starts_with("Measured 2 CPUs (2 ordered pairs, planned to be visited 4 times each and cut "
                                     "short, 2500 rounds in all) "));
}

TEST_CASE("report builder: a failed check lists at most 10 failures under the diagnosis, with no recommendation") {
  ReportInputs in = full();
  in.check.synchronized = false;
  for (int i = 0; i < 22; ++i) {
    CheckFailure f;
    f.a = i;
    f.b = i + 1;
    f.kind = CheckFailureKind::offset;
    f.offset_ticks = f.offset_lo_ticks = f.offset_hi_ticks = 100 + i;
    f.gap_ticks = 100 + i;
    in.check.failures.push_back(f);
  }
  in.check.failing_pairs = 22;
  in.check.shown = 21;
  in.variants->verdict.recommended.reset();
  in.warnings.clear();
  const ReportDoc doc = build_report_doc(in);
  const ReportSection& s = section(doc, "Verdict", 3);
  CHECK(s.blocks[0].text == check_reason_text(in.check) + ".");
  CHECK(s.blocks[2].text ==
        "No receive read that waits for earlier loads was free of causality violations: see \"Read variants\".");
  // No finding: the failures are of pairs alone, listed after the picture.
  const ReportSection& d = section(doc, "Diagnosis", 4);
  CHECK(d.blocks[0].text ==
        "No finding: the hard bands single out no CPU and no group of CPUs whose counters differ from the others; "
        "what fails is listed below, pair by pair.");
  CHECK(d.blocks[1].kind == Kind::picture);
  CHECK(d.blocks[2].text == "What fails, pair by pair:");
  REQUIRE(d.blocks[3].kind == Kind::bullets);
  REQUIRE(d.blocks[3].items.size() == 11);
  CHECK(d.blocks[3].items[0] == check_failure_text(in.check.failures[0], in.check));
  CHECK(d.blocks[3].items[9] == check_failure_text(in.check.failures[9], in.check));
  CHECK(d.blocks[3].items[10] ==
        "12 more failures (12 pairs not listed here) in pair_verdicts.txt and matrix/matrix.json");
  SECTION("failures, not pairs: a pair that fails twice is one pair") {
    for (CheckFailure& f : in.check.failures) f.b = f.a % 2 == 0 ? f.a + 1 : f.a;  // 0->1 twice, 2->3 twice, ...
    for (CheckFailure& f : in.check.failures) f.a -= f.a % 2;
    const ReportDoc twice_doc = build_report_doc(in);
    const ReportSection& twice = section(twice_doc, "Diagnosis", 4);
    CHECK(twice.blocks[3].items[10] ==
          "12 more failures (6 pairs not listed here) in pair_verdicts.txt and matrix/matrix.json");
  }
}

TEST_CASE("report builder: the pictures, and what stands for one that is not there") {
  ReportInputs in = full();
  SECTION("all drawn") {
    CHECK(pictures(build_report_doc(in)) ==
          std::vector<std::string>{
              // NOLINTNEXTLINE(bugprone-suspicious-missing-comma): one line, longer than the source's
              "matrix/cpu_offsets.svg | TSC offset per CPU against CPU 0, ticks: the estimate as a point coloured by "
              "its offset group (CPUs whose counters the hard bands cannot tell apart; the reference group blue), "
              "the hard bounds as a bar | ",
              "matrix/proven_offset_ticks.svg | TSC offset proven per ordered pair (row a initiates, column b "
              "responds), ticks: how far the pair's hard band lies from 0; white where the band contains 0, so the "
              "two counters may agree | ",
              "matrix/offset_ticks.svg | TSC offset estimate per ordered pair, ticks: the estimate inside each hard "
              "band; pale where it is small beside a typical band, and no proof of a difference on its own | ",
              "matrix/rtt_min_ticks.svg | Minimum round trip per pair, ticks | ",
              "matrix/rtt_p50_ticks.svg | Median round trip per pair, ticks | ",
              "matrix_plain_rdtsc/causality_violations.svg | Causality violations per pair with plain rdtsc | ",
              "variants/variants_cost.svg | Read cost per call (p50, bar from min to p99.9), ticks | ",
              "variants/variants_tradeoff.svg | Cost of the receive read against causality violations per million "
              "one-way latencies | ",
              "variants/variants_percentiles.svg | One-way latency percentiles per send/recv combination | ",
              "variants/variants_switch.svg | One run that switches its receive read from rdtsc to lfence_rdtsc "
              "half-way: per-bin minimum and median latency | "});
  }
  SECTION("a PNG or an SVG missing marks its picture, naming why and its input") {
    in.missing_pictures = {{"matrix/offset_ticks.png", "gnuplot not found"},
                           {"variants/variants_switch.svg", "gnuplot failed: see \"Problems while making it\""},
                           {"matrix/offset_lo_ticks.png", "not a picture of the report"},
                           {"matrix/cpu_offsets.svg", "gnuplot not found"}};
    const std::vector<std::string> p = pictures(build_report_doc(in));
    REQUIRE(p.size() == 10);
    CHECK(p[0].ends_with(" | gnuplot not found; its input is matrix/cpu_offsets.dat"));
    CHECK(p[1].ends_with("may agree | "));
    CHECK(p[2].starts_with("matrix/offset_ticks.svg | "));
    CHECK(p[2].ends_with(" | gnuplot not found; its input is matrix/offset_ticks.dat"));
    CHECK(p[3] == "matrix/rtt_min_ticks.svg | Minimum round trip per pair, ticks | ");
    CHECK(p[9] ==
          "variants/variants_switch.svg | One run that switches its receive read from rdtsc to lfence_rdtsc half-way: "
          "per-bin minimum and median latency | gnuplot failed: see \"Problems while making it\"; its input is "
          "variants/variants_switch.dat");
  }
  SECTION("no switching picture when the switching run failed") {
    in.variants->switch_run->problem = "pinning failed";
    CHECK(pictures(build_report_doc(in)).size() == 9);
  }
}

TEST_CASE("report builder: the evidence sections") {
  const ReportInputs in = full();
  const ReportDoc doc = build_report_doc(in);
  SECTION("offsets: the proven offsets first, the estimates, then the matrix text") {
    const ReportSection& s = section(doc, "Offsets", 3);
    CHECK(s.blocks[0].kind == Kind::picture);
    CHECK(s.blocks[0].path == "matrix/proven_offset_ticks.svg");
    CHECK(s.blocks[1].kind == Kind::picture);
    CHECK(s.blocks[1].path == "matrix/offset_ticks.svg");
    CHECK(s.blocks[2].kind == Kind::pre);
    CHECK(s.blocks[2].text == matrix_text(in.ordered.matrix));
  }
  SECTION("latency: each of two pairs (medians over more: the worst CPUs test)") {
    const ReportSection& s = section(doc, "Latency", 3);
    CHECK(s.blocks[0].text ==
          "Round trip (t4 - t1) - (t3 - t2) per pair: same-clock on both sides, so no offset is in it. Minimum: 300 "
          "ticks (150.0 ns) for 0->1, 320 ticks (160.0 ns) for 1->0; median: 340 ticks (170.0 ns) for 0->1, 360 "
          "ticks (180.0 ns) for 1->0.");
    CHECK_THAT(section(build_report_doc(one_cpu_off()), "Latency", 3).blocks[0].text,
               Catch::Contains("Median over pairs of the minimum: 300 ticks (150.0 ns); of the median: "));
  }
  SECTION("plain rdtsc against the ordering read") {
    const ReportSection& s = section(doc, "Plain rdtsc: what speculation does here", 3);
    CHECK(s.blocks[0].text ==
          "The same pairs with plain rdtsc on both sides (2500 rounds): 12 one-way latencies below every offset the "
          "rest of the run allows (causality violations: a receive read ran before the message arrived), and 1 "
          "rounds impossible for any offset. With receive lfence_rdtsc: 0 and 0. Smallest round trip of the pair: "
          "plain 300 ticks (150.0 ns), lfence_rdtsc 300 ticks (150.0 ns).");
    CHECK(s.blocks[2].text == matrix_text(in.plain->matrix));
  }
  SECTION("read variants: the setting, the findings, four pictures, the tables") {
    const ReportSection& s = section(doc, "Read variants: what each costs, what each gets wrong", 7);
    CHECK(s.blocks[0].text ==
          "CPUs 0 and 1, 8000 rounds per send/recv combination in both roles, interleaved over 4 passes; read costs "
          "on CPU 0.");
    REQUIRE_FALSE(variants_findings(in.variants->verdict).empty());
    CHECK(s.blocks[1].items == variants_findings(in.variants->verdict));
    CHECK(s.blocks[6].text == variants_text(*in.variants));
  }
  SECTION("per-pair verdicts: the link to every pair, and few pairs all inline, with where the details are") {
    const ReportSection& s = section(doc, "Per-pair verdicts", 5);
    CHECK(s.blocks[0].text ==
          "Every ordered pair is in the file below, one line each, tab-separated: its distance, the check's word, "
          "offset and band, minimum round trip, causality violations, rounds, verdict and where its analysis is.");
    CHECK(s.blocks[1].kind == Kind::link);
    CHECK(s.blocks[1].path == "pair_verdicts.txt");
    CHECK(s.blocks[1].text == "pair_verdicts.txt");
    const std::string agree = verdict_text(agreeing());
    CHECK(s.blocks[2].items == std::vector<std::string>{"0->1: " + agree + " (details: matrix/pairs/pair_0_1.txt)",
                                                        "1->0: " + agree + " (details: matrix/pairs/pair_1_0.txt)"});
    CHECK(s.blocks[3].text == "With plain rdtsc:");
    CHECK(s.blocks[4].items ==
          std::vector<std::string>{
              "0->1: " + verdict_text(early_reads()) + " (details: matrix_plain_rdtsc/pairs/pair_0_1.txt)",
              "1->0: " + verdict_text(early_reads()) + " (details: matrix_plain_rdtsc/pairs/pair_1_0.txt)"});
  }
  SECTION("the platform as info prints it") {
    const ReportSection& s = section(doc, "Platform", 1);
    CHECK(s.blocks[0].kind == Kind::pre);
    CHECK(s.blocks[0].text == "cpu  model x\n");
  }
}

TEST_CASE("report builder: how the report was made, and its problems") {
  ReportInputs in = full();
  const ReportSection clean = section(build_report_doc(in), "How this report was made", 2);
  CHECK(clean.blocks[0].text == "Generated 2026-11-25 04:00:00 UTC by tscaudit 0.1.0: tscaudit report --rounds 5000");
  REQUIRE(clean.blocks[1].items.size() == 6);
  CHECK(clean.blocks[1].items[1] == "pair_verdicts.txt: every ordered pair's verdict, one line each");
  CHECK(clean.blocks[1].items[2] ==
        "matrix/: the all-pairs run with receive lfence_rdtsc: matrix.json (tscaudit-matrix/1, with the check), "
        "matrix.txt, analysis.json, *.dat for gnuplot, heatmaps (PNG, SVG), pairs/ (one analysis per pair)");
  in.problems = {"pair 0->1, visit 2: timed out", "report/matrix/offset_ticks.png: gnuplot exit status 1"};
  const ReportSection troubled = section(build_report_doc(in), "How this report was made", 4);
  CHECK(troubled.blocks[2].text == "Problems while making it:");
  CHECK(troubled.blocks[3].items == in.problems);
}

namespace {

/// Four CPUs in two packages, one core each with two SMT siblings (CPUs 0, 1 | 2, 3), every
/// ordered pair measured; CPU 3 is 400 ticks ahead of the rest. Round trips: 100 ticks
/// between siblings, 300 across; each band is the offset ± half the round trip; 2->3 has 5
/// causality violations. The check fails every pair with CPU 3 whose band misses 0 (the
/// siblings' 2<->3, and the pairs across) and names CPU 3.
ReportInputs one_cpu_off() {
  ReportInputs in = full();
  MatrixResult& m = in.ordered.matrix;
  m.cpus = {0, 1, 2, 3};
  m.labels = {"0", "1", "2", "3"};
  m.places = {CpuPlace{.cpu = 0, .package = 0, .core = 0}, CpuPlace{.cpu = 1, .package = 0, .core = 0},
              CpuPlace{.cpu = 2, .package = 1, .core = 1}, CpuPlace{.cpu = 3, .package = 1, .core = 1}};
  const std::vector<double> x = {0, 0, 0, 400};
  m.cells.assign(16, PairCell{});
  in.check = CheckResult{};
  in.check.tsc_hz = 2e9;
  in.check.cpus = 4;
  in.check.pairs_checked = 12;
  for (std::size_t a = 0; a < 4; ++a) {
    for (std::size_t b = 0; b < 4; ++b) {
      if (a == b) continue;
      PairCell& c = m.cells[a * 4 + b];
      c.measured = true;
      c.band_feasible = true;
      c.rounds = 1000;
      c.offset_ticks = x[b] - x[a];
      c.rtt_min_ticks = a / 2 == b / 2 ? 100 : 300;
      c.offset_lo_ticks = c.offset_ticks - c.rtt_min_ticks / 2;
      c.offset_hi_ticks = c.offset_ticks + c.rtt_min_ticks / 2;
      c.verdict = agreeing();
      if (c.offset_lo_ticks > 0 || c.offset_hi_ticks < 0) {
        CheckFailure f;
        f.a = m.cpus[a];
        f.b = m.cpus[b];
        f.kind = CheckFailureKind::offset;
        in.check.failures.push_back(f);
      }
    }
  }
  m.cells[2 * 4 + 3].causality_violations = 5;
  m.cpu = solve_cpu_offsets(m.cpus, m.cells, m.quantum_ticks);
  in.check.failing_pairs = in.check.failures.size();
  in.check.cpus_off = {3};
  // The diagnosis decide_check makes of it: CPU 3 ahead of the three others.
  Finding f;
  f.kind = FindingKind::offset;
  f.cpus = {3};
  f.against = {0, 1, 2};
  f.lo = 350;
  f.hi = 450;
  f.estimate = 400;
  f.against_rest = true;
  in.check.diagnosis.findings = {f};
  in.check.diagnosis.offset_group = {0, 0, 0, 1};
  in.check.diagnosis.offset_groups = 2;
  in.check.diagnosis.cpus_off = {3};
  in.ordered.ordered_pairs = 12;
  return in;
}

}  // namespace

TEST_CASE("report builder: the pairs by topology distance") {
  SECTION("no topology: one class of all pairs") {
    ReportInputs in = one_cpu_off();
    in.ordered.matrix.places.clear();
    const ReportSection s = section(build_report_doc(in), "Pairs by topology distance", 2);
    CHECK(s.blocks[1].kind == Kind::table);
    // rtt min 100 (4 pairs) and 300 (8), offsets 0 (6 pairs) and +-400 (3 each); 0.5 ns a tick.
    CHECK(s.blocks[1].items ==
          std::vector<std::string>{
              "distance\tordered pairs\tone-way latency bound (rtt min / 2)\toffset",
              "all pairs\t12\t50 .. 150 ticks, median 150 (25.0 .. 75.0 ns, 75.0)\t-400 .. +400 ticks, median 0 "
              "(-200.0 .. +200.0 ns, 0.0)"});
  }
  SECTION("a machine with packages and cores: each class, closest first") {
    const ReportSection s = section(build_report_doc(one_cpu_off()), "Pairs by topology distance", 2);
    CHECK(s.blocks[1].items ==
          std::vector<std::string>{
              "distance\tordered pairs\tone-way latency bound (rtt min / 2)\toffset",
              "SMT siblings\t4\t50 .. 50 ticks, median 50 (25.0 .. 25.0 ns, 25.0)\t-400 .. +400 ticks, median 0 "
              "(-200.0 .. +200.0 ns, 0.0)",
              "cross-package\t8\t150 .. 150 ticks, median 150 (75.0 .. 75.0 ns, 75.0)\t-400 .. +400 ticks, median 0 "
              "(-200.0 .. +200.0 ns, 0.0)"});
  }
  SECTION("nothing measured") {
    ReportInputs in = one_cpu_off();
    for (PairCell& c : in.ordered.matrix.cells) c.measured = false;
    CHECK(section(build_report_doc(in), "Pairs by topology distance", 2).blocks[1].text == "No pair was measured.");
  }
}

TEST_CASE("report builder: the diagnosis, right under the verdict") {
  const ReportInputs in = one_cpu_off();
  const ReportSection s = section(build_report_doc(in), "Diagnosis", 5);
  CHECK(s.blocks[0].text == "One finding, proven by the hard bands:");
  CHECK(s.blocks[1].items ==
        std::vector<std::string>{finding_text(in.check.diagnosis.findings[0], in.check.tsc_hz) + "."});
  CHECK(s.blocks[2].kind == Kind::picture);
  CHECK(s.blocks[2].path == "matrix/cpu_offsets.svg");
  CHECK(s.blocks[3].text == "What fails, pair by pair:");
  REQUIRE(s.blocks[4].items.size() == 6);  // 2<->3 and the four pairs across with CPU 3
  CHECK(s.blocks[4].items[0] == check_failure_text(in.check.failures[0], in.check));
  SECTION("many findings: the first ten, and how many more") {
    ReportInputs many = in;
    many.check.diagnosis.findings.assign(12, in.check.diagnosis.findings[0]);
    const ReportSection m = section(build_report_doc(many), "Diagnosis", 5);
    CHECK(m.blocks[0].text == "12 findings, proven by the hard bands, the most important first:");
    REQUIRE(m.blocks[1].items.size() == 11);
    CHECK(m.blocks[1].items[10] == "2 more findings, smaller groups.");
  }
  SECTION("a synchronized run: no finding, and the picture") {
    const ReportSection clean = section(build_report_doc(full()), "Diagnosis", 2);
    CHECK(clean.blocks[0].text ==
          "No finding: the hard bands single out no CPU and no group of CPUs whose counters differ from the others.");
    CHECK(clean.blocks[1].path == "matrix/cpu_offsets.svg");
  }
}

TEST_CASE("report builder: the worst CPUs and pairs") {
  const ReportSection s = section(build_report_doc(one_cpu_off()), "Worst CPUs and pairs", 8);
  CHECK(s.blocks[0].text == "By the check, CPU 3 is off from the rest.");
  const std::string reference =
      "the median per-CPU offset of the reference group (the 3 CPUs the findings compare the others with: 0.0 "
      "ticks (0.0 ns) relative to CPU 0)";
  CHECK(s.blocks[1].text == "The CPUs of the findings first, in turn from each, then those farthest from " + reference +
                                ", more than one quantum (2 ticks (1.0 ns)) from it, with the hard bounds on their "
                                "offsets:");
  // Only CPU 3: the others are within one quantum of the reference, and said so in one line.
  REQUIRE(s.blocks[2].items.size() == 2);
  CHECK(s.blocks[2].items[0] == "CPU\tplace\tfinding\toffset x\tfrom the reference\thard bounds, ticks");
  CHECK(s.blocks[2].items[1] ==
        "3\tpackage 1, core 1\toffset\t+400.0 ticks (+200.0 ns)\t+400.0 ticks (+200.0 ns)\t[250, 550]");  // 0->3 binds
  CHECK(s.blocks[3].text == "The other 3 CPUs of no finding are within 0 ticks (0.0 ns) of " + reference + ".");
  CHECK(s.blocks[4].text == "The pairs with the largest |offset|:");
  REQUIRE(s.blocks[5].items.size() == 11);  // the header and 10 pairs: 6 of 400 ticks, then 0
  CHECK(s.blocks[5].items[0] == "pair\tdistance\toffset\tband, ticks\tcheck");
  CHECK(s.blocks[5].items[1] == "0->3\tcross-package\t+400 ticks (+200.0 ns)\t[250, 550]\tfails: offset");
  CHECK(s.blocks[5].items[6] == "3->2\tSMT siblings\t-400 ticks (-200.0 ns)\t[-450, -350]\tfails: offset");
  CHECK(s.blocks[5].items[7] == "0->1\tSMT siblings\t0 ticks (0.0 ns)\t[-50, 50]\tpasses");
  CHECK(s.blocks[6].text == "The pairs with the most causality violations:");
  CHECK(s.blocks[7].items ==
        std::vector<std::string>{"pair\tdistance\tcausality violations\trounds", "2->3\tSMT siblings\t5\t1000"});
  SECTION("two CPUs have no list of the worst: one pair, no median of two (The pair)") {
    const std::vector<std::string> t = titles(build_report_doc(full()));
    CHECK(std::find(t.begin(), t.end(), "Worst CPUs and pairs") == t.end());
  }
  SECTION("a package off: its CPUs first, named by the finding, the rest of it counted") {
    ReportInputs in = one_cpu_off();
    Diagnosis& d = in.check.diagnosis;
    d.findings[0].cpus = {2, 3};
    d.findings[0].against = {0, 1};
    d.findings[0].name = "package 1";
    d.offset_group = {0, 0, 1, 1};
    const ReportSection p = section(build_report_doc(in), "Worst CPUs and pairs", 8);
    CHECK(p.blocks[2].items.at(1).starts_with("2\tpackage 1, core 1\toffset: package 1\t"));
    CHECK(p.blocks[2].items.at(2).starts_with("3\tpackage 1, core 1\toffset: package 1\t"));
    CHECK(p.blocks[3].text.starts_with("The other 2 CPUs of no finding are within "));
  }
  SECTION("a finding larger than the list: the CPUs it leaves out are counted, not called close") {
    ReportInputs in = full();
    MatrixResult& m = in.ordered.matrix;
    const std::size_t n = 14;  // CPUs 0-1 the reference, 2-13 ahead by 600
    m.cpus.clear();
    m.labels.clear();
    for (std::size_t i = 0; i < n; ++i) {
      m.cpus.push_back(static_cast<int>(i));
      m.labels.push_back(std::to_string(i));
    }
    m.cells.assign(n * n, PairCell{});
    m.cpu = CpuOffsets{};
    m.cpu.offset_ticks.assign(n, 600.0);
    m.cpu.offset_ticks[0] = m.cpu.offset_ticks[1] = 0;
    m.cpu.lo_ticks = m.cpu.hi_ticks = m.cpu.offset_ticks;
    Finding f;
    f.cpus = {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
    f.against = {0, 1};
    in.check.diagnosis.findings = {f};
    in.check.diagnosis.offset_group.assign(n, 1);
    in.check.diagnosis.offset_group[0] = in.check.diagnosis.offset_group[1] = 0;
    const ReportSection p = section(build_report_doc(in), "Worst CPUs and pairs", 6);  // no pair measured
    REQUIRE(p.blocks[2].items.size() == 1 + kReportWorst);
    CHECK(p.blocks[2].items[1].starts_with("2\t-\toffset\t+600.0 ticks"));
    CHECK(p.blocks[3].text == "Not listed: 2 more CPUs of the findings (the Diagnosis names their groups).");
    CHECK(
        p.blocks[4].text.starts_with("The other 2 CPUs of no finding are within 0 ticks (0.0 ns) of the median "
                                     "per-CPU offset of the reference group (the 2 CPUs "));
  }
  SECTION("every CPU within one quantum of the median: no table, one line") {
    ReportInputs in = one_cpu_off();
    in.check = CheckResult{};
    in.ordered.matrix.cpu.offset_ticks = {0.0, 0.6, 0.2, 0.4};
    const ReportSection near = section(build_report_doc(in), "Worst CPUs and pairs", 6);
    CHECK(near.blocks[0].text == "The check names no CPU off from the rest.");
    CHECK(near.blocks[1].text ==
          "All 4 CPUs are within 0.4 ticks (0.2 ns) of the median per-CPU offset (+0.2 ticks (+0.1 ns) relative "
          "to CPU 0).");
  }
}

TEST_CASE("report builder: a report rebuilt from saved rounds says so first, and what is not complete") {
  ReportInputs in = full();
  in.rebuilt_from = ReportSource{"old/matrix/run", "box", "2026-11-25T03:58:00.000Z", "2026-11-25T03:59:30.500Z"};
  in.incomplete = {"interrupted by SIGINT after 3 of 8 slots", "pair 0->1 cut short"};
  const ReportSection s = section(build_report_doc(in), "Verdict", 7);
  CHECK(s.blocks[0].text ==
        "Rebuilt from saved rounds, nothing measured now: old/matrix/run, measured on box from "
        "2026-11-25T03:58:00.000Z to 2026-11-25T03:59:30.500Z.");
  CHECK(s.blocks[1].text == "Not complete: interrupted by SIGINT after 3 of 8 slots; pair 0->1 cut short.");
  CHECK(s.blocks[2].text == check_reason_text(in.check) + ".");
  CHECK(s.blocks[3].text.starts_with("Measured 2 CPUs "));
  SECTION("a directory of run files records neither host nor times") {
    in.rebuilt_from = ReportSource{"runs", "", "", ""};
    in.incomplete.clear();
    const ReportSection plain = section(build_report_doc(in), "Verdict", 6);
    CHECK(plain.blocks[0].text ==
          "Rebuilt from saved rounds, nothing measured now: runs, measured on a host not recorded at a time not "
          "recorded.");
  }
  SECTION("simulated rounds: their 1970 dates are the simulation's") {
    in.rebuilt_from = ReportSource{"sim", "simulated", "1970-01-01T00:07:14.782Z", "1970-01-01T00:07:32.173Z", true};
    const ReportSection sim = section(build_report_doc(in), "Verdict", 7);
    CHECK(sim.blocks[0].text ==
          "Rebuilt from simulated rounds, nothing measured: sim; its times are the simulation's, counted from the "
          "Unix epoch (from 1970-01-01T00:07:14.782Z to 1970-01-01T00:07:32.173Z).");
  }
}

TEST_CASE("report builder: many pairs: the failing ones first, capped, the rest in the linked file") {
  ReportInputs in = full();
  in.plain.reset();
  MatrixResult& m = in.ordered.matrix;
  const std::size_t n = 8;  // 56 ordered pairs
  m.cpus.clear();
  for (std::size_t i = 0; i < n; ++i) m.cpus.push_back(static_cast<int>(n - 1 - i));  // by number: reversed
  m.labels.assign(n, "x");
  m.cells.assign(n * n, PairCell{});
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      if (a == b) continue;
      m.cells[a * n + b].measured = true;
      m.cells[a * n + b].verdict = agreeing();
    }
  }
  m.cells[0 * n + 1].verdict = early_reads();  // CPUs 7->6
  m.cpu = CpuOffsets{};
  m.cpu.offset_ticks.assign(n, 0.0);
  m.cpu.lo_ticks = m.cpu.hi_ticks = m.cpu.offset_ticks;
  m.cpu.bands_consistent = false;
  m.cpu.rms_residual_ticks = 1.5;
  m.cpu.max_antisymmetry_ticks = -2;
  m.cpu.max_loop_closure_ticks = -3;
  m.cpu.worst_loop = {7, 6, 5};
  m.cpu.disagreeing.resize(2);
  CheckFailure f;
  f.a = 5;
  f.b = 4;
  f.kind = CheckFailureKind::offset;
  in.check.failures = {f, f};
  in.check.failures[1].kind = CheckFailureKind::drift;
  const ReportSection s = section(build_report_doc(in), "Per-pair verdicts", 4);
  CHECK(s.blocks[2].text ==
        "The first 20 of 56 measured pairs: those the check fails first, those whose verdict is not \"synchronized\" "
        "before the others, each by CPU number; every pair is in pair_verdicts.txt.");
  const std::vector<std::string>& items = s.blocks[3].items;
  REQUIRE(items.size() == kReportInlinePairs);
  CHECK(items[0] == "5->4: " + verdict_text(agreeing()) + " (details: matrix/pairs/pair_5_4.txt)");
  CHECK(items[1] == "7->6: " + verdict_text(early_reads()) + " (details: matrix/pairs/pair_7_6.txt)");
  CHECK(items[2].starts_with("0->1: "));
  CHECK(items[19].starts_with("2->4: "));  // then 0->1..7, 1->0, 1->2..7, 2->0, 2->1, 2->3, 2->4
  SECTION("the offsets' figures: the consistency inline, the per-CPU and per-pair tables linked") {
    const ReportDoc doc = build_report_doc(in);
    CHECK(section(doc, "Diagnosis", 4).blocks[1].text.starts_with("TSC offset per CPU against CPU 7, ticks: "));
    const ReportSection offsets = section(doc, "Offsets", 4);
    CHECK(offsets.blocks[2].text ==
          "Per-CPU offsets: least squares over the measured pairs, relative to CPU 7. The pairs' bands CONTRADICT one "
          "another; rms residual 1.5 ticks; largest antisymmetry |θ_ab + θ_ba| 2 ticks; largest loop closure 3 ticks "
          "(CPUs 7, 6, 5); 2 pairs disagree with the rest.");
    CHECK(offsets.blocks[3].kind == Kind::link);
    CHECK(offsets.blocks[3].path == "matrix/matrix.txt");
  }
}

TEST_CASE("report builder: the kernel's word, after the diagnosis, against the measurement") {
  ReportInputs in = full();
  CHECK(titles(build_report_doc(in))[2] == "The pair");  // no kernel log: no section
  in.kernel_tsc = KernelTscLog{};
  CHECK(titles(build_report_doc(in))[2] == "The pair");  // a log without TSC events: none either
  KernelTscEvent forced;
  forced.kind = KernelTscEventKind::adjust_forced;
  forced.cpu = 0;
  forced.value = -2011;
  forced.lines = {"[0.000000] [Firmware Bug]: TSC ADJUST: CPU0: -2011 force to 0"};
  in.kernel_tsc->add(forced);
  in.kernel_tsc->left_out = 2;
  ReportDoc doc = build_report_doc(in);
  const std::vector<std::string> all = titles(doc);
  CHECK(std::vector<std::string>(all.begin(), all.begin() + 4) ==
        std::vector<std::string>{"Verdict", "Diagnosis", "The kernel's word", "The pair"});
  {
    const ReportSection& s = section(doc, "The kernel's word", 3);
    CHECK(s.blocks[0].text ==
          "What Linux's log on the machine measured says about the TSCs' synchronization, and what the kernel did to "
          "TSC_ADJUST:");
    CHECK(s.blocks[1].kind == Kind::bullets);
    CHECK(s.blocks[1].items ==
          std::vector<std::string>{
              "the firmware left CPU 0's TSC_ADJUST at -2011; the kernel set it to 0: \"[0.000000] [Firmware Bug]: "
              "TSC ADJUST: CPU0: -2011 force to 0\"",
              "2 more TSC lines were left out (the first 16 are kept, verdicts before notes)"});
    CHECK(s.blocks[2].text ==
          "None of these names CPUs whose counters differ: nothing to compare with this measurement.");
  }
  // A warp between the two CPUs measured agreeing: the tool disagrees, in its own words.
  KernelTscEvent warp;
  warp.kind = KernelTscEventKind::warp;
  warp.cpu = 0;
  warp.other_cpu = 1;
  warp.value = 1482;
  warp.lines = {"[0.512345] TSC synchronization [CPU#0 -> CPU#1]:",
                "[0.512350] Measured 1482 cycles TSC warp between CPUs, turning off TSC clock."};
  in.kernel_tsc->add(warp);
  in.ordered.matrix.cells[1].offset_lo_ticks = -40;
  in.ordered.matrix.cells[1].offset_hi_ticks = 36;
  doc = build_report_doc(in);
  const ReportSection& s = section(doc, "The kernel's word", 4);
  CHECK(s.blocks[1].items[1] ==
        "the kernel measured 1482 cycles of TSC warp between CPU 0 and CPU 1 when it brought CPU 1 up, and turned "
        "the TSC clocksource off: \"[0.512345] TSC synchronization [CPU#0 -> CPU#1]:\" \"[0.512350] Measured 1482 "
        "cycles TSC warp between CPUs, turning off TSC clock.\"");
  CHECK(s.blocks[2].text == "Against this measurement:");
  CHECK(s.blocks[3].items ==
        std::vector<std::string>{
            "The kernel measured 1482 cycles of TSC warp between CPU 0 and CPU 1 when it brought CPU 1 up, but the "
            "tool measured their counters agreeing now (CPU 1 minus CPU 0 within [-40, +36] ticks): the counters "
            "were corrected since (through TSC_ADJUST, by the firmware, or by the hypervisor of a virtual machine)."});
}

namespace {

/// A plain pair whose band leaves 0 out: early reads shifted it.
PairVerdict false_offset() {
  PairVerdict v;
  v.kind = VerdictKind::offset;
  v.fit.kind = VerdictKind::offset;
  v.fit.offset_ticks = -37;
  v.fit.offset_lo_ticks = -63;
  v.fit.offset_hi_ticks = -11;
  v.tsc_hz = 2e9;
  return v;
}

/// full() with the verdict's bands holding 0 and the plain pair 0->1's band [-63, -11].
ReportInputs with_false_plain_offset() {
  ReportInputs in = full();
  for (PairCell& c : in.ordered.matrix.cells) {
    if (!c.measured) continue;
    c.offset_lo_ticks = -40;
    c.offset_hi_ticks = 36;
  }
  PairCell& plain01 = in.plain->matrix.cells[1];
  plain01.verdict = false_offset();
  plain01.offset_ticks = -37;
  plain01.offset_lo_ticks = -63;
  plain01.offset_hi_ticks = -11;
  PairCell& plain10 = in.plain->matrix.cells[2];
  plain10.offset_lo_ticks = -20;
  plain10.offset_hi_ticks = 30;
  return in;
}

const char* const kFalseOffset =
    "1 of the 2 plain rdtsc pairs have an offset band that excludes 0, where the same pair with receive lfence_rdtsc "
    "have a band that contains 0. That is the plain reads, not the counters: plain rdtsc can execute early, before "
    "the load that sees the message, so a receive stamp can be taken before the message arrived. Its one-way "
    "latencies come out too small in one direction, which shifts the measured band by as much: a false offset. The "
    "matrix with receive lfence_rdtsc, whose read waits for earlier loads, is the one that decides the verdict.";

}  // namespace

TEST_CASE("report builder: the terminal's answer: the verdict, the read, where the report is, 100 columns") {
  ReportInputs in = full();
  const std::string reason = check_reason_text(in.check);
  REQUIRE(reason.size() > 100);  // wrapped, as wrap_columns does (tested below)
  const std::string answer = report_answer_text(in, "r2");
  CHECK(answer ==
        wrap_columns(reason) +
            "read with lfence_rdtsc: 70 ticks (35.0 ns) per read, the cheapest read here that waits for earlier\n"
            "  loads with no causality violation\nreport: r2/report.html (report.md beside it)\n");
  for (std::size_t from = 0, to; (to = answer.find('\n', from)) != std::string::npos; from = to + 1) {
    const std::string line = answer.substr(from, to - from);
    INFO(line);
    CHECK(line.size() - static_cast<std::size_t>(std::count(line.begin(), line.end(), '\xB1')) <= 100);  // ± is 2 bytes
  }
  in.variants->verdict.recommended.reset();
  CHECK_THAT(report_answer_text(in, "r2/"),
             Catch::Contains("\nread: no read that waits for earlier loads was free of causality violations here "
                             "(see the report's\n  read variants)\nreport: r2/report.html (report.md beside it)\n"));
  in.variants.reset();
  CHECK_THAT(report_answer_text(in, "out"),
             Catch::Contains("\nread with lfence_rdtsc, the ordering read of the verdict's run (its cost is not "
                             "known: the read\n  variants were not measured)\n"));
}

TEST_CASE("report builder: wrap_columns keeps a line's spaces, cuts at the last space that fits, indents the rest") {
  CHECK(wrap_columns("aaa bbb ccc", 7) == "aaa bbb\n  ccc\n");
  CHECK(wrap_columns("aaa bbb ccc", 11) == "aaa bbb ccc\n");
  CHECK(wrap_columns("cpus    0-1 (2 CPUs)\ndesign  all pairs: every one", 14, 8) ==
        "cpus    0-1 (2\n        CPUs)\ndesign  all\n        pairs:\n        every\n        one\n");
  CHECK(wrap_columns("averyveryverylongword and more", 8) == "averyveryverylongword\n  and\n  more\n");
  CHECK(wrap_columns("±131 ns ±1", 8) == "±131 ns\n  ±1\n");  // ± is one column
}

TEST_CASE("report builder: two CPUs make one pair: its bands, no worst CPUs and no median of two") {
  ReportInputs in = full();
  // Each role's own band, and the pair's over both roles, [-74, -2] in 0->1's frame.
  for (PairCell& c : in.ordered.matrix.cells) {
    if (!c.measured) continue;
    c.role_offset_ticks = c.offset_ticks;
    c.role_band_feasible = c.band_feasible = true;
    c.role_offset_lo_ticks = c.offset_ticks - 40;
    c.role_offset_hi_ticks = c.offset_ticks + 36;
    c.band_source = BandSource::both_roles;
  }
  PairCell& ab = in.ordered.matrix.cells[1];
  PairCell& ba = in.ordered.matrix.cells[2];
  ab.offset_lo_ticks = -74, ab.offset_hi_ticks = -2;
  ba.offset_lo_ticks = 2, ba.offset_hi_ticks = 74;
  in.ordered.matrix.cpu = solve_cpu_offsets(in.ordered.matrix.cpus, in.ordered.matrix.cells, 2);
  const ReportDoc doc = build_report_doc(in);
  CHECK(titles(doc) == std::vector<std::string>{"Verdict", "Diagnosis", "The pair", "Offsets", "Latency",
                                                "Plain rdtsc: what speculation does here",
                                                "Read variants: what each costs, what each gets wrong",
                                                "Per-pair verdicts", "Platform", "How this report was made"});
  const ReportSection& s = section(doc, "The pair", 3);
  CHECK(s.blocks[0].text ==
        "Two CPUs make one pair, 0 and 1, measured in both roles: 0 initiates, then 1. There is no worst CPU to "
        "single out: each role's band bounds the same difference of the two counters, seen from either side (the "
        "offset of 1->0 is minus that of 0->1).");
  CHECK(s.blocks[1].items ==
        std::vector<std::string>{
            "role\toffset\tits own band, ticks\tone-way latency bound (rtt min / 2)\tcausality violations\tcheck",
            "0->1\t-38 ticks (-19.0 ns)\t[-78, -2]\t150 ticks (75.0 ns)\t0\tpasses",
            "1->0\t+38 ticks (+19.0 ns)\t[-2, 74]\t160 ticks (80.0 ns)\t0\tpasses"});
  CHECK(s.blocks[2].text.starts_with("Together, every round of both roles puts TSC_1 - TSC_0 in [-74, -2] ticks"));
  // Opposite estimates need no word; others do.
  in.ordered.matrix.cells[2].role_offset_ticks = 20;
  CHECK(section(build_report_doc(in), "The pair", 4).blocks[3].text ==
        "The two estimates, -38 ticks (-19.0 ns) and +20 ticks (+10.0 ns), are not opposite, and need not be: each "
        "is one point inside its own band, set by that role's delays. Read the bands.");
  // No section speaks of a median or the worst of two CPUs.
  for (const ReportSection& sec : doc.sections) {
    for (const ReportBlock& b : sec.blocks) {
      INFO(sec.title << ": " << b.text);
      CHECK(b.text.find("Worst") == std::string::npos);
      CHECK(b.text.find("median per-CPU") == std::string::npos);
      CHECK(b.text.find("Median over pairs") == std::string::npos);
      CHECK(b.text.find("Median minimum") == std::string::npos);
    }
  }
  CHECK(section(doc, "Latency", 3).blocks[0].text ==
        "Round trip (t4 - t1) - (t3 - t2) per pair: same-clock on both sides, so no offset is in it. Minimum: 300 "
        "ticks (150.0 ns) for 0->1, 320 ticks (160.0 ns) for 1->0; median: 340 ticks (170.0 ns) for 0->1, 360 "
        "ticks (180.0 ns) for 1->0.");
}

TEST_CASE("report builder: a plain band that excludes 0 is explained where it appears") {
  const ReportDoc doc = build_report_doc(with_false_plain_offset());
  SECTION("in the plain pairs' list: the explanation right before, the pair marked") {
    const ReportSection& s = section(doc, "Per-pair verdicts", 5);
    CHECK(s.blocks[3].kind == Kind::paragraph);
    CHECK(s.blocks[3].text == std::string("With plain rdtsc: ") + kFalseOffset);
    REQUIRE(s.blocks[4].kind == Kind::bullets);
    REQUIRE(s.blocks[4].items.size() == 2);
    CHECK(s.blocks[4].items[0] ==
          "0->1: offset of -37 ticks (-18.5 ns): b's counter is behind a's; the band [-63, -11] ticks excludes 0 (a "
          "false offset of the early plain reads, as said above) (details: matrix_plain_rdtsc/pairs/pair_0_1.txt)");
    CHECK(s.blocks[4].items[1].find("false offset") == std::string::npos);
  }
  SECTION("in the plain section, before its pictures and figures") {
    const ReportSection& s = section(doc, "Plain rdtsc: what speculation does here", 4);
    CHECK(s.blocks[1].text == kFalseOffset);
    CHECK(s.blocks[2].kind == Kind::picture);
  }
  SECTION("a shorter plain round trip says why") {
    ReportInputs in = with_false_plain_offset();
    in.plain->matrix.cells[1].rtt_min_ticks = 100;
    CHECK_THAT(section(build_report_doc(in), "Plain rdtsc: what speculation does here", 4).blocks[0].text,
               Catch::EndsWith("Smallest round trip of the pair: plain 100 ticks (50.0 ns), lfence_rdtsc 300 ticks "
                               "(150.0 ns). The plain round trip is shorter not because the pair is faster: the "
                               "plain read is cheaper, and a receive read that runs early stamps the message before "
                               "it has arrived. The ordering read's round trip is the one to trust."));
  }
  SECTION("not where the plain bands all hold 0") {
    const ReportDoc clean = build_report_doc(full());
    CHECK(section(clean, "Per-pair verdicts", 5).blocks[3].text == "With plain rdtsc:");
    section(clean, "Plain rdtsc: what speculation does here", 3);
  }
}

TEST_CASE("report builder: the verdict is a block of its own with its outcome, and warnings read as sentences") {
  ReportInputs in = full();
  in.warnings = {{"virtual_machine", "running under a hypervisor (KVMKVMKVM)",
                  "the counters measured are this guest's virtual TSCs; measure on bare metal"}};
  const ReportDoc doc = build_report_doc(in);
  const ReportSection& s = section(doc, "Verdict", 5);
  CHECK(s.blocks[0].kind == Kind::verdict);
  CHECK(s.blocks[0].path == "synchronized");
  CHECK(s.blocks[4].items == std::vector<std::string>{"virtual_machine: running under a hypervisor (KVMKVMKVM). The "
                                                      "counters measured are this guest's virtual TSCs; measure on "
                                                      "bare metal."});
  in.check.outcome = CheckOutcome::not_synchronized;
  CHECK(build_report_doc(in).sections[0].blocks[0].path == "not_synchronized");
}

TEST_CASE("report builder: how it was made names only the parts the report has") {
  ReportInputs in = full();
  in.plain.reset();
  in.variants.reset();
  in.info_files = false;
  const ReportSection how = section(build_report_doc(in), "How this report was made", 2);
  REQUIRE(how.blocks[1].items.size() == 3);
  CHECK(how.blocks[1].items[0] == "pair_verdicts.txt: every ordered pair's verdict, one line each");
  CHECK(how.blocks[1].items[1].starts_with("matrix/: the all-pairs run with receive lfence_rdtsc"));
  CHECK(how.blocks[1].items[2].starts_with("Redraw a heatmap"));
}
