// `tscaudit simulate --topology`: a whole simulated machine written as a run directory
// (docs/formats.md, "Run directory"), measured as `check` would measure it: the default
// plan for that topology, each visit of each planned pair one frame.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <tuple>
#include <vector>

#include "app/matrix_types.hpp"
#include "app/matrix_run_dir.hpp"
#include "app/progress.hpp"
#include "app/simulate_command.hpp"
#include "app/stop_signals.hpp"
#include "core/errors.hpp"
#include "core/format.hpp"
#include "core/files.hpp"
#include "formats/run_dir.hpp"
#include "io/output_dir.hpp"
#include "io/output_file.hpp"
#include "io/run_dir_writer.hpp"
#include "matrix/plan_choice.hpp"
#include "matrix/plan_json.hpp"
#include "measure/plan_runner.hpp"
#include "platform/topology.hpp"
#include "render/text_wrap.hpp"
#include "version.hpp"

namespace tscaudit {
namespace {

namespace fs = std::filesystem;

/// The plan `check` would choose for this machine (docs/performance.md, "The default
/// plan"): the default budget, disjoint pairs at once, 4 visits; `rounds_per_visit` > 0
/// overrides the rule's rounds; `all_pairs` forces the full matrix.
MatrixPlan default_plan(const OrderedCpus& order, std::uint64_t rounds_per_visit, bool all_pairs) {
  PlanRequest request;
  request.parallel = true;
  request.budget_seconds = kDefaultBudgetSeconds;
  request.rounds_per_visit = rounds_per_visit;
  request.all_pairs = all_pairs;
  return choose_plan(order, request, kMeasuredCosts);
}

/// A moment on the simulated counter's clock, `tick` ticks after 1970-01-01T00:00:00Z: the
/// manifest's start and end follow from the model alone, so the same inputs give the same
/// bytes.
std::string simulated_utc(double tick, double tsc_hz) {
  const auto ms = static_cast<std::int64_t>(std::floor(tick / tsc_hz * 1000.0));
  return format_utc(std::chrono::system_clock::time_point(std::chrono::milliseconds(ms)));
}

/// The header every simulated pair's run shares: simulate()'s, less what differs per pair
/// or visit (the reader puts a, b and quantum_ticks back per pair; seed, distance and visit
/// are in truth.json), plus the plan's counts as a live matrix records them.
Metadata shared_pair_header(const Metadata& visit_header, const PlanSpec& spec) {
  Metadata h;
  h.set("tool_version", std::string(kToolVersion));
  for (const auto& [key, value] : visit_header.entries()) {
    if (key == "schema" || key == "a" || key == "b" || key == "quantum_ticks" || key == "seed" || key == "distance" ||
        key == "visit") {
      continue;
    }
    h.set(key, value);
  }
  h.set("rounds", std::to_string(spec.visits * spec.rounds_per_visit));
  h.set("visits", std::to_string(spec.visits));
  h.set("rounds_per_visit", std::to_string(spec.rounds_per_visit));
  h.set("warmup", std::to_string(spec.warmup_per_visit));
  return h;
}

/// Simulates `slot`'s pair visits on up to `workers` threads and appends each as one frame,
/// the pair's next visit (RunDirVisits: the slots run in order, so its number is the plan's
/// PairVisit::visit, which the simulation is seeded with). A slot's pairs are disjoint, so
/// each rounds file gets at most one frame per slot and its bytes do not depend on which
/// thread finishes first. \returns the truth, in slot order.
std::vector<MachinePairTruth> simulate_slot(const SimulatedMachine& machine, const PlanSlot& slot,
                                            RunDirVisits& visits, unsigned workers) {
  std::vector<MachinePairTruth> truth(slot.pairs.size());
  std::vector<std::exception_ptr> errors(slot.pairs.size());
  auto one = [&](std::size_t i) {
    try {
      const PairVisit& v = slot.pairs[i];
      MachinePairRun pair = machine.simulate_pair(v.a, v.b, v.visit);
      const std::uint64_t quantum = std::stoull(std::string(pair.run.header.get("quantum_ticks").value_or("1")));
      visits.append(v.a, v.b, pair.run.rounds, quantum, "");
      truth[i] = std::move(pair.truth);
    } catch (...) {
      errors[i] = std::current_exception();
    }
  };
  const std::size_t threads = std::min<std::size_t>(workers, slot.pairs.size());
  if (threads <= 1) {
    for (std::size_t i = 0; i < slot.pairs.size(); ++i) one(i);
  } else {
    std::vector<std::thread> pool;
    pool.reserve(threads);
    for (std::size_t t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        for (std::size_t i = t; i < slot.pairs.size(); i += threads) one(i);
      });
    }
    for (std::thread& t : pool) t.join();
  }
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  return truth;
}

}  // namespace

int run_simulate_machine(const SimulateOptions& options) {
  const TopologyResult topology = load_topology(parse_topology_source(options.topology), true);
  if (!topology.ok) throw UsageError("--topology: " + topology.problem);
  MachineSpec spec = options.machine;
  spec.base = options.spec;
  spec.cpus = topology.summary.places;
  (void)SimulatedMachine(spec);  // validates the CPUs and packages named before planning

  std::vector<int> all;
  for (const CpuPlace& p : spec.cpus) all.push_back(p.cpu);
  const OrderedCpus order = order_by_topology(spec.cpus, all);
  const MatrixPlan plan = default_plan(order, options.rounds_per_visit, options.all_pairs);
  spec.rounds_per_pair = plan.spec.rounds_per_visit;
  const SimulatedMachine machine(spec);

  std::map<int, std::size_t> index;  // CPU number -> position in the plan
  for (std::size_t i = 0; i < plan.spec.cpus.size(); ++i) index[plan.spec.cpus[i]] = i;
  const std::size_t n = plan.spec.cpus.size();

  RunDirManifest manifest;
  const double start_tick = static_cast<double>(spec.base.start_tick);
  manifest.started_utc = simulated_utc(start_tick, spec.base.tsc_hz);
  manifest.cpus = plan.spec.cpus;
  manifest.send = "simulated";
  manifest.recv = "simulated";
  manifest.tsc_hz = spec.base.tsc_hz;
  // Any visit's header gives the keys every pair shares (simulate() sets the same ones).
  const PairVisit& first = plan.slots.front().pairs.front();
  manifest.pair_header = shared_pair_header(machine.simulate_pair(first.a, first.b, first.visit).run.header, plan.spec);
  manifest.plan = manifest_plan_json(plan);
  manifest.platform = {{"host", "simulated"}, {"warnings", nlohmann::ordered_json::array()}};

  const StopSignals signals;  // seen between slots: what was written is removed
  // Built aside and put in place whole (docs/formats.md, "Output directories"): no directory
  // of half a machine ever passes for a whole one, and an earlier machine there is replaced
  // only by a whole one.
  OutputDir out = OutputDir::begin(options.out, OutputKind::run);
  try {
    const std::unique_ptr<RunDirWriter> writer =
        RunDirWriter::create(out.aside(), manifest, std::optional<std::string_view>(topology.xml));
    RunDirVisits visits(*writer);
    const unsigned workers = std::max(1U, std::thread::hardware_concurrency());
    std::vector<MachinePairTruth> truth;
    truth.reserve(plan.pair_visits);
    std::size_t slots_done = 0;
    std::size_t visits_done = 0;
    Progress progress("simulating " + count_of(n, "CPU"), plan.pair_visits);
    for (const PlanSlot& slot : plan.slots) {
      progress.update(visits_done, std::to_string(visits_done) + " of " + count_of(plan.pair_visits, "pair visit"));
      if (const int s = StopSignals::caught()) {
        throw RuntimeError("interrupted by " + signal_name(s) + " after " + std::to_string(slots_done) + " of " +
                           std::to_string(plan.slots.size()) + " slots: nothing kept (a simulated machine is " +
                           "written whole or not at all)");
      }
      ++slots_done;
      visits_done += slot.pairs.size();
      for (MachinePairTruth& t : simulate_slot(machine, slot, visits, workers)) {
        truth.push_back(std::move(t));
      }
    }
    // Row by row in plan order, then by visit: the order of the one-visit directory.
    std::stable_sort(truth.begin(), truth.end(), [&](const MachinePairTruth& x, const MachinePairTruth& y) {
      return std::tuple(index.at(x.a), index.at(x.b), x.visit) < std::tuple(index.at(y.a), index.at(y.b), y.visit);
    });
    write_text_file(join_path(out.aside(), "truth.json"), truth_json_text(machine.truth_json(truth)));
    // Last: the manifest says complete once every visit and the truth are written.
    const double end_tick = start_tick + static_cast<double>(plan.spec.visits * spec.visit_spacing_ticks);
    writer->finish(RunDirStatus::complete, "", simulated_utc(end_tick, spec.base.tsc_hz));
    out.commit();
  } catch (...) {
    rethrow_placed(out);  // what is written aside is named where it is put
  }
  const std::string summary =
      "wrote " + printable_text(options.out) + ": " + std::to_string(n) + " CPUs, " +
      (plan.spec.design == PlanDesign::sparse ? "sparse" : "all-pairs") + " design, " +
      std::to_string(plan.ordered_pairs) + " ordered pairs, " + std::to_string(plan.spec.visits) + " visits of " +
      std::to_string(plan.spec.rounds_per_visit) + " rounds each (run directory, topology.xml, truth.json)\n";
  std::fputs(wrap_lines(summary).c_str(), stderr);
  return 0;
}

}  // namespace tscaudit
