#include <catch2/catch.hpp>

#include "measure/pair_run.hpp"

using namespace tscaudit;

namespace {

/// Records of a clean run of `total` rounds on CPUs 0 -> 1: t1 = 1000 i, t2 = t1 + 100,
/// t3 = t2 + 10, t4 = t3 + 100; payload sums consistent; no switches, no migration.
ExchangeResult clean(const ExchangeConfig& config) {
  ExchangeResult r;
  const std::uint64_t total = config.total_rounds();
  for (SideRecord* side : {&r.a, &r.b}) {
    side->first.assign(total, 0);
    side->second.assign(total, 0);
    side->edges.assign(config.chunk_edges(), ThreadSnapshot{5, side == &r.a ? config.cpu_a : config.cpu_b});
    side->rounds_done = total;
  }
  for (std::uint64_t i = 0; i < total; ++i) {
    r.a.first[i] = 1000 * i;
    r.b.first[i] = 1000 * i + 100;
    r.b.second[i] = 1000 * i + 110;
    r.a.second[i] = 1000 * i + 210;
    r.a.payload_sum += r.b.second[i];
    r.b.payload_sum += r.a.first[i];
  }
  return r;
}

ExchangeConfig config_of(std::uint64_t rounds, std::uint64_t warmup) {
  ExchangeConfig c;
  c.cpu_a = 0;
  c.cpu_b = 1;
  c.rounds = rounds;
  c.warmup = warmup;
  return c;
}

}  // namespace

TEST_CASE("warm-up rounds are dropped and the rest merged by index") {
  const ExchangeConfig config = config_of(10000, 1000);
  const Run run = assemble_run(clean(config), config);
  REQUIRE(run.rounds.size() == 10000);
  CHECK(run.rounds.front() == Round{0, 1000000, 1000100, 1000110, 1000210, 0});
  CHECK(run.rounds.back() == Round{9999, 10999000, 10999100, 10999110, 10999210, 0});
  CHECK(*run.trailer.get("payload_check") == "ok");
  CHECK(*run.trailer.get("chunks") == "3");  // 11000 rounds in chunks of 4096
  CHECK_FALSE(run.trailer.get("error").has_value());
}

TEST_CASE("interference flags cover exactly the chunk where it was seen") {
  const ExchangeConfig config = config_of(10000, 1000);
  ExchangeResult r = clean(config);
  // a was switched out during chunk 1 (rounds 4096..8191): edge 1 -> edge 2 grows.
  r.a.edges[2].context_switches = 6;
  r.a.edges[3].context_switches = 6;
  // b was seen on CPU 0 at edge 3, the final edge: chunk 2 (8192..10999) is migrated.
  r.b.edges[3].cpu = 0;
  const Run run = assemble_run(r, config);
  for (const Round& round : run.rounds) {
    const std::uint64_t i = round.seq + 1000;  // index including warm-up
    const std::uint32_t expected = i < 4096   ? 0u
                                   : i < 8192 ? std::uint32_t{kFlagSwitchA}
                                              : std::uint32_t{kFlagMigrated};
    REQUIRE(round.flags == expected);
  }
  CHECK(*run.trailer.get("chunks_with_switches_a") == "1");
  CHECK(*run.trailer.get("chunks_with_switches_b") == "0");
  CHECK(*run.trailer.get("chunks_with_migration") == "1");
}

TEST_CASE("a payload that arrived altered fails the run") {
  const ExchangeConfig config = config_of(100, 0);
  ExchangeResult r = clean(config);
  r.b.payload_sum += 1;
  const Run run = assemble_run(r, config);
  CHECK(*run.trailer.get("payload_check") == "mismatch");
  CHECK(*run.trailer.get("error") == "a TSC value arrived altered (payload checksum mismatch)");
}

TEST_CASE("an aborted run keeps the rounds both sides completed, with the reason") {
  const ExchangeConfig config = config_of(10000, 100);
  ExchangeResult r = clean(config);
  r.b.rounds_done = 5000;  // b stopped answering in round 5000
  r.a.rounds_done = 5000;
  r.b.payload_sum = 0;
  r.a.payload_sum = 0;
  for (std::uint64_t i = 0; i < 5000; ++i) {
    r.a.payload_sum += r.b.second[i];
    r.b.payload_sum += r.a.first[i];
  }
  r.error = "CPU 1 stopped answering: CPU 0 waited more than 2000 ms at round 5000";
  const Run run = assemble_run(r, config);
  CHECK(run.rounds.size() == 4900);
  CHECK(run.rounds.back().seq == 4899);
  CHECK(*run.trailer.get("payload_check") == "ok");
  CHECK(*run.trailer.get("error") == r.error);
  CHECK(*run.trailer.get("chunks") == "2");
}

TEST_CASE("a run that failed before its first round has no rounds and says why") {
  const ExchangeConfig config = config_of(100, 10);
  ExchangeResult r;
  r.a.error = "cannot pin a thread to CPU 0: pthread_setaffinity_np: Invalid argument";
  r.error = r.a.error;
  const Run run = assemble_run(r, config);
  CHECK(run.rounds.empty());
  CHECK(*run.trailer.get("error") == r.error);
}
