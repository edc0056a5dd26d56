#include "app/cli.hpp"

#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <iostream>
#include <map>

#include "core/cpu_list.hpp"
#include "core/errors.hpp"
#include "core/format.hpp"
#include "version.hpp"

namespace tscsync::cli {
namespace {

/// Rounds are kept in memory until the run ends (32 bytes recorded, 48 assembled).
constexpr std::uint64_t kMaxRounds = 20'000'000;
constexpr std::uint64_t kMaxTimeoutMs = 3'600'000;
constexpr std::uint64_t kMaxNtpSeconds = 3600;
constexpr std::uint64_t kMaxVisits = 1000;
constexpr double kMinIntervalS = 0.01;
constexpr double kMaxIntervalS = 86400;
/// The monitor's queue: at least a few rounds, at most 2^24 (640 MiB of 40-byte rounds).
constexpr std::uint64_t kMinQueueRounds = 16;
constexpr std::uint64_t kMaxQueueRounds = std::uint64_t{1} << 24;

/// The monitor's options as typed, validated in parse().
struct MonitorText {
  std::string cpus, variant, send, recv, out;
  std::string interval = "1", duration, timeout_ms = "2000";
  std::string queue_rounds = std::to_string(kDefaultMonitorQueueRounds);
};

OutputFormat format_option(const std::string& text, bool csv_allowed) {
  if (text == "text") return OutputFormat::text;
  if (text == "json") return OutputFormat::json;
  if (text == "csv" && csv_allowed) return OutputFormat::csv;
  throw UsageError("--format '" + text + "' is not " + (csv_allowed ? "text, json or csv" : "text or json"));
}

Variant variant_option(const std::string& option, const std::string& text) {
  if (auto v = parse_variant(text)) return *v;
  throw UsageError("unknown variant '" + text + "' for " + option + " (choose from " + variant_list() + ")");
}

/// --variant (both sides) or --send/--recv into `choice`; the defaults stay where none is given.
void choose_variants(const std::string& variant, const std::string& send, const std::string& recv,
                     ExchangeChoice& choice) {
  if (!variant.empty() && (!send.empty() || !recv.empty())) {
    throw UsageError("give --variant (both sides) or --send/--recv, not both");
  }
  if (!variant.empty()) choice.send = choice.recv = variant_option("--variant", variant);
  if (!send.empty()) choice.send = variant_option("--send", send);
  if (!recv.empty()) choice.recv = variant_option("--recv", recv);
}

}  // namespace

std::uint64_t parse_count(const std::string& option, const std::string& text, std::uint64_t min, std::uint64_t max) {
  std::uint64_t value = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(first, last, value);
  const std::string range = "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
  if (text.empty() || ec == std::errc::invalid_argument || ptr != last) {
    throw UsageError(option + " '" + text + "' is not an unsigned decimal number (expected one in " + range + ")");
  }
  if (ec == std::errc::result_out_of_range || value < min || value > max) {
    throw UsageError(option + " " + text + " is out of range " + range);
  }
  return value;
}

double parse_real(const std::string& option, const std::string& text) {
  double value = 0;
  const char* last = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), last, value);
  if (text.empty() || ec != std::errc{} || ptr != last || !std::isfinite(value)) {
    throw UsageError(option + " '" + text + "' is not a finite decimal number");
  }
  return value;
}

double parse_duration_s(const std::string& option, const std::string& text) {
  std::string number = text;
  double unit_s = 1;
  if (!number.empty()) {
    switch (number.back()) {
      case 's': number.pop_back(); break;
      case 'm':
        number.pop_back();
        unit_s = 60;
        break;
      case 'h':
        number.pop_back();
        unit_s = 3600;
        break;
      default: break;
    }
  }
  double value = 0;
  const char* last = number.data() + number.size();
  const auto [ptr, ec] = std::from_chars(number.data(), last, value);
  if (number.empty() || ec != std::errc{} || ptr != last || !std::isfinite(value) || !(value > 0)) {
    throw UsageError(option + " '" + text + "' is not a duration > 0 (seconds, or a number with s, m or h)");
  }
  return value * unit_s;
}

std::string quote_command_line(const std::vector<std::string>& args) {
  std::string out;
  for (const std::string& a : args) {
    if (!out.empty()) out += ' ';
    const bool plain =
        !a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./,=:+") ==
                          std::string::npos;
    if (plain) {
      out += a;
      continue;
    }
    out += '\'';
    for (char c : a) {
      if (c == '\'') {
        out += "'\\''";
      } else {
        out += c;
      }
    }
    out += '\'';
  }
  return out;
}

Command parse(const std::vector<std::string>& args) {
  CLI::App app{"tscsync: are the time stamp counters of all CPUs in this machine synchronized?"};
  app.set_version_flag("--version", std::string(kToolVersion));
  app.require_subcommand(1);

  std::string info_format = "text";
  CLI::App* info = app.add_subcommand("info",
                                      "Platform facts: CPU, TSC features, hypervisor, kernel view of the "
                                      "TSC, TSC frequency and its source, topology, idle states, "
                                      "quantum per CPU, and warnings with advice");
  info->add_option("--format", info_format, "text or json")->capture_default_str();
  std::string ntp_seconds = "0";
  info->add_option("--ntp-seconds", ntp_seconds,
                   "also calibrate the TSC against CLOCK_REALTIME (NTP-disciplined) over this many seconds; 0: off")
      ->capture_default_str();

  std::string cpus, variant, send, recv, transport = "slot", out;
  std::string rounds = "1000000", warmup = "10000", timeout_ms = "2000";
  CLI::App* measure =
      app.add_subcommand("measure", "Measure one ordered pair of CPUs: A initiates, B responds; every round is saved");
  measure->add_option("--cpus", cpus, "A,B: the initiator and the responder (A,A: same-CPU control)")->required();
  measure->add_option("--variant", variant, "read variant for both sides (" + variant_list() + ")");
  measure->add_option("--send", send, "read variant for the send stamps t1, t3 (default rdtsc)");
  measure->add_option("--recv", recv, "read variant for the receive stamps t2, t4 (default lfence_rdtsc)");
  measure->add_option("--rounds", rounds, "measured rounds, at most 20000000")->capture_default_str();
  measure->add_option("--warmup", warmup, "rounds run first and discarded")->capture_default_str();
  measure->add_option("--transport", transport, "slot (one cache line) or queue (boost::lockfree::spsc_queue)")
      ->capture_default_str();
  measure->add_option("--timeout-ms", timeout_ms, "longest wait for the partner's message before the run is aborted")
      ->capture_default_str();
  measure->add_option("--out", out, "output file, or - for standard output")->required();

  MonitorText mt;
  CLI::App* monitor =
      app.add_subcommand("monitor",
                         "Measure one ordered pair for a long time (until --duration or SIGINT/SIGTERM) and write an "
                         "interval log: one line per interval, flushed as it ends, in memory that does not grow");
  monitor->add_option("--cpus", mt.cpus, "A,B: the initiator and the responder (two different CPUs)")->required();
  monitor->add_option("--variant", mt.variant, "read variant for both sides (" + variant_list() + ")");
  monitor->add_option("--send", mt.send, "read variant for the send stamps t1, t3 (default rdtsc)");
  monitor->add_option("--recv", mt.recv, "read variant for the receive stamps t2, t4 (default lfence_rdtsc)");
  monitor->add_option("--interval", mt.interval, "length of one interval: seconds, or with s, m or h")
      ->capture_default_str();
  monitor->add_option("--duration", mt.duration,
                      "how long to run: seconds, or with s, m or h (default: until SIGINT or SIGTERM)");
  monitor->add_option("--timeout-ms", mt.timeout_ms, "longest wait for the partner's message before the run is aborted")
      ->capture_default_str();
  monitor
      ->add_option("--queue-rounds", mt.queue_rounds,
                   "rounds the queue to the aggregator holds (40 bytes each); a full queue counts lost rounds")
      ->capture_default_str();
  monitor->add_option("--out", mt.out, "the interval log (written as FILE.partial until the run ends), or -")
      ->required();

  std::vector<std::string> files;
  std::string analyze_format = "text", analyze_out = "-", analyze_plot;
  CLI::App* analyze =
      app.add_subcommand("analyze",
                         "Analyse saved runs, imported rounds or monitor interval logs: offset and drift with hard "
                         "bounds, negative latencies classified, distributions, a verdict per pair; for interval logs "
                         "also offset steps over time, the worst intervals, totals and memory");
  analyze
      ->add_option("files", files,
                   "runs (tscsync-run/1), interval logs of monitor (tscsync-monitor/1) or tables with "
                   "t1,t2,t3,t4 columns, in any mix; - reads stdin")
      ->required();
  analyze
      ->add_option("--format", analyze_format,
                   "text, json or csv (csv: one row per pair, then one row per interval of the logs)")
      ->capture_default_str();
  analyze->add_option("--out", analyze_out, "output file, or - for standard output")->capture_default_str();
  analyze->add_option("--plot", analyze_plot,
                      "directory for each interval log's time series: monitor_timeseries.dat, .png and .svg "
                      "(STEM_monitor_timeseries.* after each log's file name when there are several)");

  // simulate: every model parameter is an option; ranges are checked by simulate().
  SimulateOptions sim;
  std::string sim_rounds = std::to_string(sim.spec.rounds), sim_seed = std::to_string(sim.spec.seed);
  std::string sim_quantum = std::to_string(sim.spec.quantum_ticks);
  bool no_quantum_metadata = false;
  CLI::App* simulate =
      app.add_subcommand("simulate",
                         "Synthetic rounds with known offset, drift, quantum, delays, early reads and steps; "
                         "the truth as JSON");
  simulate->add_option("--rounds", sim_rounds, "rounds, at most 20000000")->capture_default_str();
  simulate->add_option("--seed", sim_seed, "random seed")->capture_default_str();
  simulate->add_option("--quantum-ticks", sim_quantum, "counter step q")->capture_default_str();
  simulate->add_flag("--no-quantum-metadata", no_quantum_metadata, "leave quantum_ticks out: analyze infers it");
  std::map<std::string, std::string> sim_reals;
  const std::vector<std::tuple<std::string, double*, std::string>> real_options = {
      {"--offset-ticks", &sim.spec.offset_ticks, "offset theta = TSC_b - TSC_a at the run's middle"},
      {"--drift-ppb", &sim.spec.drift_ppb, "rate difference of b's counter"},
      {"--fwd-base-ticks", &sim.spec.fwd.base_ticks, "a->b delay: the floor"},
      {"--fwd-exp-mean-ticks", &sim.spec.fwd.exp_mean_ticks, "a->b delay: mean of the exponential part"},
      {"--fwd-tail-fraction", &sim.spec.fwd.tail_fraction, "a->b delay: share with a Pareto(1.5) tail"},
      {"--fwd-tail-scale-ticks", &sim.spec.fwd.tail_scale_ticks, "a->b delay: Pareto scale"},
      {"--rev-base-ticks", &sim.spec.rev.base_ticks, "b->a delay: the floor"},
      {"--rev-exp-mean-ticks", &sim.spec.rev.exp_mean_ticks, "b->a delay: mean of the exponential part"},
      {"--rev-tail-fraction", &sim.spec.rev.tail_fraction, "b->a delay: share with a Pareto(1.5) tail"},
      {"--rev-tail-scale-ticks", &sim.spec.rev.tail_scale_ticks, "b->a delay: Pareto scale"},
      {"--turnaround-base-ticks", &sim.spec.turnaround_base_ticks, "b: t2 to t3, floor"},
      {"--turnaround-exp-mean-ticks", &sim.spec.turnaround_exp_mean_ticks, "b: t2 to t3, exponential part"},
      {"--gap-ticks", &sim.spec.gap_ticks, "a: t4 to the next t1, floor"},
      {"--gap-exp-mean-ticks", &sim.spec.gap_exp_mean_ticks, "a: t4 to the next t1, exponential part"},
      {"--early-t2-rate", &sim.spec.spec_b.rate, "share of t2 reads (b receiving) taken early"},
      {"--early-t2-min-ticks", &sim.spec.spec_b.early_min_ticks, "how early at least"},
      {"--early-t2-max-ticks", &sim.spec.spec_b.early_max_ticks, "how early at most"},
      {"--early-t4-rate", &sim.spec.spec_a.rate, "share of t4 reads (a receiving) taken early"},
      {"--early-t4-min-ticks", &sim.spec.spec_a.early_min_ticks, "how early at least"},
      {"--early-t4-max-ticks", &sim.spec.spec_a.early_max_ticks, "how early at most"},
      {"--step-ticks", &sim.spec.step_ticks, "offset jump during the run (0: none)"},
      {"--step-at", &sim.spec.step_at_fraction, "when the jump happens, as a fraction of the run"},
      {"--tsc-hz", &sim.spec.tsc_hz, "frequency written into the metadata (for ns figures)"},
  };
  for (const auto& [name, field, help] : real_options) {
    sim_reals[name] = format_sig(*field, 17);
    simulate->add_option(name, sim_reals[name], help)->capture_default_str();
  }
  simulate->add_option("--out", sim.out, "the rounds: a file, or - for standard output")->required();
  simulate->add_option("--truth", sim.truth_out, "the truth as JSON: a file, or - for standard output")
      ->capture_default_str();

  // matrix, check and report share the options that choose the CPUs and the plan.
  struct PlanText {
    std::string cpus, variant, send, recv, visits = "4", rounds, budget, warmup = std::to_string(kMatrixWarmup),
                                           timeout_ms = "2000", topology, format = "text", out;
    bool parallel = false, dry_run = false, save_runs = false;
  };
  auto add_plan_options = [](CLI::App* cmd, PlanText& t, bool variants) {
    cmd->add_option("--cpus", t.cpus, "CPUs to measure, taskset syntax (default: every CPU this process may use)");
    if (variants) {
      cmd->add_option("--variant", t.variant, "read variant for both sides (" + variant_list() + ")");
      cmd->add_option("--send", t.send, "read variant for the send stamps t1, t3 (default rdtsc)");
      cmd->add_option("--recv", t.recv, "read variant for the receive stamps t2, t4 (default lfence_rdtsc)");
    }
    cmd->add_option("--visits", t.visits, "visits per ordered pair, spread over the whole run")->capture_default_str();
    cmd->add_option("--rounds", t.rounds, "measured rounds per visit (default: by the number of pairs, see --dry-run)");
    cmd->add_option("--budget", t.budget, "seconds: size the rounds per visit so the plan's estimate fits");
    cmd->add_option("--warmup", t.warmup, "rounds before each visit, discarded")->capture_default_str();
    cmd->add_option("--timeout-ms", t.timeout_ms, "longest wait for the partner before a visit is aborted")
        ->capture_default_str();
    cmd->add_flag("--parallel", t.parallel, "run disjoint pairs at once (round-robin tournament)");
  };
  PlanText matrix_text_opts;
  CLI::App* matrix =
      app.add_subcommand("matrix",
                         "Every ordered pair of the selected CPUs: offsets with hard bands, drift, latency and "
                         "violation matrices, per-CPU offsets, heatmaps");
  add_plan_options(matrix, matrix_text_opts, true);
  matrix->add_flag("--dry-run", matrix_text_opts.dry_run,
                   "print the plan (pairs, visits, rounds, time, memory); measure nothing");
  matrix->add_option(
      "--topology", matrix_text_opts.topology,
      "plan for another machine: an hwloc XML file or \"synthetic:package:2 core:64 pu:2\" (with --dry-run)");
  matrix->add_option("--format", matrix_text_opts.format, "text or json (stdout)")->capture_default_str();
  matrix->add_option("--out", matrix_text_opts.out,
                     "directory for matrix.json, the matrices, heatmaps and per-pair analyses");
  matrix->add_flag("--save-runs", matrix_text_opts.save_runs,
                   "also keep every pair's rounds in --out/pairs (tscsync-run/1)");

  PlanText check_text_opts;
  std::string tolerance = "0", drift_tolerance = "0";
  bool details = false;
  CLI::App* check = app.add_subcommand(
      "check", "Measure all pairs and answer for scripts: exit 0 synchronized, 1 not, with the reason in one line");
  add_plan_options(check, check_text_opts, true);
  check
      ->add_option("--tolerance", tolerance,
                   "allowed offset: ticks (40, 40ticks) or ns (15ns); 0: the band must contain 0")
      ->capture_default_str();
  check->add_option("--drift-tolerance-ppb", drift_tolerance, "allowed drift, ppb")->capture_default_str();
  check->add_option("--format", check_text_opts.format, "text or json")->capture_default_str();
  check->add_flag("--details", details, "text: every failing pair and every warning, not only the reason");
  check->add_option("--out", check_text_opts.out,
                    "keep the evidence: the matrix directory, with check.json inside matrix.json");

  struct VariantsText {
    std::string cpus, rounds = "200000", passes = "4", warmup = std::to_string(kVariantsWarmup),
                      control_rounds = "20000", switch_rounds = "50000", timeout_ms = "2000", format = "text", out;
    bool all = false, save_runs = false;
  } vt;
  CLI::App* variants = app.add_subcommand(
      "variants",
      "Which way of reading the TSC to trust here and what it costs: read cost per variant, the "
      "exchange of one pair under each send/recv combination, the same-CPU control, a recommendation");
  variants->add_option("--cpus", vt.cpus, "A,B: the pair (default: the first two CPUs this process may use)");
  variants->add_option("--rounds", vt.rounds, "rounds per combination, both roles together")->capture_default_str();
  variants
      ->add_option("--passes", vt.passes, "each combination's rounds split over this many interleaved visits per role")
      ->capture_default_str();
  variants->add_flag("--all", vt.all,
                     "every send/recv combination (64), not only the ones that answer the usual questions");
  variants->add_option("--warmup", vt.warmup, "rounds before each visit, discarded")->capture_default_str();
  variants->add_option("--control-rounds", vt.control_rounds, "rounds of the same-CPU control; 0: none")
      ->capture_default_str();
  variants
      ->add_option("--switch-rounds", vt.switch_rounds,
                   "rounds per half of the run that switches from plain to an ordering receive read; 0: none")
      ->capture_default_str();
  variants->add_option("--timeout-ms", vt.timeout_ms, "longest wait for the partner before a visit is aborted")
      ->capture_default_str();
  variants->add_option("--format", vt.format, "text or json (stdout)")->capture_default_str();
  variants->add_option("--out", vt.out, "directory for variants.json, variants.txt, the plots and their data");
  variants->add_flag("--save-runs", vt.save_runs, "also keep every combination's rounds in --out/runs (tscsync-run/1)");

  PlanText report_text_opts;
  report_text_opts.out = "report";
  bool no_plain = false;
  CLI::App* report =
      app.add_subcommand("report",
                         "The main job: platform facts, all pairs with an ordering read and with plain rdtsc, the "
                         "verdict, heatmaps, report.md and report.html in one directory");
  add_plan_options(report, report_text_opts, false);
  report->add_option("--out", report_text_opts.out, "the report directory")->capture_default_str();
  report->add_flag("--no-plain", no_plain, "skip the plain-rdtsc matrix");
  bool no_variants = false;
  std::string report_variants_rounds = "100000";
  report->add_flag("--no-variants", no_variants, "skip the read variants (tscsync variants) on the first two CPUs");
  report
      ->add_option("--variants-rounds", report_variants_rounds, "rounds per send/recv combination of the read variants")
      ->capture_default_str();

  // CLI11 would call an unknown first word "not expected" or ask for a subcommand.
  if (args.size() > 1 && !args[1].empty() && args[1][0] != '-') {
    try {
      app.get_subcommand(args[1]);
    } catch (const CLI::OptionNotFound&) {
      throw UsageError("unknown command '" + args[1] +
                       "' (commands: analyze, check, info, matrix, measure, monitor, report, simulate, variants)");
    }
  }
  std::vector<std::string> argv_rest(args.begin() + 1, args.end());
  std::reverse(argv_rest.begin(), argv_rest.end());  // CLI11 takes the arguments reversed
  try {
    app.parse(argv_rest);
  } catch (const CLI::CallForHelp& e) {
    std::cout << (app.get_subcommands().empty() ? app.help() : app.get_subcommands().front()->help());
    return Printed{};
  } catch (const CLI::CallForVersion&) {
    std::cout << "tscsync " << kToolVersion << "\n";
    return Printed{};
  } catch (const CLI::ParseError& e) {
    throw UsageError(e.what());
  }

  if (info->parsed()) {
    return InfoCommand{format_option(info_format, false),
                       static_cast<unsigned>(parse_count("--ntp-seconds", ntp_seconds, 0, kMaxNtpSeconds))};
  }
  if (analyze->parsed()) return AnalyzeOptions{files, format_option(analyze_format, true), analyze_out, analyze_plot};
  if (simulate->parsed()) {
    sim.spec.rounds = parse_count("--rounds", sim_rounds, 1, kMaxSimulatedRounds);
    sim.spec.seed = parse_count("--seed", sim_seed, 0, UINT64_MAX);
    sim.spec.quantum_ticks = parse_count("--quantum-ticks", sim_quantum, 1, 1'000'000);
    sim.spec.include_quantum_metadata = !no_quantum_metadata;
    for (const auto& [name, field, help] : real_options) *field = parse_real(name, sim_reals[name]);
    return sim;
  }

  auto matrix_options_of = [&](const PlanText& t) {
    MatrixOptions o;
    o.command_line = quote_command_line(args);
    o.cpus = t.cpus;
    if (!t.cpus.empty()) parse_cpu_list(t.cpus);  // a malformed list fails here, named
    choose_variants(t.variant, t.send, t.recv, o.choice);
    o.visits = parse_count("--visits", t.visits, 1, kMaxVisits);
    if (!t.rounds.empty()) o.rounds_per_visit = parse_count("--rounds", t.rounds, 1, kMaxRounds);
    if (!t.budget.empty()) {
      o.budget_seconds = parse_real("--budget", t.budget);
      if (o.budget_seconds <= 0) throw UsageError("--budget " + t.budget + " must be a number of seconds > 0");
      if (!t.rounds.empty()) throw UsageError("give --rounds or --budget, not both");
    }
    o.warmup = parse_count("--warmup", t.warmup, 0, kMaxRounds);
    o.timeout = std::chrono::milliseconds(parse_count("--timeout-ms", t.timeout_ms, 1, kMaxTimeoutMs));
    o.parallel = t.parallel;
    o.dry_run = t.dry_run;
    o.topology = t.topology;
    o.format = format_option(t.format, false);
    o.out_dir = t.out;
    o.save_runs = t.save_runs;
    if (o.save_runs && o.out_dir.empty()) throw UsageError("--save-runs needs --out DIR");
    if (!o.topology.empty() && !o.dry_run) {
      throw UsageError("--topology describes another machine: it can only be planned (add --dry-run)");
    }
    return o;
  };
  if (matrix->parsed()) return matrix_options_of(matrix_text_opts);
  if (check->parsed()) {
    CheckOptions c;
    c.matrix = matrix_options_of(check_text_opts);
    c.tolerance = parse_tolerance("--tolerance", tolerance);
    c.drift_tolerance_ppb = parse_real("--drift-tolerance-ppb", drift_tolerance);
    if (c.drift_tolerance_ppb < 0) throw UsageError("--drift-tolerance-ppb " + drift_tolerance + " must be >= 0");
    c.details = details;
    return c;
  }
  if (report->parsed()) {
    ReportOptions r;
    r.matrix = matrix_options_of(report_text_opts);
    r.out_dir = report_text_opts.out;
    if (r.out_dir.empty()) throw UsageError("--out must name a directory");
    r.plain = !no_plain;
    r.variants = !no_variants;
    r.variants_options.rounds =
        parse_count("--variants-rounds", report_variants_rounds, 2 * r.variants_options.passes, kMaxRounds);
    r.variants_options.timeout = r.matrix.timeout;
    r.command_line = quote_command_line(args);
    return r;
  }

  if (variants->parsed()) {
    VariantsOptions v;
    v.command_line = quote_command_line(args);
    v.cpus = vt.cpus;
    if (!v.cpus.empty()) parse_cpu_list(v.cpus);  // a malformed list fails here, named
    v.rounds = parse_count("--rounds", vt.rounds, 2, kMaxRounds);
    v.passes = parse_count("--passes", vt.passes, 1, kMaxVisits);
    v.warmup = parse_count("--warmup", vt.warmup, 0, kMaxRounds);
    v.control_rounds = parse_count("--control-rounds", vt.control_rounds, 0, kMaxRounds);
    v.switch_rounds = parse_count("--switch-rounds", vt.switch_rounds, 0, kMaxRounds);
    v.timeout = std::chrono::milliseconds(parse_count("--timeout-ms", vt.timeout_ms, 1, kMaxTimeoutMs));
    v.all = vt.all;
    v.format = format_option(vt.format, false);
    v.out_dir = vt.out;
    v.save_runs = vt.save_runs;
    if (v.save_runs && v.out_dir.empty()) throw UsageError("--save-runs needs --out DIR");
    return v;
  }

  if (monitor->parsed()) {
    MonitorOptions mo;
    mo.command_line = quote_command_line(args);
    const std::vector<int> pair = parse_cpu_list(mt.cpus);
    if (pair.size() != 2) {
      throw UsageError("--cpus '" + mt.cpus + "' names " + std::to_string(pair.size()) +
                       " CPUs; monitor takes exactly two, A,B (A initiates)");
    }
    mo.cpu_a = pair[0];
    mo.cpu_b = pair[1];
    choose_variants(mt.variant, mt.send, mt.recv, mo.choice);
    mo.interval_s = parse_duration_s("--interval", mt.interval);
    if (mo.interval_s < kMinIntervalS || mo.interval_s > kMaxIntervalS) {
      throw UsageError("--interval " + mt.interval + " must be between 0.01 s and 1 day");
    }
    if (!mt.duration.empty()) {
      mo.duration_s = parse_duration_s("--duration", mt.duration);
      if (mo.duration_s < mo.interval_s) {
        throw UsageError("--duration " + mt.duration + " is shorter than one interval (--interval " + mt.interval +
                         ")");
      }
    }
    mo.timeout = std::chrono::milliseconds(parse_count("--timeout-ms", mt.timeout_ms, 1, kMaxTimeoutMs));
    mo.queue_rounds = parse_count("--queue-rounds", mt.queue_rounds, kMinQueueRounds, kMaxQueueRounds);
    mo.out = mt.out;
    return mo;
  }

  MeasureOptions m;
  m.command_line = quote_command_line(args);
  const std::vector<int> pair = parse_cpu_list(cpus);
  if (pair.size() != 2) {
    throw UsageError("--cpus '" + cpus + "' names " + std::to_string(pair.size()) +
                     " CPUs; measure takes exactly two, A,B (A initiates)");
  }
  m.config.cpu_a = pair[0];
  m.config.cpu_b = pair[1];
  choose_variants(variant, send, recv, m.choice);
  if (auto t = parse_transport(transport)) {
    m.choice.transport = *t;
  } else {
    throw UsageError("unknown transport '" + transport + "' (choose slot or queue)");
  }
  m.config.rounds = parse_count("--rounds", rounds, 1, kMaxRounds);
  m.config.warmup = parse_count("--warmup", warmup, 0, kMaxRounds);
  m.config.timeout = std::chrono::milliseconds(parse_count("--timeout-ms", timeout_ms, 1, kMaxTimeoutMs));
  m.out = out;
  return m;
}

}  // namespace tscsync::cli
