#include "measure/plan_runner.hpp"

#include <pthread.h>

#include <algorithm>
#include <thread>

#include "measure/pair_run.hpp"

namespace tscaudit {
namespace {

using Clock = std::chrono::steady_clock;

std::string pair_text(int a, int b) { return std::to_string(a) + "->" + std::to_string(b); }

}  // namespace

StopSignalsBlocked::StopSignalsBlocked() {
  sigset_t block;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &block, &previous_);
}

StopSignalsBlocked::~StopSignalsBlocked() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }

std::uint64_t RunDirVisits::append(int a, int b, std::span<const Round> rounds, std::uint64_t quantum_ticks,
                                   std::string_view error) {
  std::uint64_t visit = 0, first_seq = 0;
  {
    // Only the counting is under the lock: the writer compresses the visits of other pairs
    // meanwhile (it locks for the file alone).
    const std::lock_guard<std::mutex> lock(mutex_);
    PairVisits& p = pairs_[{a, b}];
    visit = p.visits++;
    first_seq = p.next_seq;
    p.next_seq += rounds.size();
  }
  writer_.append_visit(a, b, visit, first_seq, rounds, quantum_ticks, error);
  return visit;
}

std::uint64_t RunDirVisits::visits_of(int a, int b) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto it = pairs_.find({a, b});
  return it == pairs_.end() ? 0 : it->second.visits;
}

PlanRunner::PlanRunner(const MatrixPlan& plan, RunDirWriter& writer, PlanRunSettings settings)
    : plan_(plan), visits_(writer), settings_(std::move(settings)), start_(Clock::now()) {}

double PlanRunner::rounds_per_second() const {
  return pair_seconds_ > 0 ? static_cast<double>(rounds_) / pair_seconds_ : 0;
}

SlotsOutcome PlanRunner::run_slots(std::span<const PlanSlot> slots, std::uint64_t rounds_per_visit, Clock::time_point until,
                                   const std::function<void(const PlanRunProgress&)>& progress) {
  SlotsOutcome out;
  std::uint64_t visits_total = 0;
  for (const PlanSlot& slot : slots) visits_total += slot.pairs.size();
  const bool timed = until != Clock::time_point{};
  const Clock::time_point call_start = Clock::now();
  for (std::size_t s = 0; s < slots.size(); ++s) {
    if (settings_.stop != nullptr) {
      if (const int signal = settings_.stop->load(); signal != 0) {
        out.signal = signal;
        break;
      }
    }
    const PlanSlot& slot = slots[s];
    const Clock::time_point slot_start = Clock::now();
    // The slot's share of what is left: the slots after it get theirs whatever this one
    // takes. Its exchange ends early enough that writing its rounds (as long, per second of
    // exchange, as the slots before took) fits in the share too.
    const auto share = (until - std::min(slot_start, until)) / static_cast<long>(slots.size() - s);
    const double write_per_exchange = exchange_seconds_ > 0 ? write_seconds_ / exchange_seconds_ : 0;
    const Clock::time_point deadline =
        timed ? slot_start + std::chrono::duration_cast<Clock::duration>(share / (1 + write_per_exchange))
              : Clock::time_point{};
    std::vector<ExchangeConfig> configs(slot.pairs.size());
    std::vector<ExchangeResult> results(slot.pairs.size());
    for (std::size_t i = 0; i < slot.pairs.size(); ++i) {
      configs[i].cpu_a = slot.pairs[i].a;
      configs[i].cpu_b = slot.pairs[i].b;
      configs[i].rounds = rounds_per_visit;
      configs[i].warmup = plan_.spec.warmup_per_visit;
      configs[i].timeout = settings_.timeout;
      configs[i].deadline = deadline;
    }
    {
      // Each pair's exchange in a thread of its own (it pins its own two threads; these only
      // wait), started with SIGINT and SIGTERM blocked, which they inherit: a signal waits for
      // the slot to end. This thread only waits, signals open: the first is recorded (the
      // next slot does not start), a second ends the process at once (stop_signals.hpp).
      std::vector<std::thread> threads;
      threads.reserve(slot.pairs.size());
      {
        const StopSignalsBlocked blocked;
        for (std::size_t i = 0; i < slot.pairs.size(); ++i) {
          threads.emplace_back([&, i] { results[i] = run_exchange(settings_.choice, configs[i]); });
        }
      }
      for (std::thread& t : threads) t.join();
    }
    const Clock::time_point exchanged = Clock::now();
    const double slot_seconds = std::chrono::duration<double>(exchanged - slot_start).count();
    for (std::size_t i = 0; i < slot.pairs.size(); ++i) {
      const PairVisit& v = slot.pairs[i];
      const Run visit = assemble_run(results[i], configs[i]);
      const std::string error(visit.trailer.get("error").value_or(""));
      const std::uint64_t number =
          visits_.append(v.a, v.b, visit.rounds, visit_quantum_ticks(results[i]), error);
      rounds_ += visit.rounds.size();
      pair_seconds_ += slot_seconds;
      if (error.empty() && visit.rounds.size() < rounds_per_visit) ++out.visits_cut;
      if (!error.empty()) {
        out.problems.push_back("pair " + pair_text(v.a, v.b) + ", visit " + std::to_string(number + 1) + ": " + error);
      }
    }
    exchange_seconds_ += slot_seconds;
    write_seconds_ += std::chrono::duration<double>(Clock::now() - exchanged).count();
    out.visits_done += slot.pairs.size();
    ++out.slots_done;
    if (progress) {
      PlanRunProgress p;
      p.slots_done = out.slots_done;
      p.slots = slots.size();
      p.visits_done = out.visits_done;
      p.visits = visits_total;
      const Clock::time_point now = Clock::now();
      p.elapsed_seconds = std::chrono::duration<double>(now - start_).count();
      // The slots done so far in this call, at their pace, for the slots left (the rate
      // measured, not the plan's model); never past the deadline.
      const double per_slot =
          std::chrono::duration<double>(now - call_start).count() / static_cast<double>(out.slots_done);
      const double extrapolated = per_slot * static_cast<double>(slots.size() - out.slots_done);
      p.left_seconds = timed ? std::min(extrapolated, std::chrono::duration<double>(until - std::min(now, until)).count())
                             : extrapolated;
      progress(p);
    }
  }
  return out;
}

}  // namespace tscaudit
