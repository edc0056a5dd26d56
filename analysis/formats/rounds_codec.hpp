// The rounds of one visit as a run directory stores them (docs/formats.md, "Run
// directory"): delta text, compressed as one zstd frame, so that frames are independent,
// `zstdcat` shows them to a person, and a file cut short loses at most its last frame.
//
// The text of a visit (lines end with '\n'):
//
//   # visit a=0 b=1 visit=2 rounds=3 quantum_ticks=26 first_seq=6000
//   # error: fewer rounds than asked for          only when the visit failed
//   # columns: t1-t1_prev,t2-t1,t3-t2,t4-t3,flags[,seq]
//   1000000000000,310,52,-250,0                   first round: t1 - 0, so t1 itself
//   520,312,49,-248,0
//   518,305,55,-251,0,6010                        a sixth field: the seq jumps here
//
// Every difference is taken modulo 2^64 and written as a signed 64-bit decimal, so any
// four counters round-trip exactly (a wrap of the counter, a cross-clock difference below
// zero, a first t1 beyond 2^63 written negative). seq is first_seq for the first round and
// the previous seq + 1 after it, unless a sixth field gives it. `visit` counts from 0.
// A reader takes the keys of the visit line in any order and ignores keys it does not know
// and '#' lines other than `# visit` (first) and `# error:` (before the rounds): a later
// version may add either without breaking this one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/run.hpp"

namespace tscaudit {

/// The zstd level of every visit frame. Measured on a simulated 3000-round visit
/// (docs/formats.md, "Run directory"): level 3 is the library's default speed/size point.
inline constexpr int kVisitZstdLevel = 3;

/// What the first lines of a visit say.
struct VisitHeader {
  int a = 0;                        // initiator CPU, >= 0
  int b = 0;                        // responder CPU, >= 0
  std::uint64_t visit = 0;          // index of the visit among the pair's, from 0
  std::uint64_t rounds = 0;         // rounds that follow
  std::uint64_t quantum_ticks = 1;  // the largest quantum either side saw in this visit
  std::uint64_t first_seq = 0;      // seq of the first round (of the next one, without rounds)
  std::string error;                // empty: the visit ended well; one line
};

/// Appends the text of one visit to `out`. header.rounds is ignored: rounds.size() is
/// written. Round i is written with seq seq_offset + rounds[i].seq (first_seq is that of
/// rounds[0] when there is one, header.first_seq otherwise). A line end in header.error
/// becomes a space. \pre seq_offset + rounds[i].seq <= kMaxSeq.
void append_visit_text(std::string& out, const VisitHeader& header, std::span<const Round> rounds,
                       std::uint64_t seq_offset = 0);

/// The text of one visit compressed as one zstd frame (level kVisitZstdLevel, content
/// checksum on, content size recorded).
/// \throws RuntimeError when zstd fails (out of memory).
std::string compress_visit(const VisitHeader& header, std::span<const Round> rounds, std::uint64_t seq_offset = 0);

/// `text` compressed as one zstd frame, as compress_visit does it: for text made elsewhere
/// (a tool that writes rounds, a test of the reader). \throws RuntimeError as above.
std::string compress_visit_text(std::string_view text);

/// Parses the text of one visit; appends its rounds to `*rounds` when `rounds` is not null
/// (when it is null, only the visit line is read).
/// `source` names the text in messages: "SOURCE:LINE:COLUMN: what" (lines from 1).
/// \throws InputError for a missing or malformed visit line, a round line that is not
///         5 or 6 numbers, a seq beyond 2^56 - 1 or not after the previous one, flags
///         beyond 255, or a round count other than the visit line's.
VisitHeader parse_visit_text(std::string_view text, std::string_view source, std::vector<Round>* rounds);

/// Decompresses one whole frame (as next_frame found it) and parses it, like
/// parse_visit_text; the text is never held whole. With `rounds` null only the visit line
/// is decompressed and read (what an index needs; error stays empty). With `rounds`, a frame
/// that says it decompresses to more than max_frame_content_bytes is refused before a byte
/// is decompressed, and one that does not say is stopped there.
/// \throws InputError for a frame that does not decompress (corrupt, checksum wrong,
///         truncated, too large) or whose text is malformed; "SOURCE:LINE:COLUMN" as above.
VisitHeader decode_visit_frame(std::string_view frame, std::string_view source, std::vector<Round>* rounds);

/// The most a visit's frame may decompress to: kMaxFrameRatio times its own size, and
/// kFrameSlackBytes more (a small visit's header and rounds compress less). A visit's text
/// compresses 2 to 3 times (`zstd -lv` on the run directories of tests/data, simulated and
/// measured); a frame that claims far more is not a visit a writer made, and decompressing it
/// would cost memory the file does not hold (docs/formats.md, "Run directory", "Limits").
inline constexpr std::uint64_t kMaxFrameRatio = 256;
inline constexpr std::uint64_t kFrameSlackBytes = 4096;

/// kMaxFrameRatio × frame_bytes + kFrameSlackBytes, saturated.
constexpr std::uint64_t max_frame_content_bytes(std::uint64_t frame_bytes) {
  return frame_bytes > (UINT64_MAX - kFrameSlackBytes) / kMaxFrameRatio ? UINT64_MAX
                                                                         : frame_bytes * kMaxFrameRatio + kFrameSlackBytes;
}

/// What the header of the zstd frame at frame[0] says it decompresses to (ZSTD_getFrameContentSize);
/// nullopt when it does not say (written by a stream), or the header is not whole or not zstd's.
std::optional<std::uint64_t> frame_content_bytes(std::string_view frame);

/// Why the frame is too large to decompress ("its zstd header says it decompresses to N bytes,
/// more than 256 times its M bytes and 4 KiB"), or "" when it is not.
std::string frame_too_large(std::string_view frame);

/// Where the next zstd frame of a byte sequence ends.
enum class FrameKind {
  visit,      // a whole zstd frame: a visit
  skippable,  // a zstd skippable frame: no visit, read past (room for later versions)
  truncated,  // the bytes end inside a frame: more may follow, or the file was cut short
  not_zstd,   // no zstd frame starts here (magic number wrong)
  corrupt,    // a frame starts here but its block structure is broken
};

struct FrameExtent {
  FrameKind kind = FrameKind::not_zstd;
  std::size_t size_bytes = 0;  // for visit and skippable: the frame's compressed size
  std::string problem;         // for not_zstd and corrupt: what zstd said
};

/// The frame that starts at bytes[0]. \pre !bytes.empty().
FrameExtent next_frame(std::string_view bytes);

/// What the start of a frame that the input ends inside says: its visit line (error
/// empty) when that much decompresses, nullopt when not enough was there.
/// \throws InputError when what is there does not decompress (not a cut, a corruption).
std::optional<VisitHeader> peek_truncated_frame(std::string_view bytes, std::string_view source);

}  // namespace tscaudit
