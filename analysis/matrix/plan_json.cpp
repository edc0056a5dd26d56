#include "matrix/plan_json.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>

#include "core/cpu_list.hpp"
#include "core/errors.hpp"
#include "core/format.hpp"

namespace tscaudit {

using PlanJson = nlohmann::ordered_json;

nlohmann::ordered_json plan_json(const MatrixPlan& plan) {
  const PlanSpec& s = plan.spec;
  nlohmann::ordered_json first_slots = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < plan.slots.size() && i < kPlanJsonSlots; ++i) {
    nlohmann::ordered_json slot = nlohmann::ordered_json::array();
    for (const PairVisit& p : plan.slots[i].pairs) slot.push_back({{"a", p.a}, {"b", p.b}, {"visit", p.visit}});
    first_slots.push_back(std::move(slot));
  }
  return {
      {"schema", "tscaudit-plan/1"},
      {"cpus", s.cpus},
      {"cpu_list", format_cpu_list(s.cpus)},
      {"parallel", s.parallel},
      {"design", s.design == PlanDesign::sparse ? "sparse" : "all_pairs"},
      {"design_reason", s.design_reason},
      {"unordered_pairs", plan.unordered_pairs},
      {"ordered_pairs", plan.ordered_pairs},
      {"visits_per_pair", s.visits},
      {"rounds_per_visit", s.rounds_per_visit},
      {"warmup_per_visit", s.warmup_per_visit},
      {"pair_visits", plan.pair_visits},
      {"total_rounds", plan.total_rounds},
      {"slots", plan.slots.size()},
      {"slots_per_sweep", plan.slots_per_sweep},
      {"pairs_at_once", plan.pairs_at_once},
      {"estimated_seconds", plan.estimated_seconds},
      {"budget_seconds", s.budget_seconds > 0 ? nlohmann::ordered_json(s.budget_seconds) : nullptr},
      {"memory_bytes", plan.memory_bytes},
      {"memory_bytes_streaming", plan.memory_bytes_streaming},
      {"costs",
       {{"rounds_per_second", plan.costs.rounds_per_second}, {"seconds_per_visit", plan.costs.seconds_per_visit}}},
      {"first_slots", std::move(first_slots)},
  };
}

PlanJson plan_spec_json(const PlanSpec& spec) {
  PlanJson pairs = PlanJson::array();
  for (const auto& [i, j] : spec.pairs) pairs.push_back({i, j});
  return {{"cpus", spec.cpus},
          {"visits", spec.visits},
          {"rounds_per_visit", spec.rounds_per_visit},
          {"warmup_per_visit", spec.warmup_per_visit},
          {"parallel", spec.parallel},
          {"design", spec.design == PlanDesign::sparse ? "sparse" : "all_pairs"},
          {"pairs", std::move(pairs)},
          {"design_reason", spec.design_reason},
          {"budget_seconds", spec.budget_seconds}};
}

PlanSpec plan_spec_from_json(const PlanJson& j, const std::vector<int>& cpus, const std::string& manifest_path) {
  PlanSpec spec;
  // A whole number from 0 to `max`: nlohmann's get<int> of 1.8e19 or -1 is a conversion out of
  // range (undefined behaviour), not an exception.
  const auto whole = [&](const PlanJson& v, std::uint64_t max) {
    const bool ok = v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0);
    if (!ok || v.get<std::uint64_t>() > max) {
      throw InputError(manifest_path + ": plan.spec is not a plan this version wrote: " + printable(v.dump()) +
                       " is not a whole number from 0 to " + std::to_string(max));
    }
    return v.get<std::uint64_t>();
  };
  try {
    std::vector<int> plan_cpus;
    for (const PlanJson& c : j.at("cpus")) plan_cpus.push_back(static_cast<int>(whole(c, INT_MAX)));
    if (plan_cpus != cpus) throw InputError(manifest_path + ": the plan's CPUs are not the run's CPUs");
    spec.cpus = cpus;
    spec.visits = whole(j.at("visits"), UINT64_MAX);
    spec.rounds_per_visit = whole(j.at("rounds_per_visit"), UINT64_MAX);
    spec.warmup_per_visit = whole(j.at("warmup_per_visit"), UINT64_MAX);
    spec.parallel = j.at("parallel").get<bool>();
    spec.design = j.at("design").get<std::string>() == "sparse" ? PlanDesign::sparse : PlanDesign::all_pairs;
    // A sparse design's pairs: each [i, j] with i < j < the CPUs, once; so at most every
    // unordered pair, checked before the list is taken.
    const PlanJson& pairs = j.at("pairs");
    const std::uint64_t n = cpus.size();
    if (!pairs.is_array() || pairs.size() > n * (n - 1) / 2) {
      throw InputError(manifest_path + ": plan.spec is not a plan this version wrote: its pairs are not a list of at " +
                       "most the " + std::to_string(n * (n - 1) / 2) + " pairs of " + std::to_string(n) + " CPUs");
    }
    spec.pairs.reserve(pairs.size());
    for (const PlanJson& p : pairs) {
      if (!p.is_array() || p.size() != 2) {
        throw InputError(manifest_path + ": plan.spec is not a plan this version wrote: " + printable(p.dump()) +
                         " is not a pair [i, j]");
      }
      const auto i = static_cast<std::uint32_t>(whole(p.at(0), n - 1)), k = static_cast<std::uint32_t>(whole(p.at(1), n - 1));
      if (i >= k) {
        throw InputError(manifest_path + ": plan.spec is not a plan this version wrote: " + printable(p.dump()) +
                         " is not a pair [i, j] with i < j");
      }
      spec.pairs.emplace_back(i, k);
    }
    if (spec.design == PlanDesign::sparse) {
      std::vector<IndexPair> sorted = spec.pairs;
      std::sort(sorted.begin(), sorted.end());
      if (sorted.empty() || std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
        throw InputError(manifest_path + ": plan.spec is not a plan this version wrote: a sparse design " +
                         (sorted.empty() ? std::string("without pairs") : "that lists a pair twice"));
      }
    }
    spec.design_reason = j.at("design_reason").get<std::string>();
    spec.budget_seconds = j.at("budget_seconds").get<double>();
  } catch (const PlanJson::exception& e) {
    throw InputError(manifest_path + ": plan.spec is not a plan this version wrote: " + e.what());
  }
  return spec;
}

PlanJson manifest_plan_json(const MatrixPlan& plan) {
  PlanJson j = plan_json(plan);
  j["spec"] = plan_spec_json(plan.spec);
  return j;
}

}  // namespace tscaudit
