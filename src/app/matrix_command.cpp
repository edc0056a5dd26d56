#include "app/matrix_command.hpp"

#include <iostream>
#include <optional>

#include "app/matrix_dir.hpp"
#include "app/matrix_run_dir.hpp"
#include "app/matrix_source.hpp"
#include "app/stop_signals.hpp"
#include "app/report_error.hpp"
#include "core/errors.hpp"
#include "core/files.hpp"
#include "core/format.hpp"
#include "io/output_dir.hpp"
#include "render/matrix_output.hpp"
#include "render/matrix_text.hpp"
#include "render/plan_output.hpp"
#include "render/verdict_text.hpp"

namespace tscaudit {

int run_matrix(const MatrixOptions& options) {
  using json = nlohmann::ordered_json;
  if (options.dry_run) return print_dry_run(options);
  const StopSignals signals;  // a signal ends the measuring cleanly (measure_matrix)
  MatrixOptions aside = options;
  std::optional<OutputDir> out = begin_matrix_out(aside);
  std::vector<std::string> problems;
  PictureReport pictures;
  // What is written aside is named where it is put, in every message (OutputDir::placed).
  const auto [o, verdict] = [&] {
    try {
      MatrixOutcome outcome = obtain_matrix(aside, "matrix", true);
      // The answer first: the check's verdict over these pairs (no tolerance, no
      // --max-bound) and its worst finding, as `check` words it; then the figures.
      CheckResult decided = decide_check(check_evidence(outcome), CheckSettings{});
      problems = outcome.problems;
      if (out) {
        for (const std::string& p : write_matrix_dir(out->aside(), outcome, decided, &pictures)) {
          problems.push_back(out->placed(p));
        }
        pictures.rename([&](std::string path) { return out->placed(std::move(path)); });
        out->commit();
      }
      return std::pair{std::move(outcome), std::move(decided)};
    } catch (...) {
      if (out) rethrow_placed(*out);
      throw;
    }
  }();
  if (options.format == OutputFormat::json) {
    json extra = json::object();
    extra["check"] = check_json(verdict);
    extra["findings"] = findings_json(verdict.diagnosis, o.matrix.tsc_hz);
    extra["lost_evidence"] = !o.lost.empty();
    extra["lost"] = lost_json(o.lost);
    stream_matrix_json(o.matrix, cpu_places_json(o.planned.order), extra,
                       [](std::string_view text) { std::cout << text; });
  } else if (o.matrix.size() < 2) {
    std::cout << check_text(verdict, false);  // no pair: the answer is all there is
  } else {
    std::cout << check_text(verdict, false) << "\n" << cut_short_line(o) << matrix_text(o.matrix);
  }
  if (!o.offline && o.matrix.size() >= 2) std::cerr << "  measured in " << format_sig(o.elapsed_seconds, 3) << " s\n";
  // What makes the answer less certain (emulated, a hypervisor, the clocksource), as check says.
  for (const Warning& w : verdict.warnings) print_note("  warning: " + warning_line(w));
  for (const std::string& p : problems) print_note("  problem: " + p);
  for (const std::string& note : o.incomplete) print_note("  not complete: " + note);
  for (const RunDirLoss& loss : o.lost) print_note("  evidence lost: " + run_dir_loss_text(loss));
  if (!pictures.not_drawn.empty()) print_note("  " + not_drawn_message(pictures.not_drawn));
  if (out) {
    print_note("  wrote " + printable_text(join_path(out->path(), "matrix.json")) +
               pictures_written(pictures, "heatmaps"));
  }
  // A failure of the machine (a visit that failed, a picture gnuplot could not draw) is
  // a runtime error; else the answer's own code (docs/commands.md, "Exit codes").
  return problems.empty() ? exit_code_of(verdict.outcome) : kExitRuntime;
}

}  // namespace tscaudit
