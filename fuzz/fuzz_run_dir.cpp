// Fuzz harness of the run directory's reader (analysis/formats/run_dir.hpp): the manifest
// and the zstd frames of the rounds files, damage included, and what a directory can hold in
// place of a file.
//
// An input becomes a directory. It may start with a header of directory operations,
//   @@tscaudit-dir:OPS@@
// OPS a sequence of two-character operations, an operation and its target, applied after the
// files are written (unknown ones are passed over):
//   operation  F a FIFO, Z a link to /dev/zero, L a link to itself (a loop), N a link to
//              nothing, D a directory, M missing, W a regular file (topology.xml: "<topology/>")
//   target     m manifest.json, t topology.xml, r rounds/, 0-7 rounds/cpu-<N>.zst,
//              e rounds/extra (not a rounds file's name), E extra (beside the manifest)
// e.g. "@@tscaudit-dir:FmWt@@": manifest.json is a FIFO, topology.xml a small file. The harness
// never opens what it made this way: only the reader does, and it must refuse it at once.
// The rest is cut at every occurrence of the separator kFileSeparator ("@@tscaudit-file@@"):
// the first part is manifest.json, part i (from 1) is rounds/cpu-<i-1>.zst, at most
// kMaxRoundsFiles of them; an empty part is a file that is not there (a missing rounds file),
// and an input without a separator has no rounds/. The files are written under one directory
// per process (mkdtemp once, rewritten per input).
// A real run directory DIR with CPUs 0 and 1 packs so:
//   { cat DIR/manifest.json; for c in 0 1; do printf '@@tscaudit-file@@'; cat DIR/rounds/cpu-$c.zst; done; }
//
// Then: open_run_dir; topology_xml(); for every pair it lists, try_read_pair twice; losses()
// and the notes.
// Findings:
//  - any exception but InputError, a crash, a sanitizer report, a hang (libFuzzer's -timeout);
//  - a refusal that is not "FILE: what", "FILE:LINE:COLUMN: what" or "cannot open FILE for
//    reading: why" with FILE in the directory, or that holds a byte outside printable ASCII; for the manifest, LINE and
//    COLUMN inside its text (in bytes: a CR is a column, as JSON counts);
//  - a pair that reads differently the second time, or whose rounds are not what the index
//    promised less what was lost; losses that change when read again;
//  - a loss outside its file, overlapping another or an indexed visit, or whose text is not
//    printable; a note that is not printable.
//
// In the libFuzzer build (TSCAUDIT_FUZZ) a structure-aware mutator (LLVMFuzzerCustomMutator)
// works on the manifest as JSON (nesting near and far past the depth limit, arrays and objects
// near and past their limits, values of the wrong type, numbers at the edges) and on the
// header's operations; a third of its calls are libFuzzer's byte mutations.
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <variant>
#include <vector>

#include "core/errors.hpp"
#include "formats/run_dir.hpp"
#include "fuzz_support.hpp"

namespace {

namespace fs = std::filesystem;
using tscaudit::fuzz::finding;
using tscaudit::fuzz::outcome_of;

constexpr std::string_view kTarget = "run_dir";
constexpr std::string_view kFileSeparator = "@@tscaudit-file@@";
constexpr std::string_view kDirHeader = "@@tscaudit-dir:";
constexpr std::string_view kDirHeaderEnd = "@@";
constexpr std::size_t kMaxRoundsFiles = 8;
/// Pairs whose visit lines promise more rounds than this are not read: a visit line may
/// promise any count, and decompressing that many is the input's own size, not a finding.
constexpr std::uint64_t kMaxRoundsRead = std::uint64_t{1} << 21;

const std::string& work_dir() {
  static const std::string dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/fuzz-run-dir-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) finding(kTarget, "mkdtemp failed (the harness cannot run)");
    return pattern + "/run";
  }();
  return dir;
}

void write_file(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) finding(kTarget, "cannot write " + path.string() + " (the harness cannot run)");
}

bool printable(std::string_view text) {
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f) return false;
  }
  return true;
}

/// What is wrong with the position in a message about the manifest (`rest`: what follows its
/// path), or "": ": what", or ":LINE:COLUMN: what" with LINE a line of `text` and COLUMN at most
/// one past its end. JSON's positions count bytes: a CR is a column like any other (the text
/// readers' check, check_input_error, drops a CR before a line end and so does not fit).
std::string manifest_position_problem(std::string_view rest, std::string_view text) {
  if (rest.starts_with(": ")) return {};
  if (rest.empty() || rest.front() != ':') return "the path is not followed by ':'";
  std::size_t line_no = 0, column = 0;
  const char* const end = rest.data() + rest.size();
  const auto [q, e1] = std::from_chars(rest.data() + 1, end, line_no);
  if (e1 != std::errc{} || q == end || *q != ':') return "neither 'FILE: what' nor 'FILE:LINE:COLUMN: what'";
  const auto [r, e2] = std::from_chars(q + 1, end, column);
  if (e2 != std::errc{} || end - r < 2 || r[0] != ':' || r[1] != ' ') {
    return "neither 'FILE: what' nor 'FILE:LINE:COLUMN: what'";
  }
  std::vector<std::size_t> lengths{0};  // lines split at '\n' only; the last may be empty
  for (const char c : text) {
    if (c == '\n') {
      lengths.push_back(0);
    } else {
      ++lengths.back();
    }
  }
  if (line_no < 1 || line_no > lengths.size()) {
    return "line " + std::to_string(line_no) + " named, the manifest has " + std::to_string(lengths.size());
  }
  if (column < 1 || column > lengths[line_no - 1] + 1) {
    return "column " + std::to_string(column) + " named, line " + std::to_string(line_no) + " is " +
           std::to_string(lengths[line_no - 1]) + " bytes long";
  }
  return {};
}

/// A refusal of open_run_dir or read_pair: "FILE: what" or "FILE:LINE:COLUMN: what", FILE
/// the directory or a file in it, printable; the manifest's line and column inside it.
void check_refusal(const std::string& message, const std::string& manifest) {
  if (!printable(message)) finding(kTarget, "a message that is not printable: '" + message + "'");
  const std::string& dir = work_dir();
  const std::string manifest_path = dir + "/manifest.json";
  if (message.starts_with(manifest_path + ":")) {
    const std::string_view rest = std::string_view(message).substr(manifest_path.size());
    if (const std::string problem = manifest_position_problem(rest, manifest); !problem.empty()) {
      finding(kTarget, problem + ": '" + message + "'");
    }
    return;
  }
  // A file that cannot be opened (a link to nothing, a loop of links) is named as every
  // reader names one: "cannot open PATH for reading: REASON".
  if (message.starts_with("cannot open " + dir + "/") && message.find(" for reading: ") != std::string::npos) return;
  if (!message.starts_with(dir)) finding(kTarget, "a message that does not name the directory: '" + message + "'");
  const std::size_t colon = message.find(':', dir.size());
  if (colon == std::string::npos) finding(kTarget, "a message without 'FILE: ': '" + message + "'");
}

/// The bytes of `text` cut at every kFileSeparator.
std::vector<std::string_view> split(std::string_view text) {
  std::vector<std::string_view> parts;
  while (true) {
    const std::size_t at = text.find(kFileSeparator);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) break;
    text.remove_prefix(at + kFileSeparator.size());
  }
  return parts;
}

/// An input: the directory operations of its header (pairs of characters) and the rest.
struct Packed {
  std::string ops;
  std::string_view rest;
};

Packed unpack(std::string_view input) {
  Packed p{"", input};
  if (!input.starts_with(kDirHeader)) return p;
  const std::size_t end = input.find(kDirHeaderEnd, kDirHeader.size());
  if (end == std::string_view::npos) return p;
  p.ops = std::string(input.substr(kDirHeader.size(), end - kDirHeader.size()));
  p.rest = input.substr(end + kDirHeaderEnd.size());
  return p;
}

/// The path a target character names, or "" for none.
std::string target_path(const fs::path& dir, char target) {
  switch (target) {
    case 'm': return (dir / "manifest.json").string();
    case 't': return (dir / "topology.xml").string();
    case 'r': return (dir / "rounds").string();
    case 'e': return (dir / "rounds" / "extra").string();
    case 'E': return (dir / "extra").string();
    default: break;
  }
  if (target >= '0' && target <= '7') return (dir / "rounds" / ("cpu-" + std::string(1, target) + ".zst")).string();
  return "";
}

/// Applies the header's operations to the directory: what is at each target is replaced, as
/// far as the operations before leave a place for it (a FIFO at rounds/ holds no rounds file).
/// Nothing made here is opened by the harness.
void apply_ops(const fs::path& dir, const std::string& ops) {
  for (std::size_t i = 0; i + 1 < ops.size(); i += 2) {
    const std::string path = target_path(dir, ops[i + 1]);
    if (path.empty()) continue;
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    fs::remove_all(path, ec);
    switch (ops[i]) {
      case 'F': static_cast<void>(::mkfifo(path.c_str(), 0600)); break;
      case 'Z': fs::create_symlink("/dev/zero", path, ec); break;
      case 'L': fs::create_symlink(fs::path(path).filename(), path, ec); break;
      case 'N': fs::create_symlink("nowhere", path, ec); break;
      case 'D': fs::create_directory(path, ec); break;
      case 'W':  // where an earlier operation left no directory for it, nothing is made
        std::ofstream(path, std::ios::binary) << (ops[i + 1] == 't' ? "<topology/>\n" : "x");
        break;
      default: break;  // 'M' and unknown: nothing there
    }
  }
}

struct PairReading {
  std::vector<tscaudit::Round> rounds;
  std::vector<std::pair<std::string, std::string>> header, trailer;
  bool operator==(const PairReading&) const = default;
};

std::optional<PairReading> read_pair(const tscaudit::RunDirReader& reader, int a, int b) {
  const auto run = outcome_of(kTarget, "try_read_pair", [&] { return reader.try_read_pair(a, b); });
  if (const auto* message = std::get_if<std::string>(&run)) {
    finding(kTarget, "try_read_pair refused a pair of a run directory with a manifest: " + *message);
  }
  const std::optional<tscaudit::Run>& got = std::get<std::optional<tscaudit::Run>>(run);
  if (!got) return std::nullopt;
  PairReading r{got->rounds, {}, {}};
  for (const auto& [k, v] : got->header.entries()) r.header.emplace_back(k, v);
  for (const auto& [k, v] : got->trailer.entries()) r.trailer.emplace_back(k, v);
  for (const auto& [k, v] : r.trailer) {
    if (!printable(v)) finding(kTarget, "trailer " + k + " is not printable: '" + v + "'");
  }
  return r;
}

void check_losses(const std::vector<tscaudit::RunDirLoss>& losses, const tscaudit::RunDirReader& reader) {
  const std::string& dir = work_dir();
  for (std::size_t i = 0; i < losses.size(); ++i) {
    const tscaudit::RunDirLoss& loss = losses[i];
    const std::string text = tscaudit::run_dir_loss_text(loss);
    if (!printable(text) || loss.what.empty()) finding(kTarget, "a loss that is not a printable line: '" + text + "'");
    if (!loss.file.starts_with("rounds/cpu-")) finding(kTarget, "a loss outside rounds/: '" + text + "'");
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(fs::path(dir) / loss.file, ec);
    if (ec ? loss.bytes != 0 : loss.offset + loss.bytes > size) {
      finding(kTarget, "a loss beyond its file's end: '" + text + "'");
    }
    if (i > 0 && losses[i - 1].file == loss.file && losses[i - 1].offset + losses[i - 1].bytes > loss.offset) {
      finding(kTarget, "two losses overlap: '" + tscaudit::run_dir_loss_text(losses[i - 1]) + "' and '" + text + "'");
    }
    for (const auto& [a, b] : reader.pairs()) {
      for (const auto& v : reader.visits_of(a, b)) {
        const bool same = "rounds/cpu-" + std::to_string(a) + ".zst" == loss.file;
        const bool found_when_read = loss.offset == v.offset && loss.bytes == v.size;
        if (same && !found_when_read && v.offset < loss.offset + loss.bytes && loss.offset < v.offset + v.size) {
          finding(kTarget, "a loss overlaps an indexed visit of pair " + std::to_string(a) + " -> " +
                               std::to_string(b) + ": '" + text + "'");
        }
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Packed packed = unpack(std::string_view(reinterpret_cast<const char*>(data), size));
  const std::vector<std::string_view> parts = split(packed.rest);
  if (parts.size() > kMaxRoundsFiles + 1) return 0;
  const fs::path dir(work_dir());
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir, ec);
  if (ec) finding(kTarget, "cannot make " + dir.string() + " (the harness cannot run)");
  const std::string manifest(parts[0]);
  write_file(dir / "manifest.json", manifest);
  if (parts.size() > 1) {
    fs::create_directories(dir / "rounds", ec);
    for (std::size_t i = 1; i < parts.size(); ++i) {
      if (!parts[i].empty()) write_file(dir / "rounds" / ("cpu-" + std::to_string(i - 1) + ".zst"), parts[i]);
    }
  }

  apply_ops(dir, packed.ops);

  // No input makes a lock file: the writer of a manifest that says running is nobody's, as
  // the lock the tool asks (io/run_dir_lock.hpp) would say of this directory.
  const auto no_lock_file = [](const std::string&) { return tscaudit::RunDirWriterState{}; };
  const auto opened =
      outcome_of(kTarget, "open_run_dir", [&] { return tscaudit::open_run_dir(dir.string(), no_lock_file); });
  if (const auto* message = std::get_if<std::string>(&opened)) {
    check_refusal(*message, manifest);
    return 0;
  }
  const tscaudit::RunDirReader& reader = std::get<tscaudit::RunDirReader>(opened);
  const auto topology = outcome_of(kTarget, "topology_xml", [&] { return reader.topology_xml(); });
  if (const auto* message = std::get_if<std::string>(&topology)) check_refusal(*message, manifest);
  for (const std::string& note : reader.incomplete_notes()) {
    if (!printable(note)) finding(kTarget, "a note that is not printable: '" + note + "'");
  }
  const auto check_losses_now = [&] {
    const std::vector<tscaudit::RunDirLoss> losses = reader.losses();
    check_losses(losses, reader);
    return losses;
  };
  check_losses_now();
  for (const auto& [a, b] : reader.pairs()) {
    std::uint64_t promised = 0;
    for (const auto& v : reader.visits_of(a, b)) promised += v.rounds;
    if (promised > kMaxRoundsRead) continue;
    const std::optional<PairReading> first = read_pair(reader, a, b);
    const std::vector<tscaudit::RunDirLoss> after_first = check_losses_now();
    const std::optional<PairReading> second = read_pair(reader, a, b);
    const std::vector<tscaudit::RunDirLoss> after_second = check_losses_now();
    if (first != second) {
      finding(kTarget, "pair " + std::to_string(a) + " -> " + std::to_string(b) + " read differently the second time");
    }
    if (after_first.size() != after_second.size()) {
      finding(kTarget, "reading pair " + std::to_string(a) + " -> " + std::to_string(b) + " again lost more");
    }
    // What the index promised, less what was lost of this pair when it was read.
    std::uint64_t lost = 0;
    for (const auto& v : reader.visits_of(a, b)) {
      for (const tscaudit::RunDirLoss& loss : after_second) {
        if (loss.offset == v.offset && loss.bytes == v.size && loss.a == a && loss.b == b) lost += v.rounds;
      }
    }
    const std::uint64_t got = first ? first->rounds.size() : 0;
    if (got != promised - lost) {
      finding(kTarget, "pair " + std::to_string(a) + " -> " + std::to_string(b) + " gave " + std::to_string(got) +
                           " rounds, its visits promise " + std::to_string(promised) + " and " + std::to_string(lost) +
                           " were lost");
    }
    if (!first && lost != promised) {
      finding(kTarget, "pair " + std::to_string(a) + " -> " + std::to_string(b) + " read as nothing, with no loss");
    }
  }
  return 0;
}

#ifdef TSCAUDIT_FUZZ_MUTATOR
// The structure-aware mutator (libFuzzer build only): see the top of this file.
#include <algorithm>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>

#include <nlohmann/json.hpp>

#include "formats/json_bounds.hpp"

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace {

using Json = nlohmann::ordered_json;
using Rng = std::minstd_rand;

std::size_t pick(Rng& rng, std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(rng() % n); }

/// The JSON pointers of the values of `j`, at most 64 deep (the reader's limit).
void pointers(const Json& j, const Json::json_pointer& at, std::vector<Json::json_pointer>& out, std::size_t depth) {
  out.push_back(at);
  if (depth >= 64) return;
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) pointers(value, at / key, out, depth + 1);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) pointers(j[i], at / i, out, depth + 1);
  }
}

/// Arrays or objects inside each other, `depth` of them.
Json nested(std::size_t depth, bool objects) {
  Json j = objects ? Json::object() : Json::array();
  for (std::size_t i = 1; i < depth; ++i) j = objects ? Json{{"a", std::move(j)}} : Json::array({std::move(j)});
  return j;
}

/// A count near a limit of the reader (4096 CPUs, 4096 keys), or far past it.
std::size_t edge_count(Rng& rng) {
  static constexpr std::size_t counts[] = {0, 1, 2, 63, 64, 65, 4095, 4096, 4097, 8192, 10000};
  return counts[pick(rng, std::size(counts))];
}

Json edge_number(Rng& rng) {
  switch (pick(rng, 14)) {
    case 0: return 1e308;
    case 1: return -1;
    case 2: return std::numeric_limits<std::uint64_t>::max();
    case 3: return std::uint64_t{1} << 63;
    case 4: return 1.8e19;
    case 5: return -0.0;
    case 6: return 4096;
    case 7: return 4097;
    case 8: return 8191;
    case 9: return 8192;
    case 10: return 2147483648.0;
    case 11: return 1e-320;
    case 12: return std::numeric_limits<std::int64_t>::min();
    default: return 0;
  }
}

Json other_type(Rng& rng, const Json& was) {
  for (int tries = 0; tries < 8; ++tries) {
    Json j;
    switch (pick(rng, 6)) {
      case 0: j = nullptr; break;
      case 1: j = pick(rng, 2) == 0; break;
      case 2: j = edge_number(rng); break;
      case 3: j = "\x1b[31m text \xc3\xa9"; break;  // an escape sequence (JSON strings are UTF-8)
      case 4: j = Json::array({0, 1}); break;
      default: j = Json::object(); break;
    }
    if (j.type() != was.type()) return j;
  }
  return nullptr;
}

/// One change of the manifest's JSON.
void mutate_manifest(Json& m, Rng& rng) {
  std::vector<Json::json_pointer> at;
  pointers(m, Json::json_pointer(), at, 0);
  const Json::json_pointer& target = at[pick(rng, at.size())];
  switch (pick(rng, 7)) {
    case 0: m[target] = nested(std::min<std::size_t>(edge_count(rng), 2000), pick(rng, 2) == 0); break;
    case 1: {  // a huge array where the reader iterates one
      static const char* const arrays[] = {"/cpus", "/plan/spec/cpus", "/plan/spec/pairs", "/platform/warnings"};
      const Json::json_pointer where(arrays[pick(rng, std::size(arrays))]);
      Json a = Json::array();
      const std::size_t n = edge_count(rng);
      for (std::size_t i = 0; i < n; ++i) {
        a.push_back(where.back() == "pairs" ? Json::array({i, i + 1}) : Json(i));
      }
      m[where] = std::move(a);
      break;
    }
    case 2: {  // many keys
      Json o = Json::object();
      const std::size_t n = edge_count(rng);
      for (std::size_t i = 0; i < n; ++i) o["k" + std::to_string(i)] = "v";
      m[pick(rng, 2) == 0 ? Json::json_pointer("/pair_header") : target] = std::move(o);
      break;
    }
    case 3: m[target] = other_type(rng, m[target]); break;
    case 4: m[target] = edge_number(rng); break;
    case 5: m["/plan/spec/rounds_per_visit"_json_pointer] = pick(rng, 400); break;  // visits that claim more
    default: m[target] = nested(std::size_t{62} + pick(rng, 5), pick(rng, 2) == 0); break;
  }
}

std::string pack(const std::string& ops, const std::string& manifest, const std::vector<std::string_view>& rounds) {
  std::string out;
  if (!ops.empty()) out = std::string(kDirHeader) + ops + std::string(kDirHeaderEnd);
  out += manifest;
  for (const std::string_view part : rounds) out += std::string(kFileSeparator) + std::string(part);
  return out;
}

}  // namespace

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  Rng rng(seed);
  if (pick(rng, 3) == 0) return LLVMFuzzerMutate(data, size, max_size);
  const Packed packed = unpack(std::string_view(reinterpret_cast<const char*>(data), size));
  std::vector<std::string_view> parts = split(packed.rest);
  std::string ops = packed.ops;
  std::string manifest(parts[0]);
  parts.erase(parts.begin());
  if (pick(rng, 4) == 0) {  // a directory operation
    static constexpr std::string_view operations = "FZLNDMW", targets = "mtr01e E";
    ops += operations[pick(rng, operations.size())];
    ops += targets[pick(rng, targets.size())];
    if (ops.size() > 16) ops.erase(0, 2);
  } else {
    // Not JSON, or too deep to copy safely here: bytes instead.
    try {
      tscaudit::check_json_depth(manifest, "manifest", 2000);
    } catch (const tscaudit::InputError&) {
      return LLVMFuzzerMutate(data, size, max_size);
    }
    Json m = Json::parse(manifest, nullptr, false);
    if (m.is_discarded() || !m.is_object()) return LLVMFuzzerMutate(data, size, max_size);
    try {
      mutate_manifest(m, rng);
    } catch (const Json::exception&) {  // a pointer into a value of another type
      return LLVMFuzzerMutate(data, size, max_size);
    }
    manifest = m.dump(pick(rng, 2) == 0 ? -1 : 2, ' ', false, Json::error_handler_t::replace);
  }
  const std::string out = pack(ops, manifest, parts);
  if (out.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
  std::memcpy(data, out.data(), out.size());
  return out.size();
}
#endif  // TSCAUDIT_FUZZ_MUTATOR
