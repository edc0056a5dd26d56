// A run: the raw rounds of one ordered pair and the `# key: value` metadata around them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/read_variant.hpp"

namespace tscaudit {

/// Largest round index a Round can hold: seq shares a 64-bit word with the flags so that
/// a round takes 40 bytes (the analysis keeps every round of a pair in memory).
inline constexpr std::uint64_t kMaxSeq = (std::uint64_t{1} << 56) - 1;
/// Largest flags value a Round can hold (bits 0-3 are RoundFlag, 4-7 reserved).
inline constexpr std::uint64_t kMaxFlags = 0xff;

/// One round, raw ticks (RFC 5905 numbering): t1, t4 on the initiator a's counter;
/// t2, t3 on the responder b's counter.
struct Round {
  std::uint64_t t1 = 0;
  std::uint64_t t2 = 0;
  std::uint64_t t3 = 0;
  std::uint64_t t4 = 0;
  std::uint64_t seq : 56 = 0;   // index of the measured round, from 0; <= kMaxSeq
  std::uint64_t flags : 8 = 0;  // RoundFlag bits; <= kMaxFlags

  constexpr Round() = default;
  /// \pre seq <= kMaxSeq, flags <= kMaxFlags (the parser checks what it reads).
  constexpr Round(std::uint64_t seq_, std::uint64_t t1_, std::uint64_t t2_, std::uint64_t t3_, std::uint64_t t4_,
                  std::uint64_t flags_ = 0)
      : t1(t1_), t2(t2_), t3(t3_), t4(t4_), seq(seq_ & kMaxSeq), flags(flags_ & kMaxFlags) {}

  friend constexpr bool operator==(const Round&, const Round&) = default;
};
static_assert(sizeof(Round) == 40, "a round is 40 bytes: the analysis memory target rests on it");

/// Interference seen around a round. Chunk flags apply to every round of the chunk of
/// kChunkRounds rounds in which the measuring thread saw it.
enum RoundFlag : std::uint32_t {
  kFlagSwitchA = 1u << 0,   // a's thread was context-switched during this round's chunk
  kFlagSwitchB = 1u << 1,   // b's thread was context-switched during this round's chunk
  kFlagMigrated = 1u << 2,  // a thread was seen off its CPU at an edge of this chunk
  kFlagStall = 1u << 3,     // this round's rtt exceeds kStallRttFactor times the median rtt
};
inline constexpr std::string_view kFlagLegend = "1=switch_a 2=switch_b 4=migrated 8=stall";

/// Signed differences. Cross-clock values can be negative; unsigned subtraction wraps
/// and the cast brings it back to the signed difference.
constexpr std::int64_t diff_ticks(std::uint64_t later, std::uint64_t earlier) {
  return static_cast<std::int64_t>(later - earlier);
}
/// A tick of a's counter on the estimators' time axis: its signed distance from the
/// reference tick (docs/method.md §3.1: x = t - t_ref).
constexpr std::int64_t x_of(std::uint64_t tick, std::uint64_t t_ref_tick) { return diff_ticks(tick, t_ref_tick); }
/// Forward one-way latency t2 - t1 = delay + offset (cross-clock).
constexpr std::int64_t fwd_ticks(const Round& r) { return diff_ticks(r.t2, r.t1); }
/// Reverse one-way latency t4 - t3 = delay - offset (cross-clock).
constexpr std::int64_t rev_ticks(const Round& r) { return diff_ticks(r.t4, r.t3); }
/// Round trip minus turnaround, (t4 - t1) - (t3 - t2): same-clock on both sides.
constexpr std::int64_t rtt_ticks(const Round& r) { return diff_ticks(r.t4, r.t1) - diff_ticks(r.t3, r.t2); }

/// Rounds ahead that the passes over a run ask the cache for, while they work on the
/// current one: about 2 KiB, which keeps the memory busy while the per-round work runs
/// (measured: about 10 % off the analysis on the development VM).
inline constexpr std::size_t kPrefetchRounds = 48;

/// Asks for rounds[i + kPrefetchRounds] (the last round near the end), without waiting.
/// \pre n >= 1 rounds.
inline void prefetch_ahead(const Round* rounds, std::size_t i, std::size_t n) {
  __builtin_prefetch(rounds + std::min(i + kPrefetchRounds, n - 1));
}

/// `# key: value` lines, in file order. Keys are unique. set and get take O(log n) for n
/// keys (an index beside the lines): a header of many keys from a hostile file costs
/// n log n, not n² (docs/formats.md, "Run directory", "Limits").
class Metadata {
 public:
  /// Sets `key` to `value`: where the key is already, in its place; else as the last line.
  void set(std::string key, std::string value);
  [[nodiscard]] std::optional<std::string_view> get(std::string_view key) const;
  [[nodiscard]] const std::vector<std::pair<std::string, std::string>>& entries() const { return entries_; }

 private:
  std::vector<std::pair<std::string, std::string>> entries_;
  std::map<std::string, std::size_t, std::less<>> index_;  // key -> its place in entries_
};

/// Whom and how a run or a monitor log measured, as its header says: the ordered pair
/// (a initiates, b responds; CPU numbers as written, "?" when absent) and the read
/// variants of its send and receive stamps.
struct PairIdentity {
  std::string a = "?";
  std::string b = "?";
  RecordedVariant send, recv;
};

/// The identity a header records (the keys a, b, send and recv).
PairIdentity pair_identity(const Metadata& header);

struct Run {
  Metadata header;  // provenance and configuration, before the rounds
  std::vector<Round> rounds;
  Metadata trailer;  // end time, counts, status, after the rounds
  /// The number of the last line when the file ended in the middle of it (no newline) and
  /// what was there is not a whole round: it was left out. 0 otherwise.
  std::size_t cut_line = 0;
};

/// The status value of a run whose every round was written.
inline constexpr std::string_view kStatusComplete = "complete";

}  // namespace tscaudit
