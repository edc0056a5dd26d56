// The quick check on real CPUs, by invariants only (never by timings): the adaptive exchange
// of one pair, and libtscaudit's entry point called from two threads at once, leaving the
// calling thread's affinity, errno and scheduling policy as they were.
#include <catch2/catch.hpp>

#include <pthread.h>
#include <sched.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <thread>

#include "estimate/band_settling.hpp"
#include "hw_requirements.hpp"
#include "measure/quick_exchange.hpp"
#include "platform/affinity.hpp"
#include "skip.hpp"
#include "tscaudit.h"

using namespace tscaudit;

namespace {

QuickPairConfig quick_pair(std::uint64_t max_rounds, std::chrono::milliseconds time) {
  const std::vector<int> cpus = test::usable_cpus();
  QuickPairConfig c;
  c.cpu_a = cpus.at(0);
  c.cpu_b = cpus.at(1);
  c.max_rounds = max_rounds;
  c.quantum_reads = 4096;
  c.deadline = std::chrono::steady_clock::now() + time;
  return c;
}

/// Every round in order, each side's counter not going back within a round, a's rounds one
/// after the other, and the count a whole number of blocks unless the rounds ran out.
void check_quick_pair(const QuickPairResult& r, const QuickPairConfig& c) {
  REQUIRE(r.error.empty());
  CHECK(r.a == c.cpu_a);
  CHECK(r.b == c.cpu_b);
  REQUIRE_FALSE(r.rounds.empty());
  CHECK(r.rounds.size() <= c.max_rounds);
  CHECK((r.rounds.size() % kQuickBlockRounds == 0 || r.rounds.size() == c.max_rounds));
  CHECK(r.quantum_ticks >= 1);
  std::uint64_t bad = 0;
  for (std::size_t i = 0; i < r.rounds.size(); ++i) {
    const Round& x = r.rounds[i];
    bad += x.seq != i;
    bad += x.t4 < x.t1 || x.t3 < x.t2;
    if (i > 0) bad += x.t1 < r.rounds[i - 1].t4;
  }
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("quick exchange: one pair stops on its own, in whole blocks, every round in order") {
  const QuickPairConfig c = quick_pair(200000, std::chrono::milliseconds(2000));
  const auto results = run_quick_slot({c}, plain_variant(counter::kHostArch), default_recv_variant(counter::kHostArch));
  REQUIRE(results.size() == 1);
  check_quick_pair(results[0], c);
  // 200,000 rounds take far longer than settling does: the band settled first (or the 2 s ran out).
  CHECK(results[0].rounds.size() < c.max_rounds);
}

TEST_CASE("quick exchange: a deadline already past ends the pair after its first block") {
  const QuickPairConfig c = quick_pair(200000, std::chrono::milliseconds(0));
  const auto results = run_quick_slot({c}, plain_variant(counter::kHostArch), default_recv_variant(counter::kHostArch));
  REQUIRE(results.size() == 1);
  check_quick_pair(results[0], c);
  CHECK(results[0].rounds.size() == kQuickBlockRounds);
  CHECK_FALSE(results[0].settled);
}

TEST_CASE("quick exchange: rounds that run out end the pair at exactly the most rounds") {
  const QuickPairConfig c = quick_pair(300, std::chrono::milliseconds(2000));
  const auto results = run_quick_slot({c}, plain_variant(counter::kHostArch), default_recv_variant(counter::kHostArch));
  REQUIRE(results.size() == 1);
  check_quick_pair(results[0], c);
  CHECK(results[0].rounds.size() == 300);
}

TEST_CASE("libtscaudit: two threads at once each get an answer, and the caller keeps its affinity and errno") {
  const std::vector<int> cpus = test::usable_cpus();
  const std::vector<int> before = this_thread_affinity();
  tscaudit_result results[2];
  int codes[2] = {-1, -1};
  int errnos[2] = {0, 0};
  std::vector<int> affinity_after[2];
  {
    std::jthread threads[2];
    for (int t = 0; t < 2; ++t) {
      threads[t] = std::jthread([&, t] {
        std::memset(&results[t], 0xA5, sizeof results[t]);
        results[t].size = sizeof results[t];
        errno = 4242 + t;
        codes[t] = tscaudit_quick_check(nullptr, &results[t]);
        errnos[t] = errno;
        affinity_after[t] = this_thread_affinity();
      });
    }
  }
  for (int t = 0; t < 2; ++t) {
    CAPTURE(t, results[t].reason);
    CHECK(codes[t] == TSCAUDIT_OK);
    CHECK(errnos[t] == 4242 + t);
    CHECK(affinity_after[t] == before);
    const tscaudit_result& r = results[t];
    CHECK((r.verdict == TSCAUDIT_SYNCHRONIZED || r.verdict == TSCAUDIT_NOT_SYNCHRONIZED ||
           r.verdict == TSCAUDIT_INCONCLUSIVE));
    CHECK(std::strlen(r.reason) > 0);
    CHECK(std::strlen(r.reason) < sizeof r.reason);
    CHECK(r.elapsed_seconds > 0);
    if (r.verdict != TSCAUDIT_INCONCLUSIVE) {
      CHECK(r.cpus == static_cast<int>(cpus.size()));
      CHECK(r.pairs >= 2);
      CHECK(std::isfinite(r.bound_ns));
      CHECK(r.bound_ns > 0);
      CHECK(r.counter_hz > 0);
      CHECK(r.bound_ticks == Approx(r.bound_ns * r.counter_hz / 1e9).epsilon(1e-9));
      CHECK(std::find(cpus.begin(), cpus.end(), r.worst_a) != cpus.end());
      CHECK(std::find(cpus.begin(), cpus.end(), r.worst_b) != cpus.end());
    } else {
      // Two checks at once share two CPUs: a pair may find its partner's CPU busy and not
      // answer within the budget; the reason says which pair.
      CHECK(std::string(r.reason).rfind("inconclusive: ", 0) == 0);
    }
  }
  CHECK(this_thread_affinity() == before);
}

TEST_CASE("libtscaudit: a real-time caller keeps its policy, and the measuring threads do not inherit it") {
  tscaudit_result r{};
  int code = -1, policy_after = -1, policy_before = -1;
  bool made_fifo = false;
  std::jthread caller([&] {
    sched_param param{};
    param.sched_priority = 1;
    made_fifo = pthread_setschedparam(pthread_self(), SCHED_FIFO, &param) == 0;
    if (!made_fifo) return;
    sched_param got{};
    pthread_getschedparam(pthread_self(), &policy_before, &got);
    r.size = sizeof r;
    code = tscaudit_quick_check(nullptr, &r);
    pthread_getschedparam(pthread_self(), &policy_after, &got);
  });
  caller.join();
  if (!made_fifo) {
    test::skip_test("this process may not make a thread SCHED_FIFO (it needs CAP_SYS_NICE or RLIMIT_RTPRIO)");
    return;
  }
  CAPTURE(r.reason);
  CHECK(policy_before == SCHED_FIFO);
  CHECK(policy_after == SCHED_FIFO);
  CHECK(code == TSCAUDIT_OK);
  CHECK(std::strlen(r.reason) > 0);
}
