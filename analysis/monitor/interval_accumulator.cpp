#include "monitor/interval_accumulator.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/histogram.hpp"

namespace tscaudit {
// A named namespace, not an anonymous one: IntervalAccumulator::State, which has external
// linkage, holds a SmallestLatencies, and GCC warns (-Wsubobject-linkage) when such a member's
// type is internal to a file that is not the main one, as in a unity build.
namespace interval_accumulator_detail {

/// The largest k kept: the heaps hold this many values.
constexpr std::size_t kMaxK = kIntervalKs.back();
static_assert(std::is_sorted(kIntervalKs.begin(), kIntervalKs.end()) && kIntervalKs.front() >= 1,
              "the order statistics are read from one sorted heap of the kMaxK smallest");

struct Timed {
  std::int64_t value_ticks;
  std::uint64_t at_tick;
};

/// Smaller latency first; of equal latencies the earlier one (lower tick) counts as the
/// smaller. So the kept set is the kMaxK smallest by (value, tick) whatever order the
/// rounds arrive in (late rounds come after later ones), and a tie keeps the earliest.
constexpr bool before(const Timed& a, const Timed& b) {
  return a.value_ticks < b.value_ticks || (a.value_ticks == b.value_ticks && a.at_tick < b.at_tick);
}

/// The kMaxK smallest latencies seen, in a fixed max-heap: the largest kept is at the
/// top, so a value that does not beat it costs one comparison, one that does O(log kMaxK).
class SmallestLatencies {
 public:
  void clear() { size_ = 0; }

  void offer(Timed t) {
    if (size_ < kMaxK) {
      heap_[size_++] = t;
      std::push_heap(heap_.begin(), heap_.begin() + static_cast<std::ptrdiff_t>(size_), before);
      return;
    }
    if (!before(t, heap_.front())) return;
    std::pop_heap(heap_.begin(), heap_.end(), before);
    heap_.back() = t;
    std::push_heap(heap_.begin(), heap_.end(), before);
  }

  /// The k-th smallest for each k of kIntervalKs; absent where fewer than k were offered.
  [[nodiscard]] std::array<TimedTicks, kIntervalKCount> order_statistics() const {
    std::array<Timed, kMaxK> sorted = heap_;
    const auto end = sorted.begin() + static_cast<std::ptrdiff_t>(size_);
    std::sort(sorted.begin(), end, before);
    std::array<TimedTicks, kIntervalKCount> out{};
    for (std::size_t j = 0; j < kIntervalKCount; ++j) {
      const std::uint64_t k = kIntervalKs[j];
      if (size_ >= k) out[j] = TimedTicks{true, sorted[k - 1].value_ticks, sorted[k - 1].at_tick};
    }
    return out;
  }

 private:
  std::array<Timed, kMaxK> heap_{};
  std::size_t size_ = 0;
};

}  // namespace interval_accumulator_detail

struct IntervalAccumulator::State {
  explicit State(std::int64_t quantum_ticks) : self_inconsistent_below_ticks(-2 * quantum_ticks) {
    counts.end_tick = 1;  // a valid (empty) interval [0, 1) until begin()
  }

  // rtt below -2q is impossible for any offset (docs/method.md: self-inconsistent rounds).
  std::int64_t self_inconsistent_below_ticks;
  // The interval and its counts (index, ticks, rounds, lost, late, negatives,
  // self_inconsistent); summary() adds the statistics of the histograms and heaps.
  IntervalSummary counts;
  // About 850 KiB each (two LogLinearHistograms), allocated here once.
  SignedHistogram fwd;
  SignedHistogram rev;
  SignedHistogram rtt;
  interval_accumulator_detail::SmallestLatencies fwd_smallest;  // at t1
  interval_accumulator_detail::SmallestLatencies rev_smallest;  // at t4
};

IntervalAccumulator::IntervalAccumulator(std::int64_t quantum_ticks) : state_(nullptr) {
  // -2q must not overflow; a quantum near 2^62 ticks means garbage, not a counter.
  if (quantum_ticks < 1 || quantum_ticks > (std::int64_t{1} << 61)) {
    throw std::invalid_argument("IntervalAccumulator: quantum_ticks " + std::to_string(quantum_ticks) +
                                " is out of range [1, 2^61]");
  }
  state_ = new State(quantum_ticks);
}

IntervalAccumulator::~IntervalAccumulator() { delete state_; }

IntervalAccumulator::IntervalAccumulator(IntervalAccumulator&& other) noexcept
    : state_(std::exchange(other.state_, nullptr)) {}

IntervalAccumulator& IntervalAccumulator::operator=(IntervalAccumulator&& other) noexcept {
  if (this != &other) {
    delete state_;
    state_ = std::exchange(other.state_, nullptr);
  }
  return *this;
}

void IntervalAccumulator::begin(std::uint64_t index, std::uint64_t start_tick, std::uint64_t end_tick) {
  if (start_tick >= end_tick) {
    // The log reader refuses such a line: better to stop the writer here.
    throw std::invalid_argument("IntervalAccumulator::begin: start_tick " + std::to_string(start_tick) +
                                " is not below end_tick " + std::to_string(end_tick));
  }
  State& s = *state_;
  s.counts = IntervalSummary{};
  s.counts.index = index;
  s.counts.start_tick = start_tick;
  s.counts.end_tick = end_tick;
  s.fwd.clear();
  s.rev.clear();
  s.rtt.clear();
  s.fwd_smallest.clear();
  s.rev_smallest.clear();
}

void IntervalAccumulator::add(const Round& round, bool late) {
  State& s = *state_;
  const std::int64_t fwd = fwd_ticks(round);
  const std::int64_t rev = rev_ticks(round);
  const std::int64_t rtt = rtt_ticks(round);
  IntervalSummary& c = s.counts;
  ++c.rounds;
  c.late += late ? 1 : 0;
  c.fwd_negative += fwd < 0 ? 1 : 0;
  c.rev_negative += rev < 0 ? 1 : 0;
  c.self_inconsistent += rtt < s.self_inconsistent_below_ticks ? 1 : 0;
  s.fwd.record(fwd);
  s.rev.record(rev);
  s.rtt.record(rtt);
  s.fwd_smallest.offer(interval_accumulator_detail::Timed{fwd, round.t1});
  s.rev_smallest.offer(interval_accumulator_detail::Timed{rev, round.t4});
}

void IntervalAccumulator::add_lost(std::uint64_t n) { state_->counts.lost += n; }

IntervalSummary IntervalAccumulator::summary() const {
  const State& s = *state_;
  IntervalSummary out = s.counts;
  out.fwd_k = s.fwd_smallest.order_statistics();
  out.rev_k = s.rev_smallest.order_statistics();
  // An empty SignedHistogram gives 0 for all of these, as IntervalSummary documents.
  out.fwd_p50 = s.fwd.value_at_percentile(50);
  out.fwd_max = s.fwd.max();
  out.rev_p50 = s.rev.value_at_percentile(50);
  out.rev_max = s.rev.max();
  out.rtt_min = s.rtt.min();
  out.rtt_p50 = s.rtt.value_at_percentile(50);
  out.rtt_p99 = s.rtt.value_at_percentile(99);
  out.rtt_p999 = s.rtt.value_at_percentile(99.9);
  out.rtt_max = s.rtt.max();
  return out;
}

}  // namespace tscaudit
