#include "variants/read_cost_summary.hpp"

#include <algorithm>
#include <cmath>

#include "core/format.hpp"
#include "core/histogram.hpp"
#include "core/read_variant.hpp"

namespace tscaudit {
namespace {

/// Nearest-rank statistics of `sorted` (ascending), each multiplied by `scale`.
template <class T>
CostStats stats_of_sorted(const std::vector<T>& sorted, long double sum, double scale) {
  CostStats s;
  s.samples = sorted.size();
  if (sorted.empty()) return s;
  const auto at_percentile = [&](double p) {
    const std::uint64_t rank = rank_for_percentile(p, s.samples);
    return static_cast<double>(sorted[static_cast<std::size_t>(rank - 1)]) * scale;
  };
  s.min = static_cast<double>(sorted.front()) * scale;
  s.p50 = at_percentile(50);
  s.p99_9 = at_percentile(99.9);
  s.mean = static_cast<double>(sum / static_cast<long double>(s.samples)) * scale;
  return s;
}

CostStats batch_stats(const std::vector<double>& per_call) {
  std::vector<double> finite;
  finite.reserve(per_call.size());
  long double sum = 0;
  for (double v : per_call) {
    if (!std::isfinite(v)) continue;
    finite.push_back(v);
    sum += v;
  }
  std::sort(finite.begin(), finite.end());
  return stats_of_sorted(finite, sum, 1.0);
}

CostStats delta_stats(const std::vector<std::uint64_t>& values, double ticks_per_unit, std::uint64_t& backward) {
  std::vector<std::uint64_t> deltas;
  deltas.reserve(values.empty() ? 0 : values.size() - 1);
  long double sum = 0;
  backward = 0;
  for (std::size_t i = 1; i < values.size(); ++i) {
    if (values[i] < values[i - 1]) {
      ++backward;
      continue;
    }
    const std::uint64_t d = values[i] - values[i - 1];
    deltas.push_back(d);
    sum += static_cast<long double>(d);
  }
  std::sort(deltas.begin(), deltas.end());
  return stats_of_sorted(deltas, sum, ticks_per_unit);
}

std::string resolution_words(const ReadCost& cost) {
  if (cost.tsc_variant) return "the " + format_sig(cost.resolution_ticks, 3) + "-tick counter";
  return "the 1 ns clock (" + format_sig(cost.resolution_ticks, 3) + " ticks)";
}

void choose_method(ReadCost& cost) {
  const bool have_batch = cost.batch_ticks.samples > 0;
  const bool have_deltas = cost.delta_ticks.samples > 0;
  if (!have_deltas) {
    cost.believe = CostMethod::batch;
    cost.believe_reason = "only batches were recorded, no back-to-back deltas";
    return;
  }
  if (!have_batch) {
    cost.believe = CostMethod::deltas;
    cost.believe_reason = "only back-to-back deltas were recorded, no batches";
    return;
  }
  const double cost_ticks = cost.batch_ticks.p50;
  const double threshold = kDeltaResolutionSteps * cost.resolution_ticks;
  const std::string head = "a call costs " + format_sig(cost_ticks, 3) + " ticks, ";
  const std::string steps = format_sig(kDeltaResolutionSteps, 3) + " steps of " + resolution_words(cost);
  if (cost_ticks >= threshold) {
    cost.believe = CostMethod::deltas;
    cost.believe_reason = head + "at least " + steps + ": single deltas resolve the cost and show its spread";
  } else {
    cost.believe = CostMethod::batch;
    const char* plus_one =
        cost.quantum.plus_one_reads ? " (a read inside one step returns the previous value + 1)" : "";
    cost.believe_reason =
        head + "under " + steps + ": single deltas are quantized" + plus_one + ", the batch average is not";
  }
}

}  // namespace

ReadCost summarize_read_cost(const ReadCostSamples& samples, double tsc_hz) {
  ReadCost cost;
  cost.name = samples.name;
  cost.tsc_variant = samples.tsc_variant;
  if (!samples.error.empty()) {
    cost.error = samples.error;
    return cost;
  }
  const bool hz_known = std::isfinite(tsc_hz) && tsc_hz > 0;
  if (!samples.tsc_variant && !hz_known) {
    cost.error = "the TSC frequency is unknown, so the clock's ns cannot be converted to ticks";
    return cost;
  }

  cost.batch_ticks = batch_stats(samples.batch_ticks_per_call);
  double ticks_per_unit = 1;
  if (samples.tsc_variant) {
    cost.quantum = estimate_quantum(samples.values);
    cost.resolution_ticks = static_cast<double>(std::max<std::uint64_t>(cost.quantum.quantum_ticks, 1));
  } else {
    ticks_per_unit = tsc_hz / 1e9;
    cost.resolution_ticks = ticks_per_unit;
  }
  cost.delta_ticks = delta_stats(samples.values, ticks_per_unit, cost.backward_deltas);

  if (cost.batch_ticks.samples == 0 && cost.delta_ticks.samples == 0) {
    cost.error = cost.backward_deltas > 0 ? "every back-to-back value went down, and no batch was recorded"
                                          : "nothing was recorded";
    cost.batch_ticks = {};
    cost.delta_ticks = {};
    return cost;
  }
  choose_method(cost);
  return cost;
}

bool read_looks_trapped(const ReadCost& cost, double tsc_hz) {
  const std::optional<ReadVariant> v = parse_variant(cost.name);
  if (!cost.tsc_variant || !v || variant_arch(*v) != CounterArch::aarch64 || !cost.error.empty() || !(tsc_hz > 0)) {
    return false;
  }
  const CostStats& s = cost.believe == CostMethod::deltas ? cost.delta_ticks : cost.batch_ticks;
  return s.samples > 0 && s.p50 / tsc_hz * 1e9 > kTrappedReadNs;
}

}  // namespace tscaudit
