#include "formats/rounds_codec.hpp"

#include <zstd.h>
#include <zstd_errors.h>

#include <array>
#include <charconv>
#include <climits>
#include <memory>

#include "core/errors.hpp"
#include "formats/text_fields.hpp"
#include "formats/text_lines.hpp"

namespace tscaudit {
namespace {

constexpr std::string_view kVisitPrefix = "# visit";
constexpr std::string_view kErrorPrefix = "# error:";
constexpr std::string_view kColumnsLine = "# columns: t1-t1_prev,t2-t1,t3-t2,t4-t3,flags[,seq]";

/// Decompressed bytes handed to the line parser at a time.
constexpr std::size_t kOutChunkBytes = std::size_t{64} << 10;

constexpr std::uint32_t kZstdMagic = 0xFD2FB528u;
constexpr std::uint32_t kSkippableMagicMask = 0xFFFFFFF0u;
constexpr std::uint32_t kSkippableMagic = 0x184D2A50u;

/// This thread's zstd context of one kind, created at the first call and freed with the
/// thread. \throws RuntimeError when zstd cannot create it (out of memory).
template <class Ctx, Ctx* (*kCreate)(), std::size_t (*kFree)(Ctx*)>
Ctx* thread_context(const char* kind) {
  struct Free {
    void operator()(Ctx* c) const { kFree(c); }
  };
  thread_local std::unique_ptr<Ctx, Free> ctx;
  if (!ctx) {
    ctx.reset(kCreate());
    if (!ctx) throw RuntimeError(std::string("zstd: cannot create a ") + kind + " context (out of memory)");
  }
  return ctx.get();
}

/// One compression context per thread, reused from visit to visit (creating one costs
/// more than compressing a small visit). Disjoint pairs may write from several threads.
ZSTD_CCtx* visit_cctx() {
  ZSTD_CCtx* cctx = thread_context<ZSTD_CCtx, ZSTD_createCCtx, ZSTD_freeCCtx>("compression");
  ZSTD_CCtx_reset(cctx, ZSTD_reset_session_and_parameters);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, kVisitZstdLevel);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1);
  return cctx;
}

ZSTD_DCtx* visit_dctx() {
  ZSTD_DCtx* dctx = thread_context<ZSTD_DCtx, ZSTD_createDCtx, ZSTD_freeDCtx>("decompression");
  ZSTD_DCtx_reset(dctx, ZSTD_reset_session_and_parameters);
  return dctx;
}

std::uint32_t le32(std::string_view bytes) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) v |= std::uint32_t{static_cast<unsigned char>(bytes[i])} << (8 * i);
  return v;
}

/// Reads the lines of one visit's text, in order, and builds its header and rounds.
class VisitTextParser {
 public:
  VisitTextParser(std::string_view source, std::vector<Round>* rounds) : source_(source), rounds_(rounds) {}

  /// One line without its '\n'. \returns false once nothing more is wanted: the visit
  /// line is read and the caller asked for no rounds.
  bool line(std::string_view line, std::size_t line_no) {
    line_no_ = line_no;
    if (!have_header_) {
      if (!line.starts_with(kVisitPrefix) || (line.size() > kVisitPrefix.size() && line[kVisitPrefix.size()] != ' ')) {
        fail(1, "expected the visit line '# visit a=A b=B visit=V rounds=N quantum_ticks=Q first_seq=S', found '" +
                    printable(line) + "'");
      }
      parse_visit_line(line);
      have_header_ = true;
      return rounds_ != nullptr;  // an index wants the visit line only
    }
    if (!line.empty() && line.front() == '#') {
      if (count_ == 0 && line.starts_with(kErrorPrefix)) header_.error = printable_text(trim(line.substr(8), " "));
      return true;
    }
    add_round(line);
    return true;
  }

  [[nodiscard]] bool have_header() const { return have_header_; }
  [[nodiscard]] const VisitHeader& header() const { return header_; }

  VisitHeader finish() {
    if (!have_header_) throw InputError(std::string(source_) + ": empty visit (no '# visit' line)");
    if (rounds_ != nullptr && count_ != header_.rounds) {
      throw InputError(std::string(source_) + ":" + std::to_string(line_no_) + ": the visit line says rounds=" +
                       std::to_string(header_.rounds) + " but " + std::to_string(count_) + " round lines follow");
    }
    return header_;
  }

 private:
  [[noreturn]] void fail(std::size_t column, const std::string& what) const {
    throw InputError(std::string(source_) + ":" + std::to_string(line_no_) + ":" + std::to_string(column) + ": " +
                     what);
  }

  void parse_visit_line(std::string_view line) {
    enum Key { a, b, visit, rounds, quantum, first_seq, n_keys };
    static constexpr std::array<std::string_view, n_keys> names = {"a",        "b", "visit", "rounds", "quantum_ticks",
                                                                   "first_seq"};
    std::array<bool, n_keys> seen{};
    std::array<std::uint64_t, n_keys> value{};
    std::size_t pos = kVisitPrefix.size();
    while (pos < line.size()) {
      if (line[pos] == ' ') {
        ++pos;
        continue;
      }
      const std::size_t end = std::min(line.find(' ', pos), line.size());
      const std::string_view token = line.substr(pos, end - pos);
      const std::size_t eq = token.find('=');
      if (eq == std::string_view::npos) fail(pos + 1, "'" + printable(token) + "' is not key=value");
      const std::string_view key = token.substr(0, eq);
      for (std::size_t k = 0; k < n_keys; ++k) {
        if (key != names[k]) continue;
        const std::string_view field = token.substr(eq + 1);
        const FieldProblem problem = parse_u64_field(field, value[k]);
        if (problem != FieldProblem::ok) {
          fail(pos + eq + 2,
               std::string(key) + ": " + field_problem_message(problem, field, "an unsigned decimal number"));
        }
        seen[k] = true;
      }
      pos = end;
    }
    for (std::size_t k = 0; k < n_keys; ++k) {
      if (!seen[k]) fail(1, "the visit line lacks " + std::string(names[k]) + "=");
    }
    for (Key k : {a, b}) {
      if (value[k] > static_cast<std::uint64_t>(INT_MAX)) {
        fail(1, std::string(names[k]) + "=" + std::to_string(value[k]) + " is not a CPU number");
      }
    }
    if (value[first_seq] > kMaxSeq) fail(1, "first_seq=" + std::to_string(value[first_seq]) + " beyond 2^56 - 1");
    if (value[quantum] == 0) fail(1, "quantum_ticks=0 (the counter's step is at least 1 tick)");
    header_.a = static_cast<int>(value[a]);
    header_.b = static_cast<int>(value[b]);
    header_.visit = value[visit];
    header_.rounds = value[rounds];
    header_.quantum_ticks = value[quantum];
    header_.first_seq = value[first_seq];
  }

  void add_round(std::string_view line) {
    const char* const begin = line.data();
    const char* const end = begin + line.size();
    const char* p = begin;
    std::array<std::int64_t, 4> d{};
    bool ok = true;
    for (std::size_t k = 0; k < 4 && ok; ++k) {
      const auto [ptr, ec] = std::from_chars(p, end, d[k]);
      ok = ec == std::errc{} && ptr != end && *ptr == ',';
      p = ptr + 1;
    }
    std::uint64_t flags = 0, seq = 0;
    bool has_seq = false;
    if (ok) {
      const auto [ptr, ec] = std::from_chars(p, end, flags);
      ok = ec == std::errc{} && flags <= kMaxFlags && (ptr == end || *ptr == ',');
      if (ok && ptr != end) {
        const auto [sp, sec] = std::from_chars(ptr + 1, end, seq);
        ok = sec == std::errc{} && sp == end && seq <= kMaxSeq;
        has_seq = true;
      }
    }
    if (!ok) diagnose_round(line);
    if (count_ == header_.rounds) fail(1, "more round lines than the visit line's rounds=" + std::to_string(count_));
    if (!has_seq) seq = count_ == 0 ? header_.first_seq : (last_seq_ + 1) & kMaxSeq;
    const std::uint64_t t1 = last_t1_ + static_cast<std::uint64_t>(d[0]);
    const std::uint64_t t2 = t1 + static_cast<std::uint64_t>(d[1]);
    const std::uint64_t t3 = t2 + static_cast<std::uint64_t>(d[2]);
    const std::uint64_t t4 = t3 + static_cast<std::uint64_t>(d[3]);
    rounds_->push_back(Round(seq, t1, t2, t3, t4, flags));
    last_t1_ = t1;
    last_seq_ = seq;
    ++count_;
  }

  /// The slow path of a round line that did not parse: names the first bad field.
  [[noreturn]] void diagnose_round(std::string_view line) const {
    std::size_t start = 0, index = 0;
    while (true) {
      const std::size_t end = std::min(line.find(',', start), line.size());
      const std::string_view field = line.substr(start, end - start);
      if (index >= 6) fail(start + 1, "more than 6 fields (t1-t1_prev,t2-t1,t3-t2,t4-t3,flags[,seq])");
      if (index < 4) {
        std::int64_t v = 0;
        const FieldProblem problem = parse_i64_field(field, v);
        if (problem != FieldProblem::ok) {
          fail(start + 1, field_problem_message(problem, field, "a signed decimal number"));
        }
      } else {
        std::uint64_t v = 0;
        const FieldProblem problem = parse_u64_field(field, v);
        if (problem != FieldProblem::ok) {
          fail(start + 1, field_problem_message(problem, field, "an unsigned decimal number"));
        }
        if (index == 4 && v > kMaxFlags)
          fail(start + 1, "flags '" + printable(field) + "' beyond 8 bits (at most 255)");
        if (index == 5 && v > kMaxSeq) fail(start + 1, "seq '" + printable(field) + "' beyond 2^56 - 1");
      }
      ++index;
      if (end == line.size()) break;
      start = end + 1;
    }
    fail(line.size() + 1, "found " + std::to_string(index) + " fields, a round has 5 or 6");
  }

  std::string_view source_;
  std::vector<Round>* rounds_;
  VisitHeader header_;
  bool have_header_ = false;
  std::size_t line_no_ = 0;
  std::uint64_t count_ = 0;
  std::uint64_t last_t1_ = 0;
  std::uint64_t last_seq_ = 0;
};

/// The lines of a visit's text, as it arrives in pieces, for a VisitTextParser.
class LineFeeder {
 public:
  LineFeeder(std::string_view source, VisitTextParser& parser) : source_(source), lines_(source), parser_(parser) {}

  /// \returns false once the parser wants no more.
  bool feed(std::string_view data) {
    return lines_.feed(data, [&](std::string_view line, std::size_t line_no) {
             return parser_.line(line, line_no) ? LineFlow::next : LineFlow::stop;
           }) == LineFlow::next;
  }

  /// At the end of the text: a last line without '\n' is not what a writer writes.
  void end() const {
    if (lines_.in_line()) {
      throw InputError(std::string(source_) + ":" + std::to_string(lines_.lines() + 1) +
                       ": the visit's text ends in the middle of a line");
    }
  }

 private:
  std::string_view source_;
  ChunkedLines lines_;
  VisitTextParser& parser_;
};

[[noreturn]] void fail_frame(std::string_view source, size_t code) {
  throw InputError(std::string(source) + ": the zstd frame does not decompress (" + ZSTD_getErrorName(code) +
                   "): the file is damaged");
}

/// Streams `frame` through zstd into `feeder`, giving zstd `input_step` bytes of it at a
/// time. \returns true when the frame ended, false when the input ran out first or the
/// feeder wanted no more (then `stopped`).
/// For the header alone a small step matters: zstd decodes every block it has the input
/// for before it returns, so with the whole frame it would decode the rounds' block too,
/// while the header lines are a small block of their own (compress_visit_text).
bool decompress_into(std::string_view frame, std::string_view source, LineFeeder& feeder, bool& stopped,
                     std::size_t input_step) {
  ZSTD_DCtx* dctx = visit_dctx();
  // Uninitialised: zeroing 64 KiB per frame would cost more than an index's small block.
  thread_local std::unique_ptr<char[]> buffer(new char[kOutChunkBytes]);
  ZSTD_inBuffer in{frame.data(), std::min(frame.size(), input_step), 0};
  stopped = false;
  // A frame whose header gives no size (a stream's) is stopped where one that gives it would
  // have been refused (max_frame_content_bytes).
  const std::uint64_t most = max_frame_content_bytes(frame.size());
  std::uint64_t out_bytes = 0;
  while (true) {
    ZSTD_outBuffer o{buffer.get(), kOutChunkBytes, 0};
    const std::size_t ret = ZSTD_decompressStream(dctx, &o, &in);
    if (ZSTD_isError(ret)) fail_frame(source, ret);
    if (o.pos > 0 && !feeder.feed(std::string_view(buffer.get(), o.pos))) {
      stopped = true;
      return false;
    }
    // Checked after the feeder had its chunk: what wants only the header stops before.
    out_bytes += o.pos;
    if (out_bytes > most) {
      throw InputError(std::string(source) + ": the zstd frame decompresses to more than " + std::to_string(most) +
                       " bytes, " + std::to_string(kMaxFrameRatio) + " times its " + std::to_string(frame.size()) +
                       " bytes and " + std::to_string(kFrameSlackBytes) + " more: not a visit");
    }
    if (ret == 0) return true;
    // Output full: call again to drain; otherwise zstd needs input.
    if (o.pos < o.size && in.pos == in.size) {
      if (in.size == frame.size()) return false;
      in.size = std::min(frame.size(), in.size + input_step);
    }
  }
}

/// Input given to zstd at a time when only the header lines are wanted: a visit line and
/// an error line compress to well under this.
constexpr std::size_t kHeaderInputStep = 512;

}  // namespace

void append_visit_text(std::string& out, const VisitHeader& header, std::span<const Round> rounds,
                       std::uint64_t seq_offset) {
  const std::uint64_t first_seq = rounds.empty() ? header.first_seq : (seq_offset + rounds.front().seq) & kMaxSeq;
  out += kVisitPrefix;
  out += " a=";
  append_i64(out, header.a);
  out += " b=";
  append_i64(out, header.b);
  out += " visit=";
  append_u64(out, header.visit);
  out += " rounds=";
  append_u64(out, rounds.size());
  out += " quantum_ticks=";
  append_u64(out, header.quantum_ticks);
  out += " first_seq=";
  append_u64(out, first_seq);
  out += '\n';
  if (!header.error.empty()) {
    out += "# error: ";
    for (char c : header.error) out += (c == '\n' || c == '\r') ? ' ' : c;
    out += '\n';
  }
  out += kColumnsLine;
  out += '\n';
  std::uint64_t last_t1 = 0, last_seq = 0;
  for (std::size_t i = 0; i < rounds.size(); ++i) {
    const Round& r = rounds[i];
    const std::uint64_t seq = (seq_offset + r.seq) & kMaxSeq;
    append_i64(out, diff_ticks(r.t1, last_t1));
    out += ',';
    append_i64(out, diff_ticks(r.t2, r.t1));
    out += ',';
    append_i64(out, diff_ticks(r.t3, r.t2));
    out += ',';
    append_i64(out, diff_ticks(r.t4, r.t3));
    out += ',';
    append_u64(out, r.flags);
    if (i > 0 && seq != ((last_seq + 1) & kMaxSeq)) {
      out += ',';
      append_u64(out, seq);
    }
    out += '\n';
    last_t1 = r.t1;
    last_seq = seq;
  }
}

std::string compress_visit(const VisitHeader& header, std::span<const Round> rounds, std::uint64_t seq_offset) {
  std::string text;
  text.reserve(128 + header.error.size() + rounds.size() * 32);
  append_visit_text(text, header, rounds, seq_offset);
  return compress_visit_text(text);
}

std::string compress_visit_text(std::string_view text) {
  // The leading '#' lines (the visit line, the error, the columns) end a zstd block of
  // their own: an index that wants only them decodes that small block, not the rounds
  // (measured: open_run_dir indexes frames several times faster; docs/formats.md).
  std::size_t head = 0;
  while (head < text.size() && text[head] == '#') {
    const std::size_t nl = text.find('\n', head);
    head = nl == std::string_view::npos ? text.size() : nl + 1;
  }
  ZSTD_CCtx* cctx = visit_cctx();
  ZSTD_CCtx_setPledgedSrcSize(cctx, text.size());
  std::string frame(ZSTD_compressBound(text.size()) + 64, '\0');
  ZSTD_outBuffer out{frame.data(), frame.size(), 0};
  for (const auto& [part, mode] :
       {std::pair{text.substr(0, head), ZSTD_e_flush}, std::pair{text.substr(head), ZSTD_e_end}}) {
    ZSTD_inBuffer in{part.data(), part.size(), 0};
    while (true) {
      const std::size_t left = ZSTD_compressStream2(cctx, &out, &in, mode);
      if (ZSTD_isError(left)) {
        throw RuntimeError(std::string("zstd: cannot compress a visit: ") + ZSTD_getErrorName(left));
      }
      if (left == 0 && in.pos == in.size) break;
      if (out.pos == out.size) {  // not expected: the buffer holds the bound and more
        frame.resize(frame.size() * 2);
        out.dst = frame.data();
        out.size = frame.size();
      }
    }
  }
  frame.resize(out.pos);
  return frame;
}

VisitHeader parse_visit_text(std::string_view text, std::string_view source, std::vector<Round>* rounds) {
  VisitTextParser parser(source, rounds);
  LineFeeder feeder(source, parser);
  if (feeder.feed(text)) feeder.end();
  return parser.finish();
}

std::optional<std::uint64_t> frame_content_bytes(std::string_view frame) {
  const unsigned long long n = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (n == ZSTD_CONTENTSIZE_UNKNOWN || n == ZSTD_CONTENTSIZE_ERROR) return std::nullopt;
  return static_cast<std::uint64_t>(n);
}

std::string frame_too_large(std::string_view frame) {
  const std::optional<std::uint64_t> content = frame_content_bytes(frame);
  if (!content || *content <= max_frame_content_bytes(frame.size())) return "";
  return "its zstd header says it decompresses to " + std::to_string(*content) + " bytes, more than " +
         std::to_string(kMaxFrameRatio) + " times its " + std::to_string(frame.size()) + " bytes and " +
         std::to_string(kFrameSlackBytes) + " more: not a visit";
}

VisitHeader decode_visit_frame(std::string_view frame, std::string_view source, std::vector<Round>* rounds) {
  if (rounds != nullptr) {
    if (const std::string why = frame_too_large(frame); !why.empty()) throw InputError(std::string(source) + ": " + why);
  }
  VisitTextParser parser(source, rounds);
  LineFeeder feeder(source, parser);
  bool stopped = false;
  const bool ended =
      decompress_into(frame, source, feeder, stopped, rounds == nullptr ? kHeaderInputStep : frame.size());
  if (!stopped) {
    if (!ended) throw InputError(std::string(source) + ": the zstd frame ends early: the file is damaged");
    feeder.end();
  }
  return parser.finish();
}

FrameExtent next_frame(std::string_view bytes) {
  FrameExtent e;
  if (bytes.size() < 4) {
    // A frame cut inside its magic number still starts like one.
    std::string magic(4, '\0');
    for (std::size_t i = 0; i < 4; ++i) magic[i] = static_cast<char>((kZstdMagic >> (8 * i)) & 0xff);
    e.kind = std::string_view(magic).starts_with(bytes) ? FrameKind::truncated : FrameKind::not_zstd;
    if (e.kind == FrameKind::not_zstd) e.problem = "no zstd magic number";
    return e;
  }
  const std::uint32_t magic = le32(bytes);
  if (magic != kZstdMagic && (magic & kSkippableMagicMask) != kSkippableMagic) {
    e.kind = FrameKind::not_zstd;
    e.problem = "no zstd magic number";
    return e;
  }
  const std::size_t n = ZSTD_findFrameCompressedSize(bytes.data(), bytes.size());
  if (!ZSTD_isError(n)) {
    e.kind = magic == kZstdMagic ? FrameKind::visit : FrameKind::skippable;
    e.size_bytes = n;
    return e;
  }
  switch (ZSTD_getErrorCode(n)) {
    case ZSTD_error_srcSize_wrong: e.kind = FrameKind::truncated; break;
    case ZSTD_error_prefix_unknown:
      e.kind = FrameKind::not_zstd;
      e.problem = "no zstd magic number";
      break;
    default:
      e.kind = FrameKind::corrupt;
      e.problem = ZSTD_getErrorName(n);
      break;
  }
  return e;
}

std::optional<VisitHeader> peek_truncated_frame(std::string_view bytes, std::string_view source) {
  VisitTextParser parser(source, nullptr);
  LineFeeder feeder(source, parser);
  bool stopped = false;
  if (bytes.size() >= 4 && le32(bytes) == kZstdMagic) decompress_into(bytes, source, feeder, stopped, kHeaderInputStep);
  if (!parser.have_header()) return std::nullopt;
  return parser.header();
}

}  // namespace tscaudit
