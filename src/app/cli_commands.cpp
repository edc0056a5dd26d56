#include "app/cli_commands.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "app/command_list.hpp"
#include "core/cpu_list.hpp"
#include "core/errors.hpp"
#include "core/format.hpp"
#include "measure/variant.hpp"
#include "platform/topology.hpp"
#include "render/text_wrap.hpp"

namespace tscaudit::cli {
namespace {

/// Rounds are kept in memory until the run ends: 32 bytes recorded (the four stamps,
/// SideRecord in measure/runner.hpp), 40 assembled (sizeof(Round), core/run.hpp).
constexpr std::uint64_t kMaxRounds = 20'000'000;
constexpr std::uint64_t kMaxTimeoutMs = 3'600'000;
constexpr std::uint64_t kMaxNtpSeconds = 3600;
constexpr std::uint64_t kMaxVisits = 1000;
constexpr double kMinIntervalS = 0.01;
/// monitor --duty: below a thousandth, the windows are too short to hold a round of a slow pair.
constexpr double kMinDuty = 0.001;
constexpr double kMaxIntervalS = 86400;
/// The monitor's queue: at least a few rounds, at most 2^24 (640 MiB of 40-byte rounds).
constexpr std::uint64_t kMinQueueRounds = 16;
constexpr std::uint64_t kMaxQueueRounds = std::uint64_t{1} << 24;

/// --variant, --send and --recv, as every measuring command has them.
void add_variant_options(CLI::App& cmd, std::string& variant, std::string& send, std::string& recv) {
  cmd.add_option("--variant", variant, "read variant for both sides (" + variant_list(kHostVariants) + ")");
  cmd.add_option("--send", send, "read variant for the send stamps t1, t3")
      ->default_str(std::string(variant_name(plain_variant(counter::kHostArch))));
  cmd.add_option("--recv", recv, "read variant for the receive stamps t2, t4")
      ->default_str(std::string(variant_name(default_recv_variant(counter::kHostArch))));
}

/// --timeout-ms: milliseconds, or a duration with its unit ("2s"), from 1 ms to 1 h.
std::chrono::milliseconds parse_timeout(const std::string& text) {
  const double ms = std::round(parse_duration("--timeout-ms", text, Seconds{0.001, "milliseconds"}) * 1000);
  if (ms < 1 || ms > static_cast<double>(kMaxTimeoutMs)) {
    throw UsageError("--timeout-ms " + text + " is out of range [1 ms, 1 h]");
  }
  return std::chrono::milliseconds(static_cast<std::int64_t>(ms));
}

/// A command's examples, its help's footer: each a command line that works as written, and
/// what it does after '#' (so that the line can be pasted into a shell): beside the
/// commands, aligned, where every line fits kTextColumns; else on a line of its own above each.
std::string examples(const std::vector<std::pair<std::string, std::string>>& lines) {
  std::size_t width = 0;
  for (const auto& [command, what] : lines) width = std::max(width, command.size());
  bool beside = true;
  for (const auto& [command, what] : lines) beside = beside && 2 + width + 4 + what.size() <= kTextColumns;
  std::string out = "Examples:";
  for (const auto& [command, what] : lines) {
    if (beside) {
      out += "\n  " + command + std::string(width - command.size(), ' ') + "  # " + what;
    } else {
      out += "\n  # " + what + "\n  " + command;
    }
  }
  return out;
}

/// The command's subcommand, named and summarized as the command list has it.
CLI::App* add_listed_command(CLI::App& app, std::string_view name) {
  const CommandEntry* entry = find_command(name);
  if (entry == nullptr) throw std::logic_error("no command " + std::string(name) + " in the command list");
  return app.add_subcommand(std::string(name), std::string(entry->summary));
}

}  // namespace

void InfoCli::add(CLI::App& app) {
  sub = add_listed_command(app, kName);
  sub->add_option("--format", format, "text or json")->capture_default_str();
  sub->add_option("--ntp-seconds", ntp_seconds,
                  "also calibrate the TSC against CLOCK_REALTIME (NTP-disciplined) for this long, at most 1 h; "
                  "0: off")
      ->capture_default_str();
  sub->footer(examples({{"tscaudit info", "CPU, TSC features, hypervisor, kernel, topology, quantum, warnings"},
                        {"tscaudit info --format json --ntp-seconds 10s", "and the TSC against NTP time"}}));
}

Command InfoCli::build(const Args& /*args*/) const {
  unsigned seconds = 0;
  if (ntp_seconds != "0") {
    const double s = parse_duration_s("--ntp-seconds", ntp_seconds);
    if (std::floor(s) < s) throw UsageError("--ntp-seconds " + ntp_seconds + " is not a whole number of seconds");
    if (s > static_cast<double>(kMaxNtpSeconds)) {
      throw UsageError("--ntp-seconds " + ntp_seconds + " is out of range [0, " + std::to_string(kMaxNtpSeconds) +
                       "] (seconds)");
    }
    seconds = static_cast<unsigned>(s);
  }
  return InfoCommand{parse_format(format, false), seconds};
}

void CompareCli::add(CLI::App& app) {
  sub = add_listed_command(app, kName);
  sub->add_option("FIRST", first, "the earlier run: a run or report directory, or matrix's or check's JSON")
      ->required();
  sub->add_option("SECOND", second, "the later run, of the same machine")->required();
  sub->add_option("--format", format, "text or json")->capture_default_str();
  sub->footer(examples({{"tscaudit compare before after", "two run or report directories: did a CPU move?"},
                        {"tscaudit compare --format json before.json after.json",
                         "what check --format json printed, for scripts"}}));
}

Command CompareCli::build(const Args& /*args*/) const {
  CompareOptions c;
  c.first = first;
  c.second = second;
  c.format = parse_format(format, false);
  return c;
}

void StateCli::add(CLI::App& app) {
  sub = add_listed_command(app, kName);
  sub->add_option("FILE", file, "the state file `check --publish` wrote")->default_str(kDefaultStatePath);
  sub->add_option("--format", format, "text or json")->capture_default_str();
  sub->footer(examples({{"tscaudit state", "the timer's: current, aged, another boot's or disrupted, and why"},
                        {"tscaudit check --quick --publish s && tscaudit state s", "publish, then look"},
                        {"tscaudit state --format json s", "the same for scripts"}}));
}

Command StateCli::build(const Args& /*args*/) const {
  StateOptions s;
  s.file = file.empty() ? std::string(kDefaultStatePath) : file;
  s.format = parse_format(format, false);
  return s;
}

void MeasureCli::add(CLI::App& app) {
  sub = add_listed_command(app, kName);
  sub->add_option("--cpus", cpus, "the initiator A and the responder B (A,A: the same-CPU control)")
      ->required()
      ->type_name("A,B");
  add_variant_options(*sub, variant, send, recv);
  sub->add_option("--rounds", rounds, "measured rounds, at most 20000000")->capture_default_str();
  sub->add_option("--warmup", warmup, "rounds run first and discarded")->capture_default_str();
  sub->add_option("--transport", transport, "slot (one cache line) or queue (boost::lockfree::spsc_queue)")
      ->capture_default_str();
  sub->add_option("--timeout-ms", timeout_ms, "longest wait for the partner's message before the run is aborted")
      ->capture_default_str();
  sub->add_option("--out", out, "output file, or - for standard output")->required()->type_name("FILE");
  sub->footer(examples({{"tscaudit measure --cpus 0,1 --rounds 100000 --out pair.csv", "CPU 0 initiates, 1 responds"},
                        {"tscaudit measure --cpus 1,1 --rounds 100000 --out same.csv", "the same-CPU control"},
                        {"tscaudit analyze pair.csv", "then: offset, drift, bounds, verdict"}}));
}

Command MeasureCli::build(const Args& args) const {
  MeasureOptions m;
  m.command_line = quote_command_line(args);
  std::tie(m.config.cpu_a, m.config.cpu_b) = parse_cpu_pair(cpus, "measure");
  choose_variants(variant, send, recv, m.choice);
  if (auto t = parse_transport(transport)) {
    m.choice.transport = *t;
  } else {
    throw UsageError("unknown transport '" + transport + "' (choose slot or queue)");
  }
  if (auto why = exchange_unavailable(m.choice, m.config.cpu_a == m.config.cpu_b)) throw UsageError(*why);
  m.config.rounds = parse_count("--rounds", rounds, 1, kMaxRounds);
  m.config.warmup = parse_count("--warmup", warmup, 0, kMaxRounds);
  m.config.timeout = parse_timeout(timeout_ms);
  m.out = out;
  return m;
}

void MonitorCli::add(CLI::App& app) {
  sub = add_listed_command(app, kName);
  sub->add_option("--cpus", cpus, "the initiator A and the responder B (two different CPUs)")
      ->required()
      ->type_name("A,B");
  add_variant_options(*sub, variant, send, recv);
  sub->add_option("--interval", interval, "length of one interval")->capture_default_str();
  sub->add_option("--duration", duration, "how long to run [default: until SIGINT or SIGTERM]");
  sub->add_option("--duty", duty,
                  "the fraction of every interval measured, from its start (0.001 to 1): the threads sleep the rest, "
                  "so 0.1 keeps the two CPUs a tenth as busy")
      ->capture_default_str();
  sub->add_option("--timeout-ms", timeout_ms, "longest wait for the partner's message before the run is aborted")
      ->capture_default_str();
  sub->add_option("--queue-rounds", queue_rounds,
                  "rounds the queue to the aggregator holds (40 bytes each); a full queue counts lost rounds")
      ->capture_default_str();
  sub->add_option("--out", out, "the interval log (written as FILE.partial until the run ends), or -")
      ->required()
      ->type_name("FILE");
  sub->add_option("--openmetrics", openmetrics,
                  "also metrics for Prometheus (node_exporter's textfile collector), rewritten after every interval: "
                  "written aside, then renamed over FILE");
  sub->add_flag("--openmetrics-histogram", openmetrics_histogram,
                "with --openmetrics, a histogram of every round trip (14 more series)");
  sub->footer(examples({{"tscaudit monitor --cpus 0,1 --interval 10s --duration 1h --out pair.log", "an hour"},
                        {"tscaudit monitor --cpus 0,1 --duty 0.1 --out pair.log", "until Ctrl-C, a tenth as busy"},
                        {"tscaudit monitor --cpus 0,1 --duration 3s --out pair.log", "a first look"},
                        {"tscaudit analyze pair.log --plot plots", "then: steps, worst intervals, a plot"}}));
}

Command MonitorCli::build(const Args& args) const {
  MonitorOptions mo;
  mo.command_line = quote_command_line(args);
  std::tie(mo.cpu_a, mo.cpu_b) = parse_cpu_pair(cpus, "monitor");
  choose_variants(variant, send, recv, mo.choice);
  mo.interval_s = parse_duration_s("--interval", interval);
  if (mo.interval_s < kMinIntervalS || mo.interval_s > kMaxIntervalS) {
    throw UsageError("--interval " + interval + " must be between 0.01 s and 1 day");
  }
  if (!duration.empty()) {
    mo.duration_s = parse_duration_s("--duration", duration);
    if (mo.duration_s < mo.interval_s) {
      throw UsageError("--duration " + duration + " is shorter than one interval (--interval " + interval + ")");
    }
  }
  mo.duty = parse_real("--duty", duty);
  if (!(mo.duty >= kMinDuty && mo.duty <= 1.0)) throw UsageError("--duty " + duty + " must be between 0.001 and 1");
  if (mo.duty * mo.interval_s < kMinIntervalS / 10) {
    throw UsageError("--duty " + duty + " of --interval " + interval +
                     " measures less than 1 ms per interval: a longer interval or a larger duty");
  }
  mo.timeout = parse_timeout(timeout_ms);
  mo.queue_rounds = parse_count("--queue-rounds", queue_rounds, kMinQueueRounds, kMaxQueueRounds);
  mo.out = out;
  if (sub->count("--openmetrics") > 0) {
    if (openmetrics.empty() || openmetrics == "-") {
      throw UsageError("--openmetrics '" + openmetrics + "' must name a file (it is rewritten after every interval)");
    }
    if (openmetrics == out) throw UsageError("--openmetrics " + openmetrics + " is the interval log's --out too");
  }
  if (openmetrics_histogram && openmetrics.empty())
    throw UsageError("--openmetrics-histogram needs --openmetrics FILE");
  mo.openmetrics = openmetrics;
  mo.openmetrics_histogram = openmetrics_histogram;
  return mo;
}

void AnalyzeCli::add(CLI::App& app) {
  sub = add_listed_command(app, kName);
  sub->add_option("FILE", files,
                  "runs (tscaudit-run/1), interval logs of monitor (tscaudit-monitor/1) or tables with t1,t2,t3,t4 "
                  "columns, in any mix; - reads stdin")
      ->required();
  sub->add_option("--format", format,
                  "text, json or csv (csv: one row per pair, then one row per interval of the logs)")
      ->capture_default_str();
  sub->add_option("--out", out, "output file, or - for standard output")->capture_default_str()->type_name("FILE");
  sub->add_option("--plot", plot,
                  "directory for each interval log's time series: monitor_timeseries.dat, .png and .svg "
                  "(STEM_monitor_timeseries.* after each log's file name when there are several)");
  sub->footer(examples({{"tscaudit analyze pair.csv", "one pair: offset and drift with hard bounds, verdict"},
                        {"tscaudit analyze --format json pair.csv", "the same as JSON"},
                        {"tscaudit analyze pair.log --plot plots", "a monitor log: steps over time, with a plot"}}));
}

Command AnalyzeCli::build(const Args& /*args*/) const {
  return AnalyzeOptions{files, parse_format(format, true), out, plot};
}

namespace {

/// simulate's real-valued model parameters: option, field, help. Ranges are checked by
/// simulate().
std::vector<std::tuple<std::string, double*, std::string>> real_parameters(SimulationSpec& spec) {
  return {
      {"--offset-ticks", &spec.offset_ticks, "offset theta = TSC_b - TSC_a at the run's middle"},
      {"--drift-ppb", &spec.drift_ppb, "rate difference of b's counter"},
      {"--fwd-base-ticks", &spec.fwd.base_ticks, "a->b delay: the floor"},
      {"--fwd-exp-mean-ticks", &spec.fwd.exp_mean_ticks, "a->b delay: mean of the exponential part"},
      {"--fwd-tail-fraction", &spec.fwd.tail_fraction, "a->b delay: share with a Pareto(1.5) tail"},
      {"--fwd-tail-scale-ticks", &spec.fwd.tail_scale_ticks, "a->b delay: Pareto scale"},
      {"--rev-base-ticks", &spec.rev.base_ticks, "b->a delay: the floor"},
      {"--rev-exp-mean-ticks", &spec.rev.exp_mean_ticks, "b->a delay: mean of the exponential part"},
      {"--rev-tail-fraction", &spec.rev.tail_fraction, "b->a delay: share with a Pareto(1.5) tail"},
      {"--rev-tail-scale-ticks", &spec.rev.tail_scale_ticks, "b->a delay: Pareto scale"},
      {"--turnaround-base-ticks", &spec.turnaround_base_ticks, "b: t2 to t3, floor"},
      {"--turnaround-exp-mean-ticks", &spec.turnaround_exp_mean_ticks, "b: t2 to t3, exponential part"},
      {"--gap-ticks", &spec.gap_ticks, "a: t4 to the next t1, floor"},
      {"--gap-exp-mean-ticks", &spec.gap_exp_mean_ticks, "a: t4 to the next t1, exponential part"},
      {"--early-t2-rate", &spec.spec_b.rate, "share of t2 reads (b receiving) taken early"},
      {"--early-t2-min-ticks", &spec.spec_b.early_min_ticks, "how early at least"},
      {"--early-t2-max-ticks", &spec.spec_b.early_max_ticks, "how early at most"},
      {"--early-t4-rate", &spec.spec_a.rate, "share of t4 reads (a receiving) taken early"},
      {"--early-t4-min-ticks", &spec.spec_a.early_min_ticks, "how early at least"},
      {"--early-t4-max-ticks", &spec.spec_a.early_max_ticks, "how early at most"},
      {"--tsc-hz", &spec.tsc_hz, "frequency written into the metadata (for ns figures)"},
  };
}

/// The one-pair options that --topology replaces with per-CPU values (the rest of the
/// real parameters apply to every pair of the machine).
const std::vector<std::string> kOnePairOnly = {
    "--offset-ticks",         "--drift-ppb",          "--fwd-base-ticks",
    "--fwd-exp-mean-ticks",   "--fwd-tail-fraction",  "--fwd-tail-scale-ticks",
    "--rev-base-ticks",       "--rev-exp-mean-ticks", "--rev-tail-fraction",
    "--rev-tail-scale-ticks", "--early-t2-rate",      "--early-t2-min-ticks",
    "--early-t2-max-ticks",   "--early-t4-rate",      "--early-t4-min-ticks",
    "--early-t4-max-ticks",   "--step-ticks",         "--step-at",
    "--steps"};

/// "KEY=VALUE" given to `option`: KEY a CPU or package number (0 .. kMaxCpu), VALUE the
/// text after the '=' (not yet parsed). `form` is the syntax, for the message.
std::pair<int, std::string> key_value(const std::string& option, const std::string& text, const std::string& form) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    throw UsageError(option + " '" + text + "' is not " + form);
  }
  const auto key = static_cast<int>(parse_count(option + " " + form.substr(0, form.find('=')), text.substr(0, eq), 0,
                                                static_cast<std::uint64_t>(kMaxCpu)));
  return {key, text.substr(eq + 1)};
}

/// Every "KEY=REAL" of a repeatable option into `values`; a key given twice is refused.
void key_reals(const std::string& option, const std::vector<std::string>& texts, const std::string& form,
               std::map<int, double>& values) {
  const std::string what = form.substr(0, form.find('='));
  auto named = [&](int key) { return option + " (" + what + " " + std::to_string(key) + ")"; };
  auto twice = [&](int key) { return UsageError(option + " gives " + what + " " + std::to_string(key) + " twice"); };
  for (const std::string& text : texts) {
    const auto [key, value] = key_value(option, text, form);
    if (!values.emplace(key, parse_real(named(key), value)).second) throw twice(key);
  }
}

/// "CPU=RATE" or "CPU=RATE:MIN:MAX" (ticks early) of --early-reads.
void early_reads_of(const std::vector<std::string>& texts, std::map<int, SpeculationSpec>& out) {
  const std::string option = "--early-reads";
  const std::string form = "CPU=RATE or CPU=RATE:MIN_TICKS:MAX_TICKS";
  auto named_for = [&](int cpu) { return option + " (CPU " + std::to_string(cpu) + ")"; };
  auto malformed = [&](const std::string& text) { return UsageError(option + " '" + text + "' is not " + form); };
  for (const std::string& text : texts) {
    const auto [cpu, value] = key_value(option, text, form);
    const std::string named = named_for(cpu);
    SpeculationSpec s;
    const auto colon = value.find(':');
    s.rate = parse_real(named, value.substr(0, colon));
    if (colon != std::string::npos) {
      const auto second = value.find(':', colon + 1);
      if (second == std::string::npos) throw malformed(text);
      s.early_min_ticks = parse_real(named, value.substr(colon + 1, second - colon - 1));
      s.early_max_ticks = parse_real(named, value.substr(second + 1));
    }
    if (!out.emplace(cpu, s).second) throw UsageError(option + " gives CPU " + std::to_string(cpu) + " twice");
  }
}

/// "TICKS@FRACTION[,TICKS@FRACTION...]" of --steps: one pair's offset steps.
std::vector<SimulatedStep> steps_of(const std::string& text) {
  const std::string option = "--steps";
  std::vector<SimulatedStep> steps;
  std::size_t from = 0;
  while (true) {
    const std::size_t comma = text.find(',', from);
    const std::string item = text.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
    const auto at = item.find('@');
    if (at == std::string::npos || at == 0 || at + 1 == item.size()) {
      throw UsageError(option + " '" + text + "': '" + item + "' is not TICKS@FRACTION (e.g. 700@0.3,-900@0.7)");
    }
    const std::string named = option + " (step " + std::to_string(steps.size() + 1) + ")";
    steps.push_back({parse_real(named, item.substr(0, at)), parse_real(named, item.substr(at + 1))});
    if (comma == std::string::npos) return steps;
    from = comma + 1;
  }
}

/// "CPU=TICKS" or "CPU=TICKS@FRACTION" of --step.
MachineStep step_of(const std::string& text) {
  const std::string option = "--step";
  const auto [cpu, value] = key_value(option, text, "CPU=TICKS or CPU=TICKS@FRACTION");
  MachineStep step;
  step.cpu = cpu;
  const auto at = value.find('@');
  const std::string named = option + " (CPU " + std::to_string(cpu) + ")";
  step.ticks = parse_real(named, value.substr(0, at));
  if (at != std::string::npos) step.at_fraction = parse_real(named, value.substr(at + 1));
  return step;
}

}  // namespace

void SimulateCli::add(CLI::App& app) {
  sub = add_listed_command(app, kName);
  rounds = std::to_string(sim.spec.rounds);
  seed = std::to_string(sim.spec.seed);
  quantum = std::to_string(sim.spec.quantum_ticks);
  sub->add_option("--rounds", rounds,
                  "rounds, at most 20000000; with --topology, per visit of each pair, the plan's unless given")
      ->capture_default_str();
  sub->add_option("--seed", seed, "random seed (with --topology, the machine's: each pair's is derived from it)")
      ->capture_default_str();
  sub->add_option("--quantum-ticks", quantum, "counter step q")->capture_default_str();
  sub->add_flag("--no-quantum-metadata", no_quantum_metadata, "leave quantum_ticks out: analyze infers it");
  for (const auto& [name, field, help] : real_parameters(sim.spec)) {
    reals[name] = format_sig(*field, 17);
    sub->add_option(name, reals[name], help)->capture_default_str();
  }
  sub->add_option("--step-ticks", step_ticks, "offset jump during the run (0: none)")->capture_default_str();
  sub->add_option("--step-at", step_at, "when the jump happens, as a fraction of the run")->capture_default_str();
  sub->add_option("--steps", steps,
                  "several offset jumps, TICKS@FRACTION[,TICKS@FRACTION...] (e.g. 700@0.3,-900@0.7); instead of "
                  "--step-ticks and --step-at");
  sub->add_option("--out", sim.out,
                  "the rounds: a file, or - for standard output; with --topology, a new or empty directory")
      ->required()
      ->type_name("FILE|DIR");
  sub->add_option("--truth", sim.truth_out, "the truth as JSON: a file, or - for standard output (one pair)")
      ->capture_default_str();
  sub->add_option("--topology", topology,
                  "simulate a whole machine: \"synthetic:package:2 core:16 pu:2\" or an hwloc XML file; the "
                  "pairs and visits of the plan check would run, as a run directory --out DIR (with truth.json)");
  sub->add_flag("--all-pairs", sim.all_pairs, "with --topology, every ordered pair (no sparse design)");
  sub->add_option("--cpu-offset-ticks", cpu_offsets, "with --topology, CPU=TICKS: that CPU's offset (repeatable)");
  sub->add_option("--package-offset-ticks", package_offsets,
                  "with --topology, P=TICKS: the offset of every CPU of package P (hwloc logical index; repeatable)");
  sub->add_option("--cpu-drift-ppb", cpu_drifts, "with --topology, CPU=PPB: that CPU's rate (repeatable)");
  sub->add_option("--early-reads", early_reads,
                  "with --topology, CPU=RATE[:MIN:MAX]: share of that CPU's receive reads taken early, by MIN to "
                  "MAX ticks (default 50:200; repeatable)");
  sub->add_option("--step", step,
                  "with --topology, CPU=TICKS[@FRACTION]: that CPU's counter jumps at FRACTION (default 0.5) of "
                  "each run of its pairs");
  sub->add_option("--cross-package-skew-ticks", cross_package_skew,
                  "with --topology, added to every one-way delay from a lower-numbered package to a higher one "
                  "(paths slower one way)")
      ->capture_default_str();
  sub->add_option("--second-role-slowdown", role_slowdown,
                  "with --topology, FACTOR >= 1: the one-way delays of each pair's second role (the later CPU "
                  "initiates) FACTOR times the first role's, as in a host's slow regime")
      ->type_name("FACTOR")
      ->capture_default_str();
  sub->footer(
      examples({{"tscaudit simulate --offset-ticks 300 --rounds 20000 --out pair.csv", "one pair"},
                {"tscaudit simulate --topology \"synthetic:package:2 core:4 pu:2\" --step 3=900 --out sim", "16 CPUs"},
                {"tscaudit check --from sim", "then check the simulated machine"}}));
}

Command SimulateCli::build(const Args& /*args*/) const {
  SimulateOptions o = sim;
  o.spec.rounds = parse_count("--rounds", rounds, 1, kMaxSimulatedRounds);
  o.spec.seed = parse_count("--seed", seed, 0, UINT64_MAX);
  o.spec.quantum_ticks = parse_count("--quantum-ticks", quantum, 1, 1'000'000);
  o.spec.include_quantum_metadata = !no_quantum_metadata;
  for (const auto& [name, field, help] : real_parameters(o.spec)) *field = parse_real(name, reals.at(name));
  const bool one_step = sub->count("--step-ticks") > 0 || sub->count("--step-at") > 0;
  if (sub->count("--steps") > 0) {
    if (one_step) throw UsageError("--steps gives every step: leave out --step-ticks and --step-at");
    o.spec.steps = steps_of(steps);
  } else if (one_step) {
    if (sub->count("--step-ticks") == 0)
      throw UsageError("--step-at says when the step of --step-ticks happens: give both");
    o.spec.steps = {{parse_real("--step-ticks", step_ticks), parse_real("--step-at", step_at)}};
  }
  const bool machine = sub->count("--topology") > 0;
  if (!machine) {
    if (o.all_pairs) throw UsageError("--all-pairs plans the pairs of a machine: give --topology");
    for (const char* name :
         {"--cpu-offset-ticks", "--package-offset-ticks", "--cpu-drift-ppb", "--early-reads", "--step",
          "--cross-package-skew-ticks", "--second-role-slowdown"}) {
      if (sub->count(name) > 0) throw UsageError(std::string(name) + " describes a CPU of a machine: give --topology");
    }
    return o;
  }
  (void)parse_topology_source(topology);  // an empty value fails here, named
  o.topology = topology;
  if (sub->count("--truth") > 0) {
    throw UsageError("--truth is for one pair: with --topology the truth goes into --out DIR/truth.json");
  }
  if (o.out == "-") throw UsageError("with --topology, --out names a directory, not standard output");
  for (const std::string& name : kOnePairOnly) {
    if (sub->count(name) > 0) {
      throw UsageError(name +
                       " describes one pair: with --topology give --cpu-offset-ticks, --package-offset-ticks, "
                       "--cpu-drift-ppb, --early-reads or --step");
    }
  }
  if (no_quantum_metadata) {
    throw UsageError("--no-quantum-metadata is for one pair: a run directory records the quantum of every visit");
  }
  o.machine.seed = o.spec.seed;
  o.rounds_per_visit = sub->count("--rounds") > 0 ? o.spec.rounds : 0;
  key_reals("--cpu-offset-ticks", cpu_offsets, "CPU=TICKS", o.machine.cpu_offset_ticks);
  key_reals("--package-offset-ticks", package_offsets, "P=TICKS", o.machine.package_offset_ticks);
  key_reals("--cpu-drift-ppb", cpu_drifts, "CPU=PPB", o.machine.cpu_drift_ppb);
  early_reads_of(early_reads, o.machine.early_reads);
  if (!step.empty()) o.machine.step = step_of(step);
  o.machine.latency.cross_package_skew_ticks = parse_real("--cross-package-skew-ticks", cross_package_skew);
  if (o.machine.latency.cross_package_skew_ticks < 0) {
    throw UsageError("--cross-package-skew-ticks " + cross_package_skew + " must be >= 0");
  }
  o.machine.latency.second_role_slowdown = parse_real("--second-role-slowdown", role_slowdown);
  if (!(o.machine.latency.second_role_slowdown >= 1 && o.machine.latency.second_role_slowdown <= 1000)) {
    throw UsageError("--second-role-slowdown " + role_slowdown + " must be between 1 and 1000");
  }
  return o;
}

void PlanCli::add(CLI::App& cmd, bool variants, bool budgeted_command) {
  budgeted = budgeted_command;
  cpus_option = cmd.add_option("--cpus", cpus,
                               "CPUs to measure, taskset syntax (0-3,8) [default: every CPU this process may use]")
                    ->type_name("CPUS");
  if (variants) add_variant_options(cmd, variant, send, recv);
  cmd.add_option("--visits", visits,
                 budgeted ? "visits per ordered pair, spread over the whole run [default: 4 per 90 s of --budget, at "
                            "least 4]"
                          : "visits per ordered pair, spread over the whole run [default: 4; with --budget, 4 per 90 "
                            "s of it]");
  if (budgeted) {
    cmd.add_option("--rounds", rounds,
                   "measured rounds per visit, not with --budget (a plan over the default budget needs --over-budget) "
                   "[default: as the budget allows]");
    cmd.add_option("--budget", budget,
                   "the most time measuring may take, on any machine: it chooses all pairs or a sparse design, the "
                   "visits and the rounds per visit; more time buys more visits and a tighter answer")
        ->default_str(format_sig(kDefaultBudgetSeconds) + "s");
  } else {
    // matrix measures every ordered pair unless told otherwise: a budget would make it sparse.
    cmd.add_option("--rounds", rounds,
                   "measured rounds per visit [default: by the number of pairs, 2000 at least; see --dry-run]");
    cmd.add_option("--budget", budget,
                   "plan for this long, as check and report do: all pairs or a sparse design, and the rounds "
                   "per visit [default: none: every ordered pair (check and report: " +
                       format_sig(kDefaultBudgetSeconds) + "s)]");
  }
  cmd.add_flag("--all-pairs", all_pairs, "measure every ordered pair, however many CPUs (no sparse design)");
  cmd.add_flag("--over-budget", over_budget,
               "measure a plan whose estimate exceeds --budget, whole, past the budget (refused otherwise; "
               "--dry-run shows it)");
  cmd.add_option("--warmup", warmup, "rounds before each visit, discarded")->capture_default_str();
  cmd.add_option("--timeout-ms", timeout_ms, "longest wait for the partner before a visit is aborted")
      ->capture_default_str();
  cmd.add_flag("--parallel", parallel, "run disjoint pairs at once (the default)");
  cmd.add_flag("--sequential", sequential, "run one pair at a time");
  cmd.add_flag("--dry-run", dry_run, "print the plan (design, pairs, visits, rounds, time, memory); measure nothing");
  cmd.add_option("--topology", topology,
                 "with --dry-run, plan for another machine: an hwloc XML file or \"synthetic:package:2 core:64 pu:2\"");
  cmd.add_option("--from", from,
                 "measure nothing: rebuild every output from a run directory (DIR/run of an earlier --out, or a "
                 "directory of run files naming their pair with # a: and # b:)");
}

MatrixOptions PlanCli::build(const Args& args) const {
  MatrixOptions o;
  o.command_line = quote_command_line(args);
  o.cpus = cpus;
  const bool cpus_given = cpus_option->count() > 0;
  if (cpus_given) parse_cpus_option(cpus, true);  // an empty or malformed list fails here, named
  choose_variants(variant, send, recv, o.choice);
  if (!visits.empty()) o.visits = parse_count("--visits", visits, 1, kMaxVisits);
  if (!rounds.empty()) o.rounds_per_visit = parse_count("--rounds", rounds, 1, kMaxRounds);
  if (!budget.empty()) {
    o.budget_seconds = parse_duration_s("--budget", budget);
    if (!rounds.empty()) throw UsageError("give --rounds or --budget, not both");
  } else if (budgeted) {
    o.budget_seconds = kDefaultBudgetSeconds;
  }
  o.all_pairs = all_pairs;
  o.over_budget = over_budget;
  o.warmup = parse_count("--warmup", warmup, 0, kMaxRounds);
  o.timeout = parse_timeout(timeout_ms);
  if (parallel && sequential) throw UsageError("give --parallel or --sequential, not both");
  o.parallel = !sequential;  // every command runs disjoint pairs at once unless told not to
  o.dry_run = dry_run;
  o.topology = topology;
  o.format = parse_format(format, false);
  o.out_dir = out;
  o.save_runs = save_runs;
  if (o.save_runs && o.out_dir.empty()) throw UsageError("--save-runs needs --out DIR");
  o.from = from;
  if (!from.empty()) {
    // What would shape a measurement has nothing to act on when nothing is measured.
    for (const auto& [given, option] : {std::pair{cpus_given, "--cpus"}, std::pair{!rounds.empty(), "--rounds"},
                                        std::pair{!budget.empty(), "--budget"}, std::pair{dry_run, "--dry-run"},
                                        std::pair{!topology.empty(), "--topology"}, std::pair{save_runs, "--save-runs"},
                                        std::pair{parallel, "--parallel"}, std::pair{sequential, "--sequential"},
                                        std::pair{over_budget, "--over-budget"}}) {
      if (given) throw UsageError(std::string(option) + " shapes a measurement; --from measures nothing");
    }
  }
  if (!o.topology.empty() && !o.dry_run) {
    throw UsageError("--topology describes another machine: it can only be planned (add --dry-run)");
  }
  return o;
}

void MatrixCli::add(CLI::App& app) {
  sub = add_listed_command(app, kName);
  plan.add(*sub, true, false);
  sub->add_option("--format", plan.format, "text or json (stdout)")->capture_default_str();
  sub->add_option("--out", plan.out, "directory for matrix.json, the matrices, heatmaps and per-pair analyses")
      ->type_name("DIR");
  sub->add_flag("--save-runs", plan.save_runs, "also keep every pair's rounds in --out/pairs (tscaudit-run/1)");
  sub->footer(
      examples({{"tscaudit matrix --out m", "every pair of every CPU, kept in ./m"},
                {"tscaudit matrix --from m/run --out m2", "the outputs again, from m's rounds"},
                {"tscaudit matrix --dry-run --topology \"synthetic:package:2 core:64 pu:2\"", "a 256-CPU plan"}}));
}

Command MatrixCli::build(const Args& args) const { return plan.build(args); }

void CheckCli::add(CLI::App& app) {
  sub = add_listed_command(app, kName);
  plan.add(*sub, true, true);
  sub->add_option("--tolerance", tolerance,
                  "allowed offset: ticks (40, 40ticks) or a time (15ns, 1.5us, 2ms); 0: the band must contain 0")
      ->capture_default_str();
  sub->add_option("--drift-tolerance-ppb", drift_tolerance, "allowed drift")->capture_default_str();
  sub->add_option(
         "--max-bound", max_bound,
         "the widest proof accepted: ticks (120) or a time (50ns, 1us); the pairs not yet proven within it get more "
         "visits while the budget lasts, and a run that still proves |offset| only within more is "
         "inconclusive (exit 5); 0: no limit")
      ->capture_default_str();
  sub->add_option("--format", plan.format, "text, json or openmetrics (metrics for Prometheus)")->capture_default_str();
  sub->add_flag("--details", details,
                "text: the findings, the first 20 failing pairs and every warning, not only the reason");
  sub->add_option("--out", plan.out,
                  "keep the evidence: the matrix directory (run/, the pictures, matrix.json with the check's answer "
                  "under \"check\")")
      ->type_name("DIR");
  sub->add_option("--openmetrics", openmetrics,
                  "also write the metrics for Prometheus to FILE, aside and then renamed (for node_exporter's "
                  "textfile directory)");
  sub->add_option("--export-cpus", export_cpus,
                  "metrics: per-CPU series for at most N CPUs (beyond, those farthest from the median), or all")
      ->default_str(std::to_string(kDefaultExportCpus));
  sub->add_flag("--export-pairs", export_pairs, "metrics: also four series per ordered pair measured");
  sub->add_option("--publish", publish,
                  "also write what the check proved for programs to FILE: the per-CPU table libtscaudit's "
                  "tscaudit_state_* functions read, aside and then renamed, mode 0644")
      ->type_name("FILE");
  sub->add_option("--history", history,
                  "keep each boot's last answer in DIR (16 boots) and say whether a CPU's offset moved since the "
                  "previous boot's, proven by disjoint bands; the metrics gain tscaudit_boot_moved_cpus")
      ->type_name("DIR");
  sub->add_flag("--quick", quick,
                "the quick check of libtscaudit: a star of pairs, each measured until its band settles, in "
                "milliseconds (--budget: its measuring time); the same decision, nothing kept");
  sub->footer(examples({{"tscaudit check", "measures the pairs within a 90-s budget, then answers"},
                        {"tscaudit check --max-bound 50ns --budget 5m", "prove it within 50 ns, or say it cannot"},
                        {"tscaudit check --quick --budget 50ms", "the same decision in milliseconds"},
                        {"tscaudit check --quick --publish state", "the per-CPU table for programs, in ./state"},
                        {"tscaudit check --tolerance 15ns --format openmetrics > tsc.prom", "for Prometheus"},
                        {"tscaudit check --dry-run", "the plan only: pairs, rounds, time, memory"}}));
}

Command CheckCli::build(const Args& args) const {
  CheckOptions c;
  if (plan.format != "text" && plan.format != "json" && plan.format != "openmetrics") {
    throw UsageError("--format '" + plan.format + "' is not text, json or openmetrics");
  }
  c.openmetrics_stdout = plan.format == "openmetrics";
  PlanCli matrix_plan = plan;  // the metrics replace the text, which the matrix options name
  if (c.openmetrics_stdout) matrix_plan.format = "text";
  c.matrix = matrix_plan.build(args);
  if (sub->count("--openmetrics") > 0) {
    if (openmetrics.empty() || openmetrics == "-") {
      throw UsageError("--openmetrics '" + openmetrics +
                       "' must name a file (--format openmetrics writes them to standard output)");
    }
    c.openmetrics_file = openmetrics;
  }
  if (sub->count("--publish") > 0) {
    if (publish.empty() || publish == "-") {
      throw UsageError("--publish '" + publish + "' must name a file (a binary table for programs, not text)");
    }
    if (c.matrix.dry_run) throw UsageError("--dry-run measures nothing: there is nothing to publish");
    if (publish == c.openmetrics_file) throw UsageError("--publish " + publish + " is the --openmetrics file too");
    c.publish_file = publish;
  }
  if (sub->count("--history") > 0) {
    if (history.empty()) throw UsageError("--history '' must name a directory");
    if (c.matrix.dry_run) throw UsageError("--dry-run measures nothing: there is no answer to keep in --history");
    c.history_dir = history;
  }
  const bool metrics = c.openmetrics_stdout || !c.openmetrics_file.empty();
  if (c.matrix.dry_run && metrics) throw UsageError("--dry-run measures nothing: there are no metrics to write");
  if (!export_cpus.empty()) {
    if (!metrics) throw UsageError("--export-cpus shapes the metrics: give --format openmetrics or --openmetrics FILE");
    c.metrics.max_cpus = export_cpus == "all"
                             ? std::numeric_limits<std::size_t>::max()
                             : parse_count("--export-cpus", export_cpus, 0, static_cast<std::uint64_t>(kMaxCpu) + 1);
  }
  if (export_pairs && !metrics) {
    throw UsageError("--export-pairs shapes the metrics: give --format openmetrics or --openmetrics FILE");
  }
  c.metrics.pairs = export_pairs;
  c.tolerance = parse_tolerance("--tolerance", tolerance);
  c.drift_tolerance_ppb = parse_real("--drift-tolerance-ppb", drift_tolerance);
  c.max_bound = parse_tolerance("--max-bound", max_bound);
  if (c.drift_tolerance_ppb < 0) throw UsageError("--drift-tolerance-ppb " + drift_tolerance + " must be >= 0");
  c.details = details;
  c.quick = quick;
  if (quick) {
    // The quick check chooses its own pairs, rounds and read variants, and keeps nothing.
    for (const char* option : {"--out", "--save-runs", "--from", "--topology", "--dry-run", "--rounds", "--visits",
                               "--all-pairs", "--parallel", "--sequential", "--variant", "--send", "--recv",
                               "--warmup", "--timeout-ms"}) {
      if (sub->get_option_no_throw(option) != nullptr && sub->count(option) > 0) {
        throw UsageError(std::string(option) +
                         " does not go with --quick, which chooses its own pairs, rounds and reads and keeps "
                         "nothing: leave out --quick for the full check");
      }
    }
    if (c.drift_tolerance_ppb > 0) {
      throw UsageError("--drift-tolerance-ppb does not go with --quick: its pairs are too short to bound a drift");
    }
    if (sub->count("--budget") == 0) c.matrix.budget_seconds = 0;  // the library's own default
  }
  return c;
}

void VariantsCli::add(CLI::App& app) {
  sub = add_listed_command(app, kName);
  sub->add_option("--cpus", cpus, "the pair [default: the first two CPUs this process may use]")->type_name("A,B");
  sub->add_option("--rounds", rounds, "rounds per combination, both roles together")->capture_default_str();
  sub->add_option("--passes", passes, "each combination's rounds split over this many interleaved visits per role")
      ->capture_default_str();
  sub->add_flag("--all", all, "every send/recv combination (64), not only the ones that answer the usual questions");
  sub->add_option("--warmup", warmup, "rounds before each visit, discarded")->capture_default_str();
  sub->add_option("--control-rounds", control_rounds, "rounds of the same-CPU control; 0: none")->capture_default_str();
  sub->add_option("--switch-rounds", switch_rounds,
                  "rounds per half of the run that switches from plain to an ordering receive read; 0: none")
      ->capture_default_str();
  sub->add_option("--timeout-ms", timeout_ms, "longest wait for the partner before a visit is aborted")
      ->capture_default_str();
  sub->add_option("--format", format, "text or json (stdout)")->capture_default_str();
  sub->add_option("--out", out, "directory for variants.json, variants.txt, the plots and their data")
      ->type_name("DIR");
  sub->add_flag("--save-runs", save_runs, "also keep every combination's rounds in --out/runs (tscaudit-run/1)");
  sub->footer(examples({{"tscaudit variants", "costs, early reads and a recommendation, on the first two CPUs"},
                        {"tscaudit variants --cpus 0,1 --rounds 20000 --out v", "a quicker look, kept in ./v"}}));
}

Command VariantsCli::build(const Args& args) const {
  VariantsOptions v;
  v.command_line = quote_command_line(args);
  v.cpus = cpus;
  if (sub->count("--cpus") > 0) parse_cpus_option(v.cpus, false);  // an empty or malformed list fails here
  v.rounds = parse_count("--rounds", rounds, 2, kMaxRounds);
  v.passes = parse_count("--passes", passes, 1, kMaxVisits);
  v.warmup = parse_count("--warmup", warmup, 0, kMaxRounds);
  v.control_rounds = parse_count("--control-rounds", control_rounds, 0, kMaxRounds);
  v.switch_rounds = parse_count("--switch-rounds", switch_rounds, 0, kMaxRounds);
  v.timeout = parse_timeout(timeout_ms);
  v.all = all;
  v.format = parse_format(format, false);
  v.out_dir = out;
  v.save_runs = save_runs;
  if (v.save_runs && v.out_dir.empty()) throw UsageError("--save-runs needs --out DIR");
  return v;
}

void ReportCli::add(CLI::App& app) {
  sub = add_listed_command(app, kName);
  plan.out = "report";
  plan.add(*sub, false, true);
  sub->add_option("--out", plan.out, "the report directory")->capture_default_str()->type_name("DIR");
  sub->add_flag("--no-plain", no_plain,
                "skip the plain-" + std::string(variant_name(plain_variant(counter::kHostArch))) + " matrix");
  sub->add_flag("--no-variants", no_variants, "skip the read variants (tscaudit variants) on the first two CPUs");
  sub->add_option("--max-bound", max_bound,
                  "the widest proof accepted, as for check: the pairs not yet proven within it get more visits while "
                  "the budget lasts; a verdict still proven only within more reads inconclusive")
      ->capture_default_str();
  sub->add_option("--variants-rounds", variants_rounds, "rounds per send/recv combination of the read variants")
      ->capture_default_str();
  sub->footer(examples({{"tscaudit report", "within a 90-s budget; writes ./report/report.html"},
                        {"tscaudit report --budget 5m --out r5", "more visits per pair: a tighter answer"},
                        {"tscaudit report --dry-run", "the plan only: pairs, rounds, time, memory"}}));
}

Command ReportCli::build(const Args& args) const {
  ReportOptions r;
  r.matrix = plan.build(args);
  r.out_dir = plan.out;
  if (r.out_dir.empty()) throw UsageError("--out must name a directory");
  r.plain = !no_plain;
  r.variants = !no_variants;
  r.variants_options.rounds =
      parse_count("--variants-rounds", variants_rounds, 2 * r.variants_options.passes, kMaxRounds);
  r.variants_options.timeout = r.matrix.timeout;
  r.max_bound = parse_tolerance("--max-bound", max_bound);
  r.command_line = quote_command_line(args);
  return r;
}

}  // namespace tscaudit::cli
