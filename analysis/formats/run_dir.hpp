// The run directory (docs/formats.md, "Run directory"): what `matrix`, `check` and `report`
// write while they measure, and the only input of their analysis, live or offline.
//
//   DIR/manifest.json        schema tscaudit-rundir/1: status, times, CPUs, variants,
//                            tsc_hz, the header common to every pair, plan, platform
//   DIR/topology.xml         hwloc XML of the machine (optional)
//   DIR/rounds/cpu-<A>.zst   every visit whose initiator is CPU A, one zstd frame each
//                            (rounds_codec.hpp), appended and written out visit by visit
//   DIR/.lock                while a writer holds the directory: its pid and command, under
//                            an open file description lock (io/run_dir_lock.hpp)
//
// One rounds file per initiating CPU: the number of files grows with the CPUs, not with
// the pairs. A plain directory of `tscaudit-run/1` files or import tables, each naming its
// pair with `# a:` and `# b:` lines, reads as a run directory too (open_run_dir).
//
// One file per concern: run_dir_manifest.cpp (manifest.json),
// run_dir_reader.cpp (opening, and what both kinds of directory answer alike),
// run_dir_zstd_reader.cpp (a directory with a manifest) and run_dir_plain_reader.cpp (a
// plain directory); what they share is in run_dir_internal.hpp. The lock (one writer at a
// time) and the writer are the machine side's: io/run_dir_lock.hpp, io/run_dir_writer.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/run.hpp"
#include "formats/dir_writer_state.hpp"

namespace tscaudit {

/// The schema this version writes. Readers take every `tscaudit-rundir/1` and
/// `tscaudit-rundir/1.N` manifest (a minor version only adds what older readers may ignore)
/// and refuse a higher major version with a message that says so.
inline constexpr std::string_view kRunDirSchema = "tscaudit-rundir/1";
inline constexpr int kRunDirMajorVersion = 1;

inline constexpr std::string_view kManifestName = "manifest.json";
inline constexpr std::string_view kTopologyName = "topology.xml";
inline constexpr std::string_view kRoundsDirName = "rounds";

/// The limits of what a reader takes from a run directory (docs/formats.md, "Run directory",
/// "Limits"): beyond them a directory is refused (exit 2) before anything that grows with them
/// is allocated, so that a directory of N bytes costs O(N) memory and O(N log N) time.
/// A simulated 4096-CPU machine's run directory (`simulate --topology "synthetic:package:4
/// core:512 pu:2"`, its sparse plan) has a manifest of 5.1 MB and a topology.xml of 1.8 MB;
/// anything beyond these is not a manifest or a topology.
inline constexpr std::uint64_t kMaxManifestBytes = std::uint64_t{64} << 20;
inline constexpr std::uint64_t kMaxTopologyBytes = std::uint64_t{64} << 20;
/// The keys of the manifest's pair_header (a run's header has about 40).
inline constexpr std::size_t kMaxPairHeaderKeys = 4096;

/// Where a run stands: running from create() to finish(); then complete, interrupted (a
/// signal, the user) or aborted (an error ended it).
enum class RunDirStatus { running, complete, interrupted, aborted };

std::string_view run_dir_status_name(RunDirStatus status);

/// What manifest.json holds.
struct RunDirManifest {
  RunDirStatus status = RunDirStatus::running;
  std::string detail;       // why it was interrupted or aborted; empty otherwise
  std::string started_utc;  // format_utc; the caller's clock (this library reads none)
  std::string ended_utc;    // empty while running
  std::vector<int> cpus;    // the measured CPUs, in the plan's order
  std::string send, recv;   // read variant names
  double tsc_hz = 0;        // 0: unknown
  /// The `# key: value` lines common to every pair's run: tool version, command line,
  /// platform facts, transport, rounds per visit... Without schema, a, b and
  /// quantum_ticks, which the reader adds per pair (RunDirReader::read_pair).
  Metadata pair_header;
  nlohmann::ordered_json plan = nlohmann::ordered_json::object();      // free, the caller's
  nlohmann::ordered_json platform = nlohmann::ordered_json::object();  // free, the caller's
  bool has_topology = false;                                           // topology.xml is there
};

/// The manifest as JSON (what manifest.json holds).
nlohmann::ordered_json manifest_json(const RunDirManifest& manifest);

/// Evidence a reader could not use: a damaged or malformed frame of a rounds file, a file
/// that ends inside a frame of a run that says it completed, a rounds file the plan expects
/// that is missing. What could be read around it is read (zstd frames are independent: the
/// reader scans past damage to the next frame that decodes). Not the same as a run that is
/// incomplete (interrupted, still running: RunDirReader::incomplete_notes).
struct RunDirLoss {
  std::string file;                     // relative to the run directory: "rounds/cpu-0.zst"
  std::uint64_t offset = 0;             // byte offset in `file` where the lost bytes start
  std::uint64_t bytes = 0;              // how many bytes were passed over (0: the file is missing)
  std::optional<std::uint64_t> frame;   // the frame's index in its file, from 0, when known
  std::optional<int> a, b;              // the pair, when known (a alone: a file of CPU a)
  std::optional<std::uint64_t> visit;   // the visit, from 0 (as its visit line says), when known
  std::optional<std::uint64_t> rounds;  // rounds lost, when known
  std::string what;                     // why, one printable line
};

/// "rounds/cpu-0.zst at byte 1234 (frame 3, 517 bytes): pair 0 -> 1, visit=2 (3000 rounds):
/// the zstd frame does not decompress (...)": what `evidence lost:` lines say.
std::string run_dir_loss_text(const RunDirLoss& loss);

/// {"file", "offset", "bytes", "frame", "a", "b", "visit", "rounds", "what"}; null where
/// not known.
nlohmann::ordered_json run_dir_loss_json(const RunDirLoss& loss);

/// Who writes the run directory `dir`, as its lock file tells (io/run_dir_lock.hpp asks it).
using RunDirWriterState = DirWriterState;

/// A run directory opened for reading: the manifest and an index of every visit, never
/// the rounds themselves until a pair is asked for.
class RunDirReader {
 public:
  /// Where one visit's frame lies.
  struct VisitEntry {
    std::uint32_t file = 0;  // index into files_
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
    std::uint64_t visit = 0;
    std::uint64_t rounds = 0;
    std::uint64_t frame = 0;  // the frame's index in its file, from 0
  };

  [[nodiscard]] const std::string& path() const { return path_; }
  /// False for a plain directory of run files (no manifest.json).
  [[nodiscard]] bool has_manifest() const { return has_manifest_; }
  /// The manifest; for a plain directory: status complete, cpus the CPUs the files name
  /// (ascending), nothing else.
  [[nodiscard]] const RunDirManifest& manifest() const { return manifest_; }
  /// topology.xml as bytes, or nullopt when the run has none. \throws InputError when it is
  /// missing or cannot be opened, IoError on a read error.
  [[nodiscard]] std::optional<std::string> topology_xml() const;

  /// The ordered pairs with at least one visit (or one file), ascending by (a, b).
  [[nodiscard]] std::vector<std::pair<int, int>> pairs() const;
  [[nodiscard]] bool has_pair(int a, int b) const;

  /// The whole run of the ordered pair a -> b, as `matrix --save-runs` would have written
  /// it: visits in visit order, seq as stored; the header is schema, the manifest's
  /// pair_header with a and b (and send, recv, tsc_hz when pair_header lacks them) put
  /// before `send`, visits (when pair_header lacks it) and quantum_ticks (the largest of the
  /// visits', before `flags`) and the flags legend; the trailer rounds_written and the
  /// status: complete, or aborted with "visit N: error; ..." (N from 1) when a visit failed,
  /// or the manifest's interrupted or aborted with its detail, or, when the manifest still
  /// says running or a visit of the pair was cut off the end of its file, no status and a
  /// `cut_short` line saying why (incomplete_reason reads it).
  /// A plain directory: the pair's one file as read_run_file reads it; several files, their
  /// rounds in file-name order (see docs/formats.md for seq and the trailer).
  /// Only this pair's rounds are read. A visit whose frame does not decompress or whose
  /// text is malformed is left out and becomes a loss (losses()); the trailer's `lost` line
  /// names it, and the status is what the other visits say.
  /// \throws InputError when the pair has no visit, or when every visit of it is lost
  ///         (naming the first loss); for a plain directory, naming the file and the line of
  ///         a malformed round.
  [[nodiscard]] Run read_pair(int a, int b) const;

  /// read_pair, but nullopt when the pair has no visit or lost every one (losses() names
  /// them): what an analysis that goes on past damage asks.
  [[nodiscard]] std::optional<Run> try_read_pair(int a, int b) const;

  /// The evidence lost so far: found when the directory was opened (frames that are not
  /// zstd, cannot be indexed or name no pair of the run, files missing or cut off), and
  /// found when a pair was read (a frame whose checksum or text is wrong). Ordered by file
  /// and offset, each once however often its pair is read. Safe to call from several threads.
  [[nodiscard]] std::vector<RunDirLoss> losses() const;

  /// Why the run as a whole is not complete (the manifest's status, visits cut off the end
  /// of a rounds file), one line each; empty for a complete run.
  [[nodiscard]] const std::vector<std::string>& incomplete_notes() const { return notes_; }

  /// The index of the pair's visits (empty for a plain directory or a missing pair).
  [[nodiscard]] std::span<const VisitEntry> visits_of(int a, int b) const;

 private:
  friend RunDirReader open_run_dir(const std::string& path,
                                   const std::function<RunDirWriterState(const std::string& dir)>& writer_of);
  struct PlainFile {
    std::string path;
    std::string shown;  // the path as messages give it (printable_text of the file's name)
    std::string send, recv;
    std::size_t send_line = 0, recv_line = 0;
  };
  struct PairEntry {
    std::vector<VisitEntry> visits;  // manifest mode, sorted by visit
    std::vector<PlainFile> plain;    // plain mode, sorted by file name
    std::string cut_short;           // a visit of this pair was cut off its file's end
  };

  void open_manifest_dir(const std::function<RunDirWriterState(const std::string& dir)>& writer_of);
  void index_rounds_file(const std::string& name, int cpu);
  void note_missing_files(const std::string& rounds_dir);
  void open_plain_dir();
  [[nodiscard]] std::optional<Run> read_manifest_pair(int a, int b, const PairEntry& entry) const;
  void add_loss(RunDirLoss loss) const;
  [[nodiscard]] Run read_plain_pair(int a, int b, const PairEntry& entry) const;
  [[nodiscard]] Run read_plain_files(int a, int b, const PairEntry& entry) const;

  std::string path_;
  bool has_manifest_ = false;
  RunDirManifest manifest_;
  std::vector<int> sorted_cpus_;  // the manifest's CPUs, ascending: is a CPU the run's, in O(log n)
  /// The plan's spec.rounds_per_visit: a visit that claims more is lost, never decoded.
  std::optional<std::uint64_t> max_visit_rounds_;
  std::vector<std::string> files_;  // rounds files, full paths
  std::map<std::pair<int, int>, PairEntry> pairs_;
  std::map<int, std::string> file_cut_short_;  // initiator -> a frame cut whose pair is unknown
  std::string running_;                        // why a manifest says running: its writer's state
  std::vector<std::string> notes_;
  struct LossLog {
    std::mutex mutex;
    std::vector<RunDirLoss> losses;  // in the order found
    /// (file, offset, bytes) of each loss: a loss found again is known in O(log n), so that
    /// a file of n frames given twice costs n log n (docs/formats.md, "Limits").
    std::set<std::tuple<std::string, std::uint64_t, std::uint64_t>> seen;
  };
  std::shared_ptr<LossLog> lost_ = std::make_shared<LossLog>();  // shared: a reader is moved
};

/// Opens a run directory: reads manifest.json and indexes every rounds file frame by
/// frame, or, without a manifest, reads the header of every regular file (hidden files and
/// subdirectories aside) as a run or an import table.
/// Damage inside a rounds file is not refused: it is passed over and named (losses()).
/// \throws InputError when the directory or a file in it cannot be opened (missing, no
///         permission); IoError on a read error once open; InputError "FILE:LINE:COLUMN: what"
///         (or "FILE: what") for a missing manifest beside rounds/, a manifest that is not
///         JSON or of another schema, a file in rounds/ that is not cpu-<A>.zst of a CPU of
///         the manifest, two files that disagree about a pair, a file of another schema.
/// `writer_of` is asked once, for a manifest that says running: who still writes the
/// directory (a lock this room neither takes nor asks; io/run_dir_lock.hpp gives the one
/// the commands use, open_run_dir(path)).
RunDirReader open_run_dir(const std::string& path,
                          const std::function<RunDirWriterState(const std::string& dir)>& writer_of);

}  // namespace tscaudit
