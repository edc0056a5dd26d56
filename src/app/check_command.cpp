#include "app/check_command.hpp"

#include <charconv>
#include <cmath>
#include <iostream>
#include <optional>

#include "core/errors.hpp"
#include "formats/output_file.hpp"
#include "render/exposition.hpp"
#include "render/matrix_output.hpp"
#include "render/openmetrics_output.hpp"
#include "render/plan_output.hpp"
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
std::string check_exposition(const MatrixOutcome& o, const CheckResult& result, const CheckExport& what) {
  CheckRunFacts facts;
  facts.version = kToolVersion;
  facts.clocksource = o.platform.clocksource;
  facts.hypervisor = o.platform.cpuid.hypervisor.value_or("none");
  facts.end_unix_s = o.ended_unix_s;
  if (o.has_plan) facts.duration_s = o.elapsed_seconds;
  return exposition_text(check_metrics(o.matrix, result, facts, what), ExpositionDialect::openmetrics);
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
  // Opened before measuring: a metrics file that cannot be created fails at once.
  std::optional<OutputFile> metrics_file;
  if (!options.openmetrics_file.empty()) metrics_file.emplace(options.openmetrics_file);
  const MatrixOutcome o = obtain_matrix(options.matrix, "check", false);
  CheckSettings settings;
  settings.drift_tolerance_ppb = options.drift_tolerance_ppb;
  settings.tolerance_ticks = tolerance_in_ticks("--tolerance", options.tolerance, o.platform.tsc.hz);
  settings.max_bound_ticks = tolerance_in_ticks("--max-bound", options.max_bound, o.platform.tsc.hz);
  CheckResult result = decide_check(o.matrix, settings, check_warnings(o.warnings));
  if (!options.matrix.out_dir.empty()) {
    PictureReport pictures;
    for (const std::string& p : write_matrix_dir(options.matrix.out_dir, o, &result, &settings, &pictures)) {
      std::cerr << "tscaudit check: " << p << "\n";
    }
    if (!pictures.not_drawn.empty()) std::cerr << "tscaudit check: " << not_drawn_message(pictures.not_drawn) << "\n";
  }
  if (options.openmetrics_stdout || metrics_file) {
    if (!(o.matrix.tsc_hz > 0)) {
      std::cerr << "tscaudit check: the TSC frequency is unknown: the metrics in seconds (offsets, bounds, spread, "
                   "quantum) are left out\n";
    }
    const std::string text = check_exposition(o, result, options.metrics);
    if (metrics_file) {
      metrics_file->write(text);
      metrics_file->commit();
      std::cerr << "tscaudit check: wrote " << options.openmetrics_file << "\n";
    }
    if (options.openmetrics_stdout) std::cout << text;
  }
  if (options.openmetrics_stdout) {
    // the metrics are the output; the reason and the warnings go to standard error
    std::cerr << "tscaudit check: " << check_reason_text(result) << "\n";
    for (const std::string& w : result.warnings) std::cerr << "tscaudit check: warning: " << w << "\n";
  } else if (options.matrix.format == OutputFormat::json) {
    nlohmann::ordered_json j = check_json(result, settings);
    j["cpus"] = o.matrix.cpus;
    j["send"] = o.matrix.send.name;
    j["recv"] = o.matrix.recv.name;
    j["problems"] = o.problems;
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << check_text(result, options.details);
    if (!options.details) {
      for (const std::string& w : result.warnings) std::cerr << "tscaudit check: warning: " << w << "\n";
    }
  }
  for (const std::string& p : o.problems) std::cerr << "tscaudit check: problem: " << p << "\n";
  for (const std::string& note : o.incomplete) std::cerr << "tscaudit check: not complete: " << note << "\n";
  if (!o.problems.empty()) return kExitRuntime;
  switch (result.outcome) {
    case CheckOutcome::synchronized: return kExitOk;
    case CheckOutcome::inconclusive: return kExitInconclusive;
    case CheckOutcome::not_synchronized: break;
  }
  return kExitCheckFailed;
}

}  // namespace tscaudit
