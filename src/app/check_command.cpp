#include "app/check_command.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <iostream>
#include <limits>
#include <optional>

#include "app/stop_signals.hpp"
#include "core/errors.hpp"
#include "formats/output_file.hpp"
#include "quick/quick_check.hpp"
#include "render/exposition.hpp"
#include "render/matrix_output.hpp"
#include "render/openmetrics_output.hpp"
#include "render/plan_output.hpp"
#include "render/text_wrap.hpp"
#include "render/verdict_text.hpp"
#include "version.hpp"

namespace tscaudit {

Tolerance parse_tolerance(const std::string& option, const std::string& text) {
  Tolerance t;
  std::string number = text;
  if (number.size() > 2 && number.ends_with("ns")) {
    t.ns = true;
    number.resize(number.size() - 2);
  } else if (number.size() > 5 && number.ends_with("ticks")) {
    number.resize(number.size() - 5);
  }
  const char* last = number.data() + number.size();
  const auto [ptr, ec] = std::from_chars(number.data(), last, t.value);
  if (number.empty() || ec != std::errc{} || ptr != last || !std::isfinite(t.value) || t.value < 0) {
    throw UsageError(option + " '" + text + "' is not a number >= 0 of ticks or ns (e.g. 40, 40ticks, 15ns)");
  }
  return t;
}

bool weakens_check(const std::string& code) {
  return code == "emulated" || code == "virtual_machine" || code == "clocksource_not_tsc" ||
         code == "tsc_not_invariant" || code == "tsc_unstable" || code == "counter_erratum" ||
         code == "clocksource_not_arch_sys_counter";
}

std::vector<std::string> check_warnings(const std::vector<Warning>& warnings) {
  std::vector<std::string> lines;
  for (const Warning& w : warnings) {
    if (weakens_check(w.code)) lines.push_back(w.code + ": " + w.message);
  }
  return lines;
}

namespace {

/// The check's metrics as OpenMetrics text (docs/formats.md, "Metrics for Prometheus").
std::string check_exposition(const MatrixResult& m, const PlatformFacts& platform, const CheckResult& result,
                             const CheckExport& what, double ended_unix_s, double duration_s, const char* check) {
  CheckRunFacts facts;
  facts.version = kToolVersion;
  facts.clocksource = platform.clocksource;
  facts.hypervisor = platform.cpuid.hypervisor.value_or("none");
  facts.end_unix_s = ended_unix_s;
  facts.duration_s = duration_s;
  facts.check = check;
  return exposition_text(check_metrics(m, result, facts, what), ExpositionDialect::openmetrics);
}

/// What both checks have measured and decided, for the outputs.
struct CheckOutputs {
  const MatrixResult& matrix;
  const PlatformFacts& platform;
  const CheckResult& result;
  const CheckSettings& settings;
  double ended_unix_s;
  double duration_s;
  const char* check;                  // "full" or "quick"
  std::string reason;                 // the answer's one line when nothing was judged; empty: check_reason_text
  std::vector<std::string> problems;  // visits that failed, pairs left unmeasured (JSON)
  std::vector<RunDirLoss> lost = {};  // evidence the run directory's reader passed over
};

/// The metrics (file and standard output), then the answer in the format asked for.
void write_check_outputs(const CheckOptions& options, const CheckOutputs& c, std::optional<OutputFile>& metrics_file) {
  if (options.openmetrics_stdout || metrics_file) {
    if (!(c.matrix.tsc_hz > 0)) {
      std::cerr << "tscaudit check: the TSC frequency is unknown: the metrics in seconds (offsets, bounds, spread, "
                   "quantum) are left out\n";
    }
    const std::string text =
        check_exposition(c.matrix, c.platform, c.result, options.metrics, c.ended_unix_s, c.duration_s, c.check);
    if (metrics_file) {
      metrics_file->write(text);
      metrics_file->commit();
      std::cerr << "tscaudit check: wrote " << options.openmetrics_file << "\n";
    }
    if (options.openmetrics_stdout) std::cout << text;
  }
  if (options.openmetrics_stdout) {
    // the metrics are the output; the reason and the warnings go to standard error
    std::cerr << "tscaudit check: " << (c.reason.empty() ? check_reason_text(c.result) : c.reason) << "\n";
    for (const std::string& w : c.result.warnings) std::cerr << "tscaudit check: warning: " << w << "\n";
  } else if (options.matrix.format == OutputFormat::json) {
    nlohmann::ordered_json j = check_json(c.result, c.settings);
    j["check"] = c.check;
    if (!c.reason.empty()) j["reason"] = c.reason;
    j["cpus"] = c.matrix.cpus;
    j["send"] = c.matrix.send.name;
    j["recv"] = c.matrix.recv.name;
    j["problems"] = c.problems;
    j["lost_evidence"] = !c.lost.empty();
    j["lost"] = lost_json(c.lost);
    std::cout << j.dump(2) << "\n";
  } else if (!c.reason.empty()) {
    std::cout << wrap_lines(c.reason + "\n");
  } else {
    std::cout << check_text(c.result, options.details);
    for (const RunDirLoss& loss : c.lost) std::cout << wrap_lines("evidence lost: " + run_dir_loss_text(loss) + "\n");
    if (!options.details) {
      for (const std::string& w : c.result.warnings) std::cerr << "tscaudit check: warning: " << w << "\n";
    }
  }
}

int exit_code_of(CheckOutcome outcome) {
  switch (outcome) {
    case CheckOutcome::synchronized: return kExitOk;
    case CheckOutcome::inconclusive: return kExitInconclusive;
    case CheckOutcome::incomplete: return kExitRuntime;
    case CheckOutcome::not_synchronized: break;
  }
  return kExitCheckFailed;
}

/// Too little evidence is not a verdict (docs/method.md §3.1, "Too few rounds"): when a
/// measured pair has fewer rounds than kMinRoundsForVerdict, a check that is not cut short
/// is inconclusive, and this is its reason; "" otherwise.
std::string too_few_rounds_reason(const MatrixResult& m, CheckResult& result) {
  if (result.outcome == CheckOutcome::incomplete) return "";
  std::uint64_t fewest = kMinRoundsForVerdict;
  std::size_t pairs = 0, measured = 0;
  for (const PairCell& c : m.cells) {
    if (!c.measured) continue;
    ++measured;
    if (!too_few_rounds(c.rounds)) continue;
    ++pairs;
    fewest = std::min(fewest, c.rounds);
  }
  if (pairs == 0) return "";
  result.outcome = CheckOutcome::inconclusive;
  result.synchronized = false;
  return "inconclusive: " + too_few_rounds_text(fewest) + ": " + std::to_string(pairs) + " of " +
         std::to_string(measured) + " measured ordered pairs";
}

double unix_now_s() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

/// check --quick: the library's quick check, then the same outputs as the full check.
int run_quick(const CheckOptions& options, std::optional<OutputFile>& metrics_file) {
  // A short calibration: the quick check calibrates the counter itself; the platform's
  // frequency only converts a tolerance given in ticks.
  const PlatformFacts platform = probe_platform(20);
  QuickOptions quick;
  if (!options.matrix.cpus.empty()) quick.cpus = options.matrix.cpus;
  quick.budget_seconds = options.matrix.budget_seconds;
  const auto in_ns = [&](const char* option, const Tolerance& t) -> double {
    if (t.ns || !(t.value > 0)) return t.value;
    if (!(platform.tsc.hz > 0)) {
      throw UsageError(std::string(option) + " in ticks needs the TSC frequency, which is unknown here; give ns");
    }
    return t.value / platform.tsc.hz * 1e9;
  };
  quick.tolerance_ns = in_ns("--tolerance", options.tolerance);
  quick.max_bound_ns = in_ns("--max-bound", options.max_bound);
  // Milliseconds of measuring: a signal in them is recorded and the answer is incomplete,
  // with the metrics that say so (systemd stopping the unit), not a process killed halfway.
  std::optional<StopSignals> signals(std::in_place);
  QuickAnswer answer = run_quick_check(quick);
  const int signal = StopSignals::caught();
  signals.reset();
  std::vector<std::string> warnings = check_warnings(platform_warnings(platform));
  std::string unjudged;
  if (!answer.check) {
    unjudged = answer.reason;
    // Nothing was judged (one CPU, a counter that cannot be read, a pair that failed): an
    // inconclusive answer over the CPUs chosen, with no pair measured, in every format.
    MatrixResult empty = MatrixBuilder(answer.cpu_numbers).finish();
    empty.tsc_hz = platform.tsc.hz;
    empty.send = recorded_variant(plain_variant(counter::kHostArch));
    empty.recv = recorded_variant(default_recv_variant(counter::kHostArch));
    answer.matrix = std::move(empty);
    CheckResult none;
    none.outcome = CheckOutcome::inconclusive;
    none.cpus = answer.cpu_numbers.size();
    none.warnings = warnings;
    answer.check = std::move(none);
  }
  CheckResult& result = *answer.check;
  if (answer.pairs > 0) result.warnings.insert(result.warnings.end(), warnings.begin(), warnings.end());
  if (signal != 0) {
    mark_cut_short(result, "interrupted by " + signal_name(signal) + " during the quick check");
    unjudged.clear();  // the reason is the cut, in every format
  }
  const CheckSettings settings = result.settings;
  write_check_outputs(
      options,
      {*answer.matrix, platform, result, settings, unix_now_s(), answer.measuring_seconds, "quick", unjudged, {}},
      metrics_file);
  return exit_code_of(result.outcome);
}

}  // namespace

double tolerance_in_ticks(const std::string& option, const Tolerance& t, double tsc_hz) {
  if (!t.ns) return t.value;
  if (!(tsc_hz > 0)) throw UsageError(option + " in ns needs the TSC frequency, which is unknown here; give ticks");
  return t.value * tsc_hz / 1e9;
}

int run_check(const CheckOptions& options) {
  if (options.matrix.dry_run) {
    const PlannedMatrix planned = plan_matrix(options.matrix);
    if (options.matrix.format == OutputFormat::json) {
      std::cout << plan_json(planned.plan).dump(2) << "\n";
    } else {
      std::cout << plan_text(planned.plan, &planned.order);
    }
    return kExitOk;
  }
  // From here on a signal is recorded, not fatal: the measuring ends at its next check and
  // the answer, incomplete, is written with its metrics (a second signal ends it at once).
  const StopSignals signals;
  // Opened before measuring: a metrics file that cannot be created fails at once.
  std::optional<OutputFile> metrics_file;
  if (!options.openmetrics_file.empty()) metrics_file.emplace(options.openmetrics_file);
  if (options.quick) return run_quick(options, metrics_file);
  const MatrixOutcome o = obtain_matrix(options.matrix, "check", false);
  CheckSettings settings;
  settings.drift_tolerance_ppb = options.drift_tolerance_ppb;
  settings.tolerance_ticks = tolerance_in_ticks("--tolerance", options.tolerance, o.platform.tsc.hz);
  settings.max_bound_ticks = tolerance_in_ticks("--max-bound", options.max_bound, o.platform.tsc.hz);
  CheckResult result = decide_check(o.matrix, settings, check_warnings(o.warnings));
  if (!o.interrupted.empty()) mark_cut_short(result, o.interrupted);
  const std::string too_few = too_few_rounds_reason(o.matrix, result);
  if (!options.matrix.out_dir.empty()) {
    PictureReport pictures;
    for (const std::string& p : write_matrix_dir(options.matrix.out_dir, o, &result, &settings, &pictures)) {
      std::cerr << "tscaudit check: " << p << "\n";
    }
    if (!pictures.not_drawn.empty()) std::cerr << "tscaudit check: " << not_drawn_message(pictures.not_drawn) << "\n";
  }
  const double duration_s = o.has_plan ? o.elapsed_seconds : std::numeric_limits<double>::quiet_NaN();
  write_check_outputs(
      options,
      {o.matrix, o.platform, result, settings, o.ended_unix_s, duration_s, "full", too_few, o.problems, o.lost},
      metrics_file);
  for (const std::string& p : o.problems) std::cerr << "tscaudit check: problem: " << p << "\n";
  for (const std::string& note : o.incomplete) std::cerr << "tscaudit check: not complete: " << note << "\n";
  if (options.matrix.format == OutputFormat::json || options.openmetrics_stdout) {
    for (const RunDirLoss& loss : o.lost)
      std::cerr << "tscaudit check: evidence lost: " << run_dir_loss_text(loss) << "\n";
  }
  if (!o.problems.empty()) return kExitRuntime;
  return exit_code_of(result.outcome);
}

}  // namespace tscaudit
