#include "app/analyze_command.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <variant>

#include "app/pictures.hpp"
#include "core/errors.hpp"
#include "formats/interval_log.hpp"
#include "io/output_file.hpp"
#include "formats/run_format.hpp"
#include "formats/standard_output.hpp"
#include "formats/text_lines.hpp"
#include "matrix/check.hpp"
#include "monitor/interval_analysis.hpp"
#include "pair/analyze.hpp"
#include "render/monitor_output.hpp"
#include "render/pair_output.hpp"
#include "core/format.hpp"
#include "render/text_wrap.hpp"

namespace tscaudit {
namespace {

namespace fs = std::filesystem;

/// An interval log and its analysis (the CSV and the plot need the intervals).
struct Monitor {
  IntervalLog log;
  MonitorAnalysis analysis;
  std::string file;
};

/// The first line of `path`, at most kMaxLineBytes; "" when it cannot be read (the
/// reader that follows reports why, in its own words).
std::string first_line(const std::string& path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) return {};
  std::string line;
  for (int c; line.size() <= kMaxLineBytes && (c = std::fgetc(f.get())) != EOF && c != '\n';) {
    line.push_back(static_cast<char>(c));
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

/// Standard input can be read only once: its first line is read ahead, and the reader
/// then gets a stream that gives that line back before the rest of standard input, so
/// that the file is still read in chunks, never held whole (fopencookie, glibc).
struct PrefixedStdin {
  std::string prefix;
  std::size_t pos = 0;
};

ssize_t read_prefixed(void* cookie, char* buf, std::size_t size) {
  auto* c = static_cast<PrefixedStdin*>(cookie);
  if (c->pos < c->prefix.size()) {
    const std::size_t n = std::min(size, c->prefix.size() - c->pos);
    std::copy_n(c->prefix.data() + c->pos, n, buf);
    c->pos += n;
    return static_cast<ssize_t>(n);
  }
  const std::size_t n = std::fread(buf, 1, size, stdin);
  return n == 0 && std::ferror(stdin) ? -1 : static_cast<ssize_t>(n);
}

int close_prefixed(void* cookie) {
  delete static_cast<PrefixedStdin*>(cookie);
  return 0;
}

/// Standard input as a stream, and whether its first line is an interval log's.
std::pair<std::unique_ptr<std::FILE, int (*)(std::FILE*)>, bool> open_stdin() {
  auto* cookie = new PrefixedStdin;
  for (int c; cookie->prefix.size() <= kMaxLineBytes && (c = std::fgetc(stdin)) != EOF;) {
    cookie->prefix.push_back(static_cast<char>(c));
    if (c == '\n') break;
  }
  std::string_view first = cookie->prefix;
  if (!first.empty() && first.back() == '\n') first.remove_suffix(1);
  if (!first.empty() && first.back() == '\r') first.remove_suffix(1);
  const bool is_log = is_interval_log_schema_line(first);
  std::FILE* f = ::fopencookie(cookie, "r", {read_prefixed, nullptr, nullptr, close_prefixed});
  if (f == nullptr) {
    delete cookie;
    throw IoError("cannot read standard input");
  }
  return {std::unique_ptr<std::FILE, int (*)(std::FILE*)>(f, &std::fclose), is_log};
}

/// monitor_timeseries, or STEM_monitor_timeseries when there are several logs (STEM_2,
/// STEM_3 ... when two logs share a stem).
std::vector<std::string> plot_names(const std::vector<Monitor>& monitors) {
  std::vector<std::string> names;
  std::map<std::string, int> seen;
  for (const Monitor& m : monitors) {
    if (monitors.size() == 1) {
      names.emplace_back("monitor_timeseries");
      break;
    }
    std::string stem = m.file == "-" ? "stdin" : fs::path(m.file).stem().string();
    if (stem.empty()) stem = "log";
    const int n = ++seen[stem];
    if (n > 1) stem += "_" + std::to_string(n);
    names.push_back(stem + "_monitor_timeseries");
  }
  return names;
}

void write_plots(const std::string& dir, const std::vector<Monitor>& monitors) {
  if (monitors.empty()) {
    std::cerr << "tscaudit analyze: --plot: no interval logs among the files: nothing to plot\n";
    return;
  }
  Plotter plotter;
  const std::vector<std::string> names = plot_names(monitors);
  for (std::size_t i = 0; i < monitors.size(); ++i) {
    const fs::path dat = fs::path(dir) / (names[i] + ".dat");
    write_text_file(dat.string(), monitor_timeseries_dat(monitors[i].analysis, monitors[i].log));
    std::string wrote = "  wrote " + printable_text(dat.string());
    std::string failures;
    for (const char* ext : {".png", ".svg"}) {
      const fs::path picture = fs::path(dir) / (names[i] + ext);
      const std::size_t failed_before = plotter.report().failed.size();
      if (plotter.draw("monitor_timeseries.gp", dat.string(), picture.string())) {
        wrote += ", " + printable_text(picture.filename().string());
      } else if (plotter.report().failed.size() > failed_before) {  // not for a missing gnuplot: said once below
        failures += "tscaudit analyze: warning: " + plotter.report().failure_lines().back() + "\n";
      }
    }
    std::cerr << wrap_lines(wrote + "\n" + failures);
  }
  if (!plotter.report().not_drawn.empty()) {
    std::cerr << wrap_lines("tscaudit analyze: warning: " + not_drawn_message(plotter.report().not_drawn) + "\n");
  }
}

/// The results, in the format asked for, into `out`, committed. \throws IoError.
void write_results(const AnalyzeOptions& options, const std::vector<PairAnalysis>& pairs,
                   const std::vector<Monitor>& monitors, const std::vector<std::pair<bool, std::size_t>>& order,
                   OutputFile& out) {
  switch (options.format) {
    case OutputFormat::text: {
      std::string text;
      for (const auto& [is_monitor, i] : order) {
        text += (is_monitor ? monitor_text(monitors[i].analysis) : analysis_text(pairs[i])) + "\n";
      }
      out.write(text);
      break;
    }
    case OutputFormat::json: {
      nlohmann::ordered_json j = analysis_json(pairs);
      nlohmann::ordered_json& arr = j["monitors"] = nlohmann::ordered_json::array();
      for (const Monitor& m : monitors) arr.push_back(monitor_json(m.analysis));
      // Strings from the input (send, recv, a file name) may hold bytes that are not
      // UTF-8: they become U+FFFD instead of an exception from the JSON writer.
      out.write(j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
      break;
    }
    case OutputFormat::csv: {
      // Two tables when both kinds were given: the pairs, a blank line, the intervals.
      std::string text;
      if (!pairs.empty() || monitors.empty()) text += analysis_csv(pairs);
      if (!monitors.empty()) {
        if (!text.empty()) text += "\n";
        text += monitor_csv_header();
        for (const Monitor& m : monitors) text += monitor_csv_rows(m.analysis, m.log);
      }
      out.write(text);
      break;
    }
  }
  out.commit();
}

}  // namespace

int run_analyze(const AnalyzeOptions& options) {
  OutputFile out(options.out);  // before the work: an unwritable output fails at once
  if (!options.plot_dir.empty()) make_directories(options.plot_dir);
  std::vector<PairAnalysis> pairs;
  std::vector<Monitor> monitors;
  std::vector<std::pair<bool, std::size_t>> order;  // (is a monitor, index): file order
  for (const std::string& file : options.files) {
    const std::string source = file == "-" ? "<stdin>" : file;
    std::optional<Run> run;
    if (file == "-") {
      auto [in, is_log] = open_stdin();
      if (is_log) {
        monitors.push_back({read_interval_log_stream(in.get(), source, kReadChunkBytes), {}, file});
      } else {
        run = read_run_stream(in.get(), source, kReadChunkBytes, 0);
      }
    } else if (is_interval_log_schema_line(first_line(file))) {
      monitors.push_back({read_interval_log_file(file), {}, file});
    } else {
      run = read_run_file(file);
    }
    if (run) {
      pairs.push_back(analyze_run(*run, source));
      order.emplace_back(false, pairs.size() - 1);
      if (pairs.back().incomplete) {
        // Only a run file (a schema line) promises a status line; an import is flagged
        // only for what it says itself or a last line that was cut (docs/formats.md).
        if (run->header.get("schema")) {
          std::cerr << wrap_lines("tscaudit analyze: warning: " + source + " is not a complete run (" +
                                  *pairs.back().incomplete + "); analyzing the rounds it holds\n");
        } else {
          std::cerr << wrap_lines("tscaudit analyze: warning: " + source + ": " + *pairs.back().incomplete +
                                  "; analyzing the rounds it holds\n");
        }
      }
      continue;
    }
    Monitor& m = monitors.back();
    m.analysis = analyze_interval_log(m.log, source);
    order.emplace_back(true, monitors.size() - 1);
    if (m.analysis.status != MonitorStatus::complete) {
      std::cerr << wrap_lines("tscaudit analyze: warning: " + source + " is not a complete monitor log (" +
                              std::string(monitor_status_name(m.analysis.status)) + ": " +
                              m.analysis.incomplete.value_or("no reason given") + "); analyzing the " +
                              std::to_string(m.analysis.intervals) + " intervals it holds\n");
    }
  }
  // A reader of standard output that went away (`| head`) ends the results there, not the
  // command: the plots are still drawn, then it ends quietly (formats/standard_output.hpp).
  try {
    write_results(options, pairs, monitors, order, out);
  } catch (const IoError& e) {
    if (!standard_output_closed(e)) throw;
  }
  if (!options.plot_dir.empty()) write_plots(options.plot_dir, monitors);
  // Each run decided as check decides it (decide_pair); the exit code is the most serious
  // answer's (docs/commands.md, "Exit codes"). An interval log's analysis is reported, not
  // decided: it changes no code.
  std::vector<CheckOutcome> outcomes;
  for (const PairAnalysis& p : pairs) outcomes.push_back(decide_pair(p).outcome);
  return exit_code_of(most_serious(outcomes));
}

}  // namespace tscaudit
