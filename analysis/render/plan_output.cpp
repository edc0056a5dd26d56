#include "render/plan_output.hpp"

#include "core/cpu_list.hpp"
#include "core/format.hpp"
#include "core/human_units.hpp"
#include "render/text_wrap.hpp"

namespace tscaudit {
namespace {

void line(std::string& out, const char* label, const std::string& value) {
  std::string padded = label;
  padded.resize(18, ' ');
  out += padded;
  out += value;
  out += '\n';
}

/// "run pairs in parallel, or " where that would help: a plan measured one pair at a time
/// with more than one pair (one pair has nothing to run beside it).
std::string parallel_advice(const MatrixPlan& plan) {
  return plan.spec.parallel || plan.unordered_pairs <= 1 ? std::string() : std::string("run pairs in parallel, or ");
}

}  // namespace

std::string plan_text(const MatrixPlan& plan, const OrderedCpus* topology) {
  const PlanSpec& s = plan.spec;
  std::string out;
  std::string cpus = format_cpu_list(s.cpus) + " (" + count_of(s.cpus.size(), "CPU", "CPUs");
  if (topology != nullptr) {
    cpus += " in topology order";
    std::string groups;
    const auto add = [&groups](std::size_t count, const char* singular, const char* plural) {
      if (count == 0) return;
      groups += groups.empty() ? ": " : ", ";
      groups += count_of(count, singular, plural);
    };
    add(topology->package_starts.size(), "package", "packages");
    add(topology->die_starts.size(), "die", "dies");
    add(topology->l3_starts.size(), "L3 domain", "L3 domains");
    cpus += groups;
  }
  line(out, "cpus", cpus + ")");
  const bool sparse = s.design == PlanDesign::sparse;
  line(out, "design", std::string(design_name(s.design)) + (s.design_reason.empty() ? "" : ": " + s.design_reason));
  const std::uint64_t n = s.cpus.size();
  line(out, "pairs",
       std::to_string(plan.unordered_pairs) + " unordered, " + std::to_string(plan.ordered_pairs) +
           " ordered (each pair in both roles)" +
           (sparse ? " of " + std::to_string(n * (n - 1)) + " ordered pairs" : ""));
  line(out, "visits", std::to_string(s.visits) + " per ordered pair, one per sweep, spread over the whole run");
  line(out, "rounds per visit",
       std::to_string(s.rounds_per_visit) + " measured + " + std::to_string(s.warmup_per_visit) + " warm-up");
  line(out, "total rounds", std::to_string(plan.total_rounds) + " measured");
  line(out, "slots",
       std::to_string(plan.slots.size()) + " (" + (sparse ? "at most " : "") + std::to_string(plan.slots_per_sweep) +
           " per sweep), " + count_of(plan.pairs_at_once, "pair", "pairs") + " at once");
  line(out, "estimated time",
       human_duration(plan.estimated_seconds) + " (fixed " + format_sig(plan.costs.seconds_per_visit, 3) +
           " s per visit, " + format_sig(plan.costs.rounds_per_second / 1e6, 3) + " M rounds/s per pair)");
  if (s.budget_seconds > 0) {
    line(out, "budget",
         human_duration(s.budget_seconds) +
             (plan.estimated_seconds <= s.budget_seconds
                  ? ": the estimate fits"
                  : std::string(": the estimate exceeds it; ") + parallel_advice(plan) +
                        "give fewer --cpus, --visits or --rounds (measured only with --over-budget)"));
  }
  line(out, "memory, streamed",
       human_bytes(plan.memory_bytes_streaming) +
           " (rounds written as measured: the pairs at once, one pair's rounds for its analysis, the " +
           std::to_string(n) + "x" + std::to_string(n) + " cells)");
  if (s.parallel && plan.pairs_at_once > 1) {
    line(out, "parallel",
         std::to_string(plan.pairs_at_once) +
             " pairs at once share caches, memory and the interconnect: latencies (rtt) can rise and spread, "
             "so the offset bounds widen; the bounds stay valid (they assume only causality), and the offset "
             "estimate moves only as far as the added delay differs between the two directions");
  }
  return wrap_lines(out);
}

std::string over_budget_refusal(const MatrixPlan& plan, bool rounds_given) {
  const PlanSpec& s = plan.spec;
  // Below a second human_duration rounds to tenths; two digits keep "0.018 s exceeds 0.01 s" apart.
  const auto seconds = [](double x) { return x < 1 ? format_sig(x, 2) + " s" : human_duration(x); };
  return "the plan's estimated " + seconds(plan.estimated_seconds) + " of measuring exceeds its budget of " +
         seconds(s.budget_seconds) + " (" + std::to_string(plan.slots.size()) + " slots, " +
         (s.parallel ? "pairs in parallel" : "one pair at a time") + "): " + parallel_advice(plan) +
         "give fewer --cpus, --visits or --rounds" + (rounds_given ? "" : ", a larger --budget") +
         ", or --over-budget to measure it anyway (--dry-run shows the plan)";
}

}  // namespace tscaudit
