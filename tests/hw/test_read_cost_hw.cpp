// The read-cost measurement on this machine: invariants only, never a timing.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <thread>

#include "core/errors.hpp"
#include "hw_requirements.hpp"
#include "measure/read_cost.hpp"
#include "measure/variant.hpp"
#include "on_thread.hpp"
#include "platform/affinity.hpp"

using namespace tscaudit;

namespace {

/// Runs `f` on a new thread whose affinity is first set to `mask`; returns what f returns.
template <class F>
auto on_thread_with_mask(const std::vector<int>& mask, F f) {
  return test::on_new_thread([&] { set_this_thread_affinity(mask); }, f);
}

bool non_decreasing(const std::vector<std::uint64_t>& v) {
  for (std::size_t i = 1; i < v.size(); ++i) {
    if (v[i] < v[i - 1]) return false;
  }
  return true;
}

std::vector<std::string> expected_names(const std::vector<Variant>& variants) {
  std::vector<std::string> names;
  names.reserve(variants.size() + 2);
  for (Variant v : variants) names.emplace_back(variant_name(v));
  names.emplace_back("CLOCK_MONOTONIC");
  names.emplace_back("CLOCK_MONOTONIC_RAW");
  return names;
}

}  // namespace

TEST_CASE("read cost: every variant and both clocks give samples on one pinned CPU") {
  const std::vector<int> usable = test::usable_cpus();
  const int cpu = usable.front();
  ReadCostConfig config;
  config.calls_per_batch = 64;
  config.batches = 200;
  config.delta_reads = 20000;
  config.budget_seconds_per_clock = 0.02;
  const std::vector<Variant> variants = test::supported_host_variants();
  const auto all = on_thread_with_mask(usable, [&] { return measure_read_costs(cpu, variants, config); });

  const std::vector<std::string> names = expected_names(variants);
  REQUIRE(all.size() == names.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    const ReadCostSamples& s = all[i];
    INFO(s.name << " on CPU " << cpu);
    CHECK(s.name == names[i]);
    CHECK(s.tsc_variant == (i < variants.size()));
    CHECK(s.error.empty());  // only the variants this CPU has
    CHECK(s.calls_per_batch == 64);
    CHECK(s.batch_ticks_per_call.size() >= kMinReadCostBatches);
    CHECK(s.batch_ticks_per_call.size() <= config.batches);
    CHECK(s.values.size() >= kMinReadCostDeltaReads);
    CHECK(s.values.size() <= config.delta_reads);
    std::size_t not_positive = 0;
    for (double b : s.batch_ticks_per_call) not_positive += !(std::isfinite(b) && b > 0);
    CHECK(not_positive == 0);
    // One CPU: its TSC never goes down; clock_gettime's monotonic clocks never do.
    CHECK(non_decreasing(s.values));
    const ReadCost summary = summarize_read_cost(s, 1e9);
    INFO(summary.error);
    CHECK(summary.error.empty());
    CHECK(summary.backward_deltas == 0);
    CHECK(summary.batch_ticks.min <= summary.batch_ticks.p50);
    CHECK(summary.batch_ticks.p50 <= summary.batch_ticks.p99_9);
  }
}

TEST_CASE("read cost: the configured counts are caps, and the minimums hold against the budget") {
  const int cpu = test::usable_cpus().front();
  // The plain read and the last one this CPU has (cpuid_rdtsc on x86-64).
  const std::vector<Variant> supported = test::supported_host_variants();
  const std::array<Variant, 2> two = {supported.front(), supported.back()};
  SECTION("a budget far beyond the caps: exactly the caps") {
    ReadCostConfig config;
    config.calls_per_batch = 16;
    config.batches = 7;
    config.delta_reads = 300;
    config.budget_seconds_per_clock = 10;
    const auto all = on_thread_with_mask({cpu}, [&] { return measure_read_costs(cpu, two, config); });
    REQUIRE(all.size() == 4);
    for (const ReadCostSamples& s : all) {
      INFO(s.name);
      CHECK(s.batch_ticks_per_call.size() == 7);
      CHECK(s.values.size() == 300);
    }
  }
  SECTION("a budget too small for anything: exactly the minimums") {
    ReadCostConfig config;
    config.calls_per_batch = 16;
    config.budget_seconds_per_clock = 1e-7;
    const auto all = on_thread_with_mask({cpu}, [&] { return measure_read_costs(cpu, two, config); });
    REQUIRE(all.size() == 4);
    for (const ReadCostSamples& s : all) {
      INFO(s.name);
      CHECK(s.batch_ticks_per_call.size() == kMinReadCostBatches);
      CHECK(s.values.size() == kMinReadCostDeltaReads);
    }
  }
  SECTION("no variants: the two clocks") {
    ReadCostConfig config;
    config.budget_seconds_per_clock = 1e-7;
    const auto all = on_thread_with_mask({cpu}, [&] { return measure_read_costs(cpu, {}, config); });
    REQUIRE(all.size() == 2);
    CHECK(all[0].name == "CLOCK_MONOTONIC");
    CHECK(all[1].name == "CLOCK_MONOTONIC_RAW");
  }
}

TEST_CASE("read cost: the thread's affinity is what it was, after a measurement and after a failure") {
  const std::vector<int> usable = test::usable_cpus();
  const int cpu = usable.back();
  ReadCostConfig config;
  config.budget_seconds_per_clock = 1e-7;
  const std::array<Variant, 1> one = {default_recv_variant(counter::kHostArch)};

  struct Masks {
    std::vector<int> before, after;
    std::string threw;  // the RuntimeError's message (Catch2 asserts only on the main thread)
  };
  const Masks m = on_thread_with_mask(usable, [&] {
    Masks out;
    out.before = this_thread_affinity();
    measure_read_costs(cpu, one, config);
    out.after = this_thread_affinity();
    return out;
  });
  CHECK(m.before == usable);
  CHECK(m.after == usable);  // with two or more CPUs, not the {cpu} it was pinned to

  // Pinning to a CPU that cannot exist throws, and leaves the mask alone.
  const Masks failed = on_thread_with_mask(usable, [&] {
    Masks out;
    out.before = this_thread_affinity();
    try {
      measure_read_costs(1 << 20, one, config);
    } catch (const RuntimeError& e) {
      out.threw = e.what();
    }
    out.after = this_thread_affinity();
    return out;
  });
  CHECK_FALSE(failed.threw.empty());
  CHECK(failed.after == failed.before);

  // A bad configuration is a usage error, before any pinning.
  ReadCostConfig bad = config;
  bad.calls_per_batch = 0;
  CHECK_THROWS_AS(measure_read_costs(cpu, one, bad), UsageError);
  bad = config;
  bad.delta_reads = 1;
  CHECK_THROWS_AS(measure_read_costs(cpu, one, bad), UsageError);
  bad = config;
  bad.budget_seconds_per_clock = std::nan("");
  CHECK_THROWS_AS(measure_read_costs(cpu, one, bad), UsageError);
}
