// Fuzz harness of the interval log reader (analysis/formats/interval_log.hpp). Each input is read
// twice, whole by parse_interval_log and in chunks by read_interval_log_stream (a stream
// over the same bytes, the chunk size from the input), and the two must agree: the same
// log, or the same message. Findings:
//  - any exception but InputError, a crash, a sanitizer report;
//  - the readers disagree;
//  - a message that breaks the reader contract (fuzz_support.hpp: check_input_error);
//  - a log read although a line is longer than kMaxLineBytes;
//  - an accepted interval that breaks a rule the reader promises to enforce (checked
//    here again, independently: order, counts, the order statistics, the chains);
//  - a log that does not read back the same after interval_log_head/_line/_tail.
#include <array>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "formats/interval_log.hpp"
#include "formats/text_fields.hpp"
#include "fuzz_support.hpp"

namespace {

using tscsync::fuzz::finding;
using tscsync::fuzz::kSource;

constexpr std::string_view kTarget = "interval_log";

/// The log, or nullopt with the message (checked against the reader contract).
struct Outcome {
  std::optional<tscsync::IntervalLog> log;
  std::string message;
};

template <class Read>
Outcome read_checked(std::string_view reader, std::string_view text, Read&& read) {
  try {
    return {read(), {}};
  } catch (const tscsync::InputError& e) {
    if (const std::string problem = tscsync::fuzz::check_input_error(e.what(), text); !problem.empty()) {
      finding(kTarget, std::string(reader) + ": " + problem + ": '" + e.what() + "'");
    }
    return {std::nullopt, e.what()};
  } catch (const std::exception& e) {
    finding(kTarget, std::string(reader) + " threw something other than InputError: " + e.what());
  } catch (...) {
    finding(kTarget, std::string(reader) + " threw something other than a std::exception");
  }
}

bool same_log(const tscsync::IntervalLog& x, const tscsync::IntervalLog& y) {
  return x.header.entries() == y.header.entries() && x.intervals == y.intervals &&
         x.trailer.entries() == y.trailer.entries() && x.cut_line == y.cut_line;
}

/// The rules of one accepted interval (interval_log.hpp, parse_interval_log), written
/// again from the header's words rather than from the reader's code.
void check_interval(const tscsync::IntervalSummary& s, const tscsync::IntervalSummary* before, std::size_t i) {
  if (s.index != i) finding(kTarget, "interval " + std::to_string(s.index) + " read at position " + std::to_string(i));
  if (s.end_tick <= s.start_tick) finding(kTarget, "an interval read with end_tick <= start_tick");
  if (before != nullptr && s.start_tick < before->end_tick) finding(kTarget, "overlapping intervals read");
  if (s.late > s.rounds || s.fwd_negative > s.rounds || s.rev_negative > s.rounds || s.self_inconsistent > s.rounds) {
    finding(kTarget, "an interval read with a count above its rounds");
  }
  for (const auto* stats : {&s.fwd_k, &s.rev_k}) {
    const std::uint64_t negatives = stats == &s.fwd_k ? s.fwd_negative : s.rev_negative;
    for (std::size_t j = 0; j < tscsync::kIntervalKCount; ++j) {
      const tscsync::TimedTicks& t = (*stats)[j];
      const std::uint64_t k = tscsync::kIntervalKs[j];
      if (t.present != (s.rounds >= k))
        finding(kTarget, "an order statistic present without k rounds, or absent with them");
      if (!t.present) continue;
      if (j > 0 && t.value_ticks < (*stats)[j - 1].value_ticks)
        finding(kTarget, "order statistics read descending in k");
      if ((t.value_ticks < 0) != (negatives >= k))
        finding(kTarget, "an order statistic's sign contradicts the negatives");
    }
  }
  const std::int64_t latencies[] = {s.fwd_p50, s.fwd_max, s.rev_p50,  s.rev_max, s.rtt_min,
                                    s.rtt_p50, s.rtt_p99, s.rtt_p999, s.rtt_max};
  if (s.rounds == 0) {
    for (const std::int64_t v : latencies) {
      if (v != 0) finding(kTarget, "a latency read in an interval without rounds");
    }
    return;
  }
  auto last_present = [](const std::array<tscsync::TimedTicks, tscsync::kIntervalKCount>& stats) {
    std::int64_t v = stats[0].value_ticks;
    for (const tscsync::TimedTicks& t : stats) {
      if (t.present) v = t.value_ticks;
    }
    return v;
  };
  const bool chains_hold = s.fwd_k[0].value_ticks <= s.fwd_p50 && s.fwd_p50 <= s.fwd_max &&
                           last_present(s.fwd_k) <= s.fwd_max && s.rev_k[0].value_ticks <= s.rev_p50 &&
                           s.rev_p50 <= s.rev_max && last_present(s.rev_k) <= s.rev_max && s.rtt_min <= s.rtt_p50 &&
                           s.rtt_p50 <= s.rtt_p99 && s.rtt_p99 <= s.rtt_p999 && s.rtt_p999 <= s.rtt_max;
  if (!chains_hold) finding(kTarget, "an interval read whose min <= p50 <= max chains do not hold");
}

/// Writes `log` and reads it back: the intervals and metadata must survive.
void check_round_trip(const tscsync::IntervalLog& log) {
  std::string text = tscsync::interval_log_head(log.header);
  for (const tscsync::IntervalSummary& s : log.intervals) text += tscsync::interval_log_line(s);
  text += tscsync::interval_log_tail(log.trailer);
  const Outcome back_outcome = read_checked("parse_interval_log of the writer's text", text,
                                            [&] { return tscsync::parse_interval_log(text, kSource); });
  if (!back_outcome.log)
    finding(kTarget, "the writer wrote a log that parse_interval_log refuses: " + back_outcome.message);
  const tscsync::IntervalLog* back = &*back_outcome.log;
  if (back->intervals != log.intervals) finding(kTarget, "the intervals differ after writing and reading back");
  if (tscsync::fuzz::as_written(back->header) != tscsync::fuzz::as_written(log.header))
    finding(kTarget, "the header differs after writing and reading back");
  if (tscsync::fuzz::as_written(back->trailer) != tscsync::fuzz::as_written(log.trailer)) {
    finding(kTarget, "the trailer differs after writing and reading back");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // 1..256 bytes a chunk, from the first byte and the length (as in fuzz_run_format.cpp).
  const std::size_t chunk_bytes = 1 + (size == 0 ? 0 : (data[0] + size) % 256);

  const Outcome whole =
      read_checked("parse_interval_log", text, [&] { return tscsync::parse_interval_log(text, kSource); });
  std::FILE* file = tscsync::fuzz::open_memory_stream(text);
  if (file == nullptr) finding(kTarget, "fmemopen failed (not a finding in the reader: the harness cannot run)");
  const Outcome chunked = read_checked("read_interval_log_stream", text,
                                       [&] { return tscsync::read_interval_log_stream(file, kSource, chunk_bytes); });
  std::fclose(file);

  if (whole.log.has_value() != chunked.log.has_value()) {
    finding(kTarget, "one reader refused the input and the other did not (chunk " + std::to_string(chunk_bytes) +
                         "): '" + whole.message + chunked.message + "'");
  }
  if (!whole.log) {
    if (whole.message != chunked.message) {
      finding(kTarget, "the readers refuse with different messages: parse_interval_log '" + whole.message +
                           "', read_interval_log_stream (chunk " + std::to_string(chunk_bytes) + ") '" +
                           chunked.message + "'");
    }
    return 0;
  }
  const tscsync::IntervalLog& log = *whole.log;
  if (!same_log(log, *chunked.log)) {
    finding(kTarget, "the readers read different logs (chunk " + std::to_string(chunk_bytes) + ")");
  }
  if (const std::size_t long_line = tscsync::fuzz::first_long_line(text); long_line != 0) {
    finding(kTarget, "a log was read although line " + std::to_string(long_line) + " is longer than the limit");
  }
  if (log.intervals.empty()) finding(kTarget, "a log without intervals was read");
  for (std::size_t i = 0; i < log.intervals.size(); ++i) {
    check_interval(log.intervals[i], i == 0 ? nullptr : &log.intervals[i - 1], i);
  }
  check_round_trip(log);
  return 0;
}
