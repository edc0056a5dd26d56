// The reader of a run directory with a manifest: every rounds file indexed frame by
// frame when the directory is opened, one pair's frames decompressed when it is read.
#include "formats/run_dir_internal.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <exception>

#include "core/errors.hpp"
#include "core/files.hpp"
#include "core/format.hpp"
#include "formats/rounds_codec.hpp"
#include "formats/run_format.hpp"

namespace tscaudit {
namespace {

/// Rounds file bytes read at a time while indexing.
constexpr std::size_t kIndexChunkBytes = std::size_t{4} << 20;
/// Bytes asked for at least: what the end of a file (or what was appended since it was
/// opened) needs.
constexpr std::uint64_t kMinReadBytes = std::uint64_t{64} << 10;

/// Rounds reserved at most before a pair's frames are read (what their visit lines promise).
constexpr std::uint64_t kReserveRounds = std::uint64_t{1} << 22;

/// A zstd frame's magic number as it lies in a file (0xFD2FB528, little endian): what the
/// index looks for to go on past damage.
constexpr std::string_view kZstdMagicBytes{"\x28\xb5\x2f\xfd", 4};

/// A reader's message about a frame, without the frame's name in front (a loss names the
/// file and the offset itself): "the zstd frame does not decompress (...)", or
/// "line 3, column 5 of the visit: ..." for its text.
std::string loss_what(std::string_view message, std::string_view source) {
  if (!message.starts_with(source)) return std::string(message);
  std::string_view rest = message.substr(source.size());
  if (rest.starts_with(": ")) return std::string(rest.substr(2));
  if (!rest.starts_with(":")) return std::string(message);
  rest.remove_prefix(1);
  const std::size_t colon = rest.find(": ");
  if (colon == std::string_view::npos) return std::string(message);
  const std::string_view where = rest.substr(0, colon);
  const std::size_t c2 = where.find(':');
  return "line " + std::string(where.substr(0, c2)) +
         (c2 == std::string_view::npos ? "" : ", column " + std::string(where.substr(c2 + 1))) +
         " of the visit: " + std::string(rest.substr(colon + 2));
}

}  // namespace

void RunDirReader::open_manifest_dir(const std::function<RunDirWriterState(const std::string& dir)>& writer_of) {
  const std::string manifest_path = join_path(path_, kManifestName);
  manifest_ = read_manifest_file(manifest_path);
  switch (manifest_.status) {
    case RunDirStatus::complete: break;
    case RunDirStatus::running: {
      // Its lock file tells a run still being written from one whose writer died (asked by
      // the caller, without taking the lock: the writer goes on undisturbed).
      const RunDirWriterState writer = writer_of(path_);
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
  sorted_cpus_ = manifest_.cpus;
  std::sort(sorted_cpus_.begin(), sorted_cpus_.end());
  if (const auto spec = manifest_.plan.find("spec"); spec != manifest_.plan.end() && spec->is_object()) {
    if (const auto r = spec->find("rounds_per_visit"); r != spec->end() && r->is_number_unsigned()) {
      max_visit_rounds_ = r->get<std::uint64_t>();
    }
  }
  const std::string rounds_dir = join_path(path_, kRoundsDirName);
  if (!exists(rounds_dir)) {  // no visit was written
    note_missing_files(rounds_dir);
    return;
  }
  if (!is_directory(rounds_dir)) throw InputError(rounds_dir + ": not a directory");
  for (const std::string& name : list_dir(rounds_dir)) {
    if (name.front() == '.') continue;
    const std::string file = join_path(rounds_dir, name);
    std::optional<int> cpu;
    if (name.starts_with("cpu-") && name.ends_with(".zst")) cpu = cpu_number(name.substr(4, name.size() - 8));
    if (!cpu || name != "cpu-" + std::to_string(*cpu) + ".zst") {
      // The name made printable: it may hold any byte but '/' (past here it is cpu-<A>.zst).
      throw InputError(join_path(rounds_dir, printable_text(name)) +
                       ": not a rounds file (expected cpu-<A>.zst, A a CPU number)");
    }
    if (!std::binary_search(sorted_cpus_.begin(), sorted_cpus_.end(), *cpu)) {
      throw InputError(file + ": CPU " + std::to_string(*cpu) + " is not among the manifest's cpus");
    }
    // Asked again of the open file (index_rounds_file): a FIFO put here now is refused, not waited on.
    if (!is_regular_file(file)) throw InputError(file + ": not a regular file");
    index_rounds_file(file, *cpu);
  }
  // Visits in visit order, each once: a visit given twice is kept where it comes first.
  for (auto& [key, entry] : pairs_) {
    std::stable_sort(entry.visits.begin(), entry.visits.end(), [](const VisitEntry& x, const VisitEntry& y) {
      return x.visit != y.visit ? x.visit < y.visit : x.offset < y.offset;
    });
    std::vector<VisitEntry> once;
    for (const VisitEntry& v : entry.visits) {
      if (once.empty() || once.back().visit != v.visit) {
        once.push_back(v);
        continue;
      }
      RunDirLoss loss;
      loss.file = std::string(kRoundsDirName) + "/" + files_[v.file].substr(files_[v.file].rfind('/') + 1);
      loss.offset = v.offset;
      loss.bytes = v.size;
      loss.frame = v.frame;
      loss.a = key.first;
      loss.b = key.second;
      loss.visit = v.visit;
      loss.rounds = v.rounds;
      loss.what = "visit=" + std::to_string(v.visit) + " of pair " + pair_text(key.first, key.second) +
                  " appears twice (kept: the frame at byte " + std::to_string(once.back().offset) + ")";
      add_loss(std::move(loss));
    }
    entry.visits = std::move(once);
  }
  note_missing_files(rounds_dir);
}

void RunDirReader::note_missing_files(const std::string& rounds_dir) {
  // A run that completed under a plan (matrix, check and report record its spec) has a
  // rounds file for every CPU that initiates a planned pair.
  if (manifest_.status != RunDirStatus::complete) return;
  const auto spec = manifest_.plan.find("spec");
  if (spec == manifest_.plan.end() || !spec->is_object()) return;
  // Whole numbers only: nlohmann's get<int> of 1.8e19 is a conversion out of range
  // (undefined), not an exception.
  const auto count = [](const nlohmann::ordered_json& v) -> std::optional<std::uint64_t> {
    if (v.is_number_unsigned()) return v.get<std::uint64_t>();
    if (v.is_number_integer() && v.get<std::int64_t>() >= 0) return static_cast<std::uint64_t>(v.get<std::int64_t>());
    return std::nullopt;
  };
  std::vector<int> initiators;
  std::uint64_t visits = 0, rounds_per_visit = 0;
  try {
    std::vector<int> cpus;
    // Not a spec this version wrote, where it names more CPUs or others than the run's: it
    // tells nothing of the files to expect (and `--from` refuses it: the plan's CPUs are not
    // the run's).
    if (spec->at("cpus").size() > manifest_.cpus.size()) return;
    for (const auto& c : spec->at("cpus")) {
      const auto cpu = count(c);
      if (!cpu || *cpu > static_cast<std::uint64_t>(INT_MAX)) return;
      if (!std::binary_search(sorted_cpus_.begin(), sorted_cpus_.end(), static_cast<int>(*cpu))) return;
      cpus.push_back(static_cast<int>(*cpu));
    }
    const auto v = count(spec->at("visits")), r = count(spec->at("rounds_per_visit"));
    if (!v || !r) return;
    visits = *v;
    rounds_per_visit = *r;
    if (spec->value("design", std::string()) == "sparse") {
      for (const auto& p : spec->at("pairs")) {
        for (std::size_t k = 0; k < 2; ++k) {
          const auto i = count(p.at(k));
          if (i && *i < cpus.size()) initiators.push_back(cpus[static_cast<std::size_t>(*i)]);
        }
      }
    } else if (cpus.size() >= 2) {
      initiators = cpus;
    }
  } catch (const nlohmann::ordered_json::exception&) {
    return;  // not a spec this version wrote: nothing to compare with
  }
  if (visits == 0) return;
  std::sort(initiators.begin(), initiators.end());
  initiators.erase(std::unique(initiators.begin(), initiators.end()), initiators.end());
  for (int cpu : initiators) {
    const std::string name = "cpu-" + std::to_string(cpu) + ".zst";
    if (exists(join_path(rounds_dir, name))) continue;
    RunDirLoss loss;
    loss.file = std::string(kRoundsDirName) + "/" + name;
    loss.a = cpu;
    loss.what = "missing, but the manifest says the run completed and its plan has CPU " + std::to_string(cpu) +
                " initiate pairs (" + std::to_string(visits) + " visits of " + std::to_string(rounds_per_visit) +
                " rounds each)";
    add_loss(std::move(loss));
  }
}

void RunDirReader::index_rounds_file(const std::string& file, int cpu) {
  const ReadOnlyFd fd(file, OpenAs::regular_file);
  struct stat st {};
  const std::uint64_t file_size = ::fstat(fd.get(), &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
  const auto file_index = static_cast<std::uint32_t>(files_.size());
  files_.push_back(file);
  const std::string name = std::string(kRoundsDirName) + "/" + file.substr(file.rfind('/') + 1);
  const auto known_cpu = [&](int c) { return std::binary_search(sorted_cpus_.begin(), sorted_cpus_.end(), c); };
  // Why a visit whose line says `rounds` is lost before it is decoded, or "".
  const auto claims_too_much = [&](std::uint64_t rounds) -> std::string {
    if (!max_visit_rounds_ || rounds <= *max_visit_rounds_) return "";
    return "claims " + std::to_string(rounds) + " rounds, the plan's visits hold at most " +
           std::to_string(*max_visit_rounds_);
  };
  std::string buf;         // bytes from file offset `base` on
  std::uint64_t base = 0;  // file offset of buf[0]
  std::size_t pos = 0;     // the next frame (or candidate frame) starts at buf[pos]
  bool eof = false;
  std::uint64_t keep = 0;  // bytes from this file offset on stay in buf (a frame that may be checked again)
  auto read_more = [&] {
    const std::size_t drop = static_cast<std::size_t>(std::min<std::uint64_t>(pos, keep - std::min(keep, base)));
    if (drop > 0) {  // drop what was indexed already
      buf.erase(0, drop);
      base += drop;
      pos -= drop;
    }
    const std::size_t old = buf.size();
    // A chunk (or as much again as is held, for a large frame), but not much beyond the
    // file's size when it was opened: a small file does not cost a large buffer.
    const std::uint64_t left = file_size > base + old ? file_size - base - old : 0;
    buf.resize(old + static_cast<std::size_t>(std::min<std::uint64_t>(std::max(kIndexChunkBytes, old),
                                                                      std::max<std::uint64_t>(left, kMinReadBytes))));
    ssize_t n = 0;
    do {
      n = ::pread(fd.get(), buf.data() + old, buf.size() - old, static_cast<off_t>(base + old));
    } while (n < 0 && errno == EINTR);
    if (n < 0) throw IoError("cannot read " + file + ": " + std::strerror(errno));
    buf.resize(old + static_cast<std::size_t>(n));
    eof = n == 0;
  };
  auto source_at = [&](std::uint64_t offset) { return file + " (frame at byte " + std::to_string(offset) + ")"; };

  // Damage being passed over: where it starts, what it was, and what its visit line said
  // when that much could be read.
  struct Damage {
    std::uint64_t offset = 0;
    std::uint64_t frame = 0;
    std::string what;
    std::optional<VisitHeader> header;
    bool cut = false;  // the file ends inside this frame, which a run that did not complete explains
  };
  std::optional<Damage> damage;
  std::uint64_t frames = 0;  // frames found so far in this file
  // The last visit indexed in this file: when damage follows it, the visit is checked whole
  // (its size may have come from a damaged block header that overshot into the next frame).
  struct Last {
    std::uint64_t offset = 0, size = 0, frame = 0;
    std::pair<int, int> pair;
    VisitHeader header;
  };
  std::optional<Last> last;

  auto finish_damage = [&](std::uint64_t end) {
    RunDirLoss loss;
    loss.file = name;
    loss.offset = damage->offset;
    loss.bytes = end - damage->offset;
    loss.frame = damage->frame;
    loss.what = damage->what;
    if (damage->header) {
      loss.a = damage->header->a;
      loss.b = damage->header->b;
      loss.visit = damage->header->visit;
      loss.rounds = damage->header->rounds;
    } else {
      loss.a = cpu;
    }
    add_loss(std::move(loss));
    damage.reset();
  };
  // Damage found at buf[pos]: the last visit, if it ended here, is checked first.
  auto start_damage = [&](std::string what, std::optional<VisitHeader> header, bool cut) {
    const std::uint64_t offset = base + pos;
    if (last && last->offset + last->size == offset && last->offset >= base) {
      const std::string_view frame = std::string_view(buf).substr(last->offset - base, last->size);
      std::vector<Round> scratch;
      try {
        static_cast<void>(decode_visit_frame(frame, source_at(last->offset), &scratch));
      } catch (const InputError& e) {
        // The visit indexed last is damaged: it is lost, and the scan starts inside it.
        auto& visits = pairs_[last->pair].visits;
        if (!visits.empty() && visits.back().offset == last->offset && visits.back().file == file_index) {
          visits.pop_back();
        }
        damage = Damage{last->offset, last->frame, loss_what(e.what(), source_at(last->offset)), last->header, false};
        pos = static_cast<std::size_t>(last->offset - base) + 1;
        frames = last->frame + 1;
        last.reset();
        return;
      }
    }
    last.reset();
    damage = Damage{offset, frames, std::move(what), std::move(header), cut};
    ++frames;
    ++pos;
  };
  // A candidate frame at buf[pos] ends the damage when it is a whole zstd frame (not a
  // skippable one: its length could carry the scan anywhere) that decodes, of this CPU.
  auto candidate_ok = [&](const FrameExtent& e) {
    if (e.kind != FrameKind::visit) return false;
    const std::string_view frame = std::string_view(buf).substr(pos, e.size_bytes);
    std::vector<Round> scratch;
    try {
      // The visit line first: a visit that claims more than the plan holds ends the damage
      // without being decoded, and is lost on its own below.
      const VisitHeader h = decode_visit_frame(frame, source_at(base + pos), nullptr);
      if (h.a != cpu || !known_cpu(h.b)) return false;
      if (!claims_too_much(h.rounds).empty() || !frame_too_large(frame).empty()) return true;
      static_cast<void>(decode_visit_frame(frame, source_at(base + pos), &scratch));
      return true;
    } catch (const InputError&) {
      return false;
    }
  };

  read_more();
  while (true) {
    keep = last ? last->offset : base + pos;
    if (pos >= buf.size()) {
      if (eof) break;
      read_more();
      continue;
    }
    const std::string_view rest = std::string_view(buf).substr(pos);
    const std::uint64_t offset = base + pos;
    const FrameExtent e = next_frame(rest);
    if (e.kind == FrameKind::truncated && !eof) {
      read_more();
      continue;
    }
    if (damage) {
      // Passing over damage: pos is at a candidate; a good frame ends the damage.
      if (candidate_ok(e)) {
        finish_damage(offset);
      } else {
        const std::size_t next = buf.find(kZstdMagicBytes, pos + 1);
        if (next != std::string::npos) {
          pos = next;
        } else if (eof) {
          pos = buf.size();
        } else {
          pos = std::max(pos + 1, buf.size() - std::min(buf.size(), kZstdMagicBytes.size() - 1));
          read_more();
        }
        continue;
      }
    }
    switch (e.kind) {
      case FrameKind::truncated: {
        // The file ends inside a frame: a cut when the run did not complete (the writer was
        // stopped while writing it), damage when it says it did, or when a good frame
        // follows (a damaged size that runs past the end).
        std::optional<VisitHeader> h;
        std::string problem;
        try {
          h = peek_truncated_frame(rest, source_at(offset));
        } catch (const InputError& x) {
          problem = loss_what(x.what(), source_at(offset));
        }
        const bool cut =
            problem.empty() && manifest_.status != RunDirStatus::complete && (!h || (h->a == cpu && known_cpu(h->b)));
        start_damage(
            problem.empty()
                ? "the file ends " + std::to_string(rest.size()) + " bytes into this frame" +
                      (manifest_.status == RunDirStatus::complete ? ", but the manifest says the run completed" : "")
                : problem,
            h, cut);
        continue;
      }
      case FrameKind::not_zstd:
        start_damage(offset == 0 ? "not a zstd file (" + e.problem + ")"
                                 : "not a zstd frame (" + e.problem + "): the file is damaged",
                     std::nullopt, false);
        continue;
      case FrameKind::corrupt: start_damage("a damaged zstd frame (" + e.problem + ")", std::nullopt, false); continue;
      case FrameKind::skippable:
        pos += e.size_bytes;
        ++frames;
        last.reset();
        continue;
      case FrameKind::visit: break;
    }
    const std::string source = source_at(offset);
    VisitHeader h;
    try {
      h = decode_visit_frame(rest.substr(0, e.size_bytes), source, nullptr);
    } catch (const InputError& x) {
      start_damage(loss_what(x.what(), source), std::nullopt, false);
      continue;
    }
    if (h.a != cpu) {
      start_damage("a visit of pair " + pair_text(h.a, h.b) + " in the file of CPU " + std::to_string(cpu) +
                       " (each file holds the visits that its CPU initiates)",
                   h, false);
      continue;
    }
    if (!known_cpu(h.b)) {
      start_damage("b=" + std::to_string(h.b) + " is not among the manifest's cpus", h, false);
      continue;
    }
    std::string too_much = claims_too_much(h.rounds);
    if (too_much.empty()) too_much = frame_too_large(rest.substr(0, e.size_bytes));
    if (!too_much.empty()) {
      // Whole and well-formed, but more than a visit of this run holds: lost, never decoded
      // (its rounds would cost memory that the file does not hold).
      RunDirLoss loss;
      loss.file = name;
      loss.offset = offset;
      loss.bytes = e.size_bytes;
      loss.frame = frames;
      loss.a = h.a;
      loss.b = h.b;
      loss.visit = h.visit;
      loss.rounds = h.rounds;
      loss.what = std::move(too_much);
      add_loss(std::move(loss));
      last.reset();
      ++frames;
      pos += e.size_bytes;
      continue;
    }
    VisitEntry v;
    v.file = file_index;
    v.offset = offset;
    v.size = e.size_bytes;
    v.visit = h.visit;
    v.rounds = h.rounds;
    v.frame = frames;
    pairs_[{h.a, h.b}].visits.push_back(v);
    last = Last{offset, e.size_bytes, frames, {h.a, h.b}, h};
    ++frames;
    pos += e.size_bytes;
  }
  if (!damage) return;
  if (damage->cut) {
    // Nothing good after it: the visit the writer was writing when it stopped, left out.
    const std::string what = file + " ends " + std::to_string(base + buf.size() - damage->offset) +
                             " bytes into a visit (at byte " + std::to_string(damage->offset) + ")";
    if (const std::optional<VisitHeader>& h = damage->header) {
      pairs_[{h->a, h->b}].cut_short = what + ", visit=" + std::to_string(h->visit) + " of this pair: left out";
      notes_.push_back(what + ", visit=" + std::to_string(h->visit) + " of pair " + pair_text(h->a, h->b) +
                       ": left out");
    } else {
      file_cut_short_[cpu] = what + " of a pair of CPU " + std::to_string(cpu) + ": left out";
      notes_.push_back(what + ": left out");
    }
    return;
  }
  finish_damage(base + buf.size());
}

std::optional<Run> RunDirReader::read_manifest_pair(int a, int b, const PairEntry& entry) const {
  Run run;
  std::uint64_t total = 0;
  for (const VisitEntry& v : entry.visits) total += v.rounds;
  // A damaged count may promise anything: at most kReserveRounds are reserved, the rest grow
  // as they come.
  run.rounds.reserve(static_cast<std::size_t>(std::min(total, kReserveRounds)));
  std::uint64_t quantum = 1;
  std::vector<std::string> errors;
  std::vector<std::string> lost;
  std::size_t kept = 0;
  const std::string& file = files_[entry.visits.front().file];  // every visit of a -> b is in a's file
  const ReadOnlyFd fd(file, OpenAs::regular_file);
  std::string frame;
  for (const VisitEntry& v : entry.visits) {
    read_at(fd.get(), file, v.offset, frame, v.size);
    const std::string source = file + " (frame at byte " + std::to_string(v.offset) + ")";
    const std::size_t before = run.rounds.size();
    VisitHeader h;
    std::string problem;
    try {
      h = decode_visit_frame(frame, source, &run.rounds);
      if (h.a != a || h.b != b || h.visit != v.visit) {
        problem = "changed since the directory was opened (it now holds a visit of pair " + pair_text(h.a, h.b) + ")";
      }
    } catch (const InputError& e) {
      problem = loss_what(e.what(), source);
    }
    if (!problem.empty()) {
      // The visit's rounds are left out, whatever part of them was read.
      run.rounds.erase(run.rounds.begin() + static_cast<std::ptrdiff_t>(before), run.rounds.end());
      RunDirLoss loss;
      loss.file = std::string(kRoundsDirName) + "/" + file.substr(file.rfind('/') + 1);
      loss.offset = v.offset;
      loss.bytes = v.size;
      loss.frame = v.frame;
      loss.a = a;
      loss.b = b;
      loss.visit = v.visit;
      loss.rounds = v.rounds;
      loss.what = problem;
      lost.push_back("visit=" + std::to_string(v.visit) + " (" + std::to_string(v.rounds) + " rounds, byte " +
                     std::to_string(v.offset) + "): " + problem);
      add_loss(std::move(loss));
      continue;
    }
    ++kept;
    quantum = std::max(quantum, h.quantum_ticks);
    if (!h.error.empty()) errors.push_back("visit " + std::to_string(h.visit + 1) + ": " + h.error);
  }
  if (kept == 0) return std::nullopt;

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
  if (!common.get("visits")) header.set("visits", std::to_string(kept));
  if (!has_flags) {
    header.set("quantum_ticks", std::to_string(quantum));
    header.set("flags", std::string(kFlagLegend));
  }

  run.trailer.set("rounds_written", std::to_string(run.rounds.size()));
  if (!lost.empty()) {
    std::string all;
    for (const std::string& l : lost) all += (all.empty() ? "" : "; ") + l;
    run.trailer.set("lost", all);
  }
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
