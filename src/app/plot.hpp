// Running gnuplot on a plots/ script: the only place the tool starts another program.
// `gnuplot -c SCRIPT IN OUT` is started with posix_spawnp (no shell), stdin from
// /dev/null, stdout and stderr captured (the last 4 KiB kept), in its own process group
// so that a timeout kills it and anything it started. The picture is written aside and
// renamed over OUT only on success: a failed plot leaves no partial picture.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace tscsync {

/// problem, when !ok: "gnuplot not found (install gnuplot-nox)", or what went wrong with
/// the script, the input or the output: gnuplot's own messages, its exit status, or the
/// timeout.
struct PlotResult {
  bool ok = false;
  std::string problem;
};

/// Runs `gnuplot -c SCRIPT IN OUT.tmp.XXXXXX.EXT` and renames the result to OUT. EXT
/// (".png" or ".svg") is kept so that the script picks its terminal from it; OUT's
/// directory must exist. After `timeout` gnuplot's process group is killed. Never throws.
PlotResult render_plot(const std::string& script, const std::string& in, const std::string& out,
                       std::chrono::milliseconds timeout = std::chrono::seconds(60));

/// Whether `tail`, the last bytes of a picture (64 are plenty), ends a whole picture:
/// for ".png" the IEND chunk (length 0, "IEND", its CRC), for ".svg" "</svg>" and white
/// space. gnuplot exits 0 even when its writes failed (a full disk), leaving a picture
/// cut short; render_plot refuses to pass one off as done.
bool picture_ends_whole(std::string_view tail, std::string_view ext);

/// Where the plots/ scripts are: $TSCSYNC_PLOTS if set, else <dir of /proc/self/exe>/../plots
/// (build/tscsync -> plots/), else the install directory (<prefix>/share/tscsync/plots).
/// A directory counts when it holds heatmap_common.gp. Returns the directory, or ""
/// with the reason in *problem (when problem is not null). Never throws.
std::string find_plot_dir(std::string* problem);

/// The rule of find_plot_dir with its inputs given: `env` is $TSCSYNC_PLOTS (null when
/// unset), `exe` the executable's path, `install_dir` the installed scripts ("" if none).
std::string find_plot_dir_in(const char* env, const std::string& exe, const std::string& install_dir,
                             std::string* problem);

}  // namespace tscsync
