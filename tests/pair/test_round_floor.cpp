// Too little evidence is not a verdict: below kMinRoundsForVerdict rounds the analysis says
// so, in every output, and never "synchronized" (docs/method.md §3.1, "Too few rounds").
#include <catch2/catch.hpp>

#include <string>

#include "formats/run_format.hpp"
#include "pair/analyze.hpp"
#include "render/pair_output.hpp"
#include "render/verdict_text.hpp"
#include "simulate/simulate.hpp"

using namespace tscaudit;

namespace {
PairAnalysis analyze_rounds(std::uint64_t rounds) {
  SimulationSpec spec;
  spec.rounds = rounds;
  SimulationTruth truth;
  return analyze_run(simulate(spec, truth), "r.csv");
}

/// Imported rounds, quantum 1: each 200 ticks one way and 200 back, 30 of turnaround.
constexpr const char* kHeader = "# quantum_ticks: 1\nt1,t2,t3,t4\n";
constexpr const char* kRoundAt0 = "0,200,230,430\n";
constexpr const char* kRoundAt1e7 = "10000000,10000200,10000230,10000430\n";
}  // namespace

TEST_CASE("the floor: two rounds, the fewest whose bounds bound the drift", "[floor]") {
  CHECK(kMinRoundsForVerdict == 2);
  CHECK(too_few_rounds(0));
  CHECK(too_few_rounds(1));
  CHECK_FALSE(too_few_rounds(2));
  CHECK(too_few_rounds_text(1) == "too few rounds to bound the offset (1 round; at least 2 needed)");
  CHECK(too_few_rounds_text(0) == "too few rounds to bound the offset (0 rounds; at least 2 needed)");
}

TEST_CASE("one round: too few rounds, not synchronized", "[floor]") {
  const PairAnalysis one = analyze_rounds(1);
  CHECK(one.rounds == 1);
  CHECK(one.verdict.kind == VerdictKind::too_few_rounds);
  CHECK(verdict_text(one.verdict) == "too few rounds to bound the offset (1 round; at least 2 needed)");
  // Its drift band is the prior's alone: +-10^-3, 1e6 ppb.
  CHECK(one.free_fit.band.drift_lo == Approx(-1e-3));
  CHECK(one.free_fit.band.drift_hi == Approx(1e-3));
  const std::string text = analysis_text(one);
  CHECK(text.substr(0, text.find('\n')) == "r.csv: inconclusive: too few rounds to bound the offset (1 round; at least 2 needed)");
  CHECK(text.find("1 round\n") != std::string::npos);  // the header line says "1 round", not "1 rounds"
  const auto j = analysis_json({one});
  CHECK(j["pairs"][0]["verdict_kind"] == "too_few_rounds");
}

TEST_CASE("two rounds: a verdict, and their bounds, not the prior, bound the drift", "[floor]") {
  const PairAnalysis two = analyze_rounds(2);
  CHECK(two.rounds == 2);
  CHECK(two.verdict.kind == VerdictKind::synchronized);
  // One imported round: the prior's drift band whatever the round says.
  const PairAnalysis one = analyze_run(parse_run(std::string(kHeader) + kRoundAt0, "one.csv"), "one.csv");
  CHECK(one.verdict.kind == VerdictKind::too_few_rounds);
  CHECK(one.free_fit.band.drift_lo == Approx(-1e-3));
  CHECK(one.free_fit.band.drift_hi == Approx(1e-3));
  // The same round and one 10^7 ticks later: from the first round's reverse bound to the
  // second's forward bound, (200 + 1 + 200 + 1) / (10^7 - 430) up; from the first's forward
  // bound to the second's reverse bound, 402 / (10^7 + 430) down: 40.2 ppm, far inside the
  // prior's 1000 ppm.
  const PairAnalysis spread =
      analyze_run(parse_run(std::string(kHeader) + kRoundAt0 + kRoundAt1e7, "two.csv"), "two.csv");
  CHECK(spread.verdict.kind == VerdictKind::synchronized);
  CHECK(spread.free_fit.band.drift_hi == Approx(402.0 / (1e7 - 430)));
  CHECK(spread.free_fit.band.drift_lo == Approx(-402.0 / (1e7 + 430)));
}
