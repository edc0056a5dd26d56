#include "monitor/interval_sequencer.hpp"

#include <string>
#include <utility>

#include "core/errors.hpp"

namespace tscaudit {

IntervalSequencer::IntervalSequencer(std::uint64_t interval_ticks, std::uint64_t interval_count,
                                     std::int64_t quantum_ticks, Sink sink)
    : interval_ticks_(interval_ticks == 0 ? 1 : interval_ticks),
      count_(interval_count),
      acc_(quantum_ticks < 1 ? 1 : quantum_ticks),
      sink_(std::move(sink)) {}

void IntervalSequencer::open(std::uint64_t index) {
  next_index_ = index;
  open_start_ = start_tick_ + index * interval_ticks_;
  open_end_ = open_start_ + interval_ticks_;
  open_rounds_ = 0;
  open_last_t1_ = open_start_;
  acc_.begin(index, open_start_, open_end_);
}

void IntervalSequencer::close(std::uint64_t end_tick) {
  IntervalSummary s = acc_.summary();
  s.end_tick = end_tick;
  sink_(s);
  const std::uint64_t next = next_index_ + 1;
  if (count_ != 0 && next >= count_) {
    next_index_ = next;  // done(): no interval is open any more
    return;
  }
  open(next);
}

void IntervalSequencer::add(const Round& round) {
  if (!started_) {
    started_ = true;
    start_tick_ = round.t1;
    open(0);
  }
  if (!done() && round.t1 >= open_end_ && (round.t1 - open_end_) / interval_ticks_ >= kMaxIntervalJump) {
    throw RuntimeError("a's counter jumped forward by " + std::to_string(round.t1 - open_end_) +
                       " ticks past the open interval at round " + std::to_string(round.seq) + " (more than " +
                       std::to_string(kMaxIntervalJump) +
                       " intervals at once): the TSC was written or reset while the run went on");
  }
  // The rounds' t1 only grows: one at or past the open interval's end closes it.
  while (!done() && round.t1 >= open_end_) close(open_end_);
  if (done()) {
    ++after_end_;
    return;
  }
  // Before the open interval: it waited in the queue while close_due() closed its interval.
  const bool late = round.t1 < open_start_;
  acc_.add(round, late);
  ++open_rounds_;
  ++rounds_;
  if (!late && round.t1 >= open_last_t1_) open_last_t1_ = round.t1;
}

void IntervalSequencer::add_lost(std::uint64_t n) {
  if (n == 0) return;
  if (!started_ || done()) {
    lost_outside_ += n;
    return;
  }
  lost_ += n;
  acc_.add_lost(n);
}

void IntervalSequencer::close_due(std::uint64_t now_tick, std::uint64_t grace_ticks) {
  if (!started_) return;
  while (!done() && now_tick >= open_end_ && now_tick - open_end_ >= grace_ticks) close(open_end_);
}

void IntervalSequencer::close_partial() {
  if (!started_ || done()) return;
  close(open_rounds_ == 0 ? open_start_ + 1 : open_last_t1_ + 1);
  // No interval stays open: the run ends here.
  count_ = next_index_;
}

}  // namespace tscaudit
