// The cells of the all-pairs matrix: what the matrix keeps of each ordered pair, and the
// n×n grid of them, which keeps a full cell only for the pairs written. A sparse design
// on 1024 CPUs measures about 37,000 of the 1,047,552 ordered pairs; one full cell each
// for every ordered pair took about 450 MB (docs/performance.md, "Memory"). Pure.
#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <string>
#include <vector>

#include "pair/verdict.hpp"

namespace tscaudit {

inline constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

/// Where a cell's band comes from (docs/method.md §3.7, "One pair, one band").
enum class BandSource {
  role,        // this ordered pair's rounds alone: the other role is not measured, a role
               // stepped or has no band or too few rounds, or the two fit no one line
  both_roles,  // every round of both roles, every visit, on one line (estimate/role_hulls.hpp)
};

/// What the matrix keeps of one ordered pair's analysis.
struct PairCell {
  bool measured = false;
  std::uint64_t rounds = 0;
  std::string incomplete;  // why the pair's data is not complete; empty when it is
  // The pair's proof, in this cell's orientation (θ = TSC_b − TSC_a): both roles' rounds
  // together where band_source says so, else this role's. What the check, the findings,
  // the per-CPU bounds and the heatmaps read.
  double offset_ticks = kNoValue;     // θ at the band's reference time
  double offset_lo_ticks = kNoValue;  // hard band; NaN when infeasible
  double offset_hi_ticks = kNoValue;
  /// The instant the band holds at, on this cell's initiator's counter (a's): the run's
  /// middle for one role, where the joined band is narrowest for both (method.md §3.7).
  std::uint64_t band_t_ref_tick = 0;
  double drift_ppb = kNoValue;
  double drift_lo_ppb = kNoValue;  // hard band of the drift-free fit; NaN when infeasible
  double drift_hi_ppb = kNoValue;
  bool drift_detectable = false;  // the drift decision (design "Drift decision")
  bool band_feasible = false;
  BandSource band_source = BandSource::role;
  /// Both roles are measured, each with a band, and no one line fits the two together: the
  /// offset moved between them (or a read ran early in one). A failure of the pair.
  bool roles_disagree = false;
  // This ordered pair's own fit (a initiates), whatever band_source says: the role's view,
  // which the antisymmetry, the loop closure and "The pair" of a report show.
  double role_offset_ticks = kNoValue;
  double role_offset_lo_ticks = kNoValue;
  double role_offset_hi_ticks = kNoValue;
  bool role_band_feasible = false;
  double rtt_min_ticks = kNoValue;
  double rtt_p50_ticks = kNoValue;
  std::uint64_t causality_violations = 0;  // forward + reverse
  std::uint64_t negative = 0;              // one-way latencies below 0, forward + reverse
  std::uint64_t self_inconsistent = 0;
  std::vector<StepVerdict> steps;  // proven steps of the offset during the run (docs/method.md §6.4)
  PairVerdict verdict;
};

/// `count` cells, indexed a·n + b as a row-major vector is, that hold a full PairCell only
/// for the cells written (the non-const operator[], or a vector converted whole); every
/// other cell reads as the fill (PairCell{}, unmeasured, unless assign says otherwise).
/// Memory: 4 bytes per cell plus one PairCell per written cell. References to written
/// cells stay valid as more are written.
class PairCells {
 public:
  PairCells() = default;
  /// Every cell of `dense` written, in its order (small matrices, tests).
  PairCells(const std::vector<PairCell>& dense);  // NOLINT(google-explicit-constructor): a vector is a grid

  /// `count` unwritten cells, each reading as `fill`.
  void assign(std::size_t count, const PairCell& fill);
  /// `count` cells: the first ones as they were, the new ones unwritten.
  void resize(std::size_t count);
  [[nodiscard]] std::size_t size() const { return index_.size(); }
  [[nodiscard]] bool empty() const { return index_.empty(); }
  /// \pre k < size().
  [[nodiscard]] const PairCell& operator[](std::size_t k) const {
    const std::uint32_t i = index_[k];
    return i == kUnwritten ? fill_ : written_[i];
  }
  /// Writes cell k (a copy of the fill the first time) and returns it. \pre k < size().
  PairCell& operator[](std::size_t k);
  /// How many cells were written.
  [[nodiscard]] std::size_t written() const { return written_.size(); }

  /// The written cells, in the order they were first written; the others, each equal to
  /// the fill, are not visited (sums and medians over the measured pairs need only these).
  [[nodiscard]] auto begin() const { return written_.begin(); }
  [[nodiscard]] auto end() const { return written_.end(); }
  auto begin() { return written_.begin(); }
  auto end() { return written_.end(); }

 private:
  static constexpr std::uint32_t kUnwritten = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> index_;  // per cell: its place in written_, or kUnwritten
  std::deque<PairCell> written_;      // a deque: references stay valid as it grows
  PairCell fill_;
};

}  // namespace tscaudit
