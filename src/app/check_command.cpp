#include "app/check_command.hpp"

#include <chrono>
#include <cmath>
#include <iostream>
#include <limits>
#include <optional>

#include "app/matrix_dir.hpp"
#include "app/matrix_run_dir.hpp"
#include "app/matrix_source.hpp"
#include "app/boot_history.hpp"
#include "app/state_publish.hpp"
#include "app/stop_signals.hpp"
#include "app/report_error.hpp"
#include "core/errors.hpp"
#include "io/output_dir.hpp"
#include "io/output_file.hpp"
#include "platform/platform_warnings.hpp"
#include "quick/quick_check.hpp"
#include "render/exposition.hpp"
#include "render/matrix_output.hpp"
#include "render/openmetrics_output.hpp"
#include "render/text_wrap.hpp"
#include "render/verdict_text.hpp"
#include "version.hpp"
#include "core/format.hpp"

namespace tscaudit {
namespace {

/// What both checks have measured and decided, for the outputs.
struct CheckOutputs {
  const MatrixResult& matrix;
  const PlatformFacts& platform;
  const CheckResult& result;
  double ended_unix_s;
  double duration_s;
  const char* check;                  // "full" or "quick"
  std::vector<std::string> problems;  // visits that failed, pairs left unmeasured (JSON)
  std::vector<RunDirLoss> lost = {};  // evidence the run directory's reader passed over
  const AddedVisits* added = nullptr;  // visits added for --max-bound
};

double unix_now_s() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

/// The check's answer as `check --format json` writes it.
nlohmann::ordered_json check_answer_json(const CheckOutputs& c) {
  nlohmann::ordered_json j = check_json(c.result);
  j["check"] = c.check;
  j["cpus"] = c.matrix.cpus;
  j["send"] = c.matrix.send.name;
  j["recv"] = c.matrix.recv.name;
  j["tsc_hz"] = c.matrix.tsc_hz > 0 ? nlohmann::ordered_json(c.matrix.tsc_hz) : nlohmann::ordered_json(nullptr);
  j.update(cpu_offsets_json(c.matrix));
  j["problems"] = c.problems;
  j["lost_evidence"] = !c.lost.empty();
  j["lost"] = lost_json(c.lost);
  if (c.added != nullptr) j["added_visits"] = added_visits_json(*c.added);
  return j;
}

/// check --history: how many CPUs moved since the previous boot's answer (docs/commands.md,
/// "Boot history"); nothing when there is none, or when this check was cut short (no answer).
std::optional<std::size_t> moved_since_previous_boot(const BootHistoryDir& history, const CheckOutputs& c) {
  if (c.result.outcome == CheckOutcome::incomplete) return std::nullopt;
  const BootComparison b = compare_with_previous_boot(history, offset_table_of(c.matrix, ""));
  if (b.skipped > 0) {
    print_note("tscaudit check: --history: " + count_of(b.skipped, "file") + " named boot-*.json in " +
               printable_text(history.dir) + " could not be read as a boot's record: passed over");
  }
  if (!b.compared()) {
    print_note("tscaudit check: --history: no earlier boot to compare with");
    return std::nullopt;
  }
  const std::string moved = b.comparison.changed()
                                ? count_of(b.comparison.moved, "CPU") + " moved since the previous boot"
                                : "no proven change since the previous boot";
  print_note("tscaudit check: --history: " + moved + " (`tscaudit compare " + printable_text(b.previous) + " " +
             printable_text(history.record_path()) + "` shows each CPU)");
  return b.comparison.moved;
}

/// check --history: this boot's answer kept, once every other output is written; a check cut
/// short leaves the history as it was.
void keep_this_boot(const BootHistoryDir& history, const CheckOutputs& c) {
  if (c.result.outcome == CheckOutcome::incomplete) {
    print_note("tscaudit check: the check was cut short: --history " + printable_text(history.dir) +
               " is left as it was");
    return;
  }
  nlohmann::ordered_json record = check_answer_json(c);
  record["ended_unix_s"] = c.ended_unix_s;
  record["kept_unix_s"] = unix_now_s();  // the boots' order: a --from run may have ended long before
  // Bounded as --details is: the first failing pairs and how many (a package apart on 64 CPUs
  // fails 2048 pairs, 330 kB of them), so that a record stays some 110 bytes per CPU.
  nlohmann::ordered_json& failures = record["failures"];
  const std::size_t total = failures.size();
  if (total > kDetailsFailures) failures.erase(failures.begin() + kDetailsFailures, failures.end());
  record["failures_total"] = total;  // after the cut: a new key moves the ordered map's values
  const std::string path = keep_boot_record(history, record);
  std::cerr << "tscaudit check: wrote " << printable_text(path) << "\n";
}

/// The check's metrics as OpenMetrics text (docs/fleets.md, "Metrics for Prometheus").
std::string check_exposition(const CheckOutputs& c, const CheckExport& what,
                             std::optional<std::size_t> moved_since_boot) {
  CheckRunFacts facts;
  facts.version = kToolVersion;
  facts.clocksource = c.platform.clocksource;
  facts.hypervisor = c.platform.cpuid.hypervisor.value_or("none");
  facts.end_unix_s = c.ended_unix_s;
  facts.duration_s = c.duration_s;
  facts.check = c.check;
  facts.moved_since_boot = moved_since_boot;
  return exposition_text(check_metrics(c.matrix, c.result, facts, what), ExpositionDialect::openmetrics);
}

/// The metrics (file and standard output), then the answer in the format asked for.
void write_check_outputs(const CheckOptions& options, const CheckOutputs& c, std::optional<OutputFile>& metrics_file,
                         const std::optional<BootHistoryDir>& history) {
  const std::optional<std::size_t> moved_since_boot =
      history ? moved_since_previous_boot(*history, c) : std::nullopt;
  if (options.openmetrics_stdout || metrics_file) {
    if (!(c.matrix.tsc_hz > 0)) {
      print_note("tscaudit check: the TSC frequency is unknown: the metrics in seconds (offsets, bounds, spread, "
                 "quantum) are left out");
    }
    const std::string text = check_exposition(c, options.metrics, moved_since_boot);
    if (metrics_file) {
      metrics_file->write(text);
      metrics_file->commit();
      std::cerr << "tscaudit check: wrote " << printable_text(options.openmetrics_file) << "\n";
    }
    if (options.openmetrics_stdout) std::cout << text;
  }
  if (options.openmetrics_stdout) {
    // the metrics are the output; the reason and the warnings go to standard error
    print_note("tscaudit check: " + check_reason_text(c.result));
    for (const Warning& w : c.result.warnings) print_note("tscaudit check: warning: " + warning_line(w));
  } else if (options.matrix.format == OutputFormat::json) {
    std::cout << check_answer_json(c).dump(2) << "\n";
  } else {
    std::cout << check_text(c.result, options.details, kDetailsFailures);
    for (const RunDirLoss& loss : c.lost) std::cout << wrap_lines("evidence lost: " + run_dir_loss_text(loss) + "\n");
    if (!options.details) {
      for (const Warning& w : c.result.warnings) print_note("tscaudit check: warning: " + warning_line(w));
    }
  }
  if (history) keep_this_boot(*history, c);
}

/// check --quick: the library's quick check, then the same decision and outputs as the
/// full check.
int run_quick(const CheckOptions& options, std::optional<OutputFile>& metrics_file, std::optional<OutputFile>& publish,
              const std::optional<BootHistoryDir>& history) {
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
  quick.warnings = platform_warnings(platform);
  // Milliseconds of measuring: a signal in them is recorded and the answer is incomplete,
  // with the metrics that say so (systemd stopping the unit), not a process killed halfway.
  std::optional<StopSignals> signals(std::in_place);
  quick.cut_short = [] {
    const int signal = StopSignals::caught();
    return signal == 0 ? std::string() : "interrupted by " + signal_name(signal) + " during the quick check";
  };
  const QuickAnswer answer = run_quick_check(quick);
  signals.reset();
  write_check_outputs(
      options, {answer.matrix, platform, answer.check, unix_now_s(), answer.measuring_seconds, "quick", {}},
      metrics_file, history);
  if (publish) publish_check_state(*publish, answer.matrix, answer.check, PublishedFrom::quick, true);
  return exit_code_of(answer.check.outcome);
}

}  // namespace

int run_check(const CheckOptions& options) {
  if (options.matrix.dry_run) return print_dry_run(options.matrix);
  // From here on a signal is recorded, not fatal: the measuring ends at its next check and
  // the answer, incomplete, is written with its metrics (a second signal ends it at once).
  const StopSignals signals;
  // Opened before measuring: a metrics file that cannot be created fails at once.
  std::optional<OutputFile> metrics_file;
  if (!options.openmetrics_file.empty()) metrics_file.emplace(options.openmetrics_file);
  std::optional<OutputFile> publish;
  if (!options.publish_file.empty()) publish.emplace(options.publish_file);
  std::optional<BootHistoryDir> history;
  if (!options.history_dir.empty()) history = open_boot_history(options.history_dir);
  if (options.quick) return run_quick(options, metrics_file, publish, history);
  MatrixOptions matrix = options.matrix;
  std::optional<OutputDir> out = begin_matrix_out(matrix);
  matrix.max_bound = options.max_bound;  // with a budget: more visits for the pairs not yet proven within it
  matrix.tolerance = options.tolerance;
  matrix.drift_tolerance_ppb = options.drift_tolerance_ppb;
  // What is written aside is named where it is put, in every message (OutputDir::placed).
  const auto [o, result] = [&] {
    try {
      MatrixOutcome outcome = obtain_matrix(matrix, "check", false);
      const CheckSettings settings =
          check_settings(outcome, options.tolerance, options.drift_tolerance_ppb, options.max_bound);
      CheckResult decided = decide_check(check_evidence(outcome), settings);
      if (out) {
        PictureReport pictures;
        for (const std::string& p : write_matrix_dir(out->aside(), outcome, decided, &pictures)) {
          print_note("tscaudit check: " + out->placed(p));
        }
        pictures.rename([&](std::string path) { return out->placed(std::move(path)); });
        out->commit();
        if (!pictures.not_drawn.empty()) {
          print_note("tscaudit check: " + not_drawn_message(pictures.not_drawn));
        }
      }
      return std::pair{std::move(outcome), std::move(decided)};
    } catch (...) {
      if (out) rethrow_placed(*out);
      throw;
    }
  }();
  if (o.added.max_bound_ticks > 0 && o.added.visits > 0) {
    std::cerr << wrap_lines("tscaudit check: " + added_visits_text(o.added, o.matrix.tsc_hz) + "\n");
  }
  const double duration_s = o.has_plan ? o.elapsed_seconds : std::numeric_limits<double>::quiet_NaN();
  const CheckOutputs outputs{o.matrix,   o.platform, result, o.ended_unix_s, duration_s,
                             "full",     o.problems, o.lost, &o.added};
  write_check_outputs(options, outputs, metrics_file, history);
  if (publish) {
    publish_check_state(*publish, o.matrix, result, o.offline ? PublishedFrom::run_directory : PublishedFrom::live,
                        !o.offline);
  }
  for (const std::string& p : o.problems) print_note("tscaudit check: problem: " + p);
  for (const std::string& note : o.incomplete) print_note("tscaudit check: not complete: " + note);
  if (options.matrix.format == OutputFormat::json || options.openmetrics_stdout) {
    for (const RunDirLoss& loss : o.lost)
      print_note("tscaudit check: evidence lost: " + run_dir_loss_text(loss));
  }
  // A visit that failed made the decision incomplete already (exit 3); a picture gnuplot
  // could not draw is named above and leaves the answer as it is.
  return exit_code_of(result.outcome);
}

}  // namespace tscaudit
