// Running gnuplot on a plots/ script: the only place the tool starts another program.
// `gnuplot -c SCRIPT IN OUT` is started with posix_spawnp (no shell), stdin from
// /dev/null, stdout and stderr captured (the last 4 KiB kept), in its own process group
// so that a timeout kills it and anything it started. The picture is written aside and
// renamed over OUT only on success: a failed plot leaves no partial picture. The scripts
// come from plot_scripts.hpp; a command draws its pictures through pictures.hpp.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace tscaudit {

/// problem, when !ok: "gnuplot not found (install gnuplot-nox)" (then gnuplot_missing),
/// or what went wrong with the script, the input or the output: gnuplot's own messages,
/// its exit status, or the timeout.
struct PlotResult {
  bool ok = false;
  std::string problem;
  bool gnuplot_missing = false;
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

/// Whether an executable "gnuplot" is in $PATH (or in /bin:/usr/bin when PATH is unset),
/// where posix_spawnp looks for it.
bool gnuplot_on_path();

}  // namespace tscaudit
