// The variants decision and its JSON on inputs recorded on the development machine
// (tests/data/variants: four send/recv combinations in both roles, 1000 rounds each, and
// the read costs of the same run). Figures are checked against the raw rounds directly;
// the whole JSON against expected.json, written by this same test when
// TSCAUDIT_UPDATE_GOLDEN=1 is set (then read it before committing it).
#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <memory>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "formats/run_format.hpp"
#include "io/output_file.hpp"
#include "render/variants_output.hpp"
#include "variants/variants.hpp"

using namespace tscaudit;

namespace {

const std::string kDir = TSCAUDIT_TEST_DATA "/variants/";

CostStats stats_of(const nlohmann::json& j) {
  CostStats s;
  s.min = j.at("min").get<double>();
  s.p50 = j.at("p50").get<double>();
  s.mean = j.at("mean").get<double>();
  s.p99_9 = j.at("p99.9").get<double>();
  s.samples = j.at("samples").get<std::uint64_t>();
  return s;
}

std::vector<ReadCost> recorded_costs() {
  std::ifstream in(kDir + "read_cost.json");
  REQUIRE(in);
  const nlohmann::json j = nlohmann::json::parse(in);
  std::vector<ReadCost> out;
  for (const nlohmann::json& c : j.at("read_cost")) {
    ReadCost r;
    r.name = c.at("variant").get<std::string>();
    r.tsc_variant = c.at("tsc_variant").get<bool>();
    r.batch_ticks = stats_of(c.at("batch_ticks"));
    r.delta_ticks = stats_of(c.at("deltas_ticks"));
    r.believe = c.at("believe").get<std::string>() == "deltas" ? CostMethod::deltas : CostMethod::batch;
    r.believe_reason = c.at("believe_reason").get<std::string>();
    r.resolution_ticks = c.at("resolution_ticks").get<double>();
    out.push_back(r);
  }
  return out;
}

struct Recorded {
  VariantsResult result;
};

Recorded recorded() {
  Recorded rec;
  VariantsResult& r = rec.result;
  r.cpu_a = 0;
  r.cpu_b = 1;
  r.rounds_per_combination = 2000;
  r.passes = 1;
  r.read_costs = recorded_costs();
  for (const std::string recv : {"rdtsc", "rdtsc_lfence", "lfence_rdtsc", "rdtscp"}) {
    std::vector<std::shared_ptr<const Run>> runs;
    std::vector<std::shared_ptr<const PairAnalysis>> analyses;
    for (const char* role : {"0_1", "1_0"}) {
      const std::string name = "rdtsc_" + recv + "_" + role + ".csv";
      runs.push_back(std::make_shared<const Run>(read_run_file(kDir + name)));
      analyses.push_back(std::make_shared<const PairAnalysis>(analyze_run(*runs.back(), name)));
    }
    r.exchanges.push_back(summarize_exchange({ReadVariant::rdtsc, *parse_variant(recv)}, runs, analyses));
  }
  r.tsc_hz = std::stod(std::string(*r.exchanges.front().runs.front()->header.get("tsc_hz")));
  for (const ExchangeSummary& e : r.exchanges) r.quantum_ticks = std::max(r.quantum_ticks, e.quantum_ticks);
  r.reference_bands = reference_bands(r.exchanges);
  check_against_reference(r.exchanges, r.reference_bands);
  r.verdict = decide_variants(r.read_costs, r.exchanges, std::nullopt, r.tsc_hz);
  return rec;
}

}  // namespace

TEST_CASE("variants recorded: the figures match the raw rounds", "[variants]") {
  const Recorded rec = recorded();
  const VariantsResult& r = rec.result;
  REQUIRE(r.exchanges.size() == 4);
  for (std::size_t k = 0; k < 4; ++k) {
    const ExchangeSummary& e = r.exchanges[k];
    std::uint64_t negative = 0;
    std::int64_t rtt_min = INT64_MAX;
    for (const auto& run : e.runs) {
      for (const Round& x : run->rounds) {
        negative += (fwd_ticks(x) < 0 ? 1u : 0u) + (rev_ticks(x) < 0 ? 1u : 0u);
        rtt_min = std::min(rtt_min, rtt_ticks(x));
      }
    }
    CHECK(e.rounds == 2000);
    CHECK(e.negative == negative);
    CHECK(e.rtt_ticks.min() == rtt_min);
  }
  // What this recording shows: plain receive reads gave negative one-way latencies (908
  // reverse ones in the first visit of 0->1 alone), the ordering receive reads none.
  CHECK(r.exchanges[0].negative > 900);
  CHECK(r.exchanges[2].negative == 0);
  CHECK(r.exchanges[3].negative == 0);
  // And the plain minimum round trip is shorter than the ordering ones.
  CHECK(r.verdict.inflation[2].rtt_min_over_plain_ticks > 0);
  REQUIRE(r.exchanges[0].rtt_ticks.negative_count() == 0);  // the recording has no rtt < 0
  CHECK(r.verdict.inflation[3].rtt_min_over_plain_ticks ==
        r.exchanges[3].rtt_ticks.min() - r.exchanges[0].rtt_ticks.min());

  // The recommendation: the ordering read with the lower believed p50 of the recording.
  const double lfence = *believed_cost_ticks(r.read_costs, "lfence_rdtsc");
  const double rdtscp = *believed_cost_ticks(r.read_costs, "rdtscp");
  REQUIRE(r.verdict.recommended);
  CHECK(r.verdict.recommended->recv == (rdtscp < lfence ? ReadVariant::rdtscp : ReadVariant::lfence_rdtsc));
  CHECK(r.verdict.recommended->orders_earlier_loads);
}

TEST_CASE("variants recorded: the whole JSON", "[variants]") {
  const Recorded rec = recorded();
  const std::string got = variants_json(rec.result).dump(2) + "\n";
  const std::string path = kDir + "expected.json";
  if (const char* update = std::getenv("TSCAUDIT_UPDATE_GOLDEN"); update != nullptr && std::string(update) == "1") {
    write_text_file(path, got);
  }
  std::ifstream in(path);
  REQUIRE(in);
  std::ostringstream expected;
  expected << in.rdbuf();
  CHECK(got == expected.str());
  // The contract's keys, whatever the figures.
  const nlohmann::json j = nlohmann::json::parse(got);
  CHECK(j.at("schema") == "tscaudit-variants/1");
  CHECK(j.at("read_cost").at(0).at("ticks").contains("p99.9"));
  CHECK(j.at("exchange").at(0).at("rtt_ticks").contains("p50"));
  CHECK(j.at("exchange").at(0).at("classes").at("fwd").contains("causality_violation"));
  CHECK(j.at("exchange").at(0).contains("self_inconsistent"));
  CHECK(j.at("recommendation").contains("recv"));
}
