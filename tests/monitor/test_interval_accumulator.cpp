#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <random>
#include <vector>

#include "core/histogram.hpp"
#include "formats/interval_log.hpp"
#include "monitor/interval_accumulator.hpp"
#include "simulate/simulate.hpp"

using namespace tscaudit;

// Counts this thread's calls of the global operator new, so that a test can tell that a
// piece of code allocates nothing. It replaces operator new for the whole test binary:
// one thread-local increment per allocation, then malloc as the default does.
namespace {
thread_local std::uint64_t t_allocations = 0;
}  // namespace

// The whole unaligned family is replaced, so that every allocation and every release
// pairs malloc with free (sanitizers check that they match); the aligned forms stay the
// library's, which pair among themselves.
void* operator new(std::size_t size) {
  ++t_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return ::operator new(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  ++t_allocations;
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](std::size_t size, const std::nothrow_t& tag) noexcept { return ::operator new(size, tag); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace {

struct Fed {
  Round round;
  bool late = false;
};

/// The summary by brute force: sort the interval's latencies. The percentiles follow
/// SignedHistogram's documented answer: the rank's exact value, widened to its bucket's
/// signed upper end, clamped into [min, max]; rank 1 and rank n exactly.
std::int64_t reference_percentile(const std::vector<std::int64_t>& sorted, double percentile) {
  if (sorted.empty()) return 0;
  const std::uint64_t n = sorted.size();
  const std::uint64_t rank = rank_for_percentile(percentile, n);
  if (rank == 1) return sorted.front();
  if (rank == n) return sorted.back();
  const std::int64_t v = sorted[rank - 1];
  const std::int64_t upper =
      v >= 0 ? static_cast<std::int64_t>(LogLinearHistogram::highest_equivalent(static_cast<std::uint64_t>(v)))
             : -static_cast<std::int64_t>(LogLinearHistogram::lowest_equivalent(static_cast<std::uint64_t>(-v)));
  return std::clamp(upper, sorted.front(), sorted.back());
}

std::array<TimedTicks, kIntervalKCount> reference_order_statistics(
    std::vector<std::pair<std::int64_t, std::uint64_t>> v) {
  std::sort(v.begin(), v.end());  // by value, then by tick: ties keep the earliest
  std::array<TimedTicks, kIntervalKCount> out{};
  for (std::size_t j = 0; j < kIntervalKCount; ++j) {
    const std::uint64_t k = kIntervalKs[j];
    if (v.size() >= k) out[j] = TimedTicks{true, v[k - 1].first, v[k - 1].second};
  }
  return out;
}

IntervalSummary reference(std::uint64_t index, std::uint64_t start, std::uint64_t end, const std::vector<Fed>& fed,
                          std::uint64_t lost, std::int64_t quantum_ticks) {
  IntervalSummary s;
  s.index = index;
  s.start_tick = start;
  s.end_tick = end;
  s.rounds = fed.size();
  s.lost = lost;
  std::vector<std::pair<std::int64_t, std::uint64_t>> fwd_at, rev_at;
  std::vector<std::int64_t> fwd, rev, rtt;
  for (const Fed& f : fed) {
    const Round& r = f.round;
    const auto fwd_v = static_cast<std::int64_t>(r.t2 - r.t1);
    const auto rev_v = static_cast<std::int64_t>(r.t4 - r.t3);
    const auto rtt_v = static_cast<std::int64_t>(r.t4 - r.t1) - static_cast<std::int64_t>(r.t3 - r.t2);
    fwd_at.emplace_back(fwd_v, r.t1);
    rev_at.emplace_back(rev_v, r.t4);
    fwd.push_back(fwd_v);
    rev.push_back(rev_v);
    rtt.push_back(rtt_v);
    s.late += f.late ? 1 : 0;
    s.fwd_negative += fwd_v < 0 ? 1 : 0;
    s.rev_negative += rev_v < 0 ? 1 : 0;
    s.self_inconsistent += rtt_v < -2 * quantum_ticks ? 1 : 0;
  }
  s.fwd_k = reference_order_statistics(fwd_at);
  s.rev_k = reference_order_statistics(rev_at);
  std::sort(fwd.begin(), fwd.end());
  std::sort(rev.begin(), rev.end());
  std::sort(rtt.begin(), rtt.end());
  s.fwd_p50 = reference_percentile(fwd, 50);
  s.fwd_max = fwd.empty() ? 0 : fwd.back();
  s.rev_p50 = reference_percentile(rev, 50);
  s.rev_max = rev.empty() ? 0 : rev.back();
  s.rtt_min = rtt.empty() ? 0 : rtt.front();
  s.rtt_p50 = reference_percentile(rtt, 50);
  s.rtt_p99 = reference_percentile(rtt, 99);
  s.rtt_p999 = reference_percentile(rtt, 99.9);
  s.rtt_max = rtt.empty() ? 0 : rtt.back();
  return s;
}

/// Simulated rounds with all the cases in them: negative reverse latencies (the offset
/// exceeds the reverse delay), early t2 reads (negative forward ones), heavy tails (rtt
/// beyond the histogram's exact range), and every 97th round with a turnaround 1000
/// ticks too long, so that its rtt falls below -2q (self-inconsistent).
std::vector<Round> test_rounds(std::uint64_t n, std::uint64_t seed, std::uint64_t quantum_ticks) {
  SimulationSpec spec;
  spec.rounds = n;
  spec.seed = seed;
  spec.quantum_ticks = quantum_ticks;
  spec.offset_ticks = 190;  // rev = delay - offset: often negative with a floor of 180
  spec.spec_b.rate = 0.02;
  spec.spec_b.early_min_ticks = 150;
  spec.spec_b.early_max_ticks = 400;
  spec.fwd.tail_fraction = 0.05;
  spec.rev.tail_fraction = 0.05;
  SimulationTruth truth;
  std::vector<Round> rounds = simulate(spec, truth).rounds;
  for (std::size_t i = 0; i < rounds.size(); i += 97) rounds[i].t3 += 1000;
  return rounds;
}

/// Feeds `fed` into `acc` as interval `index`.
void feed(IntervalAccumulator& acc, std::uint64_t index, std::uint64_t start, std::uint64_t end,
          const std::vector<Fed>& fed, std::uint64_t lost) {
  acc.begin(index, start, end);
  for (std::size_t i = 0; i < fed.size(); ++i) {
    acc.add(fed[i].round, fed[i].late);
    if (i % 50 == 7) acc.add_lost(1);  // lost rounds arrive in between
  }
  acc.add_lost(lost - (fed.size() + 42) / 50);
}

/// The interval sizes that matter (around each k) and two large ones.
constexpr std::array<std::size_t, 9> kSizes = {0, 1, 3, 4, 15, 16, 17, 1000, 6000};

struct Interval {
  std::uint64_t start = 0, end = 0;
  std::vector<Fed> fed;
  std::uint64_t lost = 0;
};

/// Splits `rounds` into intervals of kSizes rounds each. The last 2 rounds measured in
/// an interval arrive late, in the next one, when that one has 4 or more rounds.
std::vector<Interval> split(const std::vector<Round>& rounds, std::mt19937_64& rng) {
  std::vector<Interval> out;
  std::size_t pos = 0;
  std::uint64_t start = rounds.front().t1;
  std::vector<Fed> carried;
  for (std::size_t i = 0; i < kSizes.size(); ++i) {
    const std::size_t carry_out = i + 1 < kSizes.size() && kSizes[i + 1] >= 4 ? 2 : 0;
    const std::size_t measured = kSizes[i] - carried.size() + carry_out;  // t1 in this interval
    Interval in;
    in.start = start;
    in.fed = carried;
    carried.clear();
    for (std::size_t j = 0; j < measured; ++j) {
      const Round& r = rounds.at(pos++);
      if (j >= measured - carry_out) {
        carried.push_back({r, true});
      } else {
        in.fed.push_back({r, false});
      }
    }
    in.end = pos < rounds.size() ? std::max(rounds[pos].t1, start + 1) : start + 1'000'000;
    in.lost = (in.fed.size() + 42) / 50 + rng() % 3;
    start = in.end;
    out.push_back(std::move(in));
  }
  return out;
}

}  // namespace

TEST_CASE("interval accumulator: each summary equals a brute-force sort of its rounds") {
  for (const std::int64_t q : {std::int64_t{1}, std::int64_t{26}}) {
    for (const std::uint64_t seed : {1u, 2u, 3u}) {
      INFO("quantum " << q << ", seed " << seed);
      std::mt19937_64 rng(seed);
      const std::vector<Round> rounds = test_rounds(7200, seed, static_cast<std::uint64_t>(q));
      const std::vector<Interval> intervals = split(rounds, rng);
      std::vector<std::size_t> sizes;
      for (const Interval& in : intervals) sizes.push_back(in.fed.size());
      REQUIRE(sizes == std::vector<std::size_t>(kSizes.begin(), kSizes.end()));
      IntervalAccumulator reused(q);
      for (std::size_t i = 0; i < intervals.size(); ++i) {
        const Interval& in = intervals[i];
        INFO("interval " << i << " of " << in.fed.size() << " rounds");
        const IntervalSummary expected = reference(i, in.start, in.end, in.fed, in.lost, q);
        feed(reused, i, in.start, in.end, in.fed, in.lost);
        CHECK(reused.summary() == expected);
        IntervalAccumulator fresh(q);
        feed(fresh, i, in.start, in.end, in.fed, in.lost);
        CHECK(fresh.summary() == expected);
      }
      // The data has what the test means to test.
      const IntervalSummary big = reference(8, intervals[8].start, intervals[8].end, intervals[8].fed, 0, q);
      CHECK(big.fwd_negative > 0);
      CHECK(big.rev_negative > 0);
      CHECK(big.self_inconsistent > 0);
      CHECK(big.late == 2);
      CHECK(big.rtt_p999 > 2048);  // beyond the exact range: the bucket arithmetic counts
    }
  }
}

TEST_CASE("interval accumulator: begin() forgets the interval before") {
  std::mt19937_64 rng(5);
  const std::vector<Round> rounds = test_rounds(500, 5, 26);
  IntervalAccumulator acc(26);
  acc.begin(0, 100, 200);
  for (const Round& r : rounds) acc.add(r, rng() % 4 == 0);
  acc.add_lost(9);
  const IntervalSummary full = acc.summary();
  REQUIRE(full.rounds == 500);
  REQUIRE(full.late > 0);
  REQUIRE(full.fwd_negative > 0);
  REQUIRE(full.rev_negative > 0);
  REQUIRE(full.self_inconsistent > 0);
  acc.begin(1, 200, 300);
  IntervalSummary empty;
  empty.index = 1;
  empty.start_tick = 200;
  empty.end_tick = 300;
  CHECK(acc.summary() == empty);
  // And the next interval is as if the first had never been.
  acc.add(rounds[10]);
  const IntervalSummary one = acc.summary();
  CHECK(one == reference(1, 200, 300, {Fed{rounds[10], false}}, 0, 26));
  CHECK(one.fwd_max == one.fwd_k[0].value_ticks);
  CHECK(one.rtt_min == one.rtt_max);
}

TEST_CASE("interval accumulator: of equal latencies the earliest is kept") {
  // 20 rounds with the same fwd and rev, arriving latest first (as late rounds can).
  IntervalAccumulator acc(1);
  acc.begin(0, 1000, 100'000);
  std::vector<Fed> fed;
  for (std::uint64_t i = 0; i < 20; ++i) {
    const std::uint64_t t1 = 50'000 - 1000 * i;
    const Round r{i, t1, t1 + 300, t1 + 330, t1 + 500};  // fwd 300, rev 170
    acc.add(r);
    fed.push_back({r, false});
  }
  const IntervalSummary s = acc.summary();
  CHECK(s.fwd_k[0] == TimedTicks{true, 300, 31'000});  // the earliest t1: the last one added
  CHECK(s.fwd_k[1] == TimedTicks{true, 300, 34'000});
  CHECK(s.fwd_k[2] == TimedTicks{true, 300, 46'000});
  CHECK(s.rev_k[0] == TimedTicks{true, 170, 31'500});  // rev: at t4
  CHECK(s.rev_k[2] == TimedTicks{true, 170, 46'500});
  CHECK(s == reference(0, 1000, 100'000, fed, 0, 1));
}

TEST_CASE("interval accumulator: self-inconsistent means rtt below -2q, and k-th statistics appear at k rounds") {
  for (const std::int64_t q : {std::int64_t{1}, std::int64_t{26}}) {
    IntervalAccumulator acc(q);
    acc.begin(0, 0, 1);
    // rtt = (t4 - t1) - (t3 - t2): 100 - (100 + 2q) = -2q, then one tick less.
    const auto turnaround = static_cast<std::uint64_t>(100 + 2 * q);
    acc.add(Round{0, 1000, 1050, 1050 + turnaround, 1100});
    CHECK(acc.summary().self_inconsistent == 0);
    CHECK(acc.summary().rtt_min == -2 * q);
    acc.add(Round{1, 2000, 2050, 2051 + turnaround, 2100});
    CHECK(acc.summary().self_inconsistent == 1);
    CHECK(acc.summary().rtt_min == -2 * q - 1);
  }
  IntervalAccumulator acc(26);
  acc.begin(0, 0, 1);
  for (std::uint64_t i = 0; i < 17; ++i) {
    const IntervalSummary s = acc.summary();
    INFO(i << " rounds");
    CHECK(s.rounds == i);
    CHECK(s.fwd_k[0].present == (i >= 1));
    CHECK(s.fwd_k[1].present == (i >= 4));
    CHECK(s.fwd_k[2].present == (i >= 16));
    CHECK(s.rev_k[2].present == (i >= 16));
    acc.add(Round{i, 1000 * i, 1000 * i + 200 - i, 1000 * i + 250, 1000 * i + 400 + i});
  }
  const IntervalSummary s = acc.summary();
  CHECK(s.fwd_k[0] == TimedTicks{true, 184, 16'000});  // fwd 200 - i: the smallest is the last
  CHECK(s.fwd_k[2] == TimedTicks{true, 199, 1'000});
  CHECK(s.rev_k[1] == TimedTicks{true, 153, 3'403});  // rev 150 + i, at t4
}

TEST_CASE("interval accumulator: add, begin and summary allocate nothing") {
  const std::vector<Round> rounds = test_rounds(20'000, 9, 26);
  IntervalAccumulator acc(26);
  // The counter counts: a vector's growth is seen.
  const std::uint64_t before_vector = t_allocations;
  std::vector<int> v(3);
  volatile int* escape = v.data();  // the allocation is observable: it cannot be elided
  static_cast<void>(escape);
  CHECK(t_allocations == before_vector + 1);
  const std::uint64_t before = t_allocations;
  std::uint64_t rounds_added = 0;
  for (std::uint64_t i = 0; i < 5; ++i) {
    acc.begin(i, 1000 * i, 1000 * i + 1000);
    for (std::size_t j = i * 4000; j < (i + 1) * 4000; ++j) acc.add(rounds[j], j % 10 == 0);
    acc.add_lost(3);
    rounds_added += acc.summary().rounds;
  }
  CHECK(t_allocations == before);
  CHECK(rounds_added == 20'000);
}

TEST_CASE("interval accumulator: moves hand the state over and bad arguments are refused") {
  IntervalAccumulator a(26);
  a.begin(3, 10, 20);
  a.add(Round{0, 100, 300, 330, 500});
  IntervalAccumulator b(std::move(a));
  CHECK(b.summary().rounds == 1);
  IntervalAccumulator c(1);
  c = std::move(b);
  CHECK(c.summary().index == 3);
  CHECK(c.summary().fwd_k[0] == TimedTicks{true, 200, 100});
  CHECK_THROWS_WITH(IntervalAccumulator(0), "IntervalAccumulator: quantum_ticks 0 is out of range [1, 2^61]");
  CHECK_THROWS_WITH(c.begin(4, 20, 20), "IntervalAccumulator::begin: start_tick 20 is not below end_tick 20");
}

TEST_CASE("interval accumulator: a summary survives the log, field by field") {
  std::mt19937_64 rng(11);
  const std::vector<Round> rounds = test_rounds(7200, 11, 26);
  const std::vector<Interval> intervals = split(rounds, rng);
  IntervalAccumulator acc(26);
  std::string text = interval_log_head(Metadata{});
  std::vector<IntervalSummary> written;
  for (std::size_t i = 0; i < intervals.size(); ++i) {
    const Interval& in = intervals[i];
    feed(acc, i, in.start, in.end, in.fed, in.lost);
    IntervalSummary s = acc.summary();
    s.switches_a = rng() % 5;  // what the monitor adds
    s.switches_b = rng() % 5;
    s.stall_ms = rng() % 100;
    s.peak_rss_kib = 4000 + rng() % 1000;
    text += interval_log_line(s);
    written.push_back(s);
  }
  text += "# status: complete\n";
  const IntervalLog log = parse_interval_log(text, "mem");
  REQUIRE(log.intervals.size() == written.size());
  for (std::size_t i = 0; i < written.size(); ++i) {
    INFO("interval " << i);
    CHECK(log.intervals[i] == written[i]);
  }
}
