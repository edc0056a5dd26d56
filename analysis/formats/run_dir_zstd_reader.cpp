// The reader of a run directory with a manifest: every rounds file indexed frame by
// frame when the directory is opened, one pair's frames decompressed when it is read.
#include "formats/run_dir_internal.hpp"

#include <algorithm>
#include <cmath>
#include <exception>

#include "core/errors.hpp"
#include "core/files.hpp"
#include "formats/rounds_codec.hpp"
#include "formats/run_format.hpp"

namespace tscaudit {
namespace {

/// Rounds file bytes read at a time while indexing.
constexpr std::size_t kIndexChunkBytes = std::size_t{4} << 20;

}  // namespace

void RunDirReader::open_manifest_dir() {
  const std::string manifest_path = join_path(path_, kManifestName);
  manifest_ = read_manifest_file(manifest_path);
  switch (manifest_.status) {
    case RunDirStatus::complete: break;
    case RunDirStatus::running: {
      // Its lock file tells a run still being written from one whose writer died (asked
      // without taking the lock: the writer goes on undisturbed).
      const RunDirWriterState writer = run_dir_writer_state(path_);
      const std::string who = writer.who.empty() ? "" : " (" + writer.who + ")";
      switch (writer.kind) {
        case RunDirWriterState::Kind::writing:
          running_ = "it is still being written by " + (writer.who.empty() ? "another process" : writer.who);
          break;
        case RunDirWriterState::Kind::stopped: running_ = "the writer" + who + " stopped without finishing"; break;
        case RunDirWriterState::Kind::no_lock_file:
        case RunDirWriterState::Kind::unknown:
          running_ = "the measuring process ended before it finished (no lock file says whether it is still running)";
          break;
      }
      notes_.push_back(manifest_path + " says running: " + running_);
      break;
    }
    case RunDirStatus::interrupted:
    case RunDirStatus::aborted:
      notes_.push_back(manifest_path + " says " + std::string(run_dir_status_name(manifest_.status)) +
                       (manifest_.detail.empty() ? "" : ": " + manifest_.detail));
      break;
  }
  const std::string rounds_dir = join_path(path_, kRoundsDirName);
  if (!exists(rounds_dir)) return;  // no visit was written
  if (!is_directory(rounds_dir)) throw InputError(rounds_dir + ": not a directory");
  for (const std::string& name : list_dir(rounds_dir)) {
    if (name.front() == '.') continue;
    const std::string file = join_path(rounds_dir, name);
    std::optional<int> cpu;
    if (name.starts_with("cpu-") && name.ends_with(".zst")) cpu = cpu_number(name.substr(4, name.size() - 8));
    if (!cpu || name != "cpu-" + std::to_string(*cpu) + ".zst") {
      throw InputError(file + ": not a rounds file (expected cpu-<A>.zst, A a CPU number)");
    }
    if (std::find(manifest_.cpus.begin(), manifest_.cpus.end(), *cpu) == manifest_.cpus.end()) {
      throw InputError(file + ": CPU " + std::to_string(*cpu) + " is not among the manifest's cpus");
    }
    if (!is_regular_file(file)) throw InputError(file + ": not a regular file");
    index_rounds_file(file, *cpu);
  }
  // Visits in visit order, each once.
  for (auto& [key, entry] : pairs_) {
    std::stable_sort(entry.visits.begin(), entry.visits.end(),
                     [](const VisitEntry& x, const VisitEntry& y) { return x.visit < y.visit; });
    for (std::size_t i = 1; i < entry.visits.size(); ++i) {
      if (entry.visits[i].visit == entry.visits[i - 1].visit) {
        const VisitEntry& v = entry.visits[i];
        throw InputError(files_[v.file] + " (frame at byte " + std::to_string(v.offset) +
                         "): visit=" + std::to_string(v.visit) + " of pair " + pair_text(key.first, key.second) +
                         " appears twice (also at byte " + std::to_string(entry.visits[i - 1].offset) + ")");
      }
    }
  }
}

void RunDirReader::index_rounds_file(const std::string& file, int cpu) {
  const ReadOnlyFd fd(file);
  const auto file_index = static_cast<std::uint32_t>(files_.size());
  files_.push_back(file);
  std::string buf;         // bytes from file offset `base` on
  std::uint64_t base = 0;  // file offset of buf[0]
  std::size_t pos = 0;     // the next frame starts at buf[pos]
  bool eof = false;
  auto read_more = [&] {
    if (pos > 0) {  // drop what was indexed already
      buf.erase(0, pos);
      base += pos;
      pos = 0;
    }
    const std::size_t old = buf.size();
    buf.resize(old + std::max(kIndexChunkBytes, old));
    ssize_t n = 0;
    do {
      n = ::pread(fd.get(), buf.data() + old, buf.size() - old, static_cast<off_t>(base + old));
    } while (n < 0 && errno == EINTR);
    if (n < 0) throw IoError("cannot read " + file + ": " + std::strerror(errno));
    buf.resize(old + static_cast<std::size_t>(n));
    eof = n == 0;
  };
  read_more();
  if (buf.empty()) return;  // created, no visit written yet
  while (true) {
    if (pos == buf.size()) {
      if (eof) break;
      read_more();
      continue;
    }
    const std::string_view rest = std::string_view(buf).substr(pos);
    const std::uint64_t offset = base + pos;
    const std::string source = file + " (frame at byte " + std::to_string(offset) + ")";
    const FrameExtent e = next_frame(rest);
    switch (e.kind) {
      case FrameKind::truncated: {
        if (!eof) {
          read_more();
          continue;
        }
        // The file ends inside a frame: the writer was stopped while writing it. What is
        // there must decompress (a cut, not a corruption); the visit is left out.
        const std::optional<VisitHeader> h = peek_truncated_frame(rest, source);
        const std::string what = file + " ends " + std::to_string(rest.size()) + " bytes into a visit (at byte " +
                                 std::to_string(offset) + ")";
        if (h && h->a == cpu && std::find(manifest_.cpus.begin(), manifest_.cpus.end(), h->b) != manifest_.cpus.end()) {
          pairs_[{h->a, h->b}].cut_short = what + ", visit=" + std::to_string(h->visit) + " of this pair: left out";
          notes_.push_back(what + ", visit=" + std::to_string(h->visit) + " of pair " + pair_text(h->a, h->b) +
                           ": left out");
        } else {
          file_cut_short_[cpu] = what + " of a pair of CPU " + std::to_string(cpu) + ": left out";
          notes_.push_back(what + ": left out");
        }
        return;
      }
      case FrameKind::not_zstd:
        if (offset == 0) throw InputError(file + ": not a zstd file (" + e.problem + ")");
        throw InputError(source + ": not a zstd frame (" + e.problem + "): the file is damaged");
      case FrameKind::corrupt: throw InputError(source + ": a damaged zstd frame (" + e.problem + ")");
      case FrameKind::skippable: pos += e.size_bytes; continue;
      case FrameKind::visit: break;
    }
    const VisitHeader h = decode_visit_frame(rest.substr(0, e.size_bytes), source, nullptr);
    if (h.a != cpu) {
      throw InputError(source + ":1:1: a visit of pair " + pair_text(h.a, h.b) + " in the file of CPU " +
                       std::to_string(cpu) + " (each file holds the visits that its CPU initiates)");
    }
    if (std::find(manifest_.cpus.begin(), manifest_.cpus.end(), h.b) == manifest_.cpus.end()) {
      throw InputError(source + ":1:1: b=" + std::to_string(h.b) + " is not among the manifest's cpus");
    }
    VisitEntry v;
    v.file = file_index;
    v.offset = offset;
    v.size = e.size_bytes;
    v.visit = h.visit;
    v.rounds = h.rounds;
    pairs_[{h.a, h.b}].visits.push_back(v);
    pos += e.size_bytes;
  }
}

Run RunDirReader::read_manifest_pair(int a, int b, const PairEntry& entry) const {
  Run run;
  std::uint64_t total = 0;
  for (const VisitEntry& v : entry.visits) total += v.rounds;
  try {
    run.rounds.reserve(total);
  } catch (const std::exception&) {  // a damaged count: the rounds grow as they come
  }
  std::uint64_t quantum = 1;
  std::vector<std::string> errors;
  const std::string& file = files_[entry.visits.front().file];  // every visit of a -> b is in a's file
  const ReadOnlyFd fd(file);
  std::string frame;
  for (const VisitEntry& v : entry.visits) {
    read_at(fd.get(), file, v.offset, frame, v.size);
    const std::string source = file + " (frame at byte " + std::to_string(v.offset) + ")";
    const VisitHeader h = decode_visit_frame(frame, source, &run.rounds);
    if (h.a != a || h.b != b || h.visit != v.visit) {
      throw InputError(source + ": changed since the directory was opened (it now holds a visit of pair " +
                       pair_text(h.a, h.b) + ")");
    }
    quantum = std::max(quantum, h.quantum_ticks);
    if (!h.error.empty()) errors.push_back("visit " + std::to_string(h.visit + 1) + ": " + h.error);
  }

  // The header of `matrix --save-runs`: schema, pair_header with a, b before send,
  // quantum_ticks before flags.
  const Metadata& common = manifest_.pair_header;
  Metadata& header = run.header;
  header.set("schema", std::string(kRunSchema));
  const bool has_send = common.get("send").has_value();
  const bool has_flags = common.get("flags").has_value();
  auto put_pair = [&] {
    header.set("a", std::to_string(a));
    header.set("b", std::to_string(b));
    if (!has_send && !manifest_.send.empty()) header.set("send", manifest_.send);
    if (!common.get("recv") && !manifest_.recv.empty()) header.set("recv", manifest_.recv);
  };
  if (!common.get("tsc_hz") && manifest_.tsc_hz > 0) {
    header.set("tsc_hz", std::to_string(std::llround(manifest_.tsc_hz)));
  }
  for (const auto& [key, value] : common.entries()) {
    if (key == "schema" || key == "a" || key == "b" || key == "quantum_ticks") continue;
    if (key == "send") put_pair();
    if (key == "flags") header.set("quantum_ticks", std::to_string(quantum));
    header.set(key, value);
  }
  if (!has_send) put_pair();
  if (!common.get("visits")) header.set("visits", std::to_string(entry.visits.size()));
  if (!has_flags) {
    header.set("quantum_ticks", std::to_string(quantum));
    header.set("flags", std::string(kFlagLegend));
  }

  run.trailer.set("rounds_written", std::to_string(run.rounds.size()));
  std::string cut = entry.cut_short;
  if (cut.empty()) {
    if (const auto f = file_cut_short_.find(a); f != file_cut_short_.end()) cut = f->second;
  }
  if (cut.empty() && manifest_.status == RunDirStatus::running) {
    cut = join_path(path_, kManifestName) + " says running: " + running_;
  }
  if (!errors.empty()) {
    std::string all;
    for (const std::string& e : errors) all += (all.empty() ? "" : "; ") + e;
    run.trailer.set("error", all);
    run.trailer.set("status", "aborted");
  } else if (!cut.empty()) {
    run.trailer.set("cut_short", cut);
  } else if (manifest_.status == RunDirStatus::complete) {
    run.trailer.set("status", std::string(kStatusComplete));
  } else {
    if (!manifest_.detail.empty()) run.trailer.set("error", manifest_.detail);
    run.trailer.set("status", std::string(run_dir_status_name(manifest_.status)));
  }
  return run;
}

}  // namespace tscaudit
