// The gnuplot scripts of plots/ as files, where gnuplot can `load` them and run awk on the
// helpers: those compiled into the binary (embedded_plots.hpp), put in a private
// temporary directory for as long as they are needed, or a directory named by
// $TSCAUDIT_PLOTS for people editing the scripts.
#pragma once

#include <string>
#include <string_view>

namespace tscaudit {

/// The plots/ scripts on disk, where gnuplot can `load` them and run awk on the helpers.
/// By default the scripts compiled into the binary (embedded_plots.hpp), written to a
/// private directory made with mkdtemp in $TMPDIR (else /tmp) and removed, with all it
/// holds, by the destructor. With an override directory ($TSCAUDIT_PLOTS, for editing the
/// scripts without a rebuild), that directory as it is; it must hold heatmap_common.gp.
class PlotScripts {
 public:
  /// `override_dir`: null or "" for the compiled-in scripts. Never throws: what went
  /// wrong is in problem().
  explicit PlotScripts(const char* override_dir);
  ~PlotScripts();
  PlotScripts(const PlotScripts&) = delete;
  PlotScripts& operator=(const PlotScripts&) = delete;

  [[nodiscard]] bool ok() const { return problem_.empty(); }
  /// "" when ok.
  [[nodiscard]] const std::string& problem() const { return problem_; }
  /// The directory of the scripts ("" when !ok).
  [[nodiscard]] const std::string& dir() const { return dir_; }
  /// The path of one script, e.g. script("heatmap_offset.gp").
  [[nodiscard]] std::string script(std::string_view name) const;

 private:
  std::string dir_;
  std::string problem_;
  bool owned_ = false;  // a temporary directory of ours, removed at the end
};

}  // namespace tscaudit
