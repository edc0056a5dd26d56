// The reader of a plain directory of run files (no manifest): each regular file's header
// names the pair it holds, and a pair's files are read one after another.
#include "formats/run_dir_internal.hpp"

#include <algorithm>
#include <set>
#include <tuple>

#include "core/cpu_list.hpp"
#include "core/errors.hpp"
#include "core/files.hpp"
#include "core/format.hpp"
#include "core/schema_name.hpp"
#include "formats/run_format.hpp"
#include "formats/text_fields.hpp"
#include "formats/text_lines.hpp"

namespace tscaudit {
namespace {

/// Bytes read of a plain file at a time while only its header is wanted.
constexpr std::size_t kHeaderChunkBytes = std::size_t{64} << 10;

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
        const std::string_view name = trim(line.substr(start, end - start), " ");
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

/// DIR/NAME with NAME's bytes outside printable ASCII as \xNN: how messages name a file.
std::string shown_path(const std::string& dir, const std::string& name) { return join_path(dir, printable_text(name)); }

/// `text` with every `from` replaced by `to`.
std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

}  // namespace

void RunDirReader::open_plain_dir() {
  std::set<int> cpus;
  for (const std::string& name : list_dir(path_)) {
    if (name.front() == '.') continue;
    const std::string file = join_path(path_, name);
    if (!is_regular_file(file)) continue;
    if (name == kTopologyName) {
      manifest_.has_topology = true;
      continue;
    }
    // A file name may hold any byte but '/': messages name it printably (shown_path).
    const std::string shown = shown_path(path_, name);
    const auto add_file = [&] {
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
        throw InputError(where(a_wrong ? a : b) + ": " + (a_wrong ? "a " : "b ") + printable(a_wrong ? a.text : b.text) +
                         " disagrees with the file name, which names pair " + pair_text(named->first, named->second));
      }
      PairEntry& entry = pairs_[{*ca, *cb}];
      PlainFile pf;
      pf.path = file;
      pf.shown = shown;
      if (h.send) pf.send = h.send->text, pf.send_line = h.send->line;
      if (h.recv) pf.recv = h.recv->text, pf.recv_line = h.recv->line;
      // One pair, one pair of read variants: rounds read another way are another experiment.
      for (const PlainFile& other : entry.plain) {
        for (auto [mine, theirs, key, value] :
             {std::tuple{&pf.send, &other.send, "send", h.send}, std::tuple{&pf.recv, &other.recv, "recv", h.recv}}) {
          if (!mine->empty() && !theirs->empty() && *mine != *theirs) {
            throw InputError(where(*value) + ": " + key + " '" + printable(*mine) + "' differs from '" +
                             printable(*theirs) + "' in " + other.shown + ", another file of pair " + pair_text(*ca, *cb) +
                             " (one pair is measured with one pair of read variants)");
          }
        }
      }
      entry.plain.push_back(std::move(pf));
      cpus.insert(*ca);
      cpus.insert(*cb);
    };
    try {
      add_file();
    } catch (const InputError& e) {
      if (shown == file) throw;
      throw InputError(replace_all(e.what(), file, shown));
    }
  }
  if (cpus.size() > static_cast<std::size_t>(kMaxMatrixCpus)) {
    throw InputError(path_ + ": its files name " + std::to_string(cpus.size()) + " CPUs, more than the " +
                     std::to_string(kMaxMatrixCpus) + " a run directory may hold");
  }
  manifest_.status = RunDirStatus::complete;
  manifest_.cpus.assign(cpus.begin(), cpus.end());
}

Run RunDirReader::read_plain_pair(int a, int b, const PairEntry& entry) const {
  try {
    return read_plain_files(a, b, entry);
  } catch (const InputError& e) {
    std::string what = e.what();
    for (const PlainFile& f : entry.plain) {
      if (f.shown != f.path) what = replace_all(what, f.path, f.shown);
    }
    throw InputError(what);
  }
}

Run RunDirReader::read_plain_files(int a, int b, const PairEntry& entry) const {
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
    const std::string& shown = entry.plain[k].shown;
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
        cut.push_back(shown + ": " + *reason);
      } else {
        stopped.push_back(shown + ": " + *reason);
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
