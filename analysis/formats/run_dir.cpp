#include "formats/run_dir.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <set>
#include <tuple>

#include "core/errors.hpp"
#include "core/files.hpp"
#include "core/schema_name.hpp"
#include "formats/output_file.hpp"
#include "formats/rounds_codec.hpp"
#include "formats/run_format.hpp"
#include "formats/text_fields.hpp"
#include "formats/text_lines.hpp"

namespace tscaudit {
namespace {

using Json = nlohmann::ordered_json;

/// The largest manifest read: the plan and the platform facts of a 1024-CPU machine take
/// well under 1 MiB; anything this large is not a manifest.
constexpr std::uint64_t kMaxManifestBytes = std::uint64_t{64} << 20;
/// Rounds file bytes read at a time while indexing.
constexpr std::size_t kIndexChunkBytes = std::size_t{4} << 20;
/// Bytes read of a plain file at a time while only its header is wanted.
constexpr std::size_t kHeaderChunkBytes = std::size_t{64} << 10;

std::string read_whole_file(const std::string& path, std::uint64_t max_bytes) {
  const FilePtr f = open_for_reading(path);
  std::string text;
  std::vector<char> buf(std::size_t{1} << 16);
  while (true) {
    const std::size_t n = std::fread(buf.data(), 1, buf.size(), f.get());
    if (n == 0) break;
    text.append(buf.data(), n);
    if (text.size() > max_bytes) {
      throw InputError(path + ": larger than " + std::to_string(max_bytes >> 20) + " MiB: not a manifest");
    }
  }
  if (std::ferror(f.get()) != 0) throw IoError(path + ": read error");
  return text;
}

/// "LINE:COLUMN" of byte `offset` of `text` (both from 1).
std::string line_column(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return std::to_string(line) + ":" + std::to_string(column);
}

/// A CPU number as a run file or a manifest writes it: decimal, 0 .. INT_MAX.
std::optional<int> cpu_number(std::string_view text) {
  std::uint64_t v = 0;
  if (parse_u64_field(trim_spaces(text), v) != FieldProblem::ok || v > static_cast<std::uint64_t>(INT_MAX)) {
    return std::nullopt;
  }
  return static_cast<int>(v);
}

std::string pair_text(int a, int b) { return std::to_string(a) + " -> " + std::to_string(b); }

/// Reads the manifest's JSON and names the file, the line and the column of what is wrong:
/// the position of a key is that of its first occurrence in the text.
class ManifestReader {
 public:
  ManifestReader(std::string path, std::string text) : path_(std::move(path)), text_(std::move(text)) {}

  RunDirManifest read() {
    Json j;
    try {
      j = Json::parse(text_);
    } catch (const Json::parse_error& e) {
      // e.byte is the 1-based position just past the character that failed.
      const std::size_t at = e.byte == 0 ? 0 : e.byte - 1;
      std::string what = e.what();
      if (const std::size_t c = what.find(": ", what.find("column")); c != std::string::npos) what = what.substr(c + 2);
      throw InputError(path_ + ":" + line_column(text_, at) + ": not JSON: " + what);
    }
    if (!j.is_object()) fail("", "the manifest is not a JSON object");
    check_schema(j);
    RunDirManifest m;
    m.status = status_of(j);
    m.detail = optional_string(j, "detail");
    m.started_utc = optional_string(j, "started_utc");
    m.ended_utc = optional_string(j, "ended_utc");
    m.cpus = cpus_of(j);
    m.send = optional_string(j, "send");
    m.recv = optional_string(j, "recv");
    if (j.contains("tsc_hz") && !j["tsc_hz"].is_null()) {
      if (!j["tsc_hz"].is_number() || j["tsc_hz"].get<double>() < 0) {
        fail("tsc_hz", "tsc_hz: expected a number of Hz >= 0 (0: unknown)");
      }
      m.tsc_hz = j["tsc_hz"].get<double>();
    }
    if (j.contains("pair_header")) {
      const Json& h = j["pair_header"];
      if (!h.is_object()) fail("pair_header", "pair_header: expected an object of \"key\": \"value\" strings");
      for (const auto& [key, value] : h.items()) {
        const bool key_ok = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
          return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
        });
        if (!value.is_string() || !key_ok) {
          fail(key, "pair_header: \"" + printable(key) +
                        "\": expected a string value under a key of [a-z0-9_] (a '# key: value' line)");
        }
        m.pair_header.set(key, value.get<std::string>());
      }
    }
    for (auto [key, target] : {std::pair{"plan", &m.plan}, std::pair{"platform", &m.platform}}) {
      if (!j.contains(key) || j[key].is_null()) continue;
      if (!j[key].is_object()) fail(key, std::string(key) + ": expected an object");
      *target = j[key];
    }
    if (j.contains("topology") && !j["topology"].is_null()) {
      if (j["topology"] != std::string(kTopologyName)) {
        fail("topology", "topology: expected \"" + std::string(kTopologyName) + "\" or null");
      }
      m.has_topology = true;
    }
    return m;
  }

 private:
  [[noreturn]] void fail(std::string_view key, const std::string& what) const {
    std::string where;
    if (!key.empty()) {
      const std::string quoted = "\"" + std::string(key) + "\"";
      if (const std::size_t at = text_.find(quoted); at != std::string::npos) where = ":" + line_column(text_, at);
    }
    throw InputError(path_ + where + ": " + what);
  }

  void check_schema(const Json& j) const {
    static constexpr std::string_view prefix = "tscaudit-rundir/";
    if (!j.contains("schema") || !j["schema"].is_string()) {
      fail("schema", "no \"schema\" string: not the manifest of a tscaudit run directory (expected \"" +
                         std::string(kRunDirSchema) + "\")");
    }
    // Manifests written before the rename say "tscsync-rundir/...": the same format.
    const std::string schema = j["schema"].get<std::string>();
    const std::string version_text = current_schema_name(schema);
    if (!version_text.starts_with(prefix)) {
      fail("schema", "schema '" + printable(schema) + "' is not a tscaudit run directory's (expected '" +
                         std::string(kRunDirSchema) + "')");
    }
    const std::string_view version = std::string_view(version_text).substr(prefix.size());
    const std::string_view major_text = version.substr(0, version.find('.'));
    std::uint64_t major = 0;
    if (parse_u64_field(major_text, major) != FieldProblem::ok) {
      fail("schema", "schema '" + printable(schema) + "': the version is not a number");
    }
    if (major > static_cast<std::uint64_t>(kRunDirMajorVersion)) {
      fail("schema", "schema '" + printable(schema) + "' is newer than this version of tscaudit reads (" +
                         std::string(kRunDirSchema) + "): read it with a newer tscaudit");
    }
    if (major != static_cast<std::uint64_t>(kRunDirMajorVersion)) {
      fail("schema",
           "schema '" + printable(schema) + "' is not one this version reads (" + std::string(kRunDirSchema) + ")");
    }
  }

  RunDirStatus status_of(const Json& j) const {
    if (!j.contains("status") || !j["status"].is_string()) fail("status", "no \"status\" string");
    const std::string s = j["status"].get<std::string>();
    for (RunDirStatus st :
         {RunDirStatus::running, RunDirStatus::complete, RunDirStatus::interrupted, RunDirStatus::aborted}) {
      if (s == run_dir_status_name(st)) return st;
    }
    fail("status", "status '" + printable(s) + "' is none of running, complete, interrupted, aborted");
  }

  std::string optional_string(const Json& j, const char* key) const {
    if (!j.contains(key) || j[key].is_null()) return "";
    if (!j[key].is_string()) fail(key, std::string(key) + ": expected a string or null");
    return j[key].get<std::string>();
  }

  std::vector<int> cpus_of(const Json& j) const {
    if (!j.contains("cpus") || !j["cpus"].is_array()) fail("cpus", "no \"cpus\" array of CPU numbers");
    std::vector<int> cpus;
    std::set<int> seen;
    for (const Json& c : j["cpus"]) {
      if (!c.is_number_integer() || c.get<std::int64_t>() < 0 || c.get<std::int64_t>() > INT_MAX) {
        fail("cpus", "cpus: " + printable(c.dump()) + " is not a CPU number");
      }
      const int cpu = c.get<int>();
      if (!seen.insert(cpu).second) fail("cpus", "cpus: CPU " + std::to_string(cpu) + " appears twice");
      cpus.push_back(cpu);
    }
    return cpus;
  }

  std::string path_;
  std::string text_;
};

/// What the header lines of a plain run file say, up to its column header row.
struct PlainHeader {
  struct Value {
    std::string text;
    std::size_t line = 0, column = 0;
  };
  std::optional<Value> schema, a, b, send, recv;
  bool columns_a_b = false;  // the column header row names a and b
  bool empty = true;
};

PlainHeader scan_plain_header(const std::string& path) {
  const FilePtr f = open_for_reading(path);
  PlainHeader h;
  // Only the header is wanted: the scan stops at the column header row.
  for_each_line(f.get(), path, kHeaderChunkBytes, [&](std::string_view line, std::size_t line_no, bool) {
    h.empty = false;
    if (line.empty()) return LineFlow::next;
    if (line.front() != '#') {
      if (const std::size_t c = first_control_byte(line); c != std::string_view::npos) {
        fail_not_text(path, line_no, line, c + 1);
      }
      const char delimiter = line.find('\t') != std::string_view::npos ? '\t' : ',';
      bool has_a = false, has_b = false;
      std::size_t start = 0;
      while (true) {
        const std::size_t end = std::min(line.find(delimiter, start), line.size());
        const std::string_view name = trim_spaces(line.substr(start, end - start));
        has_a = has_a || name == "a";
        has_b = has_b || name == "b";
        if (end == line.size()) break;
        start = end + 1;
      }
      h.columns_a_b = has_a && has_b;
      return LineFlow::stop;
    }
    auto kv = parse_metadata_line(line);
    if (!kv) return LineFlow::next;
    const std::size_t value_at = line.find_first_not_of(' ', line.find(':') + 1);
    PlainHeader::Value v{kv->second, line_no, (value_at == std::string_view::npos ? line.size() : value_at) + 1};
    if (kv->first == "schema") h.schema = v;
    if (kv->first == "a") h.a = v;
    if (kv->first == "b") h.b = v;
    if (kv->first == "send") h.send = v;
    if (kv->first == "recv") h.recv = v;
    return LineFlow::next;
  });
  return h;
}

/// The pair that a file name of `matrix --save-runs` names ("pair_0_1.csv": 0 -> 1), if any.
std::optional<std::pair<int, int>> pair_of_file_name(std::string_view name) {
  if (!name.starts_with("pair_")) return std::nullopt;
  name.remove_prefix(5);
  const std::size_t dot = name.find('.');
  const std::string_view stem = name.substr(0, dot);
  const std::size_t us = stem.find('_');
  if (us == std::string_view::npos) return std::nullopt;
  const auto a = cpu_number(stem.substr(0, us));
  const auto b = cpu_number(stem.substr(us + 1));
  if (!a || !b || stem.substr(0, us).empty() || stem.substr(us + 1).empty()) return std::nullopt;
  return std::make_pair(*a, *b);
}

}  // namespace

std::string_view run_dir_status_name(RunDirStatus status) {
  switch (status) {
    case RunDirStatus::running: return "running";
    case RunDirStatus::complete: return "complete";
    case RunDirStatus::interrupted: return "interrupted";
    case RunDirStatus::aborted: return "aborted";
  }
  return "running";
}

Json manifest_json(const RunDirManifest& m) {
  Json j;
  j["schema"] = std::string(kRunDirSchema);
  j["status"] = std::string(run_dir_status_name(m.status));
  j["detail"] = m.detail.empty() ? Json(nullptr) : Json(m.detail);
  j["started_utc"] = m.started_utc;
  j["ended_utc"] = m.ended_utc.empty() ? Json(nullptr) : Json(m.ended_utc);
  j["cpus"] = m.cpus;
  j["send"] = m.send;
  j["recv"] = m.recv;
  j["tsc_hz"] = m.tsc_hz;
  j["topology"] = m.has_topology ? Json(std::string(kTopologyName)) : Json(nullptr);
  j["rounds"] = std::string(kRoundsDirName) + "/cpu-<A>.zst";
  Json header = Json::object();
  for (const auto& [key, value] : m.pair_header.entries()) header[key] = value;
  j["pair_header"] = std::move(header);
  j["plan"] = m.plan;
  j["platform"] = m.platform;
  return j;
}

// ---------------------------------------------------------------------------------------
// Writer

RunDirWriter::RunDirWriter(std::string dir, RunDirManifest manifest)
    : dir_(std::move(dir)), manifest_(std::move(manifest)) {}

RunDirWriter::~RunDirWriter() {
  for (const auto& [cpu, fd] : files_) ::close(fd);
}

std::unique_ptr<RunDirWriter> RunDirWriter::create(const std::string& dir, RunDirManifest manifest,
                                                   std::optional<std::string_view> topology_xml) {
  if (exists(dir)) {
    if (!is_directory(dir))
      throw IoError("cannot write the run directory " + dir + ": it exists and is not a directory");
    if (!list_dir(dir).empty()) {
      throw IoError("cannot write the run directory " + dir +
                    ": it exists and is not empty (a run is written into a new or an empty directory)");
    }
  }
  make_directories(join_path(dir, kRoundsDirName));
  manifest.status = RunDirStatus::running;
  manifest.detail.clear();
  manifest.ended_utc.clear();
  manifest.has_topology = topology_xml.has_value();
  if (topology_xml) write_text_file(join_path(dir, kTopologyName), *topology_xml);
  std::unique_ptr<RunDirWriter> w(new RunDirWriter(dir, std::move(manifest)));
  w->write_manifest();
  return w;
}

void RunDirWriter::write_manifest() {
  write_text_file(join_path(dir_, kManifestName), manifest_json(manifest_).dump(2) + "\n");
}

void RunDirWriter::append_visit(int a, int b, std::uint64_t visit, std::uint64_t first_seq,
                                std::span<const Round> rounds, std::uint64_t quantum_ticks, std::string_view error) {
  for (int cpu : {a, b}) {
    if (std::find(manifest_.cpus.begin(), manifest_.cpus.end(), cpu) == manifest_.cpus.end()) {
      throw UsageError("run directory " + dir_ + ": CPU " + std::to_string(cpu) + " is not among the manifest's CPUs");
    }
  }
  VisitHeader h;
  h.a = a;
  h.b = b;
  h.visit = visit;
  h.quantum_ticks = std::max<std::uint64_t>(quantum_ticks, 1);
  h.first_seq = first_seq;
  h.error = std::string(error);
  const std::string frame = compress_visit(h, rounds, first_seq);

  const std::lock_guard<std::mutex> lock(mutex_);
  const std::string path = join_path(join_path(dir_, kRoundsDirName), "cpu-" + std::to_string(a) + ".zst");
  if (finished_) throw IoError("cannot write " + path + ": the run directory was finished already");
  auto it = files_.find(a);
  if (it == files_.end()) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0666);
    if (fd < 0) throw IoError("cannot create " + path + ": " + std::strerror(errno));
    it = files_.emplace(a, fd).first;
  }
  const int fd = it->second;
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw IoError("cannot write " + path + ": " + std::strerror(errno));
  std::string_view rest = frame;
  while (!rest.empty()) {
    const ssize_t n = ::write(fd, rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : EIO;
      // A frame written in part would read as a damaged file once the next one follows:
      // take it back, so that the file stays whole frames (best effort; the error stands).
      const bool taken_back = ::ftruncate(fd, st.st_size) == 0;
      throw IoError("cannot write " + path + ": " + std::strerror(err) +
                    (taken_back ? "" : " (and the part of the visit written could not be taken back)"));
    }
    rest.remove_prefix(static_cast<std::size_t>(n));
  }
}

void RunDirWriter::finish(RunDirStatus status, std::string detail, std::string ended_utc) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (finished_) throw IoError("cannot finish the run directory " + dir_ + ": it was finished already");
  for (const auto& [cpu, fd] : files_) {
    if (::fsync(fd) != 0) {
      throw IoError("cannot write " +
                    join_path(join_path(dir_, kRoundsDirName), "cpu-" + std::to_string(cpu) + ".zst") + ": " +
                    std::strerror(errno));
    }
  }
  manifest_.status = status;
  manifest_.detail = std::move(detail);
  manifest_.ended_utc = std::move(ended_utc);
  write_manifest();
  finished_ = true;
}

// ---------------------------------------------------------------------------------------
// Reader

RunDirReader open_run_dir(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw InputError("cannot open the run directory " + path + ": " + std::strerror(errno));
  if (!S_ISDIR(st.st_mode)) throw InputError(path + ": not a directory (a run directory is one)");
  RunDirReader r;
  r.path_ = path;
  const std::string manifest = join_path(path, kManifestName);
  if (exists(manifest)) {
    r.has_manifest_ = true;
    r.open_manifest_dir();
  } else if (exists(join_path(path, kRoundsDirName))) {
    throw InputError(manifest + ": missing, but " + join_path(path, kRoundsDirName) +
                     " is there: a run directory without its manifest (the manifest is written first, so it "
                     "was removed or the directory copied in part)");
  } else {
    r.open_plain_dir();
  }
  return r;
}

void RunDirReader::open_manifest_dir() {
  const std::string manifest_path = join_path(path_, kManifestName);
  manifest_ = ManifestReader(manifest_path, read_whole_file(manifest_path, kMaxManifestBytes)).read();
  switch (manifest_.status) {
    case RunDirStatus::complete: break;
    case RunDirStatus::running:
      notes_.push_back(manifest_path +
                       " says running: the measuring process ended before it finished (or it is still running)");
      break;
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

void RunDirReader::open_plain_dir() {
  std::set<int> cpus;
  std::map<std::pair<int, int>, std::string> first_file;  // pair -> the file that named it first
  for (const std::string& name : list_dir(path_)) {
    if (name.front() == '.') continue;
    const std::string file = join_path(path_, name);
    if (!is_regular_file(file)) continue;
    if (name == kTopologyName) {
      manifest_.has_topology = true;
      continue;
    }
    const PlainHeader h = scan_plain_header(file);
    if (h.empty) throw InputError(file + ": empty file (a run directory without a manifest holds run files only)");
    if (h.schema && current_schema_name(h.schema->text) != kRunSchema) {
      throw InputError(file + ":" + std::to_string(h.schema->line) + ":" + std::to_string(h.schema->column) +
                       ": unknown schema '" + printable(h.schema->text) + "' (this version reads " +
                       std::string(kRunSchema) + ")");
    }
    PlainHeader::Value a, b;
    if (h.a && h.b) {
      a = *h.a;
      b = *h.b;
    } else if (h.columns_a_b) {
      // The pair is in the a and b columns: the parser takes it from the rows.
      const Run run = read_run_file(file);
      a.text = std::string(run.header.get("a").value_or(""));
      b.text = std::string(run.header.get("b").value_or(""));
    } else {
      throw InputError(file + ": names no pair: a run directory without a manifest needs '# a: CPU' and '# b: CPU' " +
                       "lines (or a and b columns) in each file");
    }
    auto where = [&](const PlainHeader::Value& v) {
      return v.line == 0 ? file : file + ":" + std::to_string(v.line) + ":" + std::to_string(v.column);
    };
    const auto ca = cpu_number(a.text), cb = cpu_number(b.text);
    if (!ca) throw InputError(where(a) + ": a '" + printable(a.text) + "' is not a CPU number");
    if (!cb) throw InputError(where(b) + ": b '" + printable(b.text) + "' is not a CPU number");
    if (const auto named = pair_of_file_name(name); named && *named != std::make_pair(*ca, *cb)) {
      const bool a_wrong = named->first != *ca;
      throw InputError(where(a_wrong ? a : b) + ": " + (a_wrong ? "a " : "b ") + (a_wrong ? a.text : b.text) +
                       " disagrees with the file name, which names pair " + pair_text(named->first, named->second));
    }
    PairEntry& entry = pairs_[{*ca, *cb}];
    PlainFile pf;
    pf.path = file;
    if (h.send) pf.send = h.send->text, pf.send_line = h.send->line;
    if (h.recv) pf.recv = h.recv->text, pf.recv_line = h.recv->line;
    // One pair, one pair of read variants: rounds read another way are another experiment.
    for (const PlainFile& other : entry.plain) {
      for (auto [mine, theirs, key, value] :
           {std::tuple{&pf.send, &other.send, "send", h.send}, std::tuple{&pf.recv, &other.recv, "recv", h.recv}}) {
        if (!mine->empty() && !theirs->empty() && *mine != *theirs) {
          throw InputError(where(*value) + ": " + key + " '" + printable(*mine) + "' differs from '" +
                           printable(*theirs) + "' in " + other.path + ", another file of pair " + pair_text(*ca, *cb) +
                           " (one pair is measured with one pair of read variants)");
        }
      }
    }
    entry.plain.push_back(std::move(pf));
    cpus.insert(*ca);
    cpus.insert(*cb);
  }
  manifest_.status = RunDirStatus::complete;
  manifest_.cpus.assign(cpus.begin(), cpus.end());
}

std::optional<std::string> RunDirReader::topology_xml() const {
  if (!manifest_.has_topology) return std::nullopt;
  const std::string file = join_path(path_, kTopologyName);
  if (!exists(file)) {
    throw InputError(file + ": missing, but " + join_path(path_, kManifestName) + " names it (\"topology\")");
  }
  return read_whole_file(file, kMaxManifestBytes);
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
  return has_manifest_ ? read_manifest_pair(a, b, it->second) : read_plain_pair(a, b, it->second);
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
    cut = join_path(path_, kManifestName) + " says running: the measuring process ended before it finished";
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

Run RunDirReader::read_plain_pair(int a, int b, const PairEntry& entry) const {
  if (entry.plain.size() == 1) return read_run_file(entry.plain.front().path);
  // Several files of one pair: their rounds one after the other, in file-name order.
  // seq is kept where it already follows on from the files before; a file whose seqs
  // would repeat earlier ones (each measured run counts from 0) is shifted to follow them.
  Run run;
  std::uint64_t max_seq = 0, quantum = 0;
  std::vector<std::string> cut, stopped;
  std::string stopped_status;
  for (std::size_t k = 0; k < entry.plain.size(); ++k) {
    const std::string& file = entry.plain[k].path;
    Run part = read_run_file(file);
    if (k == 0) run.header = part.header;
    if (const auto q = metadata_i64(part.header, "quantum_ticks"); q && *q > 0) {
      quantum = std::max(quantum, static_cast<std::uint64_t>(*q));
    }
    std::uint64_t min_seq = kMaxSeq;
    for (const Round& r : part.rounds) min_seq = std::min<std::uint64_t>(min_seq, r.seq);
    const std::uint64_t shift = (k == 0 || min_seq > max_seq) ? 0 : max_seq + 1 - min_seq;
    for (const Round& r : part.rounds) {
      const std::uint64_t seq = r.seq + shift;
      if (seq > kMaxSeq)
        throw InputError(file + ": seq beyond 2^56 - 1 once the pair's files are put one after another");
      run.rounds.push_back(Round(seq, r.t1, r.t2, r.t3, r.t4, r.flags));
      max_seq = std::max(max_seq, seq);
    }
    if (const auto reason = incomplete_reason(part)) {
      if (!part.trailer.get("status")) {
        cut.push_back(file + ": " + *reason);
      } else {
        stopped.push_back(file + ": " + *reason);
        if (stopped_status.empty()) stopped_status = std::string(*part.trailer.get("status"));
      }
    }
  }
  run.header.set("a", std::to_string(a));
  run.header.set("b", std::to_string(b));
  if (quantum > 0) run.header.set("quantum_ticks", std::to_string(quantum));
  run.header.set("files", std::to_string(entry.plain.size()));
  run.trailer.set("rounds_written", std::to_string(run.rounds.size()));
  auto join = [](const std::vector<std::string>& v) {
    std::string all;
    for (const std::string& s : v) all += (all.empty() ? "" : "; ") + s;
    return all;
  };
  if (!cut.empty()) {
    run.trailer.set("cut_short", join(cut));
  } else if (!stopped.empty()) {
    run.trailer.set("error", join(stopped));
    run.trailer.set("status", stopped_status);
  } else {
    run.trailer.set("status", std::string(kStatusComplete));
  }
  return run;
}

}  // namespace tscaudit
