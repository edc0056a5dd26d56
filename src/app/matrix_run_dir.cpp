#include "app/matrix_run_dir.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <optional>
#include <system_error>

#include "app/matrix_pairs.hpp"
#include "app/temp_dir.hpp"
#include "app/report_error.hpp"
#include "core/errors.hpp"
#include "core/files.hpp"
#include "core/format.hpp"
#include "formats/warnings_json.hpp"
#include "io/output_file.hpp"
#include "io/run_dir_copy.hpp"
#include "io/run_dir_lock.hpp"
#include "matrix/plan_json.hpp"
#include "measure/pair_run.hpp"
#include "platform/topology.hpp"

namespace tscaudit {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

/// A plan key of the manifest, read back; `fallback` when the manifest has none (a plain
/// directory, or a run directory written by another tool).
template <class T>
T plan_value(const json& plan, const char* key, T fallback) {
  const auto it = plan.find(key);
  if (it == plan.end()) return fallback;
  try {
    return it->get<T>();
  } catch (const json::exception&) {
    return fallback;
  }
}

/// Seconds since the epoch of a format_utc time ("2026-11-25T07:35:39.567Z"), or nullopt
/// when `text` is not one.
std::optional<double> utc_seconds(const std::string& text) {
  std::tm tm{};
  int ms = 0;
  char z = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d.%3d%c", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                  &tm.tm_min, &tm.tm_sec, &ms, &z) != 8 ||
      z != 'Z') {
    return std::nullopt;
  }
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<double>(::timegm(&tm)) + ms / 1000.0;
}

}  // namespace

RunDirPlace::RunDirPlace(const std::string& out_dir) {
  if (!out_dir.empty()) {
    // A new run into an --out that already holds one replaces it, as it replaces the other
    // files there (`make report` run twice): under the lock, and only a run directory.
    path_ = (fs::path(out_dir) / kRunSubdir).string();
    lock_.emplace(RunDirLock::acquire(path_, EarlierRun::replace));
    return;
  }
  TempDir made = make_temp_dir("tscaudit-run", "the rounds");
  if (made.path.empty()) throw IoError(made.problem);
  owned_parent_ = made.path;
  owned_ = true;
  path_ = (fs::path(made.path) / kRunSubdir).string();
  lock_.emplace(RunDirLock::acquire(path_, EarlierRun::refuse));
}

RunDirLock RunDirPlace::take_lock() {
  RunDirLock lock = std::move(*lock_);
  lock_.reset();
  return lock;
}

RunDirPlace::~RunDirPlace() {
  // A run that stopped before it wrote (an unsupported variant, a refused plan): no lock file
  // left behind, and an earlier run still whole.
  if (lock_) lock_->give_up();
  if (owned_) {
    std::error_code ec;
    fs::remove_all(owned_parent_, ec);  // nothing to do about a failure: a leftover in TMPDIR
  }
}

RunDirManifest live_manifest(const MatrixOutcome& o, const MatrixOptions& options) {
  RunDirManifest m;
  m.started_utc = format_utc(std::chrono::system_clock::now());
  m.cpus = o.planned.plan.spec.cpus;
  m.send = variant_name(options.choice.send);
  m.recv = variant_name(options.choice.recv);
  m.tsc_hz = o.platform.tsc.hz;
  const PlanSpec& spec = o.planned.plan.spec;
  // run_header of any pair, less the pair's own keys (the reader puts them back per pair).
  const Metadata any_pair = run_header(o.platform, options.choice, 0, 0, options.command_line);
  for (const auto& [key, value] : any_pair.entries()) {
    if (key != "schema" && key != "a" && key != "b") m.pair_header.set(key, value);
  }
  m.pair_header.set("rounds", std::to_string(spec.visits * spec.rounds_per_visit));
  m.pair_header.set("visits", std::to_string(spec.visits));
  m.pair_header.set("rounds_per_visit", std::to_string(spec.rounds_per_visit));
  m.pair_header.set("warmup", std::to_string(spec.warmup_per_visit));
  m.plan = manifest_plan_json(o.planned.plan);
  m.platform = {{"host", o.platform.host}, {"warnings", warnings_json(o.warnings)}};
  return m;
}

namespace {

/// `dir` holds nothing but its lock file (a new output directory, not yet in place).
bool only_a_lock(const std::string& dir) {
  for (const std::string& name : list_dir(dir)) {
    if (name != kLockName) return false;
  }
  return true;
}

/// `dir` holds a regular file whose name does not start with '.' (what a plain directory's
/// reader reads).
bool holds_a_file(const std::string& dir) {
  for (const std::string& name : list_dir(dir)) {
    if (name.front() != '.' && is_regular_file(join_path(dir, name))) return true;
  }
  return false;
}

/// Refuses `dir` when it holds no readable run yet because a writer is making it (a new
/// output directory that holds only its lock file; a run directory without its manifest whose
/// lock file is there): being written, or its writer stopped (docs/formats.md, "What a reader
/// may conclude from a directory's state").
void refuse_in_the_making(const std::string& dir) {
  if (exists(join_path(dir, kManifestName))) return;
  if (!only_a_lock(dir) && !exists(join_path(dir, kRoundsDirName))) return;
  const DirWriterState writer = dir_writer_state(dir);
  const std::string shown = printable_text(dir);
  switch (writer.kind) {
    case DirWriterState::Kind::writing:
    case DirWriterState::Kind::unknown:
      throw IoError(shown + ": it is being written by " + (writer.who.empty() ? "another process" : writer.who) +
                    ": nothing is in place until it ends");
    case DirWriterState::Kind::stopped:
      throw IoError(shown + ": its writer" + (writer.who.empty() ? "" : " (" + writer.who + ")") +
                    " stopped before it put its output in place" +
                    (!writer.aside.empty() && exists(writer.aside)
                         ? "; what it had written is in " + writer.aside
                         : std::string(only_a_lock(dir) ? "; nothing of it is left" : "")));
    case DirWriterState::Kind::no_lock_file: break;
  }
}

}  // namespace

RunSource find_run(const std::string& from) {
  const std::string shown = printable_text(from);
  if (!exists(from)) throw InputError("--from " + shown + ": no such directory");
  if (!is_directory(from)) {
    throw InputError("--from " + shown +
                     ": not a directory (a run directory, a report, or the --out of matrix or check)");
  }
  refuse_in_the_making(from);
  RunSource source{from, "", ""};
  if (const DirWriterState writer = dir_writer_state(from); writer.kind == DirWriterState::Kind::writing &&
                                                            !writer.mine() && !exists(join_path(from, kManifestName))) {
    // An output directory whose next output is being built aside: what it holds now is whole.
    source.note = shown + " is being replaced by " + (writer.who.empty() ? "another process" : writer.who) +
                  "; what it holds now is read, whole";
  }
  const fs::path dir(from);
  std::error_code ec;
  if (exists((dir / kManifestName).string()) || exists((dir / kRoundsDirName).string())) return source;
  if (fs::is_directory(dir / kRunSubdir, ec)) {
    source.dir = (dir / kRunSubdir).string();
    source.what = "the run of the matrix in " + shown;
  } else if (fs::is_directory(dir / "matrix" / kRunSubdir, ec)) {
    source.dir = (dir / "matrix" / kRunSubdir).string();
    source.what = "the ordering-read matrix of the report in " + shown;
  } else if (!holds_a_file(from)) {
    throw InputError(shown +
                     ": holds no run (a run directory has manifest.json; the --out of matrix or check, run/; a "
                     "report, matrix/run/; a directory of run files, files with '# a:' and '# b:' lines)");
  }
  refuse_in_the_making(source.dir);
  return source;
}

MatrixOutcome rebuild_matrix(const std::string& from, const PairOutputs& outputs) {
  const RunSource source = find_run(from);
  if (!source.note.empty()) print_note("tscaudit: note: " + source.note);
  if (!outputs.dir.empty()) make_directories(outputs.dir);
  MatrixOutcome o = load_matrix(source.dir, outputs);
  if (!outputs.dir.empty()) {
    // The evidence of the answer goes with it: the output directory reads back (--from) as
    // the run it was made from (a run still growing, as it was when it was read).
    copy_run_dir(source.dir, (fs::path(outputs.dir) / kRunSubdir).string());
  }
  o.run_dir = source.dir;
  o.run_dir_what = source.what;
  return o;
}

MatrixResult one_cpu_matrix(const OrderedCpus& order, double tsc_hz, RecordedVariant send, RecordedVariant recv) {
  MatrixResult m = MatrixBuilder(order.cpu_numbers()).finish();
  for (const CpuPlace& p : order.cpus) {
    m.labels.push_back(std::to_string(p.cpu));
    m.places.push_back(p);
  }
  m.tsc_hz = tsc_hz;
  m.send = std::move(send);
  m.recv = std::move(recv);
  return m;
}

RunDirManifest one_cpu_manifest(const MatrixOutcome& o, const MatrixOptions& options) {
  RunDirManifest m;
  m.started_utc = format_utc(std::chrono::system_clock::now());
  m.ended_utc = m.started_utc;
  m.status = RunDirStatus::complete;
  m.cpus = o.planned.order.cpu_numbers();
  m.send = variant_name(options.choice.send);
  m.recv = variant_name(options.choice.recv);
  m.tsc_hz = o.platform.tsc.hz;
  m.platform = {{"host", o.platform.host}, {"warnings", warnings_json(o.warnings)}};
  return m;
}

std::string rebuilt_from_text(const MatrixOutcome& o) {
  return "rebuilt from " + printable_text(o.run_dir) + (o.run_dir_what.empty() ? "" : " (" + o.run_dir_what + ")");
}

MatrixOutcome load_matrix(const std::string& dir, const PairOutputs& outputs) {
  const RunDirReader reader = open_run_dir(dir);
  const RunDirManifest& manifest = reader.manifest();

  MatrixOutcome o;
  o.offline = true;
  o.run_dir = dir;
  o.has_plan = reader.has_manifest();
  std::vector<CpuPlace> places;
  if (std::optional<std::string> xml = reader.topology_xml()) {
    // The bytes the reader read (a regular file, bounded), never the path: hwloc would open
    // a FIFO or a device there and wait on it, or read it without end.
    const std::string path = (fs::path(dir) / kTopologyName).string();
    const TopologyResult topology = load_topology_xml(*xml, path);
    if (!topology.ok) throw InputError(printable_text(path) + ": " + topology.problem);
    places = topology.summary.places;
  } else {
    for (int cpu : manifest.cpus) places.push_back(CpuPlace{.cpu = cpu});
  }
  if (manifest.cpus.empty()) throw InputError(printable_text(dir) + ": the run names no CPU");
  o.planned.order = order_by_topology(places, manifest.cpus);
  // The plan that ran, rebuilt from its spec in the manifest; a directory of run files
  // (no manifest) was measured by no plan: one visit of every pair stands in. One CPU (what
  // `matrix --cpus N --out D` keeps) has no pair and no plan.
  if (manifest.cpus.size() >= 2) {
    PlanSpec spec;
    if (const auto it = manifest.plan.find("spec"); it != manifest.plan.end()) {
      // The spec lists the CPUs in the live topology order, which --from has rebuilt.
      spec = plan_spec_from_json(*it, o.planned.order.cpu_numbers(), (fs::path(dir) / kManifestName).string());
    } else {
      spec.cpus = o.planned.order.cpu_numbers();
      spec.visits = 1;
      spec.rounds_per_visit = 1;
    }
    o.planned.plan = make_plan(spec, kMeasuredCosts);
  } else {
    o.has_plan = false;
  }

  // How long the measuring took, from the manifest's times (to the millisecond).
  const std::optional<double> started = utc_seconds(manifest.started_utc), ended = utc_seconds(manifest.ended_utc);
  if (started && ended && *ended >= *started) o.elapsed_seconds = *ended - *started;
  if (ended) o.ended_unix_s = *ended;
  o.started_utc = manifest.started_utc;
  o.ended_utc = manifest.ended_utc;
  o.platform.tsc.hz = manifest.tsc_hz;
  // What the manifest says is repeated in messages and outputs: printable, whatever it holds.
  o.platform.host = printable_text(plan_value<std::string>(manifest.platform, "host", ""));
  // The facts every pair's header records (add_platform_metadata), where the manifest has them.
  if (const auto v = manifest.pair_header.get("clocksource"); v && *v != "unknown") o.platform.clocksource = *v;
  if (const auto v = manifest.pair_header.get("hypervisor")) {
    if (*v != "none") o.platform.cpuid.hypervisor = std::string(*v);
  } else {
    o.platform.cpuid.hypervisor = "";  // not recorded: unknown
  }
  if (const auto it = manifest.platform.find("warnings"); it != manifest.platform.end()) {
    o.warnings = warnings_from_json(*it);
  }
  for (const std::string& note : reader.incomplete_notes()) o.incomplete.push_back(note);
  // A run cut short is read as one (docs/machine.md §10.3): what it measured is analysed, and
  // the check answers incomplete.
  switch (manifest.status) {
    case RunDirStatus::complete: break;
    case RunDirStatus::interrupted: o.interrupted = manifest.detail.empty() ? "interrupted" : manifest.detail; break;
    case RunDirStatus::aborted: o.interrupted = "aborted: " + manifest.detail; break;
    case RunDirStatus::running: {
      // Its lock tells which (docs/formats.md, "The lock"), asked without taking it.
      const RunDirWriterState writer = run_dir_writer_state(reader.path());
      switch (writer.kind) {
        case RunDirWriterState::Kind::writing:
          o.interrupted = "the run is not finished: it is still being written by " +
                          (writer.who.empty() ? std::string("another process") : writer.who);
          break;
        case RunDirWriterState::Kind::stopped:
          o.interrupted = "the run never finished: its manifest still says running (the writer" +
                          (writer.who.empty() ? std::string() : " (" + writer.who + ")") +
                          " stopped without finishing)";
          break;
        case RunDirWriterState::Kind::no_lock_file:
        case RunDirWriterState::Kind::unknown:
          o.interrupted =
              "the run never finished: its manifest still says running (the writer was killed, or is "
              "still writing)";
          break;
      }
      break;
    }
  }

  if (manifest.cpus.size() == 1) {
    // Nothing measured: the matrix of that CPU alone, which the check answers inconclusive.
    o.matrix = one_cpu_matrix(o.planned.order, manifest.tsc_hz, recorded_variant(std::string_view(manifest.send)),
                              recorded_variant(std::string_view(manifest.recv)));
    o.lost = reader.losses();
    return o;
  }
  ExchangeChoice choice;
  if (auto v = parse_variant(manifest.send)) choice.send = *v;
  if (auto v = parse_variant(manifest.recv)) choice.recv = *v;
  // A pair is read past damage (RunDirReader::try_read_pair); one that lost every visit is
  // not measured.
  analyze_matrix(
      o, choice, [&](int a, int b) -> std::optional<Run> { return reader.try_read_pair(a, b); }, outputs);
  // Damage that leaves no pair to analyse is still evidence of a run: the check says what
  // was lost and that nothing is proven (inconclusive), as it does for a few pairs lost.
  o.lost = reader.losses();
  return o;
}

}  // namespace tscaudit
