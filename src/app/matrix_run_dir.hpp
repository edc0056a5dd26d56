// The run directory of a matrix (docs/formats.md, "Run directory") seen from the commands:
// where a live matrix writes its rounds, what its manifest records of this machine, and how
// `--from DIR` turns a run directory back into everything the analysis needs.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "app/matrix_types.hpp"
#include "formats/run_dir.hpp"
#include "io/run_dir_lock.hpp"

namespace tscaudit {

/// Where a live matrix keeps its rounds: `out_dir`/run when the user asked for files,
/// else a private directory in $TMPDIR (else /tmp), removed with everything in it when
/// this object goes (the rounds are only the analysis' input then). Either is locked for
/// this run from the start (RunDirLock), before anything is measured.
/// A run directory an earlier run left in `out_dir`/run is replaced, like the other files,
/// unless a live process is still writing it: that is refused at once.
class RunDirPlace {
 public:
  /// \throws IoError when the temporary directory cannot be made, or `out_dir`/run is being
  ///         written by another process (its pid and command named) or cannot be locked.
  explicit RunDirPlace(const std::string& out_dir);
  ~RunDirPlace();
  RunDirPlace(const RunDirPlace&) = delete;
  RunDirPlace& operator=(const RunDirPlace&) = delete;

  [[nodiscard]] const std::string& path() const { return path_; }
  /// False for a temporary directory, which does not outlive the command.
  [[nodiscard]] bool kept() const { return !owned_; }
  /// The lock taken by the constructor, for RunDirWriter::create. \pre called once.
  [[nodiscard]] RunDirLock take_lock();

 private:
  std::optional<RunDirLock> lock_;
  std::string path_;
  std::string owned_parent_;  // the mkdtemp directory to remove; empty when kept
  bool owned_ = false;
};

/// The subdirectory of a matrix's --out that holds its run directory.
inline constexpr const char* kRunSubdir = "run";

/// The manifest a live matrix starts its run directory with: the CPUs in plan order, the
/// variants, the TSC frequency, the metadata every pair's run shares (run_header without the
/// pair's own keys, plus rounds, visits, rounds per visit and warm-up), the plan's spec and
/// the platform's host and warnings (what `check` and `report` need offline).
RunDirManifest live_manifest(const MatrixOutcome& outcome, const MatrixOptions& options);

/// The run a `--from` directory holds (docs/formats.md, "What a reader may conclude from a
/// directory's state").
struct RunSource {
  std::string dir;   // the run directory to read
  std::string what;  // which run answers when it is not `from` itself ("the run of the matrix in D"); else ""
  std::string note;  // a line for the user (another process is replacing it), or ""
};

/// The run directory that `from` names: `from` itself when it holds manifest.json (or
/// rounds/, or run files), `from`/run for a matrix's or check's --out, `from`/matrix/run for a
/// report. A directory being written for the first time, or whose writer stopped before it
/// put anything in place, holds no run yet: that is said, with the writer named.
/// \throws InputError "--from DIR: no such directory", "... not a directory", "DIR: holds no
///         run ..."; IoError "DIR: it is being written by pid N (COMMAND) ..." or "DIR: its
///         writer (pid N ...) stopped before it put its output in place ..." (exit 3: no
///         answer yet, as for a run still being written).
RunSource find_run(const std::string& from);

/// Opens the run directory `run_dir` and rebuilds what a live matrix would have had
/// before its analysis: the CPUs in topology order (topology.xml when the run has one; no
/// groups without), the plan (from the manifest's spec; a plain directory has none: one
/// visit per pair), the TSC frequency, the host and warnings; then analyses every pair
/// (analyze_matrix, writing to `outputs`). Notes on an incomplete run go into `incomplete`;
/// damage passed over (RunDirReader::losses) into `lost`.
/// \throws IoError, InputError (a bad run directory: the file and the line named; damage
///         that leaves no pair readable).
MatrixOutcome load_matrix(const std::string& run_dir, const PairOutputs& outputs);

/// The matrix of `--from FROM`: the run find_run names, read as load_matrix reads it. With an
/// output directory (`outputs.dir`), the run is then copied into DIR/run (copy_run_dir), so
/// that DIR reads back as FROM does. The outcome's run_dir and run_dir_what say which run
/// answered.
MatrixOutcome rebuild_matrix(const std::string& from, const PairOutputs& outputs);

/// The matrix of one CPU alone (no pair): what a one-CPU matrix, live or read back, holds.
MatrixResult one_cpu_matrix(const OrderedCpus& order, double tsc_hz, RecordedVariant send, RecordedVariant recv);

/// The manifest of a one-CPU run (nothing measured, complete at once): what `matrix --cpus N
/// --out D` keeps in D/run, so that D reads back as the same inconclusive answer.
RunDirManifest one_cpu_manifest(const MatrixOutcome& outcome, const MatrixOptions& options);

/// "rebuilt from DIR" and, when it is a run inside the directory named, which ("rebuilt from
/// R/matrix/run (the ordering-read matrix of the report in R)").
std::string rebuilt_from_text(const MatrixOutcome& outcome);

}  // namespace tscaudit
