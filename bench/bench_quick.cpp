// Benchmark: libtscaudit's quick check against its targets (bench/README.md, "The quick
// check"):
//
//   time to verdict on this machine, median of --calls calls     <= 10 ms  (wall time seen by
//                                                                           the caller, the
//                                                                           process already running)
//   planned measuring at 128 CPUs                                  <= 100 ms
//   bound_ns within 2x the band of a 90-s check, in most calls     (--full-bound-ns X: the
//                                                                   distribution of the ratio)
//   detection: the rate at which offsets of 1x, 2x and 4x a pair's band are proven, on
//   simulated rounds cut to the quick check's sizes
//
//   tscaudit_bench_quick [--calls N] [--full-bound-ns X] [--seeds S]   (defaults 50, none, 200)
//   tscaudit_bench_quick --threads T [--calls N] [--budget-ms B]       (T threads at once, N calls
//                                                                       each, budget B ms: p99
//                                                                       against budget + slack)
//
// Time to verdict: N calls of tscaudit_quick_check(NULL, &r) one after the other, each timed
// with std::chrono::steady_clock around the call alone. The table gives the quantiles of the
// wall time and of bound_ns, and the verdicts. bench/quick_vs_full.sh runs a 90-s check
// between two halves of the calls and passes its bound here.
//
// Detection: a simulated two-CPU machine (the same-L3 delays of simulate's machine model,
// quantum 26 ticks, 2.3 GHz) whose pairs take R rounds (R = 1024: the fewest the quick check
// judges, 2048, 4096). First S seeds with the counters in agreement give the band's
// half-width w (the median over the seeds of half the width of pair 0->1's offset band),
// and the share of them called not synchronized (false alarms); then S seeds each with
// CPU 1 ahead by 1w, 2w and 4w: the rate at which the quick check's decision
// (decide_quick) proves it (not synchronized, with a proven offset).
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "bench_stats.hpp"
#include "quick/quick_check.hpp"
#include "simulate/machine.hpp"
#include "tscaudit.h"

using namespace tscaudit;
using bench::median;
using bench::quantile;

namespace {

void time_to_verdict(int calls, double full_bound_ns) {
  std::vector<double> ms, bound, ratio;
  int verdicts[3] = {0, 0, 0}, errors = 0, pairs = 0, cpus = 0;
  for (int i = 0; i < calls; ++i) {
    tscaudit_result r{};
    r.size = sizeof r;
    const auto t0 = std::chrono::steady_clock::now();
    const int rc = tscaudit_quick_check(nullptr, &r);
    const auto t1 = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    if (rc != TSCAUDIT_OK) {
      ++errors;
      std::printf("call %d: %s: %s\n", i, tscaudit_error_name(rc), r.reason);
      continue;
    }
    if (r.verdict >= 0 && r.verdict <= 2) ++verdicts[r.verdict];
    if (r.verdict != TSCAUDIT_INCONCLUSIVE) {
      bound.push_back(r.bound_ns);
      if (full_bound_ns > 0) ratio.push_back(r.bound_ns / full_bound_ns);
    }
    pairs = r.pairs;
    cpus = r.cpus;
  }
  std::printf("time to verdict: %d calls on %d CPUs, %d ordered pairs each\n", calls, cpus, pairs);
  std::printf("  wall ms: p10 %.2f  median %.2f  p90 %.2f  max %.2f   (target: median <= 10)\n", quantile(ms, 0.1),
              median(ms), quantile(ms, 0.9), quantile(ms, 1.0));
  std::printf("  verdicts: %d synchronized, %d not synchronized, %d inconclusive, %d errors\n", verdicts[0],
              verdicts[1], verdicts[2], errors);
  if (!bound.empty()) {
    std::printf("  bound ns: min %.1f  p10 %.1f  median %.1f  p90 %.1f  max %.1f\n", quantile(bound, 0),
                quantile(bound, 0.1), median(bound), quantile(bound, 0.9), quantile(bound, 1));
  }
  if (!ratio.empty()) {
    const auto within2 = std::count_if(ratio.begin(), ratio.end(), [](double x) { return x <= 2; });
    std::printf(
        "  bound / the 90-s check's %.1f ns: min %.2f  p10 %.2f  median %.2f  p90 %.2f  max %.2f;"
        "  within 2x in %ld of %zu calls (%.0f %%)\n",
        full_bound_ns, quantile(ratio, 0), quantile(ratio, 0.1), median(ratio), quantile(ratio, 0.9),
        quantile(ratio, 1), static_cast<long>(within2), ratio.size(),
        100.0 * static_cast<double>(within2) / static_cast<double>(ratio.size()));
  }
}

/// Several threads at once: `threads` threads released together, each making `calls` calls
/// with `budget_ms` of budget, one after the other; each call timed around itself. The
/// library promises a call within its budget plus kQuickSlackSeconds (docs/library.md,
/// "What it promises"): one check measures at a time, the others take its answer.
void concurrent_calls(int threads, int calls, double budget_ms) {
  std::vector<std::vector<double>> ms(static_cast<std::size_t>(threads));
  std::vector<std::array<int, 4>> counts(static_cast<std::size_t>(threads), {0, 0, 0, 0});  // verdicts, busy
  std::atomic<int> ready{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      tscaudit_options options;
      tscaudit_options_init(&options);
      options.budget_seconds = budget_ms / 1000;
      ready.fetch_add(1);
      while (ready.load() < threads) std::this_thread::yield();
      for (int i = 0; i < calls; ++i) {
        tscaudit_result r{};
        r.size = sizeof r;
        const auto t0 = std::chrono::steady_clock::now();
        const int rc = tscaudit_quick_check(&options, &r);
        const auto t1 = std::chrono::steady_clock::now();
        ms[static_cast<std::size_t>(t)].push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        auto& c = counts[static_cast<std::size_t>(t)];
        if (rc == TSCAUDIT_OK && r.verdict >= 0 && r.verdict <= 2) ++c[static_cast<std::size_t>(r.verdict)];
        if (std::string(r.reason).find("busy:") != std::string::npos) ++c[3];
      }
    });
  }
  for (std::thread& t : pool) t.join();
  std::vector<double> all;
  std::array<int, 4> total{0, 0, 0, 0};
  for (std::size_t t = 0; t < ms.size(); ++t) {
    all.insert(all.end(), ms[t].begin(), ms[t].end());
    for (std::size_t k = 0; k < 4; ++k) total[k] += counts[t][k];
  }
  const double limit = budget_ms + kQuickSlackSeconds * 1000;
  const auto within = std::count_if(all.begin(), all.end(), [&](double x) { return x <= limit; });
  std::printf("\n%d threads at once, %d calls each, budget %.1f ms (budget + slack %.1f ms):\n", threads, calls,
              budget_ms, limit);
  std::printf("  wall ms: median %.2f  p90 %.2f  p99 %.2f  max %.2f;  within budget + slack: %ld of %zu\n",
              median(all), quantile(all, 0.9), quantile(all, 0.99), quantile(all, 1.0), static_cast<long>(within),
              all.size());
  std::printf("  verdicts: %d synchronized, %d not synchronized, %d inconclusive (%d busy)\n", total[0], total[1],
              total[2], total[3]);
}

void planned_measuring() {
  std::printf("\nplanned measuring (default budget, plan_quick):\n");
  std::printf("  %-28s %6s %6s %6s %10s\n", "machine", "cpus", "pairs", "slots", "budget ms");
  const struct {
    const char* name;
    int packages, per_package;
  } machines[] = {{"2 CPUs", 1, 2},
                  {"8 CPUs", 1, 8},
                  {"16 CPUs, 2 packages", 2, 8},
                  {"64 CPUs, 2 packages", 2, 32},
                  {"128 CPUs, 2 packages", 2, 64},
                  {"128 CPUs, 8 packages", 8, 16},
                  {"256 CPUs, 2 packages", 2, 128}};
  for (const auto& m : machines) {
    std::vector<CpuPlace> places;
    for (int p = 0; p < m.packages; ++p) {
      for (int c = 0; c < m.per_package; ++c) {
        CpuPlace place;
        place.cpu = static_cast<int>(places.size());
        place.package = p;
        place.core = place.cpu;
        places.push_back(place);
      }
    }
    const QuickPlan q = plan_quick(places, 0);
    std::printf("  %-28s %6zu %6llu %6zu %10.0f\n", m.name, places.size(),
                static_cast<unsigned long long>(q.plan.ordered_pairs), q.plan.slots.size(), q.budget_seconds * 1e3);
  }
}

/// The quick check's decision on a simulated pair of CPUs, CPU 1 ahead by `offset_ticks`.
QuickAnswer decide_simulated(std::uint64_t rounds, double offset_ticks, std::uint64_t seed, const QuickPlan& plan) {
  MachineSpec spec;
  spec.cpus = plan.order.cpus;
  spec.seed = seed;
  spec.rounds_per_pair = rounds;
  spec.base.quantum_ticks = 26;
  spec.cpu_offset_ticks[1] = offset_ticks;
  const SimulatedMachine machine(spec);
  const auto source = [&](int a, int b) -> std::optional<Run> { return machine.simulate_pair(a, b).run; };
  return decide_quick(plan, source, spec.base.tsc_hz, QuickOptions{});
}

void detection(int seeds) {
  std::vector<CpuPlace> places(2);
  places[0].cpu = 0;
  places[1].cpu = 1;
  places[0].package = places[1].package = 0;
  places[0].core = 0;
  places[1].core = 1;
  const QuickPlan plan = plan_quick(places, 0);
  std::printf("\ndetection on a simulated pair (same L3, quantum 26 ticks), %d seeds each:\n", seeds);
  std::printf("  %8s %14s %10s %10s %10s %10s\n", "rounds", "half-width w", "0", "1w", "2w", "4w");
  for (std::uint64_t rounds : {1024u, 2048u, 4096u}) {
    std::vector<double> widths;
    int false_alarms = 0;
    for (int s = 0; s < seeds; ++s) {
      const QuickAnswer a = decide_simulated(rounds, 0, 1000 + static_cast<std::uint64_t>(s), plan);
      const PairCell& cell = a.matrix.at(0, 1);
      widths.push_back((cell.offset_hi_ticks - cell.offset_lo_ticks) / 2);
      false_alarms += a.check.outcome != CheckOutcome::synchronized;
    }
    const double w = median(widths);
    std::printf("  %8llu %8.1f ticks %9.1f%%", static_cast<unsigned long long>(rounds), w,
                100.0 * false_alarms / seeds);
    for (double multiple : {1.0, 2.0, 4.0}) {
      int proven = 0;
      for (int s = 0; s < seeds; ++s) {
        const QuickAnswer a = decide_simulated(rounds, multiple * w, 5000 + static_cast<std::uint64_t>(s), plan);
        proven += a.check.outcome == CheckOutcome::not_synchronized && a.proven_offset_ticks > 0;
      }
      std::printf(" %9.1f%%", 100.0 * proven / seeds);
    }
    std::printf("\n");
  }
  std::printf("  (0: the share of agreeing counters called not synchronized; 1w, 2w, 4w: offsets proven)\n");
}

}  // namespace

int main(int argc, char** argv) {
  int calls = 50, seeds = 200, threads = 0;
  double full_bound_ns = 0, budget_ms = 5;
  for (const auto& [name, value] : bench::option_pairs(argc, argv)) {
    if (name == "--calls") {
      calls = std::stoi(value);
    } else if (name == "--full-bound-ns") {
      full_bound_ns = std::stod(value);
    } else if (name == "--seeds") {
      seeds = std::stoi(value);
    } else if (name == "--threads") {
      threads = std::stoi(value);
    } else if (name == "--budget-ms") {
      budget_ms = std::stod(value);
    } else {
      std::fprintf(stderr,
                   "usage: tscaudit_bench_quick [--calls N] [--full-bound-ns X] [--seeds S] [--threads T "
                   "[--budget-ms B]]\n");
      return 2;
    }
  }
  std::printf("libtscaudit %s\n", tscaudit_version());
  if (calls > 0 && threads == 0) time_to_verdict(calls, full_bound_ns);
  if (threads > 0) {
    concurrent_calls(threads, calls, budget_ms);
    return 0;
  }
  planned_measuring();
  if (seeds > 0) detection(seeds);
  return 0;
}
