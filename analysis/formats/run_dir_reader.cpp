// Opening a run directory for reading, and what both kinds answer alike: a directory
// with a manifest (its zstd rounds files: run_dir_zstd_reader.cpp) or a plain directory
// of run files (run_dir_plain_reader.cpp).
#include "formats/run_dir_internal.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

#include "core/errors.hpp"
#include "core/files.hpp"
#include "formats/text_fields.hpp"

namespace tscaudit {

std::optional<int> cpu_number(std::string_view text) {
  std::uint64_t v = 0;
  if (parse_u64_field(trim(text, " "), v) != FieldProblem::ok || v > static_cast<std::uint64_t>(INT_MAX)) {
    return std::nullopt;
  }
  return static_cast<int>(v);
}

std::string pair_text(int a, int b) { return std::to_string(a) + " -> " + std::to_string(b); }

RunDirReader open_run_dir(const std::string& path,
                          const std::function<RunDirWriterState(const std::string& dir)>& writer_of) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw InputError("cannot open the run directory " + path + ": " + std::strerror(errno));
  if (!S_ISDIR(st.st_mode)) throw InputError(path + ": not a directory (a run directory is one)");
  RunDirReader r;
  r.path_ = path;
  const std::string manifest = join_path(path, kManifestName);
  if (exists(manifest)) {
    r.has_manifest_ = true;
    r.open_manifest_dir(writer_of);
  } else if (exists(join_path(path, kRoundsDirName))) {
    throw InputError(manifest + ": missing, but " + join_path(path, kRoundsDirName) +
                     " is there: a run directory without its manifest (the manifest is written first, so it "
                     "was removed or the directory copied in part)");
  } else {
    r.open_plain_dir();
  }
  return r;
}

std::optional<std::string> RunDirReader::topology_xml() const {
  if (!manifest_.has_topology) return std::nullopt;
  const std::string file = join_path(path_, kTopologyName);
  if (!exists(file)) {
    throw InputError(file + ": missing, but " + join_path(path_, kManifestName) + " names it (\"topology\")");
  }
  return read_regular_file(file, kMaxTopologyBytes, "a topology.xml");
}

std::vector<std::pair<int, int>> RunDirReader::pairs() const {
  std::vector<std::pair<int, int>> out;
  for (const auto& [key, entry] : pairs_) {
    if (!entry.visits.empty() || !entry.plain.empty()) out.push_back(key);
  }
  return out;
}

bool RunDirReader::has_pair(int a, int b) const {
  const auto it = pairs_.find({a, b});
  return it != pairs_.end() && (!it->second.visits.empty() || !it->second.plain.empty());
}

std::span<const RunDirReader::VisitEntry> RunDirReader::visits_of(int a, int b) const {
  const auto it = pairs_.find({a, b});
  if (it == pairs_.end()) return {};
  return it->second.visits;
}

Run RunDirReader::read_pair(int a, int b) const {
  const auto it = pairs_.find({a, b});
  if (it == pairs_.end() || (it->second.visits.empty() && it->second.plain.empty())) {
    throw InputError(path_ + ": no rounds of pair " + pair_text(a, b));
  }
  if (!has_manifest_) return read_plain_pair(a, b, it->second);
  std::optional<Run> run = read_manifest_pair(a, b, it->second);
  if (!run) {
    std::string first;
    for (const RunDirLoss& loss : losses()) {
      if (loss.a == a && loss.b == b) {
        first = run_dir_loss_text(loss);
        break;
      }
    }
    throw InputError(path_ + ": every visit of pair " + pair_text(a, b) + " is lost (" + first + ")");
  }
  return std::move(*run);
}

std::optional<Run> RunDirReader::try_read_pair(int a, int b) const {
  const auto it = pairs_.find({a, b});
  if (it == pairs_.end() || (it->second.visits.empty() && it->second.plain.empty())) return std::nullopt;
  if (!has_manifest_) return read_plain_pair(a, b, it->second);
  return read_manifest_pair(a, b, it->second);
}

void RunDirReader::add_loss(RunDirLoss loss) const {
  const std::lock_guard<std::mutex> lock(lost_->mutex);
  const auto [at, added] = lost_->seen.emplace(loss.file, loss.offset, loss.bytes);
  if (!added) return;  // found again
  try {
    lost_->losses.push_back(std::move(loss));
  } catch (...) {
    lost_->seen.erase(at);
    throw;
  }
}

std::vector<RunDirLoss> RunDirReader::losses() const {
  std::vector<RunDirLoss> out;
  {
    const std::lock_guard<std::mutex> lock(lost_->mutex);
    out = lost_->losses;
  }
  std::stable_sort(out.begin(), out.end(), [](const RunDirLoss& x, const RunDirLoss& y) {
    return x.file != y.file ? x.file < y.file : x.offset < y.offset;
  });
  return out;
}

std::string run_dir_loss_text(const RunDirLoss& loss) {
  std::string out = loss.file;
  if (loss.bytes > 0 || loss.frame) {
    out += " at byte " + std::to_string(loss.offset) + " (";
    if (loss.frame) out += "frame " + std::to_string(*loss.frame) + ", ";
    out += std::to_string(loss.bytes) + " bytes)";
  }
  if (loss.a && loss.b) {
    out += ": pair " + pair_text(*loss.a, *loss.b);
  } else if (loss.a) {
    out += ": pair " + std::to_string(*loss.a) + " -> ?";
  }
  if (loss.visit) out += ", visit=" + std::to_string(*loss.visit);
  if (loss.rounds) out += " (" + std::to_string(*loss.rounds) + " rounds)";
  return out + ": " + loss.what;
}

nlohmann::ordered_json run_dir_loss_json(const RunDirLoss& loss) {
  auto opt = [](const auto& v) { return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr); };
  return nlohmann::ordered_json{{"file", loss.file},        {"offset", loss.offset},      {"bytes", loss.bytes},
                                {"frame", opt(loss.frame)}, {"a", opt(loss.a)},           {"b", opt(loss.b)},
                                {"visit", opt(loss.visit)}, {"rounds", opt(loss.rounds)}, {"what", loss.what}};
}

}  // namespace tscaudit
