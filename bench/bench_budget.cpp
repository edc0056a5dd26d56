// Benchmark: the budget is a ceiling on any machine (docs/machine.md §10.1, "The budget
// holds"). The plan's cost model is made 8 times too fast for this machine, so that a plan
// sized to fill its budget under the model would take about 8 budgets; the plan's runner
// (measure/plan_runner.hpp) must still end within the budget, each slot by its share.
//
//   tscaudit_bench_budget [--cpus LIST] [--budgets S,S,...] [--slowdown F]
//                         (defaults: every CPU this process may use, 0.5,1,2 s, 8)
//
// First the rate of this machine's exchange is measured: one plan of every ordered pair, a
// short run, rounds per second per pair over its visits (PlanRunner::rounds_per_second).
// Then for each budget B, a plan sized by a cost model of F times that rate (all pairs,
// parallel, 4 visits) is run twice, interleaved: with its deadline (what the commands do)
// and, for the smallest B only, without (what it would have taken). The table: measuring
// wall time against B, rounds measured against planned, visits cut by the deadline.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "app/temp_dir.hpp"
#include "bench_stats.hpp"
#include "core/cpu_list.hpp"
#include "io/run_dir_writer.hpp"
#include "matrix/matrix_plan.hpp"
#include "measure/plan_runner.hpp"
#include "platform/affinity.hpp"

using namespace tscaudit;
using Clock = std::chrono::steady_clock;

namespace {

struct Outcome {
  double seconds = 0;
  std::uint64_t visits_cut = 0;
  double rounds_per_second = 0;
  std::uint64_t rounds = 0;
};

/// Runs `plan` into a fresh run directory; `budget` > 0: with the runner's deadline.
Outcome run(const MatrixPlan& plan, double budget) {
  const TempDir dir = make_temp_dir("tscaudit-bench-budget", "the rounds");
  RunDirManifest manifest;
  manifest.cpus = plan.spec.cpus;
  manifest.send = "rdtsc";
  manifest.recv = "lfence_rdtsc";
  auto writer = RunDirWriter::create((std::filesystem::path(dir.path) / "run").string(), manifest, std::nullopt);
  PlanRunner runner(plan, *writer, PlanRunSettings{});
  const Clock::time_point start = runner.started();
  const Clock::time_point until =
      budget > 0 ? start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(budget))
                 : Clock::time_point{};
  const SlotsOutcome done = runner.run_slots(plan.slots, plan.spec.rounds_per_visit, until, {});
  Outcome o;
  o.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  o.visits_cut = done.visits_cut;
  for (const std::string& p : done.problems) std::fprintf(stderr, "problem: %s\n", p.c_str());
  o.rounds_per_second = runner.rounds_per_second();
  writer->finish(RunDirStatus::complete, "", "");
  std::filesystem::remove_all(dir.path);
  return o;
}

/// All pairs of `cpus`, in parallel, 4 visits, `rounds` per visit.
MatrixPlan plan_of(const std::vector<int>& cpus, std::uint64_t rounds, const PlanCosts& costs) {
  PlanSpec spec;
  spec.cpus = cpus;
  spec.visits = 4;
  spec.parallel = true;
  spec.warmup_per_visit = 2000;
  spec.rounds_per_visit = rounds;
  return make_plan(spec, costs);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> cpus = read_cpu_availability().allowed;
  std::vector<double> budgets = {0.5, 1, 2};
  double slowdown = 8;
  for (const auto& [name, value] : bench::option_pairs(argc, argv)) {
    if (name == "--cpus") {
      cpus = parse_cpu_list(value);
    } else if (name == "--budgets") {
      budgets.clear();
      for (std::size_t at = 0; at <= value.size();) {
        const std::size_t comma = std::min(value.find(',', at), value.size());
        budgets.push_back(std::stod(value.substr(at, comma - at)));
        at = comma + 1;
      }
    } else if (name == "--slowdown") {
      slowdown = std::stod(value);
    } else {
      std::fprintf(stderr, "usage: tscaudit_bench_budget [--cpus LIST] [--budgets S,S,...] [--slowdown F]\n");
      return 2;
    }
  }
  if (cpus.size() < 2) {
    std::fprintf(stderr, "tscaudit_bench_budget: needs two CPUs\n");
    return 4;
  }
  const PlanCosts model{2e6, 0.008};
  const Outcome probe = run(plan_of(cpus, 50000, model), 0);
  const double rate = probe.rounds_per_second;
  std::printf("%zu CPUs: this machine exchanges %.3g rounds/s per pair (all pairs, in parallel)\n", cpus.size(), rate);
  const PlanCosts fast{slowdown * rate, model.seconds_per_visit};
  std::printf("plans sized by a model of %.3g rounds/s per pair: %.3g times this machine's rate\n\n", fast.rounds_per_second,
              slowdown);
  std::printf("%10s %14s %12s %14s %10s %12s\n", "budget s", "planned rounds", "deadline", "measured s", "s / budget",
              "visits cut");
  for (std::size_t k = 0; k < budgets.size(); ++k) {
    const double budget = budgets[k];
    const MatrixPlan probe_plan = plan_of(cpus, 1, fast);
    const std::uint64_t rounds =
        rounds_for_slots_budget(probe_plan.slots.size(), budget, fast, probe_plan.spec.warmup_per_visit, 1);
    const MatrixPlan plan = plan_of(cpus, rounds, fast);
    const std::vector<bool> modes = k == 0 ? std::vector<bool>{true, false} : std::vector<bool>{true};
    for (const bool deadline : modes) {
      const Outcome o = run(plan, deadline ? budget : 0);
      std::printf("%10.3g %14llu %12s %14.3f %10.2f %12llu\n", budget,
                  static_cast<unsigned long long>(plan.total_rounds), deadline ? "yes" : "no", o.seconds,
                  o.seconds / budget, static_cast<unsigned long long>(o.visits_cut));
    }
  }
  return 0;
}
