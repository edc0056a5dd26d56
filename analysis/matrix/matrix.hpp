// The all-pairs picture: one cell per ordered pair (a initiates, b responds), reduced from
// that pair's analysis, and the per-CPU offsets that explain every pair at once
// (docs/machine.md §10.2: θ_ab ≈ x_b − x_a). Pure.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/cpu_place.hpp"
#include "matrix/pair_cells.hpp"
#include "pair/analyze.hpp"

namespace tscaudit {

/// \pre `p` analyzed at least one round. The band is the role's own (BandSource::role).
PairCell cell_from_analysis(const PairAnalysis& p);

/// One pair, one band (docs/method.md §3.7): fits the two roles' hulls as one set
/// (fit_both_roles) and, where one line fits them, makes it the band of both cells, `ab`'s
/// in a->b's orientation and `ba`'s turned; where none does, marks both roles_disagree.
/// Nothing changes when the hulls cannot be joined (coordinates beyond ±2^62).
void join_roles(PairCell& ab, PairCell& ba, const FrameHulls& ab_hulls, const FrameHulls& ba_hulls);

/// A pair that does not fit the rest of the matrix.
struct PairDisagreement {
  enum class Kind {
    off_solution,    // the per-CPU offsets put x_b - x_a outside a->b's band by more than the quantum
    roles_disagree,  // a->b's band and b->a's (sign flipped) do not meet
  };
  int a = 0, b = 0;  // CPU numbers
  Kind kind = Kind::off_solution;
  double predicted_ticks = 0;  // off_solution: x_b - x_a
  double lo_ticks = 0;         // a->b's band
  double hi_ticks = 0;
  double other_lo_ticks = 0;  // roles_disagree: b->a's band, sign flipped
  double other_hi_ticks = 0;
};

/// Per-CPU offsets relative to the first CPU of the list (x = 0 there).
struct CpuOffsets {
  /// Least squares over every measured pair's estimate (unweighted; Eigen LDLT on the
  /// normal equations, which are the graph Laplacian of the measured pairs). NaN for a
  /// CPU no chain of measured pairs links to the reference.
  std::vector<double> offset_ticks;
  /// Hard bounds: the pair bands are difference constraints x_b − x_a ∈ [lo_ab, hi_ab];
  /// the tightest bounds they imply on x_c − x_ref are shortest paths (Floyd–Warshall).
  /// NaN when no chain of feasible bands bounds that side.
  std::vector<double> lo_ticks;
  std::vector<double> hi_ticks;
  /// False when the bands contradict each other (a negative cycle): some band is wrong,
  /// the offset moved between visits, or drift separates the pairs' reference times.
  bool bands_consistent = true;
  /// residual_ticks[i*n+j] = θ_ij − (x_j − x_i); NaN where not measured.
  std::vector<double> residual_ticks;
  double rms_residual_ticks = kNoValue;
  /// θ_ab + θ_ba per unordered pair (0 for a perfect antisymmetry); stored at [a][b] and
  /// [b][a]. Its largest magnitude, and the largest loop closure |ψ_ab + ψ_bc + ψ_ca| over
  /// every triangle, ψ the role-averaged offset (θ_ab − θ_ba) / 2. NaN when none exists.
  std::vector<double> antisymmetry_ticks;
  double max_antisymmetry_ticks = kNoValue;
  double max_loop_closure_ticks = kNoValue;
  std::vector<int> worst_loop;  // the triangle (CPU numbers) of max_loop_closure_ticks
  std::vector<PairDisagreement> disagreeing;
};

/// Solves for the per-CPU offsets. `cells` is n×n row-major (row a, column b).
/// \param quantum_ticks  widens the consistency tests by one reading error.
CpuOffsets solve_cpu_offsets(const std::vector<int>& cpus, const PairCells& cells, std::int64_t quantum_ticks);

struct MatrixResult {
  std::vector<int> cpus;                // in topology order
  std::vector<std::string> labels;      // one per CPU, for plots and tables
  std::vector<std::size_t> boundaries;  // indexes where a new topology group starts
  /// Where each CPU sits, parallel to `cpus`; every level -1 where the topology is unknown
  /// (a plain directory of run files). Groups the pairs by distance (SMT, L3, package).
  std::vector<CpuPlace> places;
  RecordedVariant send, recv;      // read variants
  double tsc_hz = 0;               // 0: unknown
  std::int64_t quantum_ticks = 1;  // the largest over the pairs
  PairCells cells;                 // n×n row-major, the diagonal unmeasured
  CpuOffsets cpu;
  /// n×n row-major, 1 where the plan measures the ordered pair; empty: every ordered pair.
  /// A sparse plan (matrix_plan.hpp) leaves the other cells unmeasured on purpose.
  std::vector<std::uint8_t> planned;

  [[nodiscard]] std::size_t size() const { return cpus.size(); }
  /// The index of CPU number `number` in `cpus`; size() when the matrix has no such CPU.
  [[nodiscard]] std::size_t index_of(int number) const {
    return static_cast<std::size_t>(std::find(cpus.begin(), cpus.end(), number) - cpus.begin());
  }
  [[nodiscard]] const PairCell& at(std::size_t a, std::size_t b) const { return cells[a * cpus.size() + b]; }
  [[nodiscard]] bool is_planned(std::size_t a, std::size_t b) const {
    return planned.empty() || planned[a * cpus.size() + b] != 0;
  }
};

/// Builds a matrix one pair analysis at a time, keeping only each pair's cell (and the
/// hulls of a role until its other role comes, to join them): the pairs can be analyzed,
/// written and forgotten one by one (docs/performance.md, memory).
class MatrixBuilder {
 public:
  explicit MatrixBuilder(std::vector<int> cpus);
  /// Fills the cell of the pair `p` names (its a and b metadata, CPU numbers).
  /// \throws InputError when the pair was added before or names a CPU not in the list.
  void add(const PairAnalysis& p);
  /// The matrix, its per-CPU offsets solved. The builder is spent.
  MatrixResult finish();

 private:
  MatrixResult m_;
  std::map<std::string, std::size_t, std::less<>> index_;  // CPU number as written -> position
  /// The hulls of roles whose other role is not in yet, by cell index (a·n + b): a few
  /// hundred points each, dropped when the pair is joined.
  std::map<std::size_t, FrameHulls> waiting_;
  bool first_ = true;
};

/// Builds the matrix from the analyses of the ordered pairs, matched by their a and b
/// metadata (CPU numbers). A pair with no analysis stays unmeasured.
/// \throws InputError when two analyses claim the same ordered pair or name a CPU not in `cpus`.
MatrixResult build_matrix(const std::vector<int>& cpus, const std::vector<const PairAnalysis*>& pairs);

}  // namespace tscaudit
