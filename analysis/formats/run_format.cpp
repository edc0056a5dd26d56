#include "formats/run_format.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <exception>
#include <iterator>
#include <optional>
#include <vector>

#include "core/errors.hpp"
#include "core/files.hpp"
#include "core/schema_name.hpp"
#include "formats/text_fields.hpp"
#include "formats/text_lines.hpp"
#include "core/format.hpp"

namespace tscaudit {
namespace {

constexpr std::size_t kFlushBytes = 1u << 20;

void append_metadata(std::string& out, const Metadata& meta, bool skip_schema) {
  for (const auto& [key, value] : meta.entries()) {
    if (skip_schema && key == "schema") continue;
    append_metadata_line(out, key, value);
  }
}

enum class Column { seq, t1, t2, t3, t4, flags, a, b, send, recv, other };

Column column_of(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, Column>, 10> known = {{
      {"seq", Column::seq},
      {"t1", Column::t1},
      {"t2", Column::t2},
      {"t3", Column::t3},
      {"t4", Column::t4},
      {"flags", Column::flags},
      {"a", Column::a},
      {"b", Column::b},
      {"send", Column::send},
      {"recv", Column::recv},
  }};
  for (const auto& [n, c] : known) {
    if (n == name) return c;
  }
  return Column::other;
}

/// Byte columns (from 1) of the fields that a later check may name; 0 when absent.
struct RoundColumns {
  std::size_t seq = 0;
};

/// Takes a run line by line (from a string or a file read in chunks) and builds the Run.
class RunParser {
 public:
  explicit RunParser(std::string_view source) : source_(printable_text(source)) {}

  /// Room for `rounds` rounds, taken when the first round arrives (a file that fails
  /// before it never allocates) and only if the memory is there: it is a hint.
  void reserve(std::size_t rounds) { reserve_rounds_ = rounds; }

  /// One line, without its line end (for_each_line). `terminated` is false only for a last line that the
  /// input ended in the middle of.
  void line(std::string_view line, std::size_t line_no, bool terminated) {
    line_no_ = line_no;
    if (line.empty()) return;
    if (line.front() == '#') {
      metadata(line);
      return;
    }
    if (!run_.trailer.entries().empty()) {
      fail(1, "a round after the trailer metadata (rounds must come before the closing '# key: value' lines)");
    }
    if (!have_header_row_) {
      parse_header_row(line);
      have_header_row_ = true;
      return;
    }
    if (!terminated) {
      // A file cut mid-line. Our own runs (with a schema line) end every line, so there
      // the last line is cut whatever it holds: "4000" cut to "40" still parses. An
      // import may lack the last line end: there the line is kept if it is a whole round.
      if (run_.header.get("schema")) {
        run_.cut_line = line_no_;
        return;
      }
      try {
        add_round(line);
      } catch (const InputError&) {
        run_.cut_line = line_no_;
      }
      return;
    }
    add_round(line);
  }

  Run finish() {
    if (!have_header_row_) fail_at_end("no column header row (expected e.g. 't1,t2,t3,t4')");
    if (run_.rounds.empty()) fail_at_end("no rounds after the column header row");
    if (const auto schema = run_.header.get("schema"); schema && current_schema_name(*schema) != kRunSchema) {
      throw InputError(std::string(source_) + ": unknown schema '" + printable(*schema) + "' (this version reads " +
                       std::string(kRunSchema) + ")");
    }
    check_repeated_seq();
    return std::move(run_);
  }

 private:
  [[noreturn]] void fail(std::size_t column, const std::string& what) const { fail_at(line_no_, column, what); }
  [[noreturn]] void fail_at(std::size_t line_no, std::size_t column, const std::string& what) const {
    throw InputError(std::string(source_) + ":" + std::to_string(line_no) + ":" + std::to_string(column) + ": " + what);
  }
  [[noreturn]] void fail_at_end(const std::string& what) const { throw InputError(std::string(source_) + ": " + what); }

  /// A '#' line: a comment, or `# key: value` metadata (header before the first round,
  /// trailer after it). The keys the analysis reads as numbers are checked here, where
  /// the line is known.
  void metadata(std::string_view line) {
    auto kv = parse_metadata_line(line);
    if (!kv) return;
    const std::string& key = kv->first;
    if (key == "quantum_ticks") check_metadata_number(line, key, kv->second, 1, kMaxMetadataQuantumTicks);
    if (key == "tsc_hz") check_metadata_number(line, key, kv->second, 0, kMaxMetadataTscHz);
    const bool header = run_.rounds.empty();
    Metadata& meta = header ? run_.header : run_.trailer;
    if (meta.entries().size() >= kMaxMetadataKeys && !meta.get(key)) {
      fail(1, "more than " + std::to_string(kMaxMetadataKeys) + " metadata keys in the " +
                  (header ? "header" : "trailer"));
    }
    meta.set(std::move(kv->first), std::move(kv->second));
  }

  void check_metadata_number(std::string_view line, std::string_view key, std::string_view value, std::uint64_t lo,
                             std::uint64_t hi) const {
    // The key is [a-z0-9_]: its ':' is the first one; the value starts after the spaces.
    const std::size_t start = line.find_first_not_of(' ', line.find(':') + 1);
    const std::size_t column = (start == std::string_view::npos ? line.size() : start) + 1;
    std::uint64_t v = 0;
    const FieldProblem problem = parse_u64_field(value, v);
    if (problem != FieldProblem::ok) {
      fail(column, std::string(key) + ": " + field_problem_message(problem, value, "an unsigned decimal number"));
    }
    if (v < lo || v > hi) {
      fail(column, std::string(key) + " " + std::to_string(v) + " is out of range [" + std::to_string(lo) + ", " +
                       std::to_string(hi) + "]");
    }
  }

  void parse_header_row(std::string_view line) {
    // The first line that is not a comment: where a binary or compressed file shows.
    if (const std::size_t c = first_control_byte(line); c != std::string_view::npos) {
      fail_not_text(source_, line_no_, line, c + 1);
    }
    delimiter_ = line.find('\t') != std::string_view::npos ? '\t' : ',';
    std::size_t start = 0;
    while (true) {
      const std::size_t end = std::min(line.find(delimiter_, start), line.size());
      const std::string_view name = trim(line.substr(start, end - start), " ");
      const Column c = column_of(name);
      if (c != Column::other) {
        for (Column seen : columns_) {
          if (seen == c) fail(start + 1, "column '" + printable(name) + "' appears twice");
        }
      }
      columns_.push_back(c);
      if (end == line.size()) break;
      start = end + 1;
    }
    for (auto [c, name] : {std::pair{Column::t1, "t1"}, std::pair{Column::t2, "t2"}, std::pair{Column::t3, "t3"},
                           std::pair{Column::t4, "t4"}}) {
      bool found = false;
      for (Column seen : columns_) found = found || seen == c;
      if (!found) fail(1, std::string("the column header lacks required column '") + name + "'");
    }
    for (Column seen : columns_) has_seq_ = has_seq_ || seen == Column::seq;
  }

  std::uint64_t parse_u64(std::string_view field, std::size_t column) const {
    std::uint64_t v = 0;
    const FieldProblem problem = parse_u64_field(field, v);
    if (problem != FieldProblem::ok) fail(column, field_problem_message(problem, field, "an unsigned decimal number"));
    return v;
  }

  /// Per-row pair and variant columns must agree with every other row and with the
  /// metadata: one run is one ordered pair with one pair of variants. The first row's
  /// value is kept, so later rows compare with it, not with the metadata.
  void check_constant(std::size_t slot, std::string_view key, std::string_view value, std::size_t column) {
    std::optional<std::string>& seen = constants_[slot];
    if (!seen) {
      if (auto existing = run_.header.get(key)) {
        seen = std::string(*existing);
      } else {
        run_.header.set(std::string(key), std::string(value));
        seen = std::string(value);
      }
    }
    if (*seen != value) {
      fail(column, std::string(key) + " '" + printable(value) + "' differs from '" + printable(*seen) +
                       "' earlier (one run holds one pair)");
    }
  }

  Round parse_round(std::string_view line, RoundColumns& at) {
    Round r;
    r.seq = run_.rounds.size() & kMaxSeq;  // the bit-field mask; no run holds 2^56 rounds
    std::size_t start = 0;
    std::size_t index = 0;
    while (true) {
      const std::size_t end = std::min(line.find(delimiter_, start), line.size());
      if (index >= columns_.size()) {
        fail(start + 1, "more fields than the " + std::to_string(columns_.size()) + " columns of the header");
      }
      const std::string_view field = trim(line.substr(start, end - start), " ");
      const std::size_t column = start + 1;
      switch (columns_[index]) {
        case Column::seq: {
          const std::uint64_t seq = parse_u64(field, column);
          if (seq > kMaxSeq) fail(column, "seq '" + printable(field) + "' beyond 2^56 - 1");
          r.seq = seq & kMaxSeq;  // checked above; the mask tells the bit-field so
          at.seq = column;
          break;
        }
        case Column::t1: r.t1 = parse_u64(field, column); break;
        case Column::t2: r.t2 = parse_u64(field, column); break;
        case Column::t3: r.t3 = parse_u64(field, column); break;
        case Column::t4: r.t4 = parse_u64(field, column); break;
        case Column::flags: {
          const std::uint64_t f = parse_u64(field, column);
          if (f > kMaxFlags) fail(column, "flags '" + printable(field) + "' beyond 8 bits (at most 255)");
          r.flags = f & kMaxFlags;
          break;
        }
        case Column::a:
          if (!constants_[0] || *constants_[0] != field) parse_u64(field, column);
          check_constant(0, "a", field, column);
          break;
        case Column::b:
          if (!constants_[1] || *constants_[1] != field) parse_u64(field, column);
          check_constant(1, "b", field, column);
          break;
        case Column::send: check_constant(2, "send", field, column); break;
        case Column::recv: check_constant(3, "recv", field, column); break;
        case Column::other: break;
      }
      ++index;
      if (end == line.size()) break;
      start = end + 1;
    }
    if (index != columns_.size()) {
      fail(line.size() + 1,
           "found " + std::to_string(index) + " fields, the header has " + std::to_string(columns_.size()));
    }
    return r;
  }

  void add_round(std::string_view line) {
    if (run_.rounds.empty()) start_rounds();
    RoundColumns at;
    const Round r = parse_round(line, at);
    if (has_seq_) note_seq(r.seq, at.seq);
    run_.rounds.push_back(r);
  }

  // A round whose counter runs backwards within it (t4 before t1, t3 before t2) is kept,
  // in imports as in our own runs: it is evidence for the analysis (an early read, a
  // moved vCPU, a counter that jumped), which counts it (docs/formats.md, Import rules).
  void start_rounds() {
    if (reserve_rounds_ > 0) {
      try {
        run_.rounds.reserve(reserve_rounds_);
      } catch (const std::exception&) {  // bad_alloc, length_error: the rounds grow as they come
      }
      reserve_rounds_ = 0;
    }
  }

  /// The seq column may go backwards (a table sorted by something else) but two rows
  /// cannot be the same round. Increasing seqs (every measured run) cost one comparison;
  /// from the first row that does not increase on, the column of each row's seq and the
  /// line of each round are kept so that finish() can name a repeat.
  void note_seq(std::uint64_t seq, std::size_t column) {
    const std::size_t i = run_.rounds.size();
    if (!seq_unordered_) {
      if (i == 0 || seq > last_seq_) {
        last_seq_ = seq;
        note_line(i);
        return;
      }
      if (seq == last_seq_) {
        fail(column, "seq " + std::to_string(seq) + " repeats the seq of line " + std::to_string(line_of_round(i - 1)) +
                         " (two rows cannot be the same round)");
      }
      seq_unordered_ = true;
      first_unordered_ = i;
    }
    note_line(i);
    seq_columns_.push_back(column);
  }

  /// Remembers the line of round i, as stretches of rounds on consecutive lines.
  void note_line(std::size_t i) {
    if (i - stretch_round_ + stretch_line_ != line_no_ || i == 0) {
      line_marks_.emplace_back(i, line_no_);
      stretch_round_ = i;
      stretch_line_ = line_no_;
    }
  }

  [[nodiscard]] std::size_t line_of_round(std::size_t i) const {
    const auto mark = std::prev(std::upper_bound(line_marks_.begin(), line_marks_.end(), i,
                                                 [](std::size_t v, const auto& m) { return v < m.first; }));
    return mark->second + (i - mark->first);
  }

  /// After the last round of a table whose seqs do not always increase: the first row,
  /// in file order, whose seq an earlier row already has. Sorts the round indices by
  /// (seq, index): 8 bytes per round, only for such tables.
  void check_repeated_seq() const {
    if (!seq_unordered_) return;
    const std::vector<Round>& rounds = run_.rounds;
    std::vector<std::size_t> order(rounds.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
      return rounds[x].seq != rounds[y].seq ? rounds[x].seq < rounds[y].seq : x < y;
    });
    std::size_t repeat = rounds.size(), first = 0;
    for (std::size_t k = 1; k < order.size(); ++k) {
      if (rounds[order[k]].seq == rounds[order[k - 1]].seq && order[k] < repeat) {
        repeat = order[k];
        std::size_t g = k - 1;  // the first row of this seq
        while (g > 0 && rounds[order[g - 1]].seq == rounds[order[k]].seq) --g;
        first = order[g];
      }
    }
    if (repeat == rounds.size()) return;
    // A repeat always lies at or after the first row that did not increase.
    fail_at(line_of_round(repeat), seq_columns_[repeat - first_unordered_],
            "seq " + std::to_string(rounds[repeat].seq) + " repeats the seq of line " +
                std::to_string(line_of_round(first)) + " (two rows cannot be the same round)");
  }

  std::string source_;
  std::size_t line_no_ = 0;
  char delimiter_ = ',';
  bool have_header_row_ = false;
  bool has_seq_ = false;
  std::size_t reserve_rounds_ = 0;
  Run run_;
  std::vector<Column> columns_;
  std::array<std::optional<std::string>, 4> constants_;  // a, b, send, recv as the first row gave them
  std::uint64_t last_seq_ = 0;
  bool seq_unordered_ = false;
  std::size_t first_unordered_ = 0;
  std::vector<std::size_t> seq_columns_;                         // from round first_unordered_ on
  std::vector<std::pair<std::size_t, std::size_t>> line_marks_;  // (round index, its line): stretch starts
  std::size_t stretch_round_ = 0, stretch_line_ = 0;             // the last of line_marks_
};

}  // namespace

void write_run(const Run& run, const TextSink& sink) {
  std::string out;
  out.reserve(kFlushBytes + 4096);
  out += "# schema: ";
  out += kRunSchema;
  out += '\n';
  append_metadata(out, run.header, /*skip_schema=*/true);
  out += "seq,t1,t2,t3,t4,flags\n";
  for (const Round& r : run.rounds) {
    append_u64(out, r.seq);
    for (std::uint64_t v : {r.t1, r.t2, r.t3, r.t4, std::uint64_t{r.flags}}) {
      out += ',';
      append_u64(out, v);
    }
    out += '\n';
    if (out.size() >= kFlushBytes) {
      sink(out);
      out.clear();
    }
  }
  append_metadata(out, run.trailer, /*skip_schema=*/true);
  sink(out);
}

Run parse_run(std::string_view text, std::string_view source) {
  if (text.empty()) throw InputError(printable_text(source) + ": empty file");
  RunParser parser(source);
  for_each_line(text, source, [&](std::string_view line, std::size_t line_no, bool terminated) {
    parser.line(line, line_no, terminated);
  });
  return parser.finish();
}

Run read_run_stream(std::FILE* file, std::string_view source, std::size_t chunk_bytes, std::size_t size_hint) {
  RunParser parser(source);
  // About 66 bytes per round in a measured run: reserving from the size avoids the
  // doubling copies (two vectors alive at once) while the rounds arrive.
  if (size_hint > 0) parser.reserve(size_hint / 64 + 16);
  const std::size_t total = for_each_line(
      file, source, chunk_bytes,
      [&](std::string_view line, std::size_t line_no, bool terminated) { parser.line(line, line_no, terminated); });
  if (total == 0) throw InputError(printable_text(source) + ": empty file");
  return parser.finish();
}

Run read_run_file(const std::string& path) {
  if (path == "-") return read_run_stream(stdin, "<stdin>", kReadChunkBytes, 0);
  const FilePtr file = open_input_file(path);
  // Only a regular file's size says how many rounds to expect (a pipe or device has none),
  // and only the bytes it really holds: a sparse file of 1 TB and a few bytes reads as
  // zeros and must not reserve rounds for a terabyte.
  struct stat st {};
  const std::size_t size =
      ::fstat(::fileno(file.get()), &st) == 0 && S_ISREG(st.st_mode)
          ? static_cast<std::size_t>(std::min<std::int64_t>(st.st_size, std::int64_t{st.st_blocks} * 512))
          : 0;
  return read_run_stream(file.get(), path, kReadChunkBytes, size);
}

std::optional<std::string> incomplete_reason(const Run& run) {
  const auto status = run.trailer.get("status");
  // A run rebuilt from a run directory says why it was cut short (formats/run_dir.hpp).
  if (!status) {
    if (const auto cut = run.trailer.get("cut_short")) return "cut short: " + std::string(*cut);
    // An import (no schema line) has no status line by design: only its last line can be cut.
    if (!run.header.get("schema")) {
      if (run.cut_line == 0) return std::nullopt;
      return "line " + std::to_string(run.cut_line) + " has no line end and is not a whole round: it is left out";
    }
    std::string reason = "no '# status:' line after the rounds: the file was cut short";
    if (run.cut_line != 0) reason += " (in line " + std::to_string(run.cut_line) + ", which is left out)";
    return reason;
  }
  if (*status == kStatusComplete) return std::nullopt;
  std::string reason = "status is '" + printable(*status) + "'";
  if (const auto error = run.trailer.get("error")) reason += ": " + printable_text(*error);
  return reason;
}

}  // namespace tscaudit
