#include "app/variants_command.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>

#include "app/pictures.hpp"
#include "app/progress.hpp"
#include "app/stop_signals.hpp"
#include "app/report_error.hpp"
#include "core/cpu_list.hpp"
#include "core/errors.hpp"
#include "core/files.hpp"
#include "core/format.hpp"
#include "formats/run_format.hpp"
#include "io/output_dir.hpp"
#include "io/output_file.hpp"
#include "matrix/topology_order.hpp"
#include "measure/exchange.hpp"
#include "measure/pair_run.hpp"
#include "measure/read_cost.hpp"
#include "measure/variant.hpp"
#include "platform/affinity.hpp"
#include "platform/memory_guard.hpp"
#include "platform/platform.hpp"
#include "platform/platform_warnings.hpp"
#include "platform/topology.hpp"

namespace tscaudit {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

ExchangeChoice choice_of(const Combination& c) {
  ExchangeChoice choice;
  choice.send = c.send;
  choice.recv = c.recv;
  return choice;
}

/// Appends a visit, keeping its error as it is worded.
void append(VisitsRun& d, const ExchangeResult& result, const ExchangeConfig& config) {
  if (auto error = append_visit(d, result, config)) d.errors.push_back(*error);
}

std::string role_name(const Combination& c, int a, int b) {
  return combination_label(c) + " " + std::to_string(a) + "->" + std::to_string(b);
}

/// The variants this CPU can run, in interface order; why each other one cannot, in `left_out`.
std::vector<Variant> supported_variants(const PlatformFacts& platform, std::vector<std::string>& left_out) {
  std::vector<Variant> out;
  for (Variant v : kHostVariants) {
    if (auto why = variant_unsupported(v, platform)) {
      left_out.push_back(std::string(variant_name(v)) + " left out: " + *why);
    } else {
      out.push_back(v);
    }
  }
  return out;
}

/// The same-CPU (or SMT-sibling) control with plain reads on both sides.
ControlSummary run_control(const VariantsOptions& options, int cpu_a, const PlatformFacts& platform,
                           std::int64_t quantum_ticks, Clock::time_point deadline) {
  const Combination plain = plain_combination(counter::kHostArch);
  int partner = cpu_a;
  const TopologyResult topology = load_topology();
  if (topology.ok) {
    const CpuAvailability cpus = read_cpu_availability();
    if (auto sibling = smt_sibling(topology.summary.places, cpu_a, cpus.allowed)) partner = *sibling;
  }
  ExchangeConfig config;
  config.cpu_a = cpu_a;
  config.cpu_b = partner;
  config.rounds = options.control_rounds;
  // Every message costs a context switch here: a short warm-up is enough to settle it.
  config.warmup = std::min<std::uint64_t>(options.warmup, 200);
  config.timeout = options.timeout;
  config.deadline = deadline;
  const ExchangeResult result = run_exchange(choice_of(plain), config);
  VisitsRun d;
  d.a = cpu_a;
  d.b = partner;
  append(d, result, config);
  finish_visits_run(d, platform, choice_of(plain), options.command_line, 1, options.control_rounds, config.warmup);
  const std::int64_t q = std::max<std::int64_t>(quantum_ticks, static_cast<std::int64_t>(d.quantum_ticks));
  if (partner == cpu_a || d.run.rounds.empty()) return summarize_control(cpu_a, partner, plain, d.run, q, nullptr);
  const PairAnalysis analysis = analyze_run(d.run, role_name(plain, cpu_a, partner));
  return summarize_control(cpu_a, partner, plain, d.run, q, &analysis);
}

/// The run that switches from plain to `recv` receive reads half-way.
SwitchRun run_switch(const VariantsOptions& options, int cpu_a, int cpu_b, Variant recv,
                     const PlatformFacts& platform, Clock::time_point deadline) {
  SwitchRun s;
  s.first = plain_combination(counter::kHostArch);
  s.second = {s.first.send, recv};
  ExchangeConfig first;
  first.cpu_a = cpu_a;
  first.cpu_b = cpu_b;
  first.rounds = options.switch_rounds;
  first.warmup = options.warmup;
  first.timeout = options.timeout;
  ExchangeConfig second = first;
  second.warmup = 0;  // the same threads, already warm: the series goes on without a gap
  if (deadline != Clock::time_point{}) {
    // Each half its half of the time left: a switch at the very end shows nothing.
    const Clock::time_point now = Clock::now();
    first.deadline = now + (deadline - std::min(now, deadline)) / 2;
    second.deadline = deadline;
  }
  const std::array<ExchangeResult, 2> results = run_switch_exchange(recv, first, second);
  std::array<VisitsRun, 2> halves;
  for (std::size_t i = 0; i < 2; ++i) {
    const ExchangeConfig& config = i == 0 ? first : second;
    halves[i].a = cpu_a;
    halves[i].b = cpu_b;
    append(halves[i], results[i], config);
    finish_visits_run(halves[i], platform, choice_of(i == 0 ? s.first : s.second), options.command_line, 1,
                      options.switch_rounds, config.warmup);
    for (const std::string& e : halves[i].errors) s.problem += (s.problem.empty() ? "" : "; ") + e;
  }
  s.first_run = std::move(halves[0].run);
  s.second_run = std::move(halves[1].run);
  return s;
}

}  // namespace

std::pair<int, int> variants_cpus(const VariantsOptions& options) {
  const CpuAvailability cpus = read_cpu_availability();
  std::vector<int> pair;
  if (options.cpus.empty()) {
    for (int cpu : cpus.allowed) {
      if (!cpu_problem(cpu, cpus)) pair.push_back(cpu);
      if (pair.size() == 2) break;
    }
    if (pair.size() < 2) {
      throw UsageError("variants needs two CPUs; this process may use only " + format_cpu_list(cpus.allowed) +
                       " (the same-CPU control alone: measure --cpus A,A)");
    }
  } else {
    pair = parse_cpu_list(options.cpus);
    if (pair.size() != 2) {
      throw UsageError("--cpus '" + options.cpus + "' names " + count_of(pair.size(), "CPU") +
                       "; variants takes exactly two, A,B");
    }
    if (pair[0] == pair[1]) {
      throw UsageError("--cpus '" + options.cpus +
                       "' names one CPU twice; variants takes two different CPUs "
                       "(the same-CPU control is part of the run)");
    }
    for (int cpu : pair) {
      if (auto problem = cpu_problem(cpu, cpus)) throw UsageError(*problem);
    }
  }
  if (options.rounds < 2 * options.passes) {
    throw UsageError("--rounds " + std::to_string(options.rounds) + " is too few for " +
                     std::to_string(options.passes) + " passes in both roles: give at least " +
                     std::to_string(2 * options.passes));
  }
  // Every round of every combination is kept until the end (40 bytes each); on a CPU
  // without RDTSCP (or FEAT_ECV) there are fewer combinations, so this is the most it can take.
  const std::uint64_t combinations =
      options.all ? all_combinations(kHostVariants).size() : default_combinations(kHostVariants).size();
  const std::uint64_t rounds = combinations * options.rounds + options.control_rounds + 2 * options.switch_rounds;
  if (auto refusal =
          memory_refusal(rounds * sizeof(Round), available_memory_bytes(), "the run", "give fewer --rounds")) {
    throw UsageError(*refusal);
  }
  return {pair[0], pair[1]};
}

VariantsOutcome measure_variants(const VariantsOptions& options, const std::atomic<int>* stop) {
  const auto [cpu_a, cpu_b] = variants_cpus(options);
  VariantsOutcome o;
  VariantsResult& r = o.result;
  r.cpu_a = cpu_a;
  r.cpu_b = cpu_b;
  r.rounds_per_combination = options.rounds;
  r.passes = options.passes;
  const PlatformFacts platform = probe_platform();
  r.tsc_hz = platform.tsc.hz;
  r.warnings = weakening(platform_warnings(platform));
  const std::vector<Variant> variants = supported_variants(platform, r.left_out);

  const Clock::time_point start = Clock::now();
  const Clock::time_point until =
      options.budget_seconds > 0
          ? start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options.budget_seconds))
          : Clock::time_point{};
  // A visit's share of what is left of the budget, `left` visits (the control and the
  // switching run count as one each) still to come; none without a budget.
  const auto share = [&](std::size_t left) {
    if (until == Clock::time_point{}) return Clock::time_point{};
    const Clock::time_point now = Clock::now();
    return now + (until - std::min(now, until)) / static_cast<long>(std::max<std::size_t>(1, left));
  };
  const std::size_t after_exchanges = (options.control_rounds > 0 ? std::size_t{1} : std::size_t{0}) +
                                      (options.switch_rounds > 0 ? std::size_t{1} : std::size_t{0});
  // 1. What a read costs, on the initiator's CPU.
  for (const ReadCostSamples& s : measure_read_costs(cpu_a, variants, ReadCostConfig{})) {
    r.read_costs.push_back(summarize_read_cost(s, r.tsc_hz));
  }

  // 2. The exchanges: every combination in both roles, its rounds split over the passes
  //    and the combinations interleaved, so a change in the host's load during the run
  //    falls on all of them alike instead of on whichever ran then.
  const std::vector<Combination> combinations =
      options.all ? all_combinations(variants) : default_combinations(variants);
  const std::uint64_t per_visit = options.rounds / (2 * options.passes);
  std::vector<std::array<VisitsRun, 2>> data(combinations.size());
  for (std::size_t k = 0; k < combinations.size(); ++k) {
    data[k][0].a = cpu_a;
    data[k][0].b = cpu_b;
    data[k][1].a = cpu_b;
    data[k][1].b = cpu_a;
    for (VisitsRun& d : data[k]) d.run.rounds.reserve(per_visit * options.passes);
  }
  const std::size_t visits_total = combinations.size() * 2 * options.passes;
  Progress progress("measuring the read variants", visits_total);
  std::size_t visits_done = 0;
  for (std::uint64_t pass = 0; pass < options.passes && o.interrupted.empty(); ++pass) {
    for (std::size_t i = 0; i < combinations.size() && o.interrupted.empty(); ++i) {
      // Each pass starts one combination later: no combination always follows the same one.
      const std::size_t k = (i + pass) % combinations.size();
      for (VisitsRun& d : data[k]) {
        if (stop != nullptr && stop->load() != 0) {
          o.interrupted = "interrupted by " + signal_name(stop->load()) + " after " + std::to_string(visits_done) +
                          " of " + std::to_string(visits_total) + " visits";
          break;
        }
        ExchangeConfig config;
        config.stop = stop;
        config.cpu_a = d.a;
        config.cpu_b = d.b;
        config.rounds = per_visit;
        config.warmup = options.warmup;
        config.timeout = options.timeout;
        config.deadline = share(visits_total - visits_done + after_exchanges);
        append(d, run_exchange(choice_of(combinations[k]), config), config);
        ++visits_done;
        progress.update(visits_done, std::to_string(visits_done) + " of " + count_of(visits_total, "visit"));
      }
    }
  }

  if (!o.interrupted.empty()) return o;
  for (std::size_t k = 0; k < combinations.size(); ++k) {
    std::vector<std::shared_ptr<const Run>> runs;
    std::vector<std::shared_ptr<const PairAnalysis>> analyses;
    std::vector<std::string> problems;
    for (VisitsRun& d : data[k]) {
      finish_visits_run(d, platform, choice_of(combinations[k]), options.command_line, options.passes, per_visit,
                        options.warmup);
      for (const std::string& e : d.errors) problems.push_back(role_name(combinations[k], d.a, d.b) + ": " + e);
      if (d.run.rounds.empty()) continue;
      analyses.push_back(
          std::make_shared<const PairAnalysis>(analyze_run(d.run, role_name(combinations[k], d.a, d.b))));
      runs.push_back(std::make_shared<const Run>(std::move(d.run)));
      o.runs.push_back(runs.back());
    }
    r.problems.insert(r.problems.end(), problems.begin(), problems.end());
    if (analyses.empty()) {
      r.problems.push_back(combination_label(combinations[k]) + ": no round completed; left out");
      continue;
    }
    ExchangeSummary s = summarize_exchange(combinations[k], runs, analyses);
    s.problems = std::move(problems);
    r.quantum_ticks = std::max(r.quantum_ticks, s.quantum_ticks);
    r.exchanges.push_back(std::move(s));
  }

  // 3. The control, then the verdict, then the switching run with the read it recommends.
  if (options.control_rounds > 0) {
    r.control = run_control(options, cpu_a, platform, r.quantum_ticks, share(after_exchanges));
  }
  r.reference_bands = reference_bands(r.exchanges);
  check_against_reference(r.exchanges, r.reference_bands);
  r.verdict = decide_variants(r.read_costs, r.exchanges, r.control, r.tsc_hz);
  if (options.switch_rounds > 0) {
    const std::optional<RecvStanding>& recommended = r.verdict.recommended;
    const Variant recv = recommended ? recommended->recv : default_recv_variant(counter::kHostArch);
    r.switch_run = run_switch(options, cpu_a, cpu_b, recv, platform, share(1));
    if (!r.switch_run->problem.empty()) r.problems.push_back("switching run: " + r.switch_run->problem);
  }
  o.elapsed_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return o;
}

std::string saved_run_stem(const Run& run) {
  auto field = [&](const char* key) { return std::string(run.header.get(key).value_or("?")); };
  return "send-" + field("send") + "_recv-" + field("recv") + "_" + field("a") + "-" + field("b");
}

std::vector<std::string> write_variants_dir(const std::string& dir, const VariantsOutcome& outcome, bool save_runs,
                                            PictureReport* picture_report) {
  const VariantsResult& r = outcome.result;
  const fs::path root(dir);
  std::vector<std::string> problems;
  if (save_runs) {
    make_directories((root / "runs").string());
    auto save = [&](const Run& run, const std::string& stem) {
      OutputFile out((root / "runs" / (stem + ".csv")).string());
      write_run(run, [&](std::string_view text) { out.write(text); });
      out.commit();
    };
    for (const auto& run : outcome.runs) save(*run, saved_run_stem(*run));
    if (r.switch_run) {
      save(r.switch_run->first_run, "switch-1_" + saved_run_stem(r.switch_run->first_run));
      save(r.switch_run->second_run, "switch-2_" + saved_run_stem(r.switch_run->second_run));
    }
  }
  write_text_file((root / "variants.json").string(), variants_json(r).dump(2) + "\n");
  write_text_file((root / "variants.txt").string(), variants_text(r));

  struct Picture {
    const char* name;
    std::string text;
  };
  std::vector<Picture> pictures = {
      {"variants_cost", cost_dat(r.read_costs, r.cpu_a, r.tsc_hz)},
      {"variants_tradeoff", tradeoff_dat(r.read_costs, r.exchanges)},
      {"variants_percentiles", percentiles_dat(r.exchanges, r.cpu_a, r.cpu_b)},
  };
  if (r.switch_run && !r.switch_run->first_run.rounds.empty() && !r.switch_run->second_run.rounds.empty() &&
      r.tsc_hz > 0) {
    pictures.push_back({"variants_switch", switch_dat(*r.switch_run, r.cpu_a, r.cpu_b, r.tsc_hz)});
  }
  Plotter plotter;
  for (const Picture& p : pictures) {
    const fs::path dat = root / (std::string(p.name) + ".dat");
    write_text_file(dat.string(), p.text);
    for (const char* ext : {".png", ".svg"}) {
      plotter.draw(p.name + std::string(".gp"), dat.string(), (root / (p.name + std::string(ext))).string());
    }
  }
  for (const std::string& line : plotter.report().failure_lines()) problems.push_back(line);
  if (picture_report != nullptr) picture_report->add(plotter.report());
  return problems;
}

int run_variants(const VariantsOptions& options) {
  // Before anything is made: a signal never leaves half of it, bad CPUs fail before --out.
  const StopSignals signals;
  static_cast<void>(variants_cpus(options));
  // Taken before measuring (docs/formats.md, "Output directories"): a directory that cannot
  // be written, or that another process writes, fails in a moment; the output is built aside
  // and put in place whole.
  std::optional<OutputDir> out;
  if (!options.out_dir.empty()) out.emplace(OutputDir::begin(options.out_dir, OutputKind::variants));
  const VariantsOutcome o = measure_variants(options, &StopSignals::flag());
  if (!o.interrupted.empty()) {
    std::cerr << "tscaudit variants: " << o.interrupted
              << ": nothing written (variants measured over unequal passes do not compare)"
              << (out ? "; " + printable_text(out->path()) + " is as it was" : std::string()) << "\n";
    return kExitRuntime;
  }
  std::vector<std::string> problems;
  PictureReport pictures;
  if (out) {
    // What is written aside is named where it is put, in every message (OutputDir::placed).
    try {
      for (const std::string& p : write_variants_dir(out->aside(), o, options.save_runs, &pictures)) {
        problems.push_back(out->placed(p));
      }
      pictures.rename([&](std::string path) { return out->placed(std::move(path)); });
      out->commit();
    } catch (...) {
      rethrow_placed(*out);
    }
  }
  if (options.format == OutputFormat::json) {
    std::cout << variants_json(o.result).dump(2) << "\n";
  } else {
    std::cout << variants_text(o.result);
  }
  std::cout.flush();  // the data before the context lines, also when both go to one file
  std::cerr << "  measured in " << format_sig(o.elapsed_seconds, 3) << " s\n";
  for (const std::string& p : problems) print_note("  problem: " + p);
  if (!pictures.not_drawn.empty()) print_note("  " + not_drawn_message(pictures.not_drawn));
  if (out) {
    print_note("  wrote " + printable_text(join_path(out->path(), "variants.json")) +
               pictures_written(pictures, "plots"));
  }
  const bool failed_visit = std::any_of(o.result.exchanges.begin(), o.result.exchanges.end(),
                                        [](const ExchangeSummary& e) { return !e.problems.empty(); });
  return failed_visit || (o.result.switch_run && !o.result.switch_run->problem.empty()) ? kExitRuntime : kExitOk;
}

}  // namespace tscaudit
