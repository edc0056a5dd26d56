// matrix_text's pairs table on fabricated matrices, exact: every pair the plan measures up
// to every ordered pair of 64 CPUs, a summary beyond, and the pairs a sparse design leaves
// out not listed at all.
#include <catch2/catch.hpp>

#include <cstddef>
#include <string>
#include <vector>

#include "matrix/matrix.hpp"
#include "render/matrix_output.hpp"
#include "unwrap_text.hpp"

using namespace tscaudit;

namespace {

/// n CPUs numbered 0..n-1, every ordered pair measured: offset = a·n + b ticks (the largest
/// |offset| at the end of the matrix), rtt min = 100000 − (a·n + b) (the largest at its
/// start). No per-CPU solution: those figures print "-".
MatrixResult fabricated(std::size_t n) {
  MatrixResult m;
  for (std::size_t i = 0; i < n; ++i) m.cpus.push_back(static_cast<int>(i));
  m.cells.assign(n * n, PairCell{});
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      if (a == b) continue;
      PairCell& c = m.cells[a * n + b];
      c.measured = true;
      c.rounds = 2000;
      c.offset_ticks = static_cast<double>(a * n + b);
      c.offset_lo_ticks = c.offset_ticks - 5;
      c.offset_hi_ticks = c.offset_ticks + 5;
      c.rtt_min_ticks = 100000 - static_cast<double>(a * n + b);
      c.rtt_p50_ticks = c.rtt_min_ticks + 20;
    }
  }
  m.cpu.offset_ticks = m.cpu.lo_ticks = m.cpu.hi_ticks = std::vector<double>(n, kNoValue);
  return m;
}

/// The lines of the pairs table: those that start with a pair name ("  12->3").
std::vector<std::string> pair_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find('\n', at);
    const std::string line = text.substr(at, end - at);
    const std::size_t arrow = line.find("->");
    if (line.starts_with("  ") && arrow != std::string::npos && arrow < 8 && line[2] >= '0' && line[2] <= '9') {
      lines.push_back(line);
    }
    at = end == std::string::npos ? text.size() : end + 1;
  }
  return lines;
}

std::string name_of(const std::string& line) { return line.substr(2, line.find(' ', 2) - 2); }

}  // namespace

TEST_CASE("matrix_text: every ordered pair of 64 CPUs is listed") {
  const std::string text = test::unwrapped(matrix_text(fabricated(64)));
  CHECK(pair_lines(text).size() == std::size_t{64} * 63);
  CHECK(text.find("Pairs (a initiates, b responds; offset = TSC_b - TSC_a)\n  pair ") != std::string::npos);
  CHECK(text.find("too many to list") == std::string::npos);
  CHECK(text.find("least squares over all pairs") != std::string::npos);
}

TEST_CASE("matrix_text: past 64 CPUs' worth of pairs, the largest offsets and round trips, and where the rest are") {
  MatrixResult m = fabricated(65);
  m.cells[3 * 65 + 4] = PairCell{};             // planned, not measured
  m.cells[5 * 65 + 6].drift_detectable = true;  // counted, not listed
  const std::string text = test::unwrapped(matrix_text(m));  // whole lines, as before their wrapping
  CHECK(text.find("\nPairs (a initiates, b responds; offset = TSC_b - TSC_a)\n"
                  "  4160 pairs are too many to list here: the largest offsets and round trips follow; every pair is "
                  "in matrix.json, analysis.json and the .dat files of the output directory (--out DIR), or in "
                  "--format json\n"
                  "  pair        offset") != std::string::npos);
  const std::vector<std::string> lines = pair_lines(text);
  REQUIRE(lines.size() == 2 * kSummaryPairs);
  // Largest |offset| first: the end of the matrix, 64->63 down to 64->54.
  for (std::size_t k = 0; k < kSummaryPairs; ++k) CHECK(name_of(lines[k]) == "64->" + std::to_string(63 - k));
  // Largest minimum rtt: the start, 0->1 up to 0->10.
  for (std::size_t k = 0; k < kSummaryPairs; ++k) {
    CHECK(name_of(lines[kSummaryPairs + k]) == "0->" + std::to_string(k + 1));
  }
  CHECK(lines[0] == "  64->63        4223     4218     4228         -    95780    95800          0         0");
  CHECK(text.find("  largest |offset|:\n  64->63 ") != std::string::npos);
  CHECK(text.find("  largest rtt min:\n  0->1 ") != std::string::npos);
  CHECK(text.find("\n  4139 other measured pairs not listed; 1 not measured; 1 with detectable drift, 0 with a "
                  "proven offset step\n") != std::string::npos);
}

TEST_CASE("matrix_text: a sparse design lists its own pairs only and says so") {
  // 8 CPUs, the ring i <-> i+1 in both roles: 16 of the 56 ordered pairs.
  MatrixResult m = fabricated(8);
  m.planned.assign(64, 0);
  for (std::size_t i = 0; i < 8; ++i) {
    const std::size_t j = (i + 1) % 8;
    m.planned[i * 8 + j] = m.planned[j * 8 + i] = 1;
  }
  for (std::size_t k = 0; k < 64; ++k) {
    if (m.planned[k] == 0) m.cells[k] = PairCell{};
  }
  m.cells[1 * 8 + 2] = PairCell{};  // planned, not measured
  CHECK(pairs_left_out(m) == 40);
  CHECK(pairs_left_out(fabricated(8)) == 0);
  const std::string text = test::unwrapped(matrix_text(m));  // whole lines, as before their wrapping
  CHECK(test::flattened(text).find(
            "least squares over the pairs of the sparse design, hard bounds from the pair bands") != std::string::npos);
  CHECK(test::flattened(text).find("Pairs (a initiates, b responds; offset = TSC_b - TSC_a): the 16 ordered pairs of "
                                   "a sparse design, of 56 pair ") != std::string::npos);
  const std::vector<std::string> lines = pair_lines(text);
  REQUIRE(lines.size() == 16);
  CHECK(name_of(lines.front()) == "0->1");
  CHECK(name_of(lines[1]) == "0->7");
  CHECK(lines[3] == "  1->2        not measured");
}

TEST_CASE("matrix notes: the pairs without rounds and the incomplete ones, in one line however many") {
  CHECK(unmeasured_pairs_note({"0->1"}) == "pair 0->1: no round completed; left unmeasured");
  CHECK(unmeasured_pairs_note({"0->1", "1->0"}) == "2 ordered pairs have no round and are left unmeasured: 0->1, 1->0");
  std::vector<std::string> many;
  for (int b = 1; b <= 9; ++b) many.push_back("0->" + std::to_string(b));
  CHECK(unmeasured_pairs_note(many) ==
        "9 ordered pairs have no round and are left unmeasured: 0->1, 0->2, 0->3, 0->4, 0->5, 0->6, 0->7, 0->8, ...");
  many.pop_back();
  CHECK(unmeasured_pairs_note(many) ==
        "8 ordered pairs have no round and are left unmeasured: 0->1, 0->2, 0->3, 0->4, 0->5, 0->6, 0->7, 0->8");
  CHECK(incomplete_pairs_note({"0->1 (status is 'aborted')"}, 2) ==
        "1 of 2 pairs' runs are not complete, analyzed as they are: 0->1 (status is 'aborted')");
}

TEST_CASE("cpu places JSON: each CPU's levels in topology order, null where unknown") {
  const std::vector<CpuPlace> places = {{.cpu = 2, .package = 0, .l3 = 0, .core = 1},
                                        {.cpu = 0, .package = 0, .numa = 0, .l3 = 0, .core = 0},
                                        {.cpu = 5}};
  CHECK(cpu_places_json(order_by_topology(places, {0, 5, 2})).dump() ==
        R"([{"cpu":2,"package":0,"die":null,"numa":null,"l3":0,"core":1,"group":"p0 l3:0 c1"},)"
        R"({"cpu":0,"package":0,"die":null,"numa":0,"l3":0,"core":0,"group":"p0 l3:0 c0"},)"
        R"({"cpu":5,"package":null,"die":null,"numa":null,"l3":null,"core":null,"group":""}])");
}
