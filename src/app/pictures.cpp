#include "app/pictures.hpp"

#include <cstdlib>
#include <filesystem>

#include "app/plot.hpp"
#include "core/format.hpp"

namespace tscaudit {

namespace fs = std::filesystem;

void PictureReport::add(const PictureReport& other) {
  drawn.insert(drawn.end(), other.drawn.begin(), other.drawn.end());
  not_drawn.insert(not_drawn.end(), other.not_drawn.begin(), other.not_drawn.end());
  failed.insert(failed.end(), other.failed.begin(), other.failed.end());
}

std::vector<std::string> PictureReport::failure_lines() const {
  std::vector<std::string> lines;
  for (const PictureFailure& f : failed) lines.push_back(printable_text(f.path) + ": " + f.why);
  return lines;
}

Plotter::Plotter() : gnuplot_(gnuplot_on_path()) {}

Plotter::~Plotter() = default;

bool Plotter::draw(const std::string& script, const std::string& in, const std::string& out) {
  try {
    if (!gnuplot_) {
      report_.not_drawn.push_back(out);
      return false;
    }
    if (!scripts_) scripts_ = std::make_unique<PlotScripts>(std::getenv("TSCAUDIT_PLOTS"));
    if (!scripts_->ok()) {
      report_.failed.push_back({out, scripts_->problem()});
      return false;
    }
    const std::size_t done = report_.drawn.size() + report_.failed.size();
    progress_.update(done, count_of(done, "picture") + " drawn, now " + printable_text(fs::path(out).filename().string()));
    const PlotResult r = render_plot(scripts_->script(script), in, out);
    if (r.ok) {
      report_.drawn.push_back(out);
    } else if (r.gnuplot_missing) {
      report_.not_drawn.push_back(out);
    } else {
      report_.failed.push_back({out, r.problem});
    }
    return r.ok;
  } catch (...) {  // only allocation can throw here; the picture counts as failed
    return false;
  }
}

void PictureReport::rename(const std::function<std::string(std::string)>& transform) {
  for (std::string& p : drawn) p = transform(p);
  for (std::string& p : not_drawn) p = transform(p);
  for (PictureFailure& f : failed) {
    f.path = transform(f.path);
    f.why = transform(f.why);
  }
}

std::string not_drawn_message(const std::vector<std::string>& not_drawn) {
  if (not_drawn.empty()) return "";
  std::string out = "gnuplot not found: install gnuplot-nox; not drawn";
  std::string dir;
  bool first = true;
  for (const std::string& p : not_drawn) {
    const fs::path path(p);
    const std::string here = path.parent_path().string();
    if (first || here != dir) {
      out += (first ? " in " : "; in ") + (here.empty() ? std::string(".") : printable_text(here)) + ": ";
      dir = here;
    } else {
      out += ", ";
    }
    out += printable_text(path.filename().string());
    first = false;
  }
  return out + " (the .dat files beside them are their input)";
}

std::string pictures_written(const PictureReport& pictures, std::string_view what) {
  const std::size_t drawn = pictures.drawn.size();
  const std::size_t all = drawn + pictures.not_drawn.size() + pictures.failed.size();
  if (all == 0) return "";
  if (drawn == all) return " and the " + std::string(what);
  if (drawn == 0) {
    std::string one(what);
    if (one.ends_with("s")) one.pop_back();
    return ", no " + one;
  }
  return " and " + std::to_string(drawn) + " of the " + std::to_string(all) + " " + std::string(what);
}

}  // namespace tscaudit
