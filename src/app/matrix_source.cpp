#include "app/matrix_source.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <set>

#include "app/matrix_dir.hpp"
#include "app/matrix_pairs.hpp"
#include "app/matrix_run_dir.hpp"
#include "app/progress.hpp"
#include "app/stop_signals.hpp"
#include "core/cpu_list.hpp"
#include "core/errors.hpp"
#include "core/format.hpp"
#include "core/human_units.hpp"
#include "io/run_dir_lock.hpp"
#include "io/run_dir_writer.hpp"
#include "matrix/matrix_analysis.hpp"
#include "matrix/plan_json.hpp"
#include "measure/pair_run.hpp"
#include "measure/plan_runner.hpp"
#include "pair/verdict.hpp"
#include "platform/affinity.hpp"
#include "platform/memory_guard.hpp"
#include "platform/platform_warnings.hpp"
#include "platform/topology.hpp"
#include "render/plan_output.hpp"
#include "render/text_wrap.hpp"

namespace tscaudit {
namespace {

using Clock = std::chrono::steady_clock;

/// "3-5": an unordered pair as the added visits name it.
std::string unordered_name(int a, int b) { return std::to_string(a) + "-" + std::to_string(b); }

/// The pair's band over both roles and every visit so far, as the check will read it: the
/// two roles read back from the run directory, analyzed and joined (a matrix of the two CPUs).
/// nullopt when a role has no rounds yet.
std::optional<PairCell> pair_band_so_far(const RunDirReader& reader, int a, int b) {
  std::optional<Run> ab = reader.try_read_pair(a, b), ba = reader.try_read_pair(b, a);
  if (!ab || !ba || ab->rounds.empty() || ba->rounds.empty()) return std::nullopt;
  MatrixBuilder builder({a, b});
  builder.add(analyze_run(*ab, pair_name(a, b)));
  builder.add(analyze_run(*ba, pair_name(b, a)));
  return builder.finish().at(0, 1);
}

/// Whether the pair still needs visits: the check's rules (pair_standing) find it passing
/// but not proven within the bound, or with too few rounds; a failure needs no more.
bool needs_visits(const PairCell& c, const CheckSettings& settings, const RecordedVariant& recv) {
  const PairStanding standing = pair_standing(c, settings, recv);
  return standing == PairStanding::loose || standing == PairStanding::too_few_rounds;
}

/// The settings the visits after the plan are judged by: the check's.
CheckSettings visit_settings(const MatrixOutcome& o, const MatrixOptions& options) {
  CheckSettings s;
  s.tolerance_ticks = tolerance_in_ticks("--tolerance", options.tolerance, o.platform.tsc.hz);
  s.drift_tolerance_ppb = options.drift_tolerance_ppb;
  s.max_bound_ticks = tolerance_in_ticks("--max-bound", options.max_bound, o.platform.tsc.hz);
  return s;
}

/// After the plan, while the budget lasts: the pairs not yet proven within --max-bound get
/// one more visit in each role per sweep, in slots of disjoint pairs, and are judged again
/// from the run directory after each sweep (docs/machine.md §10.1, "Time buys precision").
void add_visits(MatrixOutcome& o, const MatrixOptions& options, PlanRunner& runner, const std::string& run_dir,
                Clock::time_point until, Progress& progress, SlotsOutcome& total) {
  const MatrixPlan& plan = o.planned.plan;
  const CheckSettings settings = visit_settings(o, options);
  const RecordedVariant recv = recorded_variant(options.choice.recv);
  o.added.max_bound_ticks = settings.max_bound_ticks;
  std::vector<IndexPair> candidates;
  for (std::size_t i = 0; i < plan.spec.cpus.size(); ++i) {
    for (std::size_t j = i + 1; j < plan.spec.cpus.size(); ++j) {
      if (plan.measures(i, j) && plan.measures(j, i)) {
        candidates.emplace_back(static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j));
      }
    }
  }
  std::set<std::string> named;
  while (!candidates.empty()) {
    // A sweep needs time for its visits' fixed cost at least, twice over.
    const double left = std::chrono::duration<double>(until - std::min(Clock::now(), until)).count();
    if (left < std::max(0.05, 4 * kMeasuredCosts.seconds_per_visit)) break;
    const RunDirReader reader = open_run_dir(run_dir);
    std::vector<IndexPair> unproven;
    for (const IndexPair& p : candidates) {
      const int a = plan.spec.cpus[p.first], b = plan.spec.cpus[p.second];
      const std::optional<PairCell> cell = pair_band_so_far(reader, a, b);
      if (!cell || needs_visits(*cell, settings, recv)) unproven.push_back(p);
    }
    candidates = std::move(unproven);
    if (candidates.empty()) break;
    PlanSpec spec;
    spec.cpus = plan.spec.cpus;
    spec.visits = 1;
    spec.rounds_per_visit = plan.spec.rounds_per_visit;
    spec.warmup_per_visit = plan.spec.warmup_per_visit;
    spec.parallel = plan.spec.parallel;
    spec.design = PlanDesign::sparse;
    spec.pairs = candidates;
    // Each visit is appended as its pair's next one (RunDirVisits): the runner numbers them.
    const MatrixPlan sweep = make_plan(spec, kMeasuredCosts);
    const SlotsOutcome done = runner.run_slots(
        sweep.slots, spec.rounds_per_visit, until, [&](const PlanRunProgress& p) {
          progress.show("more visits, sweep " + std::to_string(o.added.rounds + 1) + " for " +
                            count_of(candidates.size(), "pair") + " not yet within the bound",
                        p.left_seconds);
        });
    ++o.added.rounds;
    o.added.visits += done.visits_done;
    total.visits_cut += done.visits_cut;
    total.problems.insert(total.problems.end(), done.problems.begin(), done.problems.end());
    for (const IndexPair& p : candidates) {
      const std::string name = unordered_name(plan.spec.cpus[p.first], plan.spec.cpus[p.second]);
      if (named.insert(name).second) o.added.pairs.push_back(name);
    }
    if (done.signal != 0) {
      total.signal = done.signal;
      break;
    }
  }
}

/// The pairs still not proven within the bound, from the final matrix.
std::size_t still_unproven(const MatrixResult& m, const CheckSettings& settings) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < m.size(); ++i) {
    for (std::size_t j = i + 1; j < m.size(); ++j) {
      const PairCell& c = m.at(i, j);
      if (c.measured && m.at(j, i).measured && needs_visits(c, settings, m.recv)) ++count;
    }
  }
  return count;
}

/// The one-CPU outcome: nothing to measure, the matrix of that CPU alone.
MatrixOutcome one_cpu_outcome(const MatrixOptions& options, PlannedMatrix planned) {
  MatrixOutcome o;
  o.platform = probe_platform();
  o.warnings = platform_warnings(o.platform);
  o.planned = std::move(planned);
  o.has_plan = false;
  o.matrix = one_cpu_matrix(o.planned.order, o.platform.tsc.hz, recorded_variant(options.choice.send),
                            recorded_variant(options.choice.recv));
  o.ended_unix_s = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  if (!options.out_dir.empty()) {
    // Its run directory, complete at once, so that --out reads back (check --from) as this answer.
    RunDirPlace place(options.out_dir);
    RunDirManifest manifest = one_cpu_manifest(o, options);
    const std::string ended = manifest.ended_utc;
    const std::unique_ptr<RunDirWriter> writer = RunDirWriter::create(
        place.take_lock(), std::move(manifest),
        o.planned.topology_xml.empty() ? std::nullopt : std::optional<std::string_view>(o.planned.topology_xml));
    writer->finish(RunDirStatus::complete, "", ended);
    o.run_dir = place.path();
  }
  return o;
}

}  // namespace

PlannedMatrix plan_matrix(const MatrixOptions& options) {
  const bool this_machine = options.topology.empty();
  if (!this_machine && !options.dry_run) {
    throw UsageError("--topology '" + options.topology +
                     "' describes another machine: it can only be planned (add --dry-run)");
  }
  const TopologySource source = this_machine ? TopologySource{} : parse_topology_source(options.topology);
  const TopologyResult topology = load_topology(source, true);
  if (!topology.ok) {
    if (this_machine) throw RuntimeError("cannot read this machine's topology: " + topology.problem);
    throw UsageError("--topology: " + topology.problem);
  }
  std::vector<int> selected;
  CpuAvailability available;
  if (this_machine) available = read_cpu_availability();
  if (!options.cpus.empty()) {
    selected = parse_cpu_list(options.cpus);
  } else if (this_machine) {
    selected = available.allowed;
  } else {
    for (const CpuPlace& p : topology.summary.places) selected.push_back(p.cpu);
  }
  if (this_machine && !options.dry_run) {
    for (int cpu : selected) {
      if (auto problem = cpu_problem(cpu, available)) throw UsageError(*problem);
    }
  }
  PlannedMatrix planned;
  planned.order = order_by_topology(topology.summary.places, selected);
  planned.topology_xml = topology.xml;
  if (planned.order.cpus.empty()) throw UsageError("no CPU to measure");
  if (planned.one_cpu()) {
    // One CPU has no pair: the check answers inconclusive ("one CPU only"), with its metrics.
    planned.plan.spec.cpus = planned.order.cpu_numbers();
    return planned;
  }
  if (options.budget_seconds > 0) {
    PlanRequest request;
    request.visits = options.visits;
    request.warmup_per_visit = options.warmup;
    request.parallel = options.parallel;
    request.budget_seconds = options.budget_seconds;
    request.default_budget_seconds = options.default_budget_seconds;
    request.rounds_per_visit = options.rounds_per_visit;
    request.all_pairs = options.all_pairs;
    planned.plan = choose_plan(planned.order, request, kMeasuredCosts);
  } else {
    PlanSpec spec;
    spec.cpus = planned.order.cpu_numbers();
    spec.visits = options.visits > 0 ? options.visits : kDefaultVisits;
    spec.warmup_per_visit = options.warmup;
    spec.parallel = options.parallel;
    spec.rounds_per_visit = options.rounds_per_visit > 0 ? options.rounds_per_visit
                                                         : default_rounds_per_visit(spec.cpus.size(), spec.visits);
    spec.design_reason = "matrix measures every ordered pair unless --budget is given";
    planned.plan = make_plan(spec, kMeasuredCosts);
  }
  // A plan the budget cannot hold is a surprise to whoever set the budget (a timer's unit has
  // a time limit of its own): refused unless asked for. --dry-run shows it and says so.
  if (!options.dry_run && !options.over_budget && planned.plan.spec.budget_seconds > 0 &&
      planned.plan.estimated_seconds > planned.plan.spec.budget_seconds) {
    throw UsageError(over_budget_refusal(planned.plan, options.rounds_per_visit > 0));
  }
  // What the run keeps: the rounds go to the run directory as measured (memory_bytes_streaming).
  if (!options.dry_run && this_machine) {
    if (auto refusal = memory_refusal(planned.plan.memory_bytes_streaming, available_memory_bytes(), "the plan",
                                      "give fewer --rounds per visit or fewer --visits")) {
      throw UsageError(*refusal);
    }
  }
  return planned;
}

void print_plan(const PlannedMatrix& planned, OutputFormat format) {
  if (planned.one_cpu()) {
    const std::string cpu = std::to_string(planned.order.cpus.front().cpu);
    if (format == OutputFormat::json) {
      std::cout << nlohmann::ordered_json{{"cpus", {planned.order.cpus.front().cpu}}, {"slots", 0}}.dump(2) << "\n";
    } else {
      std::cout << "cpus              " + cpu + " (1 CPU: no pair to measure; the check answers inconclusive)\n";
    }
    return;
  }
  if (format == OutputFormat::json) {
    std::cout << plan_json(planned.plan).dump(2) << "\n";
  } else {
    std::cout << plan_text(planned.plan, &planned.order);
  }
}

int print_dry_run(const MatrixOptions& options) {
  print_plan(plan_matrix(options), options.format);
  return kExitOk;
}

std::optional<OutputDir> begin_matrix_out(MatrixOptions& options) {
  if (!options.from.empty()) static_cast<void>(find_run(options.from));
  if (options.out_dir.empty()) return std::nullopt;
  std::optional<OutputDir> out(OutputDir::begin(options.out_dir, OutputKind::matrix));
  options.out_dir = out->aside();
  return out;
}

MatrixOutcome measure_matrix(const MatrixOptions& options, PlannedMatrix planned) {
  if (planned.one_cpu()) return one_cpu_outcome(options, std::move(planned));
  // The run directory first: one that another process is writing is refused at once,
  // before the platform is probed or anything measured.
  RunDirPlace place(options.out_dir);
  MatrixOutcome o;
  o.platform = probe_platform();
  o.warnings = platform_warnings(o.platform);
  require_supported_variants(options.choice, o.platform);
  o.planned = std::move(planned);
  const MatrixPlan& plan = o.planned.plan;

  const std::unique_ptr<RunDirWriter> writer = RunDirWriter::create(
      place.take_lock(), live_manifest(o, options),
      o.planned.topology_xml.empty() ? std::nullopt : std::optional<std::string_view>(o.planned.topology_xml));
  // SIGINT and SIGTERM end the measuring cleanly (matrix, check and report hold a
  // StopSignals for their whole run, this one nests in it: a signal before the first slot
  // ends the measuring there; after the last, the run is complete; a second signal ends the
  // process at once, the way a long analysis is stopped).
  std::optional<StopSignals> signals(std::in_place);
  PlanRunner runner(plan, *writer, PlanRunSettings{options.choice, options.timeout, &StopSignals::flag()});
  const Clock::time_point start = runner.started();
  // The budget is a ceiling on any machine: each slot ends by its share of what is left.
  const Clock::time_point until =
      plan.spec.budget_seconds > 0
          ? start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(plan.spec.budget_seconds))
          : Clock::time_point{};
  Progress progress("measuring", plan.slots.size());
  // --over-budget: the plan whole, past its budget (the user asked for it); else each slot
  // within its share.
  const Clock::time_point plan_until = options.over_budget ? Clock::time_point{} : until;
  SlotsOutcome run = runner.run_slots(plan.slots, plan.spec.rounds_per_visit, plan_until, [&](const PlanRunProgress& p) {
    progress.show(std::to_string(p.visits_done) + " of " + count_of(p.visits, "pair visit"), p.left_seconds);
  });
  if (run.signal == 0 && (options.max_bound.value > 0) && until != Clock::time_point{}) {
    add_visits(o, options, runner, place.path(), until, progress, run);
  }
  if (run.signal != 0) {
    o.interrupted = "interrupted by " + signal_name(run.signal) + " after " + std::to_string(run.slots_done) + " of " +
                    std::to_string(plan.slots.size()) + " slots (" + std::to_string(run.visits_done) + " of " +
                    std::to_string(plan.pair_visits) + " pair visits)";
  }
  o.problems = run.problems;
  o.visits_cut = run.visits_cut;
  o.rounds_per_second = runner.rounds_per_second();
  o.elapsed_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  o.ended_unix_s = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  signals.reset();
  // What was measured, not what it proves: the pairs still unproven are known only once the
  // matrix is analyzed below, and a reader judges them again from the rounds.
  nlohmann::ordered_json added = added_visits_json(o.added);
  if (added.is_object()) added.erase("unproven");
  writer->amend_plan("measured", {{"rounds_per_second_per_pair", o.rounds_per_second},
                                  {"visits_cut_by_deadline", o.visits_cut},
                                  {"added_visits", std::move(added)}});
  writer->finish(o.interrupted.empty() ? RunDirStatus::complete : RunDirStatus::interrupted, o.interrupted,
                 format_utc(std::chrono::system_clock::now()));
  if (!o.interrupted.empty()) o.problems.push_back(o.interrupted);

  // Each ordered pair is read back from the run directory, as --from reads it, and analyzed.
  const RunDirReader reader = open_run_dir(place.path());
  analyze_matrix(
      o, options.choice, [&](int a, int b) -> std::optional<Run> { return reader.try_read_pair(a, b); },
      pair_outputs(options));
  o.lost = reader.losses();
  if (o.added.max_bound_ticks > 0) o.added.unproven = still_unproven(o.matrix, visit_settings(o, options));
  if (place.kept()) o.run_dir = place.path();
  return o;
}

MatrixOutcome obtain_matrix(const MatrixOptions& options, const char* command, bool announce_plan) {
  if (!options.from.empty()) {
    MatrixOutcome o = rebuild_matrix(options.from, pair_outputs(options));
    std::cerr << wrap_lines("tscaudit " + std::string(command) + ": " + rebuilt_from_text(o) + "\n");
    return o;
  }
  PlannedMatrix planned = plan_matrix(options);
  if (!options.out_dir.empty()) prepare_out_dir(options.out_dir);
  if (announce_plan && !planned.one_cpu()) {
    // One line, not the plan (--dry-run prints it): the answer is what the output starts with.
    const MatrixPlan& plan = planned.plan;
    std::cerr << wrap_lines(
        "tscaudit " + std::string(command) + ": send " + std::string(variant_name(options.choice.send)) + ", recv " +
        std::string(variant_name(options.choice.recv)) + "; measuring " + std::to_string(plan.ordered_pairs) +
        " ordered pairs of " + std::to_string(plan.spec.cpus.size()) + " CPUs, " + std::to_string(plan.spec.visits) +
        (plan.spec.visits == 1 ? " visit" : " visits") + " each, about " + human_duration(plan.estimated_seconds) +
        (plan.spec.budget_seconds > 0 ? " (at most " + human_duration(plan.spec.budget_seconds) + ")" : "") +
        " (--dry-run shows the plan)\n");
  }
  return measure_matrix(options, std::move(planned));
}

CheckEvidence check_evidence(const MatrixOutcome& o) {
  CheckEvidence e(o.matrix);
  e.cut_short = o.interrupted;
  // Measured now, a visit that failed cuts the run short: its pair has only part of its
  // rounds, and the machine failed the measuring, not the counters.
  if (e.cut_short.empty() && !o.offline && !o.problems.empty()) e.cut_short = o.problems.front();
  for (const RunDirLoss& loss : o.lost) e.lost.push_back(run_dir_loss_text(loss));
  e.warnings = o.warnings;
  return e;
}

CheckSettings check_settings(const MatrixOutcome& o, const Tolerance& tolerance, double drift_tolerance_ppb,
                             const Tolerance& max_bound) {
  CheckSettings s;
  s.tolerance_ticks = tolerance_in_ticks("--tolerance", tolerance, o.platform.tsc.hz);
  s.drift_tolerance_ppb = drift_tolerance_ppb;
  s.max_bound_ticks = tolerance_in_ticks("--max-bound", max_bound, o.platform.tsc.hz);
  return s;
}

}  // namespace tscaudit
