// Writing a run directory while a run measures (docs/formats.md, "Run directory"): the
// manifest first, then each visit as one zstd frame (formats/rounds_codec.hpp) appended to
// its initiator's rounds file, the manifest again at the end; under the directory's lock
// (io/run_dir_lock.hpp) from the start to the end.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/run.hpp"
#include "formats/run_dir.hpp"
#include "io/run_dir_lock.hpp"

namespace tscaudit {

/// Writes a run directory while a run measures. append_visit may be called from several
/// threads at once (disjoint pairs measured in parallel).
class RunDirWriter {
 public:
  /// Creates `dir` (and its parents) and rounds/ in it, writes topology.xml when
  /// `topology_xml` is given and the manifest with status running.
  /// \throws IoError (naming the path) when `dir` exists and is not empty, or when
  ///         anything cannot be written.
  /// Locks it first (RunDirLock::acquire: a directory that another process is writing is
  /// refused at once) and holds the lock until finish() or its end.
  static std::unique_ptr<RunDirWriter> create(const std::string& dir, RunDirManifest manifest,
                                              std::optional<std::string_view> topology_xml);
  /// The same in a directory locked already (RunDirLock::acquire, which created it).
  static std::unique_ptr<RunDirWriter> create(RunDirLock lock, RunDirManifest manifest,
                                              std::optional<std::string_view> topology_xml);
  ~RunDirWriter();
  RunDirWriter(const RunDirWriter&) = delete;
  RunDirWriter& operator=(const RunDirWriter&) = delete;

  /// Appends one visit of the ordered pair a -> b to rounds/cpu-<a>.zst as one zstd frame
  /// and writes it out (write(2): it survives the process; finish() syncs to disk).
  /// `visit` counts from 0; round i is stored with seq first_seq + rounds[i].seq (the
  /// rounds of one visit count from 0, as assemble_run gives them). `error` is empty
  /// when the visit ended well.
  /// \pre a and b are in the manifest's CPUs; first_seq + seq <= kMaxSeq.
  /// \throws IoError naming the file; UsageError for a CPU not in the manifest.
  void append_visit(int a, int b, std::uint64_t visit, std::uint64_t first_seq, std::span<const Round> rounds,
                    std::uint64_t quantum_ticks, std::string_view error);

  /// Adds `key` to the manifest's plan (what the run measured besides the plan: the rate,
  /// visits added), written with the manifest at finish(). \pre before finish().
  void amend_plan(const std::string& key, nlohmann::ordered_json value);

  /// Syncs every rounds file and rewrites the manifest (aside, then renamed) with the
  /// final status, its detail and the end time, then removes the lock file and releases the
  /// lock. Later append_visit calls throw.
  /// \pre status != running. \throws IoError.
  void finish(RunDirStatus status, std::string detail, std::string ended_utc);

  [[nodiscard]] const std::string& dir() const { return dir_; }

 private:
  RunDirWriter(RunDirLock lock, RunDirManifest manifest);
  void write_manifest();

  RunDirLock lock_;
  std::string dir_;
  RunDirManifest manifest_;
  std::mutex mutex_;          // guards files_ and finished_; compression runs outside it
  std::map<int, int> files_;  // initiator CPU -> file descriptor of rounds/cpu-<A>.zst
  bool finished_ = false;
};

}  // namespace tscaudit
