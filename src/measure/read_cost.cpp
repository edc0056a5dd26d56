#include "measure/read_cost.hpp"

#include <time.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "core/errors.hpp"
#include "platform/affinity.hpp"
#include "platform/platform.hpp"
#include "platform/counter.hpp"

namespace tscaudit {
namespace {

using SteadyClock = std::chrono::steady_clock;

/// Every value a loop reads is xor-ed together and stored here once the loop is done,
/// so no read is dead code (the asm is volatile anyway) and the loop does what a real
/// user of the value does: consume it.
volatile std::uint64_t g_sink = 0;

/// clock_gettime as a read policy, like the TSC variants: ns since the clock's start.
template <clockid_t Id>
struct ClockGettime {
  static std::uint64_t read() noexcept {
    timespec ts{};
    clock_gettime(Id, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(ts.tv_nsec);
  }
};

/// The bracket: counter::BracketRead (lfence;rdtsc;lfence, isb;mrs;isb) on both ends. The
/// leading fence of the end read waits for every call in the batch to complete; the
/// trailing fence of the start read keeps the first call from starting before it.
using Bracket = counter::BracketRead;

/// The cheapest of kEmptyBracketTries brackets with nothing inside, in ticks.
std::uint64_t empty_bracket_ticks() {
  std::uint64_t best = std::numeric_limits<std::uint64_t>::max();
  for (int i = 0; i < kEmptyBracketTries; ++i) {
    const std::uint64_t start = Bracket::read();
    const std::uint64_t end = Bracket::read();
    if (end >= start) best = std::min(best, end - start);
  }
  return best == std::numeric_limits<std::uint64_t>::max() ? 0 : best;
}

/// Ticks per call of one batch, the empty bracket subtracted. NaN when the end read is
/// below the start (not on one CPU; the summary skips non-finite entries).
template <class Policy>
double batch_ticks_per_call(std::uint64_t calls, std::uint64_t empty_ticks) {
  std::uint64_t sink = 0;
  const std::uint64_t start = Bracket::read();
  for (std::uint64_t i = 0; i < calls; ++i) sink ^= Policy::read();
  const std::uint64_t end = Bracket::read();
  g_sink = sink;
  if (end < start) return std::numeric_limits<double>::quiet_NaN();
  return (static_cast<double>(end - start) - static_cast<double>(empty_ticks)) / static_cast<double>(calls);
}

/// `n` back-to-back values into out[0, n). Nothing else in the loop but the store.
template <class Policy>
void read_back_to_back(std::uint64_t* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = Policy::read();
}

double seconds_since(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

/// floor(x) clamped into [lo, hi]; lo for NaN. \pre lo <= hi.
std::uint64_t clamp_count(double x, std::uint64_t lo, std::uint64_t hi) {
  if (!(x >= static_cast<double>(lo))) return lo;
  if (x >= static_cast<double>(hi)) return hi;
  return std::clamp(static_cast<std::uint64_t>(x), lo, hi);
}

/// One clock: batches, then back-to-back values, within the budget (see the header).
/// `buffer` holds config.delta_reads pre-faulted values.
template <class Policy>
ReadCostSamples measure_one(std::string name, bool tsc_variant, const ReadCostConfig& config, std::uint64_t empty_ticks,
                            std::vector<std::uint64_t>& buffer) {
  ReadCostSamples s;
  s.name = std::move(name);
  s.tsc_variant = tsc_variant;
  s.calls_per_batch = config.calls_per_batch;
  const std::uint64_t calls = config.calls_per_batch;
  const double budget = config.budget_seconds_per_clock;
  const auto start = SteadyClock::now();

  // Warm-up (code, caches, branch predictors), and a first guess at the cost of a batch.
  batch_ticks_per_call<Policy>(calls, empty_ticks);
  const double warmup_s = std::max(seconds_since(start), 1e-9);
  const std::uint64_t min_batches = std::min(kMinReadCostBatches, config.batches);
  const std::uint64_t batches = clamp_count(budget / 2 / warmup_s, min_batches, config.batches);
  s.batch_ticks_per_call.reserve(static_cast<std::size_t>(batches));
  const auto batches_start = SteadyClock::now();
  const auto half_budget = std::chrono::duration_cast<SteadyClock::duration>(std::chrono::duration<double>(budget / 2));
  const auto batches_end = start + half_budget;
  for (std::uint64_t b = 0; b < batches; ++b) {
    s.batch_ticks_per_call.push_back(batch_ticks_per_call<Policy>(calls, empty_ticks));
    // Between batches, outside every bracket.
    if (b + 1 >= min_batches && SteadyClock::now() >= batches_end) break;
  }

  // The cost per call as the batches saw it (bracket and clock checks included, so it
  // errs long) sizes the back-to-back run to what is left of the budget.
  const double batch_calls = static_cast<double>(s.batch_ticks_per_call.size()) * static_cast<double>(calls);
  const double call_s = std::max(seconds_since(batches_start) / batch_calls, 1e-12);
  const double left_s = budget - seconds_since(start);
  const std::uint64_t min_reads = std::min(kMinReadCostDeltaReads, config.delta_reads);
  const auto reads = static_cast<std::size_t>(clamp_count(left_s / call_s, min_reads, config.delta_reads));
  read_back_to_back<Policy>(buffer.data(), std::min<std::size_t>(reads, 1000));  // warm-up
  read_back_to_back<Policy>(buffer.data(), reads);
  s.values.assign(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(reads));
  return s;
}

/// Why `clock` cannot be read, or "" when it can.
std::string clock_problem(clockid_t clock, const char* name) {
  timespec ts{};
  if (clock_gettime(clock, &ts) == 0) return "";
  return std::string("clock_gettime(") + name + "): " + std::strerror(errno);
}

template <clockid_t Id>
ReadCostSamples measure_clock(const char* name, const ReadCostConfig& config, std::uint64_t empty_ticks,
                              std::vector<std::uint64_t>& buffer) {
  if (std::string problem = clock_problem(Id, name); !problem.empty()) {
    ReadCostSamples s;
    s.name = name;
    s.tsc_variant = false;
    s.calls_per_batch = config.calls_per_batch;
    s.error = std::move(problem);
    return s;
  }
  return measure_one<ClockGettime<Id>>(name, false, config, empty_ticks, buffer);
}

void check_config(const ReadCostConfig& config) {
  if (config.calls_per_batch == 0) throw UsageError("read cost: calls per batch must be at least 1");
  if (config.batches == 0) throw UsageError("read cost: the number of batches must be at least 1");
  if (config.delta_reads < 2) throw UsageError("read cost: at least 2 back-to-back reads are needed for a delta");
  if (!(std::isfinite(config.budget_seconds_per_clock) && config.budget_seconds_per_clock > 0)) {
    throw UsageError("read cost: the time budget per clock must be a number of seconds > 0");
  }
}

}  // namespace

std::vector<ReadCostSamples> measure_read_costs(int cpu, std::span<const Variant> variants,
                                                const ReadCostConfig& config) {
  check_config(config);

  const AffinityRestorer restore_affinity;
  pin_this_thread(cpu);
  // After pinning, so that first touch puts the pages on this CPU's node; filled with a
  // non-zero pattern so that every page is written (faulted in) before any loop.
  std::vector<std::uint64_t> buffer(static_cast<std::size_t>(config.delta_reads), ~std::uint64_t{0});
  const std::uint64_t empty_ticks = empty_bracket_ticks();

  std::vector<ReadCostSamples> out;
  out.reserve(variants.size() + 2);
  for (Variant v : variants) {
    if (auto why = variant_unsupported_here(v)) {
      ReadCostSamples s;
      s.name = std::string(variant_name(v));
      s.calls_per_batch = config.calls_per_batch;
      s.error = *why;
      out.push_back(std::move(s));
      continue;
    }
    out.push_back(visit_variant(v, [&](auto policy) {
      return measure_one<decltype(policy)>(std::string(variant_name(v)), true, config, empty_ticks, buffer);
    }));
  }
  out.push_back(measure_clock<CLOCK_MONOTONIC>("CLOCK_MONOTONIC", config, empty_ticks, buffer));
  out.push_back(measure_clock<CLOCK_MONOTONIC_RAW>("CLOCK_MONOTONIC_RAW", config, empty_ticks, buffer));
  return out;
}

}  // namespace tscaudit
