// The monitor's measuring threads on real CPUs, checked by invariants only: every round
// either recorded or counted lost, in order; faults end the run with an error, not a hang.
#include <catch2/catch.hpp>

#include <sched.h>

#include <chrono>
#include <thread>
#include <vector>

#include "hw_requirements.hpp"
#include "measure/monitor_threads.hpp"

using namespace tscaudit;
using namespace std::chrono_literals;

namespace {

PairConfig pair_config() {
  const std::vector<int> cpus = test::usable_cpus();
  return PairConfig{cpus.at(0), cpus.at(1), std::chrono::milliseconds(2000)};
}

bool wait_until(const std::atomic<int>& value, int target, std::chrono::seconds limit) {
  const auto start = std::chrono::steady_clock::now();
  while (value.load() < target) {
    if (std::chrono::steady_clock::now() - start > limit) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

/// Pops everything; checks order and same-clock consistency; \returns the rounds popped.
struct Drained {
  std::uint64_t rounds = 0;
  std::uint64_t gaps = 0;  // seq numbers skipped between consecutive records
  std::uint64_t out_of_order = 0;
  std::uint64_t same_clock_backwards = 0;
  std::uint64_t next_seq = 0;
  void pop_all(RoundQueue& queue) {
    Round r;
    while (queue.pop(r)) {
      if (r.seq < next_seq) ++out_of_order;
      gaps += r.seq > next_seq ? r.seq - next_seq : 0;
      next_seq = r.seq + 1;
      same_clock_backwards += static_cast<std::uint64_t>(r.t4 < r.t1) + static_cast<std::uint64_t>(r.t3 < r.t2);
      ++rounds;
    }
  }
};

}  // namespace

TEST_CASE("monitor threads: every round recorded or counted lost, in order, same clocks forward") {
  for (Variant recv : {test::kTestVariants.plain, test::kTestVariants.ordered}) {
    INFO("recv " << variant_name(recv));
    MonitorThreads threads(pair_config(), std::size_t{1} << 20);
    start_monitor_threads(test::kTestVariants.plain, recv, threads);
    REQUIRE(wait_until(threads.control().ready, 2, 60s));
    CHECK(threads.a().quantum_reads.size() == kQuantumReads);
    threads.control().go.store(true);
    Drained d;
    const auto start = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - start < 300ms) {
      d.pop_all(threads.queue());
      std::this_thread::sleep_for(5ms);
    }
    threads.join();
    d.pop_all(threads.queue());
    CHECK(threads.error().empty());
    const std::uint64_t lost = threads.control().lost.load();
    CHECK(d.rounds > 0);
    CHECK(d.rounds + lost == threads.a().rounds_done);
    CHECK(d.gaps == lost);  // a lost round leaves exactly one hole in seq
    CHECK(d.out_of_order == 0);
    CHECK(d.same_clock_backwards == 0);
    // b answered every request a completed, and at most the one a stopped before.
    CHECK(threads.b().rounds_done >= threads.a().rounds_done);
    CHECK(threads.b().rounds_done <= threads.a().rounds_done + 1);
  }
}

TEST_CASE("monitor threads: a full queue never blocks the exchange and what it could not take is counted") {
  MonitorThreads threads(pair_config(), 16);
  start_monitor_threads(test::kTestVariants.plain, test::kTestVariants.ordered, threads);
  REQUIRE(wait_until(threads.control().ready, 2, 60s));
  threads.control().go.store(true);
  // Nobody drains: the queue fills after 16 rounds. On a loaded machine the two threads
  // may seldom run at once, so wait for the first lost round rather than for a time.
  const auto start = std::chrono::steady_clock::now();
  while (threads.control().lost.load() == 0 && !threads.control().abort.load() &&
         std::chrono::steady_clock::now() - start < 60s) {
    std::this_thread::sleep_for(10ms);
  }
  threads.join();
  Drained d;
  d.pop_all(threads.queue());
  CHECK(threads.error().empty());
  CHECK(d.rounds == 16);
  CHECK(d.out_of_order == 0);
  CHECK(threads.control().lost.load() > 0);
  CHECK(d.rounds + threads.control().lost.load() == threads.a().rounds_done);
}

TEST_CASE("monitor threads: a partner that never answers ends the initiator after its timeout") {
  PairConfig config = pair_config();
  config.timeout = 200ms;
  MonitorTransport transport;
  RoundQueue queue(16);
  MonitorControl control;
  control.ready.store(1);  // a responder counted ready that never answers (there is none)
  control.go.store(true);  // and no aggregator
  SideOutcome a;
  const auto start = std::chrono::steady_clock::now();
  std::thread initiator(
      [&] { monitor_detail::initiate<counter::PlainRead, counter::PlainRead>(config, transport, queue, control, a); });
  initiator.join();
  CHECK(a.error == "CPU " + std::to_string(config.cpu_b) + " stopped answering: CPU " + std::to_string(config.cpu_a) +
                       " waited more than 200 ms at round 0 while its own thread kept running");
  CHECK(a.rounds_done == 0);
  CHECK(control.abort.load());
  CHECK(std::chrono::steady_clock::now() - start < 30s);  // a generous bound on "no hang", not a timing claim
}

TEST_CASE("monitor threads: a CPU taken away from a measuring thread ends the run with that reason") {
  const PairConfig config = pair_config();
  MonitorThreads threads(config, 1024);
  start_monitor_threads(test::kTestVariants.plain, test::kTestVariants.ordered, threads);
  REQUIRE(wait_until(threads.control().ready, 2, 60s));
  threads.control().go.store(true);
  std::this_thread::sleep_for(20ms);
  // What `taskset -p` or a shrinking cpuset does to the responder: its CPU is gone.
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(static_cast<std::size_t>(config.cpu_a), &set);
  REQUIRE(sched_setaffinity(static_cast<pid_t>(threads.b().tid), sizeof set, &set) == 0);
  const auto start = std::chrono::steady_clock::now();
  while (!threads.control().abort.load() && std::chrono::steady_clock::now() - start < 60s) {
    RoundQueue& q = threads.queue();
    q.consume_all([](const Round&) {});
    std::this_thread::sleep_for(5ms);
  }
  threads.join();
  CHECK(threads.control().abort.load());
  CHECK_THAT(threads.error(),
             Catch::Contains("the responder thread was taken off CPU " + std::to_string(config.cpu_b)));
}
