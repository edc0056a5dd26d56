// The exchange on real CPUs, checked by invariants only (never by timings).
#include <catch2/catch.hpp>

#include <filesystem>

#include "app/measure_command.hpp"
#include "core/cpu_list.hpp"
#include "formats/run_format.hpp"
#include "hw_requirements.hpp"
#include "measure/exchange.hpp"
#include "measure/pair_run.hpp"
#include "measure/wait.hpp"

using namespace tscaudit;

namespace {

ExchangeConfig pair_config(std::uint64_t rounds, std::uint64_t warmup = 1000) {
  const std::vector<int> cpus = test::usable_cpus();
  ExchangeConfig c;
  c.cpu_a = cpus.at(0);
  c.cpu_b = cpus.at(1);
  c.rounds = rounds;
  c.warmup = warmup;
  return c;
}

/// Invariants of a complete run: every round present and in order, same-clock
/// differences non-negative, payloads intact, no migration of a pinned thread.
void check_complete_run(const ExchangeResult& result, const ExchangeConfig& config) {
  REQUIRE(result.complete());
  CHECK(result.a.rounds_done == config.total_rounds());
  CHECK(result.b.rounds_done == config.total_rounds());
  const Run run = assemble_run(result, config);
  REQUIRE(run.rounds.size() == config.rounds);
  CHECK(*run.trailer.get("payload_check") == "ok");
  CHECK(*run.trailer.get("chunks_with_migration") == "0");
  std::uint64_t bad_same_clock = 0, bad_order = 0;
  for (std::size_t i = 0; i < run.rounds.size(); ++i) {
    const Round& r = run.rounds[i];
    bad_order += r.seq != i;
    // One counter per side: t4 after t1 on a, t3 after t2 on b, whatever the offset.
    bad_same_clock += r.t4 < r.t1 || r.t3 < r.t2;
    if (i > 0) bad_same_clock += r.t1 < run.rounds[i - 1].t4;  // a's rounds follow each other
  }
  CHECK(bad_order == 0);
  CHECK(bad_same_clock == 0);
}

/// A transport whose responder goes silent after `kAnswered` replies: the initiator must
/// give up after the timeout, not hang.
constexpr std::uint64_t kAnswered = 500;
struct SilentAfter {
  void send(Message m) noexcept {
    if (m.seq <= kAnswered) slot.send(m);
  }
  [[nodiscard]] bool try_receive(std::uint64_t last, Message& out) noexcept { return slot.try_receive(last, out); }
  Slot slot;
};
struct SilentTransport {
  alignas(kFalseSharingBytes) Slot a_to_b;
  alignas(kFalseSharingBytes) SilentAfter b_to_a;
};

}  // namespace

TEST_CASE("slot exchange: complete, ordered, same-clock consistent, pinned") {
  const test::TestVariants& v = test::kTestVariants;
  for (Variant recv : {v.plain, v.ordered, v.other}) {
    const ExchangeConfig config = pair_config(200000);
    INFO("recv " << variant_name(recv));
    check_complete_run(run_exchange({v.plain, recv, TransportKind::slot}, config), config);
  }
}

TEST_CASE("switching exchange: both halves complete on the same threads, the second after the first") {
  const ExchangeConfig first = pair_config(20'000);
  ExchangeConfig second = first;
  second.warmup = 0;
  const std::array<ExchangeResult, 2> results = run_switch_exchange(test::kTestVariants.ordered, first, second);
  check_complete_run(results[0], first);
  check_complete_run(results[1], second);
  const Run one = assemble_run(results[0], first);
  const Run two = assemble_run(results[1], second);
  // a's counter: the second half starts after the first half's last reply.
  CHECK(two.rounds.front().t1 >= one.rounds.back().t4);
}

TEST_CASE("queue exchange: the same invariants over boost::lockfree::spsc_queue") {
  const ExchangeConfig config = pair_config(100000);
  check_complete_run(run_exchange({test::kTestVariants.plain, test::kTestVariants.other, TransportKind::queue}, config), config);
}

TEST_CASE("rounds not a multiple of the chunk size, and no warm-up") {
  const ExchangeConfig config = pair_config(kChunkRounds + 17, 0);
  check_complete_run(run_exchange({test::kTestVariants.ordered, test::kTestVariants.ordered, TransportKind::slot}, config), config);
}

TEST_CASE("same-CPU control: one counter, so every round is ordered t1 <= t2 <= t3 <= t4") {
  ExchangeConfig config = pair_config(3000, 100);
  config.cpu_b = config.cpu_a;
  const ExchangeResult result =
      run_exchange({test::kTestVariants.ordered, test::kTestVariants.ordered, TransportKind::slot}, config);
  REQUIRE(result.complete());
  const Run run = assemble_run(result, config);
  REQUIRE(run.rounds.size() == 3000);
  std::uint64_t disorder = 0;
  for (const Round& r : run.rounds) disorder += !(r.t1 <= r.t2 && r.t2 <= r.t3 && r.t3 <= r.t4);
  CHECK(disorder == 0);
}

TEST_CASE("a partner that stops answering ends the run after the timeout, with the rounds done") {
  ExchangeConfig config = pair_config(100000, 0);
  config.timeout = std::chrono::milliseconds(200);
  const auto start = std::chrono::steady_clock::now();
  const ExchangeResult result = run_exchange<counter::PlainRead, counter::PlainRead, SilentTransport, SpinWait>(config);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  REQUIRE_FALSE(result.complete());
  CHECK(result.error == "CPU " + std::to_string(config.cpu_b) + " stopped answering: CPU " +
                            std::to_string(config.cpu_a) +
                            " waited more than 200 ms at round 500 while its own thread kept running");
  CHECK(result.a.rounds_done == kAnswered);
  CHECK(result.b.stopped_by_partner);
  CHECK(elapsed < std::chrono::seconds(30));  // a generous bound on "no hang", not a timing claim
  const Run run = assemble_run(result, config);
  CHECK(run.rounds.size() == kAnswered);
  CHECK(*run.trailer.get("error") == result.error);
}

TEST_CASE("pinning to a CPU outside the mask fails before the first round, on both sides") {
  ExchangeConfig config = pair_config(1000);
  config.cpu_b = kMaxCpu;  // not present on any machine we run on
  const ExchangeResult result = run_exchange({test::kTestVariants.plain, test::kTestVariants.plain, TransportKind::slot}, config);
  REQUIRE_FALSE(result.complete());
  CHECK(result.error.rfind("cannot pin a thread to CPU 8191", 0) == 0);
  CHECK(result.a.rounds_done == 0);
}

TEST_CASE("measure writes a complete, parseable run with its provenance") {
  const auto path = std::filesystem::temp_directory_path() / "tscaudit-test-measure.csv";
  MeasureOptions options;
  options.config = pair_config(20000);
  options.choice = {test::kTestVariants.plain, test::kTestVariants.other_fenced, TransportKind::slot};
  options.out = path.string();
  options.command_line = "test";
  REQUIRE(run_measure(options) == 0);
  const Run run = read_run_file(path.string());
  std::filesystem::remove(path);
  CHECK_FALSE(incomplete_reason(run).has_value());
  CHECK(run.rounds.size() == 20000);
  CHECK(*run.header.get("a") == std::to_string(options.config.cpu_a));
  CHECK(*run.header.get("b") == std::to_string(options.config.cpu_b));
  CHECK(*run.header.get("send") == variant_name(test::kTestVariants.plain));
  CHECK(*run.header.get("recv") == variant_name(test::kTestVariants.other_fenced));
  CHECK(*run.header.get("arch") == arch_name(counter::kHostArch));
  CHECK(*run.header.get("transport") == "slot");
  for (const char* key : {"tool_version", "command", "host", "kernel", "cpu_model", "tsc_hz", "tsc_hz_source",
                          "quantum_ticks", "start_utc", "clocksource"}) {
    INFO(key);
    CHECK(run.header.get(key).has_value());
  }
  for (const char* key : {"end_utc", "rounds_written", "payload_check", "status"}) {
    INFO(key);
    CHECK(run.trailer.get(key).has_value());
  }
}
