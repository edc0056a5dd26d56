// stream_matrix_json against the document it stands for: byte for byte the text of
// matrix_json(m, places) with the extra members appended, dump(2) + "\n", on a matrix of
// analyzed simulated pairs (real verdict texts, one pair unmeasured, NaN bands) and on
// edge cases (no CPU, extra members that are empty or nested, text that needs escaping).
#include <catch2/catch.hpp>

#include <cstddef>
#include <string>
#include <vector>

#include "matrix/matrix.hpp"
#include "matrix_fixture.hpp"
#include "render/matrix_output.hpp"

using namespace tscaudit;
using json = nlohmann::ordered_json;

namespace {

/// What write_matrix_dir wrote before it streamed: the document, extra members appended.
std::string document_text(const MatrixResult& m, const json& places, const json& extra) {
  json j = matrix_json(m, places);
  for (const auto& [key, value] : extra.items()) j[key] = value;
  return j.dump(2) + "\n";
}

/// The streamed text, and how many pieces the sink got.
std::string streamed_text(const MatrixResult& m, const json& places, const json& extra, std::size_t* pieces = nullptr) {
  std::string text;
  std::size_t count = 0;
  stream_matrix_json(m, places, extra, [&](std::string_view piece) {
    text += piece;
    ++count;
  });
  if (pieces != nullptr) *pieces = count;
  return text;
}

/// Four CPUs of simulated pairs, CPU 7 two hundred ticks off, the pair 3->5 not measured,
/// the pair 5->3's band taken away (NaN: no band).
MatrixResult simulated_matrix() {
  const std::vector<int> cpus = {1, 3, 5, 7};
  const SimulatedMatrix sim = simulate_matrix(cpus, {0, 0, 0, 200}, {0, 0, 0, 0});
  std::vector<const PairAnalysis*> pairs;
  for (const PairAnalysis& p : sim.analyses) {
    if (!(p.a == "3" && p.b == "5")) pairs.push_back(&p);
  }
  MatrixResult m = build_matrix(cpus, pairs);
  m.labels = {"1", "3", "5", "7 \"odd\""};
  m.boundaries = {2};
  return m;
}

json places_of(const MatrixResult& m) {
  json places = json::array();
  for (std::size_t i = 0; i < m.size(); ++i) {
    places.push_back(
        {{"cpu", m.cpus[i]}, {"package", i < 2 ? 0 : 1}, {"l3", nullptr}, {"group", "P" + std::to_string(i / 2)}});
  }
  return places;
}

}  // namespace

TEST_CASE("stream_matrix_json: the bytes of the document, on analyzed pairs") {
  const MatrixResult m = simulated_matrix();
  REQUIRE(!m.at(1, 2).measured);
  REQUIRE(m.at(0, 3).measured);
  json extra;
  extra["plan"] = {{"design", "all_pairs"}, {"pairs", json::array({json::array({0, 1}), json::array({1, 0})})}};
  extra["elapsed_seconds"] = 12.5;
  extra["status"] = "complete";
  extra["incomplete"] = json::array();
  extra["warnings"] = json::array({{{"code", "x"}, {"message", "a \"quoted\"\nline"}, {"advice", ""}}});
  extra["problems"] = std::vector<std::string>{};
  extra["check"] = {{"synchronized", false}, {"failures", json::array()}, {"empty", json::object()}};
  const std::string expected = document_text(m, places_of(m), extra);
  CHECK(streamed_text(m, places_of(m), extra) == expected);
  // The CPU 7 off shows in the document (it is not an empty matrix that matches).
  CHECK(expected.find("\"verdict\": [") != std::string::npos);
  CHECK(json::parse(expected)["offset_ticks"][1][2].is_null());
}

TEST_CASE("stream_matrix_json: no extra members, places that do not fit, no CPU at all") {
  const MatrixResult m = simulated_matrix();
  CHECK(streamed_text(m, json::array(), json::object()) == document_text(m, json::array(), json::object()));
  CHECK(streamed_text(m, json(nullptr), json::object()) == document_text(m, json(nullptr), json::object()));
  MatrixResult empty;
  empty.cpu = solve_cpu_offsets({}, {}, 1);
  CHECK(streamed_text(empty, json::array(), json::object()) == document_text(empty, json::array(), json::object()));
}

TEST_CASE("stream_matrix_json: a large matrix comes in pieces, the same bytes") {
  // 100 CPUs, a sparse set of pairs measured: about 10,000 cells in each of 17 arrays.
  const std::size_t n = 100;
  MatrixResult m;
  for (std::size_t i = 0; i < n; ++i) m.cpus.push_back(static_cast<int>(i));
  m.cells.assign(n * n, PairCell{});
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b : {(a + 1) % n, (a + 7) % n}) {
      PairCell& c = m.cells[a * n + b];
      c.measured = true;
      c.rounds = 2000 + a;
      c.band_feasible = true;
      c.offset_ticks = 0.1 * static_cast<double>(a) - 3.0 * static_cast<double>(b) + 1e-7;
      c.offset_lo_ticks = c.offset_ticks - 5.5;
      c.offset_hi_ticks = c.offset_ticks + 4.25;
      c.drift_ppb = -1.0 / 3.0;
      c.rtt_min_ticks = 300;
      c.rtt_p50_ticks = 321.5;
      c.causality_violations = a % 3;
      c.drift_detectable = a % 5 == 0;
    }
  }
  m.cpu = solve_cpu_offsets(m.cpus, m.cells, 1);
  std::size_t pieces = 0;
  const std::string text = streamed_text(m, json::array(), json{{"status", "complete"}}, &pieces);
  CHECK(text == document_text(m, json::array(), json{{"status", "complete"}}));
  CHECK(pieces > 1);
}
