// Benchmark: rounds per second of the full runner against a minimal reference exchange
// (same slot, same reads, nothing recorded), side by side in one process.
//
//   build/tscaudit_bench [--rounds N] [--reps K] [--cpus A,B]     (defaults 300000, 15)
//
// Both rates come from the same clock the same way: rounds divided by the span from the
// first round's t1 to the last round's t4 on the initiator, converted with the TSC
// frequency. Reference and runner alternate, K times each; the table shows medians and
// the median of the per-repetition ratios. The target is runner >= 90 % of reference.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "app/cli.hpp"
#include "app/report_error.hpp"
#include "bench_stats.hpp"
#include "core/cpu_list.hpp"
#include "core/errors.hpp"
#include "core/format.hpp"
#include "measure/exchange.hpp"
#include "measure/wait.hpp"
#include "platform/affinity.hpp"
#include "platform/platform.hpp"

using namespace tscaudit;
using bench::median;
using bench::quantile;

namespace {

/// The least an exchange can do: ping-pong on the slot with the chosen reads, keeping
/// only the first t1 and the last t4. \returns the span in ticks.
template <class Send, class Recv>
std::uint64_t reference_exchange(int cpu_a, int cpu_b, std::uint64_t rounds) {
  auto transport = std::make_unique<SlotTransport>();
  std::atomic<int> ready{0};
  std::uint64_t span_ticks = 0;
  auto wait_ready = [&] {
    ready.fetch_add(1);
    while (ready.load() < 2) std::this_thread::yield();
  };
  // Everything the loops touch lives in the threads' own registers and stacks: only the
  // two slot lines move between the CPUs, as in the runner.
  std::thread b([&, tr = transport.get()] {
    pin_this_thread(cpu_b);
    wait_ready();
    Message m{};
    std::uint64_t last = 0;
    for (std::uint64_t seq = 1; seq <= rounds; ++seq) {
      while (!tr->a_to_b.try_receive(last, m)) SpinWait::relax();
      const std::uint64_t t2 = Recv::read();
      last = m.seq;
      const std::uint64_t t3 = Send::read();
      tr->b_to_a.send(Message{seq, t3 + (t2 & 1)});  // t2 used, so its read is not dropped
    }
  });
  std::thread a([&, tr = transport.get()] {
    pin_this_thread(cpu_a);
    wait_ready();
    Message m{};
    std::uint64_t last = 0;
    const std::uint64_t first_t1 = Send::read();
    std::uint64_t t4 = 0;
    tr->a_to_b.send(Message{1, first_t1});
    for (std::uint64_t seq = 1;; ++seq) {
      while (!tr->b_to_a.try_receive(last, m)) SpinWait::relax();
      t4 = Recv::read();
      last = m.seq;
      if (seq == rounds) break;
      tr->a_to_b.send(Message{seq + 1, Send::read()});
    }
    span_ticks = t4 - first_t1;
  });
  a.join();
  b.join();
  return span_ticks;
}

struct PairResult {
  std::string name;
  double reference_rate = 0;
  double runner_rate = 0;
  double ratio = 0;
  double ratio_p25 = 0;  // spread of the per-repetition ratios: the host is noisy
  double ratio_p75 = 0;
};

template <class Send, class Recv>
PairResult bench_pair(int cpu_a, int cpu_b, std::uint64_t rounds, int reps, double hz) {
  PairResult r;
  r.name = std::string(Send::name) + " / " + std::string(Recv::name);
  std::vector<double> ref_rates, run_rates, ratios;
  ExchangeConfig config;
  config.cpu_a = cpu_a;
  config.cpu_b = cpu_b;
  config.rounds = rounds;
  config.warmup = 0;
  reference_exchange<Send, Recv>(cpu_a, cpu_b, rounds / 10);  // warm both threads' paths once
  for (int rep = 0; rep < reps; ++rep) {
    const double ref =
        static_cast<double>(rounds) / (static_cast<double>(reference_exchange<Send, Recv>(cpu_a, cpu_b, rounds)) / hz);
    const ExchangeResult result = run_exchange<Send, Recv, SlotTransport, SpinWait>(config);
    if (!result.complete()) throw RuntimeError("runner failed: " + result.error);
    const double span = static_cast<double>(result.a.second.back() - result.a.first.front());
    const double run = static_cast<double>(rounds) / (span / hz);
    ref_rates.push_back(ref);
    run_rates.push_back(run);
    ratios.push_back(run / ref);
  }
  r.reference_rate = median(ref_rates);
  r.runner_rate = median(run_rates);
  r.ratio = median(ratios);
  r.ratio_p25 = quantile(ratios, 0.25);
  r.ratio_p75 = quantile(ratios, 0.75);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    // Short runs, many of them, alternating: a noisy neighbour then hits both sides alike.
    std::uint64_t rounds = 300'000;
    int reps = 15;
    std::vector<int> cpus;
    for (const auto& [arg, value] : bench::option_pairs(argc, argv)) {
      if (arg == "--rounds") {
        rounds = cli::parse_count("--rounds", value, 1000, 100'000'000);
      } else if (arg == "--reps") {
        reps = static_cast<int>(cli::parse_count("--reps", value, 1, 1000));
      } else if (arg == "--cpus") {
        cpus = parse_cpu_list(value);
      } else {
        throw UsageError("unknown argument '" + arg + "' (use --rounds N --reps K --cpus A,B)");
      }
    }
    const CpuAvailability avail = read_cpu_availability();
    if (cpus.empty()) {
      for (int c : avail.allowed) {
        if (!cpu_problem(c, avail)) cpus.push_back(c);
      }
    }
    if (cpus.size() < 2) throw UnsupportedError("the benchmark needs two usable CPUs");
    for (int c : cpus) {
      if (auto p = cpu_problem(c, avail)) throw UsageError(*p);
    }
    const double hz = probe_platform().tsc.hz;
    std::cerr << "tscaudit_bench: CPU " << cpus[0] << " -> CPU " << cpus[1] << ", " << rounds << " rounds, " << reps
              << " repetitions per pair, slot transport\n";
    std::vector<PairResult> results;
    results.push_back(bench_pair<counter::Rdtsc, counter::Rdtsc>(cpus[0], cpus[1], rounds, reps, hz));
    results.push_back(bench_pair<counter::Rdtsc, counter::LfenceRdtsc>(cpus[0], cpus[1], rounds, reps, hz));
    results.push_back(bench_pair<counter::Rdtsc, counter::Rdtscp>(cpus[0], cpus[1], rounds, reps, hz));
    results.push_back(bench_pair<counter::RdtscLfence, counter::Rdtscp>(cpus[0], cpus[1], rounds, reps, hz));
    results.push_back(bench_pair<counter::Rdtscp, counter::Rdtscp>(cpus[0], cpus[1], rounds, reps, hz));
    results.push_back(bench_pair<counter::LfenceRdtsc, counter::LfenceRdtsc>(cpus[0], cpus[1], rounds, reps, hz));
    std::printf("%-28s %14s %12s %8s %16s\n", "send / recv", "reference M/s", "runner M/s", "ratio", "ratio p25..p75");
    for (const PairResult& r : results) {
      const std::string spread = format_fixed(r.ratio_p25 * 100, 1) + ".." + format_fixed(r.ratio_p75 * 100, 1) + "%";
      std::printf("%-28s %14s %12s %7s%% %16s%s\n", r.name.c_str(), format_fixed(r.reference_rate / 1e6, 3).c_str(),
                  format_fixed(r.runner_rate / 1e6, 3).c_str(), format_fixed(r.ratio * 100, 1).c_str(), spread.c_str(),
                  r.ratio >= 0.9 ? "" : "  (below the 90 % target)");
    }
    return 0;
  } catch (const std::exception& e) {
    return report_error("tscaudit_bench", e);
  }
}
