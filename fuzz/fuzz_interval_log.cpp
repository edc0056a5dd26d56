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
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/errors.hpp"
#include "formats/interval_log.hpp"
#include "formats/text_fields.hpp"
#include "fuzz_support.hpp"

namespace {

using tscaudit::fuzz::finding;
using tscaudit::fuzz::kSource;

constexpr std::string_view kTarget = "interval_log";

/// A log, or the message of the InputError that refused it.
using Outcome = tscaudit::fuzz::Outcome<tscaudit::IntervalLog>;

/// The outcome of `read`, whose message, if any, must keep the reader contract.
template <class Read>
Outcome read_checked(std::string_view reader, std::string_view text, Read&& read) {
  Outcome o = tscaudit::fuzz::outcome_of(kTarget, reader, std::forward<Read>(read));
  if (const auto* message = std::get_if<std::string>(&o)) {
    if (const std::string problem = tscaudit::fuzz::check_input_error(*message, text); !problem.empty()) {
      finding(kTarget, std::string(reader) + ": " + problem + ": '" + *message + "'");
    }
  }
  return o;
}

/// The message of a refused outcome; empty for a log.
std::string message_of(const Outcome& o) {
  const auto* message = std::get_if<std::string>(&o);
  return message != nullptr ? *message : std::string();
}

/// The rules of one accepted interval (interval_log.hpp, parse_interval_log), written
/// again from the header's words rather than from the reader's code.
void check_interval(const tscaudit::IntervalSummary& s, const tscaudit::IntervalSummary* before, std::size_t i) {
  if (s.index != i) finding(kTarget, "interval " + std::to_string(s.index) + " read at position " + std::to_string(i));
  if (s.end_tick <= s.start_tick) finding(kTarget, "an interval read with end_tick <= start_tick");
  if (before != nullptr && s.start_tick < before->end_tick) finding(kTarget, "overlapping intervals read");
  if (s.late > s.rounds || s.fwd_negative > s.rounds || s.rev_negative > s.rounds || s.self_inconsistent > s.rounds) {
    finding(kTarget, "an interval read with a count above its rounds");
  }
  for (const auto* stats : {&s.fwd_k, &s.rev_k}) {
    const std::uint64_t negatives = stats == &s.fwd_k ? s.fwd_negative : s.rev_negative;
    for (std::size_t j = 0; j < tscaudit::kIntervalKCount; ++j) {
      const tscaudit::TimedTicks& t = (*stats)[j];
      const std::uint64_t k = tscaudit::kIntervalKs[j];
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
  auto last_present = [](const std::array<tscaudit::TimedTicks, tscaudit::kIntervalKCount>& stats) {
    std::int64_t v = stats[0].value_ticks;
    for (const tscaudit::TimedTicks& t : stats) {
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
void check_round_trip(const tscaudit::IntervalLog& log) {
  std::string text = tscaudit::interval_log_head(log.header);
  for (const tscaudit::IntervalSummary& s : log.intervals) text += tscaudit::interval_log_line(s);
  text += tscaudit::interval_log_tail(log.trailer);
  const Outcome back_outcome = read_checked("parse_interval_log of the writer's text", text,
                                            [&] { return tscaudit::parse_interval_log(text, kSource); });
  if (!std::holds_alternative<tscaudit::IntervalLog>(back_outcome))
    finding(kTarget, "the writer wrote a log that parse_interval_log refuses: " + message_of(back_outcome));
  const tscaudit::IntervalLog* back = &std::get<tscaudit::IntervalLog>(back_outcome);
  if (back->intervals != log.intervals) finding(kTarget, "the intervals differ after writing and reading back");
  if (tscaudit::fuzz::as_written(back->header) != tscaudit::fuzz::as_written(log.header))
    finding(kTarget, "the header differs after writing and reading back");
  if (tscaudit::fuzz::as_written(back->trailer) != tscaudit::fuzz::as_written(log.trailer)) {
    finding(kTarget, "the trailer differs after writing and reading back");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::size_t chunk_bytes = tscaudit::fuzz::chunk_bytes_of(data, size);

  const Outcome whole =
      read_checked("parse_interval_log", text, [&] { return tscaudit::parse_interval_log(text, kSource); });
  std::FILE* file = tscaudit::fuzz::open_memory_stream(text);
  if (file == nullptr) finding(kTarget, "fmemopen failed (not a finding in the reader: the harness cannot run)");
  const Outcome chunked = read_checked("read_interval_log_stream", text,
                                       [&] { return tscaudit::read_interval_log_stream(file, kSource, chunk_bytes); });
  std::fclose(file);

  if (whole.index() != chunked.index()) {
    finding(kTarget, "one reader refused the input and the other did not (chunk " + std::to_string(chunk_bytes) +
                         "): '" + message_of(whole) + message_of(chunked) + "'");
  }
  if (std::holds_alternative<std::string>(whole)) {
    if (message_of(whole) != message_of(chunked)) {
      finding(kTarget, "the readers refuse with different messages: parse_interval_log '" + message_of(whole) +
                           "', read_interval_log_stream (chunk " + std::to_string(chunk_bytes) + ") '" +
                           message_of(chunked) + "'");
    }
    return 0;
  }
  const tscaudit::IntervalLog& log = std::get<tscaudit::IntervalLog>(whole);
  tscaudit::fuzz::check_readings_agree(kTarget, "log", log, std::get<tscaudit::IntervalLog>(chunked),
                                      &tscaudit::IntervalLog::intervals, chunk_bytes, text);
  if (log.intervals.empty()) finding(kTarget, "a log without intervals was read");
  for (std::size_t i = 0; i < log.intervals.size(); ++i) {
    check_interval(log.intervals[i], i == 0 ? nullptr : &log.intervals[i - 1], i);
  }
  check_round_trip(log);
  return 0;
}
