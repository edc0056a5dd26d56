#include "app/plot_scripts.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "app/embedded_plots.hpp"
#include "app/temp_dir.hpp"
#include "core/errors.hpp"

namespace tscaudit {
namespace {

namespace fs = std::filesystem;

bool holds_scripts(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "heatmap_common.gp", ec);
}

/// Writes `bytes` to a new file `path` (mode 0600). \returns "" or what went wrong.
std::string write_new_file(const std::string& path, std::string_view bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return "cannot create " + path + ": " + errno_text(errno);
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      return "cannot write " + path + ": " + errno_text(err);
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  if (::close(fd) != 0) return "cannot write " + path + ": " + errno_text(errno);
  return "";
}

}  // namespace

PlotScripts::PlotScripts(const char* override_dir) {
  try {
    if (override_dir != nullptr && *override_dir != '\0') {
      // An explicit choice that is wrong is reported, not quietly replaced by the built-in.
      if (holds_scripts(override_dir)) {
        dir_ = override_dir;
      } else {
        problem_ = std::string("TSCAUDIT_PLOTS=") + override_dir + " holds no heatmap_common.gp";
      }
      return;
    }
    TempDir made = make_temp_dir("tscaudit-plots", "the plot scripts");
    if (made.path.empty()) {
      problem_ = std::move(made.problem);
      return;
    }
    dir_ = std::move(made.path);
    owned_ = true;
    for (const EmbeddedFile& f : embedded_plot_files()) {
      const std::string why = write_new_file(dir_ + "/" + std::string(f.name), f.bytes);
      if (!why.empty()) {
        problem_ = "cannot write the plot scripts: " + why;
        break;
      }
    }
  } catch (const std::exception& e) {  // only allocation can throw here
    problem_ = std::string("cannot put the plot scripts on disk: ") + e.what();
  }
  if (!problem_.empty() && owned_) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
    owned_ = false;
  }
  if (!problem_.empty()) dir_.clear();
}

PlotScripts::~PlotScripts() {
  if (owned_) {
    std::error_code ec;
    fs::remove_all(dir_, ec);  // nothing to do about a failure here: a leftover in TMPDIR
  }
}

std::string PlotScripts::script(std::string_view name) const { return dir_ + "/" + std::string(name); }

}  // namespace tscaudit
