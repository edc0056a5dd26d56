#include "quick/quick_check.hpp"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>

#include "core/cpu_list.hpp"
#include "core/errors.hpp"
#include "core/run.hpp"
#include "formats/run_format.hpp"
#include "matrix/matrix_analysis.hpp"
#include "matrix/matrix_plan.hpp"
#include "matrix/quick_design.hpp"
#include "measure/quick_exchange.hpp"
#include "platform/affinity.hpp"
#include "platform/counter.hpp"
#include "platform/counter_access.hpp"
#include "render/verdict_text.hpp"

namespace tscaudit {
namespace {

using Clock = std::chrono::steady_clock;

/// Back-to-back reads per thread for the quantum: enough to see a step of tens of ticks
/// many times over, in tens of microseconds rather than the full check's milliseconds.
constexpr std::size_t kQuickQuantumReads = 4096;

/// Measured rounds a pair may take at most, for `slot_seconds` of slot: a round takes at
/// least 100 ns (two one-way trips between cores), so no pair outruns this in its time.
std::uint64_t max_rounds_for(double slot_seconds) {
  const double rounds = slot_seconds * 1e7;
  return static_cast<std::uint64_t>(std::clamp(rounds, 2048.0, 65536.0));
}

/// A counter reading and CLOCK_MONOTONIC_RAW's nanoseconds around it.
struct ClockPoint {
  double ns = 0;
  std::uint64_t ticks = 0;
};
double raw_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}
ClockPoint clock_point() {
  const double before = raw_ns();
  const std::uint64_t ticks = counter::OrderedRead::read();
  const double after = raw_ns();
  return {(before + after) / 2, ticks};
}

/// The CPUs to measure: the list given (each must exist and be the caller's), else the
/// calling thread's affinity mask. \throws UsageError.
std::vector<int> chosen_cpus(const QuickOptions& options) {
  const std::vector<int> allowed = this_thread_affinity();
  if (!options.cpus) return allowed;
  std::vector<int> cpus = parse_cpu_list(*options.cpus);
  std::sort(cpus.begin(), cpus.end());
  if (std::adjacent_find(cpus.begin(), cpus.end()) != cpus.end()) {
    throw UsageError("the CPU list '" + *options.cpus + "' names a CPU twice");
  }
  const CpuAvailability available = read_cpu_availability();
  for (int cpu : cpus) {
    if (std::find(allowed.begin(), allowed.end(), cpu) != allowed.end()) continue;
    if (auto why = cpu_problem(cpu, available)) throw UsageError(*why);
    throw UsageError("CPU " + std::to_string(cpu) + " may not be used by the calling thread (it may use " +
                     format_cpu_list(allowed) + ")");
  }
  return cpus;
}

void require_finite(const char* what, double value) {
  if (!std::isfinite(value) || value < 0) {
    throw UsageError(std::string(what) + " must be a finite number >= 0 (it is " + std::to_string(value) + ")");
  }
}

/// One measured ordered pair as a run `analyze_run` reads: what `measure` would write.
Run pair_run(const QuickPairResult& r, ReadVariant send, ReadVariant recv, double hz) {
  Run run;
  run.header.set("schema", std::string(kRunSchema));
  run.header.set("a", std::to_string(r.a));
  run.header.set("b", std::to_string(r.b));
  run.header.set("send", std::string(variant_name(send)));
  run.header.set("recv", std::string(variant_name(recv)));
  run.header.set("transport", "slot");
  run.header.set("rounds", std::to_string(r.rounds.size()));
  run.header.set("quantum_ticks", std::to_string(r.quantum_ticks));
  if (hz > 0) run.header.set("tsc_hz", std::to_string(std::llround(hz)));
  run.rounds = r.rounds;
  run.trailer.set("rounds_written", std::to_string(run.rounds.size()));
  if (r.error.empty()) {
    run.trailer.set("status", std::string(kStatusComplete));
  } else {
    run.trailer.set("error", r.error);
    run.trailer.set("status", "aborted");
  }
  return run;
}

/// The worst measured pair: the one whose band proves the largest offset, else the one
/// whose band reaches furthest from 0 (the bound's).
void find_worst(const MatrixResult& m, QuickAnswer& answer) {
  double proven = 0, reach = -1;
  std::size_t worst_proven = m.size() * m.size(), worst_reach = worst_proven;
  for (std::size_t a = 0; a < m.size(); ++a) {
    for (std::size_t b = 0; b < m.size(); ++b) {
      const PairCell& c = m.at(a, b);
      if (!c.measured || !c.band_feasible) continue;
      const double lo = c.offset_lo_ticks, hi = c.offset_hi_ticks;
      const double apart = lo > 0 ? lo : hi < 0 ? -hi : 0;
      if (apart > proven) proven = apart, worst_proven = a * m.size() + b;
      const double far = std::max(std::abs(lo), std::abs(hi));
      if (far > reach) reach = far, worst_reach = a * m.size() + b;
    }
  }
  const std::size_t worst = proven > 0 ? worst_proven : worst_reach;
  answer.proven_offset_ticks = proven;
  if (worst < m.size() * m.size()) {
    answer.worst_a = m.cpus[worst / m.size()];
    answer.worst_b = m.cpus[worst % m.size()];
  }
}

CheckSettings settings_of(const QuickOptions& options, double counter_hz) {
  CheckSettings settings;
  settings.tolerance_ticks = options.tolerance_ns * counter_hz / 1e9;
  settings.max_bound_ticks = options.max_bound_ns * counter_hz / 1e9;
  return settings;
}

/// The decision on `matrix`, with what surrounds it, into `answer`.
void decide_into(QuickAnswer& answer, MatrixResult matrix, const std::string& unjudged, const QuickOptions& options) {
  CheckEvidence evidence(matrix);
  evidence.unjudged = unjudged;
  evidence.warnings = options.warnings;
  if (options.cut_short) evidence.cut_short = options.cut_short();
  answer.check = decide_check(evidence, settings_of(options, answer.counter_hz));
  answer.reason = check_reason_text(answer.check);
  find_worst(matrix, answer);
  answer.matrix = std::move(matrix);
}

}  // namespace

namespace {

/// What a check asks, for telling whether another call's answer is this one's.
struct CheckKey {
  std::vector<int> cpus;  // sorted
  double budget_seconds = 0, tolerance_ns = 0, max_bound_ns = 0;
  friend bool operator==(const CheckKey&, const CheckKey&) = default;
};

/// One check measures at a time in a process (docs/library.md, "What it promises"): its
/// threads spin on the caller's CPUs, and two checks at once would each take CPUs the other
/// needs and both run late. A call that finds one under way waits for it and takes its
/// answer when it asks the same; else it measures after it, if its own time allows.
class CheckTurns {
 public:
  /// What a call gets: the answer of the check that was under way, or the turn to measure,
  /// or neither (the CPUs stayed busy past the call's time).
  struct Outcome {
    std::optional<QuickAnswer> shared;
    bool turn = false;
  };

  /// No check under way: the turn. One under way: waits for it until `wait_until`; its
  /// answer when it asked `key`; else the turn when it ended by `start_by`.
  Outcome wait(const CheckKey& key, Clock::time_point start_by, Clock::time_point wait_until) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (!busy_) {
      busy_ = true;
      return {std::nullopt, true};
    }
    const std::uint64_t seen = finished_;
    while (busy_ && cv_.wait_until(lock, wait_until) != std::cv_status::timeout) {
    }
    if (finished_ != seen && last_ && last_key_ == key) return {*last_, false};
    if (!busy_ && Clock::now() <= start_by) {
      busy_ = true;
      return {std::nullopt, true};
    }
    return {};
  }

  /// Ends the turn wait() gave, leaving `answer` (when measured) to the calls waiting.
  void done(const CheckKey& key, const QuickAnswer* answer) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      busy_ = false;
      ++finished_;
      if (answer != nullptr) {
        last_ = *answer;
        last_key_ = key;
      } else {
        last_.reset();
      }
    }
    cv_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool busy_ = false;
  std::uint64_t finished_ = 0;
  std::optional<QuickAnswer> last_;  // the last check's answer, for the calls that waited on it
  CheckKey last_key_;
};

/// The process's turns: made on first use and never destroyed (a caller's thread may still
/// call while the process exits).
CheckTurns& check_turns() {
  static CheckTurns* turns = new CheckTurns;
  return *turns;
}

/// The measuring and the decision, once the turn is this call's.
QuickAnswer measure_and_decide(const QuickOptions& options, const QuickPlan& quick);

}  // namespace

QuickAnswer run_quick_check(const QuickOptions& options) {
  require_finite("the budget", options.budget_seconds);
  require_finite("the tolerance", options.tolerance_ns);
  require_finite("the largest bound", options.max_bound_ns);
  const std::vector<int> cpus = chosen_cpus(options);
  if (cpus.empty()) throw UsageError("the CPU list '" + options.cpus.value_or("") + "' names no CPU");
  if (cpus.size() < 2) return decide_unmeasured(cpus, "", options);
  if (auto why = counter_unreadable()) return decide_unmeasured(cpus, *why, options);
  // Only now: steady_clock reads the counter through the vDSO where the clocksource is the
  // TSC, which faults in a process that forbade its reads (PR_SET_TSC).
  const Clock::time_point called = Clock::now();

  CheckKey key{cpus, options.budget_seconds, options.tolerance_ns, options.max_bound_ns};
  std::sort(key.cpus.begin(), key.cpus.end());
  const QuickPlan quick = plan_quick(read_cpu_places(cpus), options.budget_seconds);
  // The budget this call plans for (its own, else the default for its CPUs), and its slack.
  const double budget = quick.budget_seconds;
  const auto seconds = [](double s) { return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s)); };
  const Clock::time_point wait_until = called + seconds(budget + kQuickSlackSeconds);
  const Clock::time_point start_by = called + seconds(kQuickSlackSeconds / 2);
  CheckTurns& turns = check_turns();
  CheckTurns::Outcome turn = turns.wait(key, start_by, wait_until);
  if (turn.shared) return std::move(*turn.shared);
  if (!turn.turn) {
    return decide_unmeasured(cpus, "busy: another check in this process held the CPUs past this call's budget",
                             options);
  }
  try {
    QuickAnswer answer = measure_and_decide(options, quick);
    turns.done(key, &answer);
    return answer;
  } catch (...) {
    turns.done(key, nullptr);
    throw;
  }
}

namespace {

QuickAnswer measure_and_decide(const QuickOptions& options, const QuickPlan& quick) {
  const MatrixPlan& plan = quick.plan;
  const ReadVariant send = plain_variant(counter::kHostArch);
  const ReadVariant recv = default_recv_variant(counter::kHostArch);
  const double budget = quick.budget_seconds;
  const auto timeout = std::chrono::milliseconds(200) + std::chrono::milliseconds(std::llround(budget * 1000));
  std::map<std::pair<int, int>, QuickPairResult> measured;
  const ClockPoint first = clock_point();
  const Clock::time_point start = Clock::now();
  const Clock::time_point end = start + std::chrono::nanoseconds(std::llround(budget * 1e9));
  for (std::size_t s = 0; s < plan.slots.size(); ++s) {
    // Each slot may use what is left of the budget, shared among the slots left.
    const Clock::time_point now = Clock::now();
    const auto share = (end - std::min(now, end)) / static_cast<long>(plan.slots.size() - s);
    std::vector<QuickPairConfig> configs;
    for (const PairVisit& v : plan.slots[s].pairs) {
      QuickPairConfig c;
      c.cpu_a = v.a;
      c.cpu_b = v.b;
      c.timeout = timeout;
      c.quantum_reads = kQuickQuantumReads;
      c.max_rounds = quick.max_rounds;
      c.deadline = now + share;
      configs.push_back(c);
    }
    for (QuickPairResult& r : run_quick_slot(configs, send, recv)) {
      if (!r.error.empty()) {
        const std::string why = r.pinning_refused ? "pinning refused: " + r.error : r.error;
        return decide_unmeasured(quick.order.cpu_numbers(), pair_name(r.a, r.b) + ": " + why, options);
      }
      measured.emplace(std::make_pair(r.a, r.b), std::move(r));
    }
  }
  const ClockPoint last = clock_point();
  const double measuring_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const double hz = last.ns > first.ns ? static_cast<double>(last.ticks - first.ticks) / (last.ns - first.ns) * 1e9 : 0;
  const auto source = [&](int a, int b) -> std::optional<Run> {
    const auto at = measured.find({a, b});
    if (at == measured.end()) return std::nullopt;
    return pair_run(at->second, send, recv, hz);
  };
  QuickAnswer decided = decide_quick(quick, source, hz, options);
  decided.measuring_seconds = measuring_seconds;
  return decided;
}

}  // namespace

QuickAnswer decide_unmeasured(const std::vector<int>& cpus, const std::string& unjudged, const QuickOptions& options) {
  QuickAnswer answer;
  answer.cpu_numbers = cpus;
  MatrixResult matrix = MatrixBuilder(cpus).finish();
  matrix.send = recorded_variant(plain_variant(counter::kHostArch));
  matrix.recv = recorded_variant(default_recv_variant(counter::kHostArch));
  decide_into(answer, std::move(matrix), unjudged, options);
  return answer;
}

QuickPlan plan_quick(const std::vector<CpuPlace>& places, double budget_seconds) {
  QuickPlan quick;
  std::vector<int> cpus;
  for (const CpuPlace& p : places) cpus.push_back(p.cpu);
  quick.order = order_by_topology(places, cpus);
  PlanSpec spec;
  spec.cpus = quick.order.cpu_numbers();
  spec.visits = 1;
  spec.parallel = true;
  spec.design = PlanDesign::sparse;
  spec.pairs = quick_design(quick.order);
  spec.design_reason = "the quick check: a star from one CPU per group, the groups' hubs and chords between groups";
  const std::uint64_t slot_count = plan_slot_count(spec);
  quick.budget_seconds =
      budget_seconds > 0 ? budget_seconds : quick_default_budget_seconds(spec.cpus.size(), slot_count);
  quick.max_rounds = max_rounds_for(quick.budget_seconds / static_cast<double>(slot_count));
  spec.budget_seconds = quick.budget_seconds;
  spec.rounds_per_visit = quick.max_rounds;
  spec.warmup_per_visit = QuickPairConfig{}.warmup;
  quick.plan = make_plan(spec, PlanCosts{});
  return quick;
}

QuickAnswer decide_quick(const QuickPlan& quick, const PairRunSource& source, double counter_hz,
                         const QuickOptions& options) {
  QuickAnswer answer;
  answer.cpu_numbers = quick.order.cpu_numbers();
  answer.counter_hz = counter_hz;
  MatrixAnalysisContext context;
  context.send = plain_variant(counter::kHostArch);
  context.recv = default_recv_variant(counter::kHostArch);
  context.tsc_hz = counter_hz;
  MatrixAnalysis analysis = analyze_matrix_pairs(quick.plan, quick.order, context, source);
  answer.pairs = analysis.analyzed;
  decide_into(answer, std::move(analysis.matrix), "", options);
  return answer;
}

}  // namespace tscaudit
