// Fuzz harness of the run directory's reader (analysis/formats/run_dir.hpp): the manifest
// and the zstd frames of the rounds files, damage included.
//
// An input becomes a directory. It is cut at every occurrence of the separator
// kFileSeparator ("@@tscaudit-file@@"): the first part is manifest.json, part i (from 1)
// is rounds/cpu-<i-1>.zst, at most kMaxRoundsFiles of them; an empty part is a file that is
// not there (a missing rounds file), and an input without a separator has no rounds/. The
// files are written under one directory per process (mkdtemp once, rewritten per input).
// A real run directory DIR with CPUs 0 and 1 packs so:
//   { cat DIR/manifest.json; for c in 0 1; do printf '@@tscaudit-file@@'; cat DIR/rounds/cpu-$c.zst; done; }
//
// Then: open_run_dir; for every pair it lists, try_read_pair twice; losses() and the notes.
// Findings:
//  - any exception but InputError, a crash, a sanitizer report;
//  - a refusal that is not "FILE: what" or "FILE:LINE:COLUMN: what" with FILE in the
//    directory, or that holds a byte outside printable ASCII; for the manifest, LINE and
//    COLUMN inside its text (in bytes: a CR is a column, as JSON counts);
//  - a pair that reads differently the second time, or whose rounds are not what the index
//    promised less what was lost; losses that change when read again;
//  - a loss outside its file, overlapping another or an indexed visit, or whose text is not
//    printable; a note that is not printable.
#include <stdlib.h>
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
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::vector<std::string_view> parts = split(input);
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

  const auto opened = outcome_of(kTarget, "open_run_dir", [&] { return tscaudit::open_run_dir(dir.string()); });
  if (const auto* message = std::get_if<std::string>(&opened)) {
    check_refusal(*message, manifest);
    return 0;
  }
  const tscaudit::RunDirReader& reader = std::get<tscaudit::RunDirReader>(opened);
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
