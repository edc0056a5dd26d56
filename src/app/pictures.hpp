// A command's pictures: each drawn with a plots/ script (plot.hpp runs gnuplot,
// plot_scripts.hpp puts the scripts on disk), and what became of each, for the command's
// messages and its report. Where gnuplot is not installed the pictures are left out and
// said to be, which is not an error: their .dat inputs are written all the same.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "app/plot_scripts.hpp"
#include "app/progress.hpp"

namespace tscaudit {

/// A picture that gnuplot was there to draw but did not.
struct PictureFailure {
  std::string path;
  std::string why;  // gnuplot's messages, its exit status, the timeout ...
};

/// What became of a command's pictures. Paths are the output paths as given to draw().
struct PictureReport {
  std::vector<std::string> drawn;      // written, whole
  std::vector<std::string> not_drawn;  // skipped because gnuplot is not installed
  std::vector<PictureFailure> failed;  // every other picture not drawn
  void add(const PictureReport& other);
  /// Every path with `transform` applied (a directory built aside, named where it is put).
  void rename(const std::function<std::string(std::string)>& transform);
  /// "PATH: why" for each failure, for a command's list of problems.
  [[nodiscard]] std::vector<std::string> failure_lines() const;
};

/// Draws pictures with the plots/ scripts and records what came of each. Where gnuplot is
/// not installed nothing is started and every picture is "not drawn"; otherwise the
/// scripts are put on disk (PlotScripts, $TSCAUDIT_PLOTS as the override) at the first
/// picture, and removed with the Plotter. On a terminal, a progress line names the picture
/// being drawn once drawing has taken a while.
class Plotter {
 public:
  Plotter();
  ~Plotter();
  Plotter(const Plotter&) = delete;
  Plotter& operator=(const Plotter&) = delete;

  /// Draws plots/SCRIPT (a file name, e.g. "heatmap_offset.gp") from `in` into `out`
  /// (.png or .svg; its directory must exist). \returns whether `out` was written. Never
  /// throws.
  bool draw(const std::string& script, const std::string& in, const std::string& out);
  [[nodiscard]] const PictureReport& report() const { return report_; }

 private:
  bool gnuplot_ = false;
  std::unique_ptr<PlotScripts> scripts_;
  PictureReport report_;
  Progress progress_{"drawing the pictures"};
};

/// The one line that says which pictures gnuplot's absence left out, grouped by directory:
/// "gnuplot not found: install gnuplot-nox; not drawn in DIR: a.png, a.svg; in DIR2: b.png
/// (the .dat files beside them are their input)". "" when `not_drawn` is empty.
std::string not_drawn_message(const std::vector<std::string>& not_drawn);

/// What to add to "wrote DIR/x.json" so that it claims only the pictures written:
/// " and the WHAT" (all drawn), " and 3 of the 8 WHAT", ", no WHAT" (none drawn; WHAT
/// should then read well in the singular too, e.g. "heatmaps" -> ", no heatmap"), or ""
/// when there were no pictures to draw.
std::string pictures_written(const PictureReport& pictures, std::string_view what);

}  // namespace tscaudit
