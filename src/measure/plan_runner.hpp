// The plan's runner (docs/machine.md §10.1): a matrix plan's slots measured one after the
// other, the disjoint pairs of a slot at once on threads of their own, each visit's rounds
// appended to the run directory as it ends. What `matrix`, `check` and `report` measure
// with; the plan itself (which pairs, when, how many rounds) is analysis/matrix's.
//
// Time. With a budget, every slot gets a deadline: its share of what is left of the budget
// (what is left, over the slots left), so the run ends within the budget whatever the
// machine's exchange rate. A visit that reaches its slot's deadline ends there, complete,
// with fewer rounds. The rate the slots measured is kept, for the time left that progress
// shows and for the plan's record.
#pragma once

#include <csignal>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "formats/run_dir.hpp"
#include "matrix/matrix_plan.hpp"
#include "measure/exchange.hpp"

namespace tscaudit {

/// How the runner measures.
struct PlanRunSettings {
  ExchangeChoice choice;
  std::chrono::milliseconds timeout{2000};  // a partner's longest silence
  /// A signal caught (non-zero) ends the run before the next slot: the slot under way
  /// completes (its threads block the signals, StopSignalsBlocked).
  const std::atomic<int>* stop = nullptr;
};

/// Where a run stands, for a progress line.
struct PlanRunProgress {
  std::size_t slots_done = 0;
  std::size_t slots = 0;  // of this call's slots
  std::uint64_t visits_done = 0;
  std::uint64_t visits = 0;
  double elapsed_seconds = 0;  // since the runner started
  double left_seconds = 0;     // until the deadline, else extrapolated from the slots done
};

/// What a call of run_slots did.
struct SlotsOutcome {
  std::size_t slots_done = 0;
  std::uint64_t visits_done = 0;
  int signal = 0;                     // the signal that ended it early; 0: none did
  std::vector<std::string> problems;  // "pair 0->1, visit 2: CPU 1 stopped answering ..."
  std::uint64_t visits_cut = 0;       // visits that reached their slot's deadline
};

/// Blocks SIGINT and SIGTERM (the signals a StopSignals records) in the calling thread while it lives, so that the
/// measuring threads started meanwhile inherit the block (a signal waits for the slot to
/// end); restores the thread's mask when it goes.
class StopSignalsBlocked {
 public:
  StopSignalsBlocked();
  ~StopSignalsBlocked();
  StopSignalsBlocked(const StopSignalsBlocked&) = delete;
  StopSignalsBlocked& operator=(const StopSignalsBlocked&) = delete;

 private:
  sigset_t previous_{};
};

/// Measures visits into `writer`, each visit of an ordered pair appended with seq counting
/// on from the pair's previous visit (the bookkeeping of one run directory).
class PlanRunner {
 public:
  PlanRunner(const MatrixPlan& plan, RunDirWriter& writer, PlanRunSettings settings);

  /// Measures `slots` in order, `rounds_per_visit` (+ the plan's warm-up) per visit. With
  /// `until` set (not the epoch) each slot's visits end at its share of what is left until
  /// then. `progress` (when set) is called after each slot. Stops early at a signal.
  /// \throws IoError when the run directory cannot be written.
  SlotsOutcome run_slots(std::span<const PlanSlot> slots, std::uint64_t rounds_per_visit,
                         std::chrono::steady_clock::time_point until,
                         const std::function<void(const PlanRunProgress&)>& progress);

  /// The visits measured so far of the ordered pair a -> b (planned and added).
  [[nodiscard]] std::uint64_t visits_of(int a, int b) const;
  /// When the runner was made.
  [[nodiscard]] std::chrono::steady_clock::time_point started() const { return start_; }
  /// Measured rounds per second per pair, over every visit so far (0 before the first).
  [[nodiscard]] double rounds_per_second() const;

 private:
  const MatrixPlan& plan_;
  RunDirWriter& writer_;
  PlanRunSettings settings_;
  std::chrono::steady_clock::time_point start_;
  std::map<std::pair<int, int>, std::pair<std::uint64_t, std::uint64_t>> pairs_;  // (a, b) -> (visits, next seq)
  double pair_seconds_ = 0;                                                    // visit time summed over pairs
  std::uint64_t rounds_ = 0;
  double exchange_seconds_ = 0;  // the slots' exchanges, wall time
  double write_seconds_ = 0;     // writing their rounds to the run directory, wall time
};

}  // namespace tscaudit
