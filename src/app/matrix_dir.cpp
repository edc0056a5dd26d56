#include "app/matrix_dir.hpp"

#include <filesystem>

#include "io/output_file.hpp"
#include "formats/warnings_json.hpp"
#include "matrix/plan_json.hpp"
#include "render/cpu_offsets_text.hpp"
#include "render/matrix_grids.hpp"
#include "render/matrix_output.hpp"
#include "render/matrix_text.hpp"
#include "render/verdict_text.hpp"

namespace tscaudit {

using json = nlohmann::ordered_json;

json lost_json(const std::vector<RunDirLoss>& lost) {
  json j = json::array();
  for (const RunDirLoss& loss : lost) j.push_back(run_dir_loss_json(loss));
  return j;
}

json added_visits_json(const AddedVisits& a) {
  if (!(a.max_bound_ticks > 0)) return nullptr;
  return {{"max_bound_ticks", a.max_bound_ticks},
          {"visits", a.visits},
          {"rounds", a.rounds},
          {"pairs", a.pairs},
          {"unproven", a.unproven}};
}

std::string added_visits_text(const AddedVisits& a, double tsc_hz) {
  std::string names;
  constexpr std::size_t kNamed = 6;
  for (std::size_t i = 0; i < a.pairs.size() && i < kNamed; ++i) names += (i == 0 ? "" : ", ") + a.pairs[i];
  if (a.pairs.size() > kNamed) names += " and " + std::to_string(a.pairs.size() - kNamed) + " more";
  std::string text = "after the plan, " + std::to_string(a.pairs.size()) + (a.pairs.size() == 1 ? " pair was" : " pairs were") +
                     " not proven within " + bound_text(a.max_bound_ticks, tsc_hz) + ": " + std::to_string(a.visits) +
                     " more visits in " + std::to_string(a.rounds) + (a.rounds == 1 ? " sweep" : " sweeps") + " (" +
                     names + ")";
  text += a.unproven == 0 ? "; every pair proven within it"
                          : "; " + std::to_string(a.unproven) + " still not when the budget ended";
  return text;
}

void prepare_out_dir(const std::string& dir) { make_directories((std::filesystem::path(dir) / "pairs").string()); }

std::string cut_short_line(const MatrixOutcome& o) {
  if (o.interrupted.empty()) return "";
  return "cut short (" + o.interrupted + "): what follows is the part measured, not a whole run\n\n";
}

std::vector<std::string> write_matrix_dir(const std::string& dir, const MatrixOutcome& o, const CheckResult& check,
                                          PictureReport* pictures) {
  namespace fs = std::filesystem;
  std::vector<std::string> problems;
  prepare_out_dir(dir);
  const fs::path root(dir);
  const MatrixResult& m = o.matrix;
  // A matrix of one CPU has no pair to draw.
  const bool draw = m.size() >= 2;

  // The gnuplot-ready matrices and their heatmaps.
  Plotter plotter;
  for (const MatrixGridSpec& g : matrix_grid_specs()) {
    const fs::path dat = root / (std::string(g.name) + ".dat");
    MatrixGrid grid = matrix_grid(g, m);
    if (!o.interrupted.empty()) grid.title += " - cut short, a part of the run";
    write_text_file(dat.string(), format_gnuplot_matrix(grid));
    if (g.script == nullptr || !draw) continue;
    for (const char* ext : {".png", ".svg"})
      plotter.draw(g.script, dat.string(), (root / (g.name + std::string(ext))).string());
  }
  // The per-CPU offsets with their hard bounds: one point per CPU, where a CPU whose
  // counter is off stands out even when its row of the heatmap is a few pixels, coloured
  // by the offset groups of the check's diagnosis.
  const fs::path cpu_dat = root / "cpu_offsets.dat";
  CpuOffsetsTable cpu_table = cpu_offsets_table(m, &check.diagnosis);
  if (!o.interrupted.empty()) cpu_table.title += " - cut short, a part of the run";
  write_text_file(cpu_dat.string(), format_cpu_offsets(cpu_table));
  if (draw) {
    for (const char* ext : {".png", ".svg"})
      plotter.draw("cpu_offsets.gp", cpu_dat.string(), (root / (std::string("cpu_offsets") + ext)).string());
  }
  for (const std::string& line : plotter.report().failure_lines()) problems.push_back(line);
  if (pictures != nullptr) pictures->add(plotter.report());

  // Written as it is made: on a large machine the N×N arrays as one document took more
  // memory than everything else together (stream_matrix_json).
  json j = json::object();
  j["plan"] = o.has_plan && !o.planned.one_cpu() ? plan_json(o.planned.plan) : json(nullptr);
  j["elapsed_seconds"] = o.elapsed_seconds;
  j["status"] = o.interrupted.empty() ? "complete" : "interrupted";
  j["incomplete"] = o.incomplete;
  j["lost_evidence"] = !o.lost.empty();
  j["lost"] = lost_json(o.lost);
  j["warnings"] = warnings_json(o.warnings);
  std::vector<std::string> all_problems = o.problems;
  all_problems.insert(all_problems.end(), problems.begin(), problems.end());
  j["problems"] = all_problems;
  j["added_visits"] = added_visits_json(o.added);
  j["check"] = check_json(check);
  j["findings"] = findings_json(check.diagnosis, m.tsc_hz);
  OutputFile json_file((root / "matrix.json").string());
  stream_matrix_json(m, cpu_places_json(o.planned.order), j, [&](std::string_view text) { json_file.write(text); });
  json_file.commit();
  write_text_file((root / "matrix.txt").string(), check_text(check, true) + "\n" + cut_short_line(o) + matrix_text(m));
  return problems;
}

}  // namespace tscaudit
