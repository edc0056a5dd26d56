#include "app/matrix_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <thread>

#include "app/check_command.hpp"
#include "app/info_render.hpp"
#include "app/matrix_run_dir.hpp"
#include "app/pictures.hpp"
#include "app/progress.hpp"
#include "app/stop_signals.hpp"
#include "core/cpu_list.hpp"
#include "core/errors.hpp"
#include "core/human_units.hpp"
#include "estimate/quantum.hpp"
#include "formats/output_file.hpp"
#include "formats/run_format.hpp"
#include "measure/pair_run.hpp"
#include "platform/affinity.hpp"
#include "platform/memory_guard.hpp"
#include "platform/topology.hpp"
#include "render/cpu_offsets_text.hpp"
#include "render/matrix_grids.hpp"
#include "render/matrix_output.hpp"
#include "render/matrix_text.hpp"
#include "render/pair_output.hpp"
#include "render/plan_output.hpp"
#include "render/text_wrap.hpp"

namespace tscaudit {
namespace {

using Clock = std::chrono::steady_clock;
using json = nlohmann::ordered_json;

std::string pair_file_stem(int a, int b) { return "pair_" + std::to_string(a) + "_" + std::to_string(b); }

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
  if (planned.order.cpus.size() < 2) {
    throw UsageError("matrix needs at least two CPUs; " +
                     (options.cpus.empty() ? std::string("this process may use only ") + format_cpu_list(selected)
                                           : "--cpus '" + options.cpus + "' names " + std::to_string(selected.size())) +
                     " (for the same-CPU control run measure --cpus A,A)");
  }
  if (options.budget_seconds > 0) {
    PlanRequest request;
    request.visits = options.visits;
    request.warmup_per_visit = options.warmup;
    request.parallel = options.parallel;
    request.budget_seconds = options.budget_seconds;
    request.rounds_per_visit = options.rounds_per_visit;
    request.all_pairs = options.all_pairs;
    planned.plan = choose_plan(planned.order, request, kMeasuredCosts);
  } else {
    PlanSpec spec;
    spec.cpus = planned.order.cpu_numbers();
    spec.visits = options.visits;
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

MatrixOutcome measure_matrix(const MatrixOptions& options, PlannedMatrix planned) {
  // The run directory first: one that another process is writing is refused at once,
  // before the platform is probed or anything measured.
  RunDirPlace place(options.out_dir);
  MatrixOutcome o;
  o.platform = probe_platform();
  o.warnings = platform_warnings(o.platform);
  require_supported_variants(options.choice, o.platform);
  o.planned = std::move(planned);
  const MatrixPlan& plan = o.planned.plan;
  const std::size_t n = plan.spec.cpus.size();
  std::map<int, std::size_t> index;  // CPU number -> position in the plan
  for (std::size_t i = 0; i < n; ++i) index[plan.spec.cpus[i]] = i;
  std::vector<std::uint64_t> next_seq(n * n, 0);  // per ordered pair: seq of its next round

  const std::unique_ptr<RunDirWriter> writer = RunDirWriter::create(
      place.take_lock(), live_manifest(o, options),
      o.planned.topology_xml.empty() ? std::nullopt : std::optional<std::string_view>(o.planned.topology_xml));
  // SIGINT and SIGTERM end the measuring cleanly (matrix, check and report hold a
  // StopSignals for their whole run, this one nests in it: a signal before the first slot
  // ends the measuring there; after the last, the run is complete; a second signal ends the
  // process at once, the way a long analysis is stopped).
  std::optional<StopSignals> signals(std::in_place);
  const Clock::time_point start = Clock::now();
  Progress progress(plan.slots.size());
  std::size_t visits_done = 0;
  std::size_t slots_done = 0;
  for (const PlanSlot& slot : plan.slots) {
    if (const int signal = StopSignals::caught(); signal != 0) {
      o.interrupted = "interrupted by " + signal_name(signal) + " after " + std::to_string(slots_done) + " of " +
                      std::to_string(plan.slots.size()) + " slots (" + std::to_string(visits_done) + " of " +
                      std::to_string(plan.pair_visits) + " pair visits)";
      break;
    }
    std::vector<ExchangeConfig> configs(slot.pairs.size());
    std::vector<ExchangeResult> results(slot.pairs.size());
    for (std::size_t i = 0; i < slot.pairs.size(); ++i) {
      configs[i].cpu_a = slot.pairs[i].a;
      configs[i].cpu_b = slot.pairs[i].b;
      configs[i].rounds = plan.spec.rounds_per_visit;
      configs[i].warmup = plan.spec.warmup_per_visit;
      configs[i].timeout = options.timeout;
    }
    {
      // The measuring threads inherit the block: a signal waits for the slot to end.
      const StopSignals::Blocked blocked;
      if (slot.pairs.size() == 1) {
        results[0] = run_exchange(options.choice, configs[0]);
      } else {
        // Disjoint pairs at once: each exchange pins its own two threads; these only wait.
        std::vector<std::thread> threads;
        threads.reserve(slot.pairs.size());
        for (std::size_t i = 0; i < slot.pairs.size(); ++i) {
          threads.emplace_back([&, i] { results[i] = run_exchange(options.choice, configs[i]); });
        }
        for (std::thread& t : threads) t.join();
      }
    }
    for (std::size_t i = 0; i < slot.pairs.size(); ++i) {
      const PairVisit& v = slot.pairs[i];
      const Run visit = assemble_run(results[i], configs[i]);
      std::uint64_t quantum_ticks = 1;
      for (const SideRecord* side : {&results[i].a, &results[i].b}) {
        quantum_ticks = std::max(quantum_ticks, estimate_quantum(side->quantum_reads).quantum_ticks);
      }
      const std::string error(visit.trailer.get("error").value_or(""));
      std::uint64_t& seq = next_seq[index.at(v.a) * n + index.at(v.b)];
      writer->append_visit(v.a, v.b, v.visit, seq, visit.rounds, quantum_ticks, error);
      seq += visit.rounds.size();
      if (!error.empty()) {
        o.problems.push_back("pair " + pair_name(v.a, v.b) + ", visit " + std::to_string(v.visit + 1) + ": " + error);
      }
    }
    visits_done += slot.pairs.size();
    ++slots_done;
    progress.update(slots_done,
                    std::to_string(visits_done) + " of " + std::to_string(plan.pair_visits) + " pair visits", "matrix");
  }
  o.elapsed_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  o.ended_unix_s = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  signals.reset();
  writer->finish(o.interrupted.empty() ? RunDirStatus::complete : RunDirStatus::interrupted, o.interrupted,
                 format_utc(std::chrono::system_clock::now()));
  if (!o.interrupted.empty()) o.problems.push_back(o.interrupted);

  // Each ordered pair is read back from the run directory, as --from reads it, and analyzed.
  const RunDirReader reader = open_run_dir(place.path());
  analyze_matrix(
      o, options.choice, [&](int a, int b) -> std::optional<Run> { return reader.try_read_pair(a, b); },
      pair_outputs(options));
  o.lost = reader.losses();
  if (place.kept()) o.run_dir = place.path();
  return o;
}

nlohmann::ordered_json lost_json(const std::vector<RunDirLoss>& lost) {
  nlohmann::ordered_json j = nlohmann::ordered_json::array();
  for (const RunDirLoss& loss : lost) j.push_back(run_dir_loss_json(loss));
  return j;
}

PairOutputs pair_outputs(const MatrixOptions& options) { return {options.out_dir, options.save_runs}; }

void analyze_matrix(MatrixOutcome& o, const ExchangeChoice& choice, const PairRunSource& source,
                    const PairOutputs& outputs) {
  namespace fs = std::filesystem;
  std::optional<OutputFile> json_file;
  std::optional<AnalysisJsonStream> json;
  const fs::path pairs_dir = fs::path(outputs.dir) / "pairs";
  if (!outputs.dir.empty()) {
    make_directories(pairs_dir.string());
    json_file.emplace((fs::path(outputs.dir) / "analysis.json").string());
    json.emplace([&](std::string_view text) { json_file->write(text); });
  }
  PairAnalyzed write_pair;
  if (json) {
    write_pair = [&](int a, int b, const Run& run, const PairAnalysis& analysis) {
      json->add(analysis);
      write_text_file((pairs_dir / (pair_file_stem(a, b) + ".txt")).string(), analysis_text(analysis));
      if (outputs.save_runs) {
        OutputFile out((pairs_dir / (pair_file_stem(a, b) + ".csv")).string());
        write_run(run, [&](std::string_view text) { out.write(text); });
        out.commit();
      }
    };
  }
  MatrixAnalysis analysis = analyze_matrix_pairs(o.planned.plan, o.planned.order,
                                                 {choice.send, choice.recv, o.platform.tsc.hz}, source, write_pair);
  if (json) {
    json->finish();
    json_file->commit();
  }
  if (!analysis.unmeasured.empty()) {
    // Measured now, a pair without rounds is a failure; read from a directory, it is what
    // the directory holds (pairs may be missing).
    (o.offline ? o.incomplete : o.problems).push_back(unmeasured_pairs_note(analysis.unmeasured));
  }
  if (!analysis.incomplete.empty()) {
    o.incomplete.push_back(incomplete_pairs_note(analysis.incomplete, analysis.analyzed));
  }
  o.matrix = std::move(analysis.matrix);
}

std::string cut_short_line(const MatrixOutcome& o) {
  if (o.interrupted.empty()) return "";
  return "cut short (" + o.interrupted + "): what follows is the part measured, not a whole run\n\n";
}

void prepare_out_dir(const std::string& dir) { make_directories((std::filesystem::path(dir) / "pairs").string()); }

std::vector<std::string> write_matrix_dir(const std::string& dir, const MatrixOutcome& o, const CheckResult* check,
                                          const CheckSettings* settings, PictureReport* pictures) {
  namespace fs = std::filesystem;
  std::vector<std::string> problems;
  prepare_out_dir(dir);
  const fs::path root(dir);
  const MatrixResult& m = o.matrix;

  // The gnuplot-ready matrices and their heatmaps.
  Plotter plotter;
  for (const MatrixGridSpec& g : matrix_grid_specs()) {
    const fs::path dat = root / (std::string(g.name) + ".dat");
    MatrixGrid grid = matrix_grid(g, m);
    if (!o.interrupted.empty()) grid.title += " - cut short, a part of the run";
    write_text_file(dat.string(), format_gnuplot_matrix(grid));
    if (g.script == nullptr) continue;
    for (const char* ext : {".png", ".svg"})
      plotter.draw(g.script, dat.string(), (root / (g.name + std::string(ext))).string());
  }
  // The per-CPU offsets with their hard bounds: one point per CPU, where a CPU whose
  // counter is off stands out even when its row of the heatmap is a few pixels, coloured
  // by the offset groups of the check's diagnosis (a matrix without a check: of its own,
  // against no tolerance; a structure, not a verdict).
  const Diagnosis own = check != nullptr ? Diagnosis{} : diagnose(m, DiagnosisSettings{});
  const Diagnosis& diagnosis = check != nullptr ? check->diagnosis : own;
  const fs::path cpu_dat = root / "cpu_offsets.dat";
  CpuOffsetsTable cpu_table = cpu_offsets_table(m, &diagnosis);
  if (!o.interrupted.empty()) cpu_table.title += " - cut short, a part of the run";
  write_text_file(cpu_dat.string(), format_cpu_offsets(cpu_table));
  for (const char* ext : {".png", ".svg"})
    plotter.draw("cpu_offsets.gp", cpu_dat.string(), (root / (std::string("cpu_offsets") + ext)).string());
  for (const std::string& line : plotter.report().failure_lines()) problems.push_back(line);
  if (pictures != nullptr) pictures->add(plotter.report());

  // Written as it is made: on a large machine the N×N arrays as one document took more
  // memory than everything else together (stream_matrix_json).
  json j = json::object();
  j["plan"] = o.has_plan ? plan_json(o.planned.plan) : json(nullptr);
  j["elapsed_seconds"] = o.elapsed_seconds;
  j["status"] = o.interrupted.empty() ? "complete" : "interrupted";
  j["incomplete"] = o.incomplete;
  j["lost_evidence"] = !o.lost.empty();
  j["lost"] = lost_json(o.lost);
  j["warnings"] = warnings_json(o.warnings);
  std::vector<std::string> all_problems = o.problems;
  all_problems.insert(all_problems.end(), problems.begin(), problems.end());
  j["problems"] = all_problems;
  if (check != nullptr && settings != nullptr) j["check"] = check_json(*check, *settings);
  j["findings"] = findings_json(diagnosis, m.tsc_hz);
  OutputFile json_file((root / "matrix.json").string());
  stream_matrix_json(m, cpu_places_json(o.planned.order), j, [&](std::string_view text) { json_file.write(text); });
  json_file.commit();
  std::string text = cut_short_line(o) + matrix_text(m);
  if (check != nullptr) text = check_text(*check, true) + "\n" + text;
  write_text_file((root / "matrix.txt").string(), text);
  return problems;
}

MatrixOutcome obtain_matrix(const MatrixOptions& options, const char* command, bool announce_plan) {
  if (!options.from.empty()) {
    if (!options.out_dir.empty()) prepare_out_dir(options.out_dir);
    MatrixOutcome o = load_matrix(options.from, pair_outputs(options));
    std::cerr << "tscaudit " << command << ": rebuilt from " << o.run_dir << "\n";
    return o;
  }
  PlannedMatrix planned = plan_matrix(options);
  if (!options.out_dir.empty()) prepare_out_dir(options.out_dir);
  if (announce_plan) {
    // One line, not the plan (--dry-run prints it): the answer is what the output starts with.
    const MatrixPlan& plan = planned.plan;
    std::cerr << wrap_lines(
        "tscaudit " + std::string(command) + ": send " + std::string(variant_name(options.choice.send)) + ", recv " +
        std::string(variant_name(options.choice.recv)) + "; measuring " + std::to_string(plan.ordered_pairs) +
        " ordered pairs of " + std::to_string(plan.spec.cpus.size()) + " CPUs, " + std::to_string(plan.spec.visits) +
        (plan.spec.visits == 1 ? " visit" : " visits") + " each, about " + human_duration(plan.estimated_seconds) +
        " (--dry-run shows the plan)\n");
  }
  return measure_matrix(options, std::move(planned));
}

int run_matrix(const MatrixOptions& options) {
  if (options.dry_run) {
    const PlannedMatrix planned = plan_matrix(options);
    if (options.format == OutputFormat::json) {
      std::cout << plan_json(planned.plan).dump(2) << "\n";
    } else {
      std::cout << plan_text(planned.plan, &planned.order);
    }
    return kExitOk;
  }
  const StopSignals signals;  // a signal ends the measuring cleanly (measure_matrix)
  const MatrixOutcome o = obtain_matrix(options, "matrix", true);
  std::vector<std::string> problems = o.problems;
  PictureReport pictures;
  if (!options.out_dir.empty()) {
    for (const std::string& p : write_matrix_dir(options.out_dir, o, nullptr, nullptr, &pictures)) {
      problems.push_back(p);
    }
  }
  if (options.format == OutputFormat::json) {
    json extra = json::object();
    extra["findings"] = findings_json(diagnose(o.matrix, DiagnosisSettings{}), o.matrix.tsc_hz);
    extra["lost_evidence"] = !o.lost.empty();
    extra["lost"] = lost_json(o.lost);
    stream_matrix_json(o.matrix, cpu_places_json(o.planned.order), extra,
                       [](std::string_view text) { std::cout << text; });
  } else {
    // The answer first: the check's verdict over these pairs (no tolerance, no
    // --max-bound) and its worst finding, as `check` words it; then the figures.
    CheckResult verdict = decide_check(o.matrix, CheckSettings{}, check_warnings(o.warnings));
    if (!o.interrupted.empty()) mark_cut_short(verdict, o.interrupted);
    std::cout << check_text(verdict, false) << "\n" << cut_short_line(o) << matrix_text(o.matrix);
  }
  if (!o.offline) std::cerr << "  measured in " << format_sig(o.elapsed_seconds, 3) << " s\n";
  // What makes the answer less certain (emulated, a hypervisor, the clocksource), as check says.
  for (const std::string& w : check_warnings(o.warnings)) std::cerr << "  warning: " << w << "\n";
  for (const std::string& p : problems) std::cerr << "  problem: " << p << "\n";
  for (const std::string& note : o.incomplete) std::cerr << "  not complete: " << note << "\n";
  for (const RunDirLoss& loss : o.lost) std::cerr << "  evidence lost: " << run_dir_loss_text(loss) << "\n";
  if (!pictures.not_drawn.empty()) std::cerr << "  " << not_drawn_message(pictures.not_drawn) << "\n";
  if (!options.out_dir.empty()) {
    std::cerr << "  wrote " << options.out_dir << "/matrix.json" << pictures_written(pictures, "heatmaps") << "\n";
  }
  // A run cut short is incomplete live and read back alike (docs/method.md §10.3).
  return o.problems.empty() && o.interrupted.empty() ? kExitOk : kExitRuntime;
}

}  // namespace tscaudit
