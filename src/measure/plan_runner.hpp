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
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/run_dir_writer.hpp"
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

/// The visits of one run directory as they are appended (docs/formats.md, "Run
/// directory"): each visit of an ordered pair takes the pair's next visit number (from 0)
/// and its rounds' seq counts on from the pair's previous visit. The one bookkeeping of
/// every writer of a run directory: the plan's runner, and a simulated machine.
/// Appending visits of different ordered pairs from several threads at once is safe.
class RunDirVisits {
 public:
  explicit RunDirVisits(RunDirWriter& writer) : writer_(writer) {}

  /// Appends `rounds` (seq from 0, as assemble_run gives them) as the next visit of
  /// a -> b (RunDirWriter::append_visit). \returns that visit's number, from 0.
  /// \throws IoError as append_visit; the visit's number and seq are spent then.
  std::uint64_t append(int a, int b, std::span<const Round> rounds, std::uint64_t quantum_ticks,
                       std::string_view error);

  /// The visits appended so far of the ordered pair a -> b.
  [[nodiscard]] std::uint64_t visits_of(int a, int b) const;

 private:
  struct PairVisits {
    std::uint64_t visits = 0;
    std::uint64_t next_seq = 0;
  };
  RunDirWriter& writer_;
  mutable std::mutex mutex_;                       // guards pairs_, not the writing
  std::map<std::pair<int, int>, PairVisits> pairs_;  // (a, b) -> its visits so far
};

/// Measures visits into `writer`, each visit of an ordered pair appended as the pair's next
/// (RunDirVisits: its number and seq are the runner's, whatever PairVisit::visit says).
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
  [[nodiscard]] std::uint64_t visits_of(int a, int b) const { return visits_.visits_of(a, b); }
  /// When the runner was made.
  [[nodiscard]] std::chrono::steady_clock::time_point started() const { return start_; }
  /// Measured rounds per second per pair, over every visit so far (0 before the first).
  [[nodiscard]] double rounds_per_second() const;

 private:
  const MatrixPlan& plan_;
  RunDirVisits visits_;
  PlanRunSettings settings_;
  std::chrono::steady_clock::time_point start_;
  double pair_seconds_ = 0;  // visit time summed over pairs
  std::uint64_t rounds_ = 0;
  double exchange_seconds_ = 0;  // the slots' exchanges, wall time
  double write_seconds_ = 0;     // writing their rounds to the run directory, wall time
};

}  // namespace tscaudit
