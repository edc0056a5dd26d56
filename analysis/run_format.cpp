#include "run_format.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>

#include "errors.hpp"
#include "text_fields.hpp"
#include "text_lines.hpp"

namespace tscsync {
namespace {

constexpr std::size_t kFlushBytes = 1u << 20;

void append_u64(std::string& out, std::uint64_t v) {
  std::array<char, 24> buf{};
  const auto [ptr, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  static_cast<void>(ec);  // 24 characters always hold a uint64_t
  out.append(buf.data(), ptr);
}

void append_metadata(std::string& out, const Metadata& meta, bool skip_schema) {
  for (const auto& [key, value] : meta.entries()) {
    if (skip_schema && key == "schema") continue;
    append_metadata_line(out, key, value);
  }
}

enum class Column { seq, t1, t2, t3, t4, flags, a, b, send, recv, other };

Column column_of(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, Column>, 10> known = {{
      {"seq", Column::seq}, {"t1", Column::t1}, {"t2", Column::t2}, {"t3", Column::t3},
      {"t4", Column::t4}, {"flags", Column::flags}, {"a", Column::a}, {"b", Column::b},
      {"send", Column::send}, {"recv", Column::recv},
  }};
  for (const auto& [n, c] : known) {
    if (n == name) return c;
  }
  return Column::other;
}

/// Takes a run line by line (from a string or a file read in chunks) and builds the Run.
class Parser {
 public:
  explicit Parser(std::string_view source) : source_(source) {}

  void reserve(std::size_t rounds) { run_.rounds.reserve(rounds); }

  /// One line, without its line end (for_each_line). `terminated` is false only for a last line that the
  /// input ended in the middle of: if that one is not a whole round it is left out.
  void line(std::string_view line, std::size_t line_no, bool terminated) {
    line_no_ = line_no;
    if (line.empty()) return;
    if (line.front() == '#') {
      if (auto kv = parse_metadata_line(line)) {
        Metadata& meta = run_.rounds.empty() ? run_.header : run_.trailer;
        meta.set(std::move(kv->first), std::move(kv->second));
      }
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
      // A run cut mid-line: keep the line only if it is whole.
      try {
        run_.rounds.push_back(parse_round(line, run_));
      } catch (const InputError&) {
        run_.cut_line = line_no_;
      }
      return;
    }
    run_.rounds.push_back(parse_round(line, run_));
  }

  Run finish() {
    if (!have_header_row_) fail_at_end("no column header row (expected e.g. 't1,t2,t3,t4')");
    if (run_.rounds.empty()) fail_at_end("no rounds after the column header row");
    if (const auto schema = run_.header.get("schema"); schema && *schema != kRunSchema) {
      throw InputError(std::string(source_) + ": unknown schema '" + printable(*schema) +
                       "' (this version reads " + std::string(kRunSchema) + ")");
    }
    return std::move(run_);
  }

 private:
  [[noreturn]] void fail(std::size_t column, const std::string& what) const {
    throw InputError(std::string(source_) + ":" + std::to_string(line_no_) + ":" +
                     std::to_string(column) + ": " + what);
  }
  [[noreturn]] void fail_at_end(const std::string& what) const {
    throw InputError(std::string(source_) + ": " + what);
  }

  void parse_header_row(std::string_view line) {
    delimiter_ = line.find('\t') != std::string_view::npos ? '\t' : ',';
    std::size_t start = 0;
    while (true) {
      const std::size_t end = std::min(line.find(delimiter_, start), line.size());
      const std::string_view name = trim_spaces(line.substr(start, end - start));
      const Column c = column_of(name);
      if (c != Column::other) {
        for (Column seen : columns_) {
          if (seen == c) fail(start + 1, "column '" + std::string(name) + "' appears twice");
        }
      }
      columns_.push_back(c);
      if (end == line.size()) break;
      start = end + 1;
    }
    for (auto [c, name] : {std::pair{Column::t1, "t1"}, std::pair{Column::t2, "t2"},
                           std::pair{Column::t3, "t3"}, std::pair{Column::t4, "t4"}}) {
      bool found = false;
      for (Column seen : columns_) found = found || seen == c;
      if (!found) fail(1, std::string("the column header lacks required column '") + name + "'");
    }
  }

  std::uint64_t parse_u64(std::string_view field, std::size_t column) const {
    std::uint64_t v = 0;
    const FieldProblem problem = parse_u64_field(field, v);
    if (problem != FieldProblem::ok) fail(column, field_problem_message(problem, field, "an unsigned decimal number"));
    return v;
  }

  /// Per-row pair and variant columns must agree with every other row and with the
  /// metadata: one run is one ordered pair with one pair of variants.
  void check_constant(Run& run, std::string_view key, std::string_view value, std::size_t column) {
    if (auto existing = run.header.get(key)) {
      if (*existing != value) {
        fail(column, std::string(key) + " '" + printable(value) + "' differs from '" +
                         printable(*existing) + "' earlier (one run holds one pair)");
      }
      return;
    }
    run.header.set(std::string(key), std::string(value));
  }

  Round parse_round(std::string_view line, Run& run) {
    Round r;
    r.seq = run.rounds.size() & kMaxSeq;  // the bit-field mask; no run holds 2^56 rounds
    std::size_t start = 0;
    std::size_t index = 0;
    while (true) {
      const std::size_t end = std::min(line.find(delimiter_, start), line.size());
      if (index >= columns_.size()) {
        fail(start + 1, "more fields than the " + std::to_string(columns_.size()) + " columns of the header");
      }
      const std::string_view field = trim_spaces(line.substr(start, end - start));
      const std::size_t column = start + 1;
      switch (columns_[index]) {
        case Column::seq: {
          const std::uint64_t seq = parse_u64(field, column);
          if (seq > kMaxSeq) fail(column, "seq '" + std::string(field) + "' beyond 2^56 - 1");
          r.seq = seq & kMaxSeq;  // checked above; the mask tells the bit-field so
          break;
        }
        case Column::t1: r.t1 = parse_u64(field, column); break;
        case Column::t2: r.t2 = parse_u64(field, column); break;
        case Column::t3: r.t3 = parse_u64(field, column); break;
        case Column::t4: r.t4 = parse_u64(field, column); break;
        case Column::flags: {
          const std::uint64_t f = parse_u64(field, column);
          if (f > kMaxFlags) fail(column, "flags '" + std::string(field) + "' beyond 8 bits (at most 255)");
          r.flags = f & kMaxFlags;
          break;
        }
        case Column::a: parse_u64(field, column); check_constant(run, "a", field, column); break;
        case Column::b: parse_u64(field, column); check_constant(run, "b", field, column); break;
        case Column::send: check_constant(run, "send", field, column); break;
        case Column::recv: check_constant(run, "recv", field, column); break;
        case Column::other: break;
      }
      ++index;
      if (end == line.size()) break;
      start = end + 1;
    }
    if (index != columns_.size()) {
      fail(line.size() + 1, "found " + std::to_string(index) + " fields, the header has " +
                                std::to_string(columns_.size()));
    }
    return r;
  }

  std::string source_;
  std::size_t line_no_ = 0;
  char delimiter_ = ',';
  bool have_header_row_ = false;
  Run run_;
  std::vector<Column> columns_;
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
  Parser parser(source);
  for_each_line(text, source, [&](std::string_view line, std::size_t line_no, bool terminated) {
    parser.line(line, line_no, terminated);
  });
  return parser.finish();
}

Run read_run_stream(std::FILE* file, std::string_view source, std::size_t chunk_bytes, std::size_t size_hint) {
  Parser parser(source);
  // About 66 bytes per round in a measured run: reserving from the size avoids the
  // doubling copies (two vectors alive at once) while the rounds arrive.
  if (size_hint > 0) parser.reserve(size_hint / 64 + 16);
  const std::size_t total = for_each_line(file, source, chunk_bytes, [&](std::string_view line, std::size_t line_no,
                                                                         bool terminated) {
    parser.line(line, line_no, terminated);
  });
  if (total == 0) throw InputError(std::string(source) + ": empty file");
  return parser.finish();
}

Run read_run_file(const std::string& path) {
  if (path == "-") return read_run_stream(stdin, "<stdin>", kReadChunkBytes, 0);
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) throw IoError("cannot read " + path + ": it is a directory");
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) throw IoError("cannot open " + path + " for reading: " + std::strerror(errno));
  // Only a regular file's size says how many rounds to expect (a pipe or device has none).
  const std::size_t size = S_ISREG(st.st_mode) ? static_cast<std::size_t>(st.st_size) : 0;
  try {
    Run run = read_run_stream(file, path, kReadChunkBytes, size);
    std::fclose(file);
    return run;
  } catch (...) {
    std::fclose(file);
    throw;
  }
}

std::optional<std::string> incomplete_reason(const Run& run) {
  const auto status = run.trailer.get("status");
  if (!status) {
    std::string reason = "no '# status:' line after the rounds: the file was cut short";
    if (run.cut_line != 0) reason += " (in line " + std::to_string(run.cut_line) + ", which is left out)";
    return reason;
  }
  if (*status == kStatusComplete) return std::nullopt;
  std::string reason = "status is '" + std::string(*status) + "'";
  if (const auto error = run.trailer.get("error")) reason += ": " + std::string(*error);
  return reason;
}

}  // namespace tscsync
