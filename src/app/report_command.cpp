#include "app/report_command.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "app/info_command.hpp"
#include "app/matrix_dir.hpp"
#include "app/matrix_pairs.hpp"
#include "app/matrix_run_dir.hpp"
#include "app/matrix_source.hpp"
#include "app/pictures.hpp"
#include "app/stop_signals.hpp"
#include "app/report_error.hpp"
#include "core/cpu_list.hpp"
#include "core/errors.hpp"
#include "core/files.hpp"
#include "core/format.hpp"
#include "core/human_units.hpp"
#include "formats/json_bounds.hpp"
#include "formats/kernel_tsc_json.hpp"
#include "io/output_dir.hpp"
#include "io/output_file.hpp"
#include "measure/variant.hpp"
#include "render/plan_output.hpp"
#include "render/report_builder.hpp"
#include "render/report_doc.hpp"
#include "render/report_pairs.hpp"
#include "render/variants_output.hpp"
#include "render/verdict_text.hpp"
#include "version.hpp"

namespace tscaudit {
namespace {

namespace fs = std::filesystem;

/// What the parts of the report wrote besides their data: problems and pictures.
struct Written {
  std::vector<std::string> problems;
  std::vector<std::string> incomplete;  // runs read that are not complete (--from)
  std::vector<std::string> lost;        // evidence the run directories' reader passed over (--from)
  bool interrupted = false;             // a signal ended the measuring: measure nothing more
  PictureReport pictures;
  /// What the terminal gets after the answer: where the rounds were read from, the plan
  /// that was measured (each line a line of its own).
  std::vector<std::string> after_answer;
};

ReportMatrixRun report_run(MatrixOutcome&& o) {
  ReportMatrixRun run;
  run.matrix = std::move(o.matrix);
  run.ordered_pairs = o.planned.plan.ordered_pairs;
  run.visits = o.planned.plan.spec.visits;
  run.elapsed_seconds = o.elapsed_seconds;
  return run;
}

/// The parts of the report that share its budget: the ordering-read matrix, the plain one,
/// the read variants; each gets an equal share (docs/commands.md, "report").
double budget_parts(const ReportOptions& options) {
  return 1.0 + (options.plain ? 1.0 : 0.0) + (options.variants ? 1.0 : 0.0);
}

/// The options of each of the report's matrices: the time budget is the report's, shared
/// with the other parts, and the visits grow with it as check's do with its own.
MatrixOptions matrix_options(const ReportOptions& options) {
  MatrixOptions m = options.matrix;
  m.budget_seconds /= budget_parts(options);
  m.default_budget_seconds = kDefaultBudgetSeconds / budget_parts(options);
  return m;
}

/// What `report --from DIR` reads: an earlier report's directory (its matrices' run
/// directories and its platform facts), or one run: a run directory, a matrix's or check's
/// --out, or a plain directory of run files, as `matrix --from` takes them.
enum class ReportFrom { live, report, run };

ReportFrom report_from(const std::string& from) {
  if (from.empty()) return ReportFrom::live;
  const fs::path dir(from);
  std::error_code ec;
  // An earlier report of a machine: its platform facts (a report whose run directory is
  // missing is named as such, not taken for a plain directory). A report rebuilt from one run
  // has none: it is read as that run (find_run takes its matrix/run).
  if (fs::exists(dir / "info.txt", ec) || fs::exists(dir / "info.json", ec)) return ReportFrom::report;
  return ReportFrom::run;
}

/// The platform section of a report rebuilt from one run: what its manifest records of the
/// machine (the host, the TSC frequency, the platform warnings), and what it does not.
std::string one_run_platform_text(const std::string& from, const ReportInputs& in, double tsc_hz) {
  std::string text =
      "Rebuilt from one run (" + printable_text(from) +
      "): the platform facts of `tscaudit info` are not recorded in a run directory, so they are not here.\n"
      "What the run's manifest records of the machine:\n";
  text += "  host      " + (in.host.empty() ? std::string("not recorded") : in.host) + "\n";
  text += "  TSC       " + (tsc_hz > 0 ? format_sig(tsc_hz / 1e6, 7) + " MHz" : std::string("not recorded")) + "\n";
  if (in.warnings.empty()) text += "  warnings  none recorded\n";
  for (const Warning& w : in.warnings) text += "  warning   " + w.code + ": " + w.message + "\n";
  return text;
}

/// The most an earlier report's info.txt or info.json may hold: `info` of a 4096-CPU machine
/// writes well under 1 MiB of either.
constexpr std::uint64_t kMaxRecordedInfoBytes = std::uint64_t{64} << 20;

/// An earlier report's info.txt or info.json, read whole (a regular file, bounded: a FIFO
/// or a device there is refused, never waited on); nullopt when it is not there.
/// \throws InputError as read_regular_file.
std::optional<std::string> read_recorded_info(const fs::path& path) {
  if (!exists(path.string())) return std::nullopt;
  return read_regular_file(path.string(), kMaxRecordedInfoBytes, "a report's " + path.filename().string());
}

/// A matrix rebuilt from the run directory options.from, as `matrix --from` reads it; where
/// it was read from is told after the answer.
MatrixOutcome rebuilt_matrix(const MatrixOptions& options, Written& w) {
  MatrixOutcome o = rebuild_matrix(options.from, pair_outputs(options));
  w.after_answer.push_back(wrap_columns("tscaudit report: " + rebuilt_from_text(o)));
  return o;
}

/// The matrix with the default, ordering receive read, and the check's verdict on it.
/// `from`: the run directory to rebuild it from; empty: measure it.
void measure_ordered(const ReportOptions& options, const std::string& from, const fs::path& root, ReportInputs& in,
                     Written& w) {
  MatrixOptions ordered = matrix_options(options);
  ordered.choice = ExchangeChoice{};
  ordered.out_dir = (root / kReportMatrixDir).string();
  ordered.command_line = options.command_line;
  ordered.from = from;
  ordered.max_bound = options.max_bound;  // more visits for the pairs not yet proven within it
  MatrixOutcome o = [&] {
    if (!ordered.from.empty()) return rebuilt_matrix(ordered, w);
    PlannedMatrix planned = plan_matrix(ordered);
    if (planned.one_cpu()) return measure_matrix(ordered, std::move(planned));
    // The plan is told after the answer: what was measured, for the record.
    w.after_answer.push_back(wrap_columns(
        "tscaudit report: the plan" + std::string(options.plain ? " of each matrix" : "") + ": " +
        std::string(design_name(planned.plan.spec.design)) + ", send " +
        std::string(variant_name(ordered.choice.send)) + ", recv " + std::string(variant_name(ordered.choice.recv))));
    w.after_answer.push_back(wrap_columns(plan_text(planned.plan), kTextColumns, 18));
    return measure_matrix(ordered, std::move(planned));
  }();
  in.check = decide_check(check_evidence(o), check_settings(o, Tolerance{}, 0, options.max_bound));
  for (const std::string& p : write_matrix_dir(ordered.out_dir, o, in.check, &w.pictures)) w.problems.push_back(p);
  if (o.added.max_bound_ticks > 0 && o.added.visits > 0) {
    w.after_answer.push_back(wrap_columns("tscaudit report: " + added_visits_text(o.added, o.matrix.tsc_hz)));
  }
  w.problems.insert(w.problems.end(), o.problems.begin(), o.problems.end());
  w.incomplete.insert(w.incomplete.end(), o.incomplete.begin(), o.incomplete.end());
  for (const RunDirLoss& loss : o.lost) w.lost.push_back(run_dir_loss_text(loss));
  w.interrupted = !o.offline && !o.interrupted.empty();
  in.host = o.platform.host;
  if (o.offline) {
    in.rebuilt_from = ReportSource{o.run_dir, o.platform.host, o.started_utc, o.ended_utc,
                                   o.matrix.send.name == "simulated"};
  }
  in.warnings = o.warnings;
  in.ordered = report_run(std::move(o));
}

/// The same pairs with plain reads on both sides: what speculation does on this machine.
/// `from`: the run directory to rebuild it from (the plain read is then the one it
/// recorded); empty: measure it with this machine's plain read.
void measure_plain(const ReportOptions& options, const std::string& from, const std::string& dir,
                   const fs::path& root, ReportInputs& in, Written& w) {
  MatrixOptions p = matrix_options(options);
  p.choice.send = p.choice.recv = plain_variant(counter::kHostArch);
  p.out_dir = (root / dir).string();
  p.command_line = options.command_line;
  p.from = from;
  MatrixOutcome o = [&] {
    if (!p.from.empty()) return rebuilt_matrix(p, w);
    PlannedMatrix planned = plan_matrix(p);
    std::cerr << "tscaudit report: the same pairs again, plain " << variant_name(p.choice.recv) << " on both sides\n";
    return measure_matrix(p, std::move(planned));
  }();
  // The plain matrix's own decision colours its pictures; the report's verdict is the
  // ordering read's (a plain read that runs early is the variant's fault, not the counters').
  const CheckResult plain_check = decide_check(check_evidence(o), CheckSettings{});
  for (const std::string& q : write_matrix_dir(p.out_dir, o, plain_check, &w.pictures)) w.problems.push_back(q);
  w.problems.insert(w.problems.end(), o.problems.begin(), o.problems.end());
  w.incomplete.insert(w.incomplete.end(), o.incomplete.begin(), o.incomplete.end());
  for (const RunDirLoss& loss : o.lost) w.lost.push_back("plain matrix: " + run_dir_loss_text(loss));
  in.plain = report_run(std::move(o));
}

/// The options of the read variants on one pair (the first two CPUs of --cpus).
VariantsOptions read_variants_options(const ReportOptions& options, const fs::path& root) {
  VariantsOptions v = options.variants_options;
  if (!options.matrix.cpus.empty()) {
    const std::vector<int> cpus = parse_cpu_list(options.matrix.cpus);
    if (cpus.size() >= 2 && cpus[0] != cpus[1]) v.cpus = std::to_string(cpus[0]) + "," + std::to_string(cpus[1]);
  }
  v.out_dir = (root / kReportVariantsDir).string();
  v.command_line = options.command_line;
  if (options.matrix.budget_seconds > 0) v.budget_seconds = options.matrix.budget_seconds / budget_parts(options);
  return v;
}

/// The read variants on one pair (the first two CPUs of --cpus): what each costs and what
/// each gets wrong. A signal ends them with nothing written: the report says so.
void measure_read_variants(const ReportOptions& options, const fs::path& root, ReportInputs& in, Written& w) {
  const VariantsOptions v = read_variants_options(options, root);
  make_directories(v.out_dir);
  std::cerr << "tscaudit report: read variants on one pair\n";
  const StopSignals signals;
  VariantsOutcome o = measure_variants(v, &StopSignals::flag());
  if (!o.interrupted.empty()) {
    std::error_code ignored;
    fs::remove(v.out_dir, ignored);  // made above, still empty
    w.incomplete.push_back("the read variants were " + o.interrupted + ": not measured");
    w.interrupted = true;
    return;
  }
  for (const std::string& q : write_variants_dir(v.out_dir, o, false, &w.pictures)) w.problems.push_back(q);
  w.problems.insert(w.problems.end(), o.result.problems.begin(), o.result.problems.end());
  in.variants = std::move(o.result);
}

/// The pictures that are not there, by path relative to `root`, with why.
std::map<std::string, std::string> missing_pictures(const fs::path& root, const PictureReport& pictures) {
  std::map<std::string, std::string> missing;
  auto relative = [&](const std::string& path) { return fs::path(path).lexically_relative(root).string(); };
  for (const std::string& p : pictures.not_drawn) missing[relative(p)] = "gnuplot not found";
  for (const PictureFailure& f : pictures.failed) {
    missing[relative(f.path)] = "gnuplot failed: see \"Problems while making it\"";
  }
  return missing;
}

std::optional<std::string> read_file(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return std::nullopt;
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

/// --dry-run: the plan of the ordering-read matrix, as `matrix --dry-run` prints it, and
/// what else the report would measure.
int print_report_plan(const ReportOptions& options) {
  const PlannedMatrix planned = plan_matrix(matrix_options(options));
  print_plan(planned, OutputFormat::text);
  if (planned.one_cpu()) return kExitOk;
  const double each = planned.plan.estimated_seconds;
  std::string text;
  if (options.plain) {
    text += "report            this plan twice (an ordering receive read, then plain " +
            std::string(variant_name(plain_variant(counter::kHostArch))) +
            " on both sides): " + human_duration(2 * each) + " of estimated measuring";
    if (options.matrix.budget_seconds > 0)
      text += " within a budget of " + human_duration(options.matrix.budget_seconds);
    text += "\n";
  }
  if (options.variants) {
    text += "report            then the read variants on one pair (tscaudit variants)";
    if (options.matrix.budget_seconds > 0) {
      text += ", within " + human_duration(options.matrix.budget_seconds / budget_parts(options));
    }
    text += "\n";
  }
  if (options.matrix.budget_seconds > 0) {
    text += "report            everything it measures ends within the budget of " +
            human_duration(options.matrix.budget_seconds) + "\n";
  }
  std::cout << wrap_lines(text);
  return kExitOk;
}

/// Everything the report measures or reads, and the platform facts it keeps, into `root`
/// (where the report is built): the matrices, the read variants, info.txt and info.json.
void measure_report(const ReportOptions& options, ReportFrom source, const fs::path& root, ReportInputs& in,
                    Written& written) {
  const fs::path from(options.matrix.from);
  if (source == ReportFrom::report) {
    // The facts of the machine that was measured, as its report recorded them.
    const std::optional<std::string> text = read_recorded_info(from / "info.txt");
    const std::optional<std::string> json = read_recorded_info(from / "info.json");
    if (!text || !json) {
      throw InputError(printable_text((from / (text ? "info.json" : "info.txt")).string()) +
                       ": missing: the directory of an earlier report has its platform facts (or give "
                       "report --from a run directory)");
    }
    in.info_text = *text;
    in.kernel_tsc = kernel_tsc_from_info_json(*json, (from / "info.json").string());
    write_text_file((root / "info.txt").string(), *text);
    write_text_file((root / "info.json").string(), *json);
  } else if (source == ReportFrom::live) {
    const InfoReport info = gather_info(0);
    in.info_text = info_text(info);
    if (info.platform.kernel_facts.log.ok()) in.kernel_tsc = info.platform.kernel_facts.log.value.tsc_events;
    write_text_file((root / "info.txt").string(), in.info_text);
    write_text_file((root / "info.json").string(), info_json(info).dump(2) + "\n");
  }

  measure_ordered(options, source == ReportFrom::report ? (from / kReportMatrixDir).string() : options.matrix.from,
                  root, in, written);
  if (source == ReportFrom::run) {
    // One run: its matrix alone, nothing to compare it with, no facts of the machine but
    // what the manifest recorded; the report says so where each would be.
    in.info_text = one_run_platform_text(options.matrix.from, in, in.ordered.matrix.tsc_hz);
    in.info_files = false;
    // A plain directory of run files names no host: the title names the run instead.
    if (in.host.empty()) in.host = "the run in " + printable_text(options.matrix.from);
    written.incomplete.push_back(
        "rebuilt from one run (" + printable_text(options.matrix.from) +
        "): no plain-" + std::string(variant_name(plain_variant(counter::kHostArch))) +
        " matrix to compare with, no read variants, and no platform facts but the host and the warnings its "
        "manifest records");
  }
  // A report rebuilt offline has the plain matrix when the earlier report measured one,
  // named after the plain read of the machine it measured.
  std::string plain_dir = report_plain_dir(variant_name(plain_variant(counter::kHostArch)));
  bool plain_recorded = false;
  for (const CounterArch arch : {CounterArch::x86_64, CounterArch::aarch64}) {
    const std::string dir = report_plain_dir(variant_name(plain_variant(arch)));
    if (source == ReportFrom::report && fs::exists(from / dir / kRunSubdir / kManifestName)) {
      plain_dir = dir;
      plain_recorded = true;
    }
  }
  const bool one_cpu = in.ordered.matrix.size() < 2;
  const bool plain = options.plain && !one_cpu && (source == ReportFrom::live || plain_recorded);
  if (written.interrupted) {
    // The user asked to stop: the report is written from what was measured, and says so.
    written.incomplete.push_back(
        "the measuring was interrupted: the plain-" + std::string(variant_name(plain_variant(counter::kHostArch))) +
        " matrix and the read variants were not measured");
  } else if (plain) {
    measure_plain(options, source == ReportFrom::report ? (from / plain_dir).string() : std::string(), plain_dir, root,
                  in, written);
  }
  if (options.variants && source == ReportFrom::report) {
    written.incomplete.push_back(
        "the read variants are not rebuilt offline (a run directory keeps the matrices' rounds only); the earlier "
        "report's are in " +
        printable_text((fs::path(options.matrix.from) / kReportVariantsDir).string()));
  } else if (options.variants && source == ReportFrom::live && !written.interrupted && !one_cpu) {
    measure_read_variants(options, root, in, written);
  }

}

}  // namespace

int run_report(const ReportOptions& options) {
  if (options.matrix.dry_run) return print_report_plan(options);
  // A signal ends the measuring under way cleanly and the report is written from what was
  // measured (measure_matrix, measure_read_variants); a second one ends it at once.
  const StopSignals signals;
  const ReportFrom source = report_from(options.matrix.from);
  if (source == ReportFrom::live) {
    // Every input checked before anything is written: the CPUs, the plan's memory, the pair
    // of the read variants.
    const PlannedMatrix planned = plan_matrix(matrix_options(options));
    if (options.variants && !planned.one_cpu()) {
      static_cast<void>(variants_cpus(read_variants_options(options, fs::path(options.out_dir))));
    }
    // One line while it measures: the answer comes first when it is done, the plan after it.
    const double each = planned.plan.estimated_seconds;
    const double budget = options.matrix.budget_seconds;
    if (!planned.one_cpu()) {
      std::cerr << wrap_columns(
          "tscaudit report: measuring " + std::to_string(planned.plan.ordered_pairs) + " ordered pairs" +
          (options.plain ? " twice" : "") + " (about " + human_duration(options.plain ? 2 * each : each) +
          " estimated)" +
          (options.variants ? ", then the read variants" +
                                  (budget > 0 ? " (at most " + human_duration(budget / budget_parts(options)) + ")"
                                              : std::string())
                            : std::string()) +
          (budget > 0 ? "; at most " + human_duration(budget) + " in all" : std::string()) +
          "; the answer comes first when it is done, then the plan");
    }
  }
  // The evidence is looked at first: a --from that holds no run is said as such, before an
  // output directory is made for it.
  if (source != ReportFrom::live) {
    static_cast<void>(find_run(source == ReportFrom::report ? (fs::path(options.matrix.from) / kReportMatrixDir).string()
                                                            : options.matrix.from));
  }
  // The report is built aside and put in place whole when everything is written
  // (docs/formats.md, "Output directories"): the directory holds the earlier report until then.
  OutputDir out = OutputDir::begin(options.out_dir, OutputKind::report);
  const fs::path root(out.aside());
  ReportInputs in;
  Written written;

  try {
    measure_report(options, source, root, in, written);
    // What was written aside is named where it is put (OutputDir::placed).
    for (std::vector<std::string>* lines : {&written.problems, &written.incomplete, &written.lost, &written.after_answer}) {
      for (std::string& line : *lines) line = out.placed(line);
    }
    written.pictures.rename([&](std::string path) { return out.placed(std::move(path)); });
    in.generated_utc = format_utc(std::chrono::system_clock::now());
    in.tool_version = kToolVersion;
    in.command_line = options.command_line;
    in.problems = written.problems;
    for (const std::string& note : written.incomplete) in.problems.push_back("not complete: " + note);
    in.incomplete = written.incomplete;
    in.lost = written.lost;
    in.missing_pictures = missing_pictures(options.out_dir, written.pictures);
    const ReportDoc doc = build_report_doc(in);
    write_text_file((root / kReportPairsFile).string(), report_pairs_text(in));
    write_text_file((root / "report.md").string(), report_markdown(doc));
    write_text_file((root / "report.html").string(),
                    report_html(doc, [&](const std::string& path) { return read_file(root / path); }));
    out.commit();
  } catch (...) {
    rethrow_placed(out);
  }
  const fs::path placed(options.out_dir);

  // The answer first (flushed, so that it leads where stdout and stderr share a pipe), then
  // where it came from and the plan, then what went wrong.
  std::cout << report_answer_text(in, options.out_dir) << std::flush;
  for (const std::string& line : written.after_answer) {
    std::cerr << line << (line.ends_with('\n') ? "" : "\n");
  }
  std::cerr << "tscaudit report: wrote " << printable_text((placed / "report.md").string()) << " and "
            << printable_text((placed / "report.html").string()) << "\n";
  for (const std::string& p : written.problems) print_note("tscaudit report: problem: " + p);
  for (const std::string& note : written.incomplete) print_note("tscaudit report: not complete: " + note);
  for (const std::string& loss : written.lost) print_note("tscaudit report: evidence lost: " + loss);
  if (!written.pictures.not_drawn.empty()) {
    std::cerr << "tscaudit report: " << not_drawn_message(written.pictures.not_drawn) << "\n";
  }
  // The answer's own code (docs/commands.md, "Exit codes"), as check's; a part that failed
  // to measure or to draw, or a run cut short anywhere, is a runtime error.
  if (!written.problems.empty() || written.interrupted) return kExitRuntime;
  return exit_code_of(in.check.outcome);
}

}  // namespace tscaudit
