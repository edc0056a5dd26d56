#include "matrix/matrix_analysis.hpp"

#include <algorithm>
#include <numeric>

#include "formats/run_format.hpp"

namespace tscaudit {

std::string pair_name(int a, int b) { return std::to_string(a) + "->" + std::to_string(b); }

MatrixAnalysis analyze_matrix_pairs(const MatrixPlan& plan, const OrderedCpus& order,
                                    const MatrixAnalysisContext& context, const PairRunSource& source,
                                    const PairAnalyzed& analyzed) {
  MatrixAnalysis out;
  // By CPU number (the order of analysis.json and of the report's tables).
  std::vector<std::size_t> by_number(plan.spec.cpus.size());  // positions in the plan
  std::iota(by_number.begin(), by_number.end(), std::size_t{0});
  std::sort(by_number.begin(), by_number.end(),
            [&](std::size_t x, std::size_t y) { return plan.spec.cpus[x] < plan.spec.cpus[y]; });
  MatrixBuilder builder(plan.spec.cpus);
  std::optional<PairIdentity> identity;  // of the first pair: the variants the runs record
  double runs_tsc_hz = 0;
  for (std::size_t i : by_number) {
    for (std::size_t j : by_number) {
      if (!plan.measures(i, j)) continue;  // the diagonal, and the pairs a sparse plan leaves out
      const int a = plan.spec.cpus[i], b = plan.spec.cpus[j];
      std::optional<Run> run = source(a, b);
      if (!run || run->rounds.empty()) {
        out.unmeasured.push_back(pair_name(a, b));
        continue;
      }
      if (auto reason = incomplete_reason(*run)) out.incomplete.push_back(pair_name(a, b) + " (" + *reason + ")");
      const PairAnalysis analysis = analyze_run(*run, pair_name(a, b));
      builder.add(analysis);
      if (!identity) {
        identity = static_cast<const PairIdentity&>(analysis);
        runs_tsc_hz = analysis.tsc_hz;
      }
      ++out.analyzed;
      if (analyzed) analyzed(a, b, *run, analysis);
    }
  }
  MatrixResult& m = out.matrix;
  m = builder.finish();
  // The variants and the frequency the runs record (offline, nothing else knows them).
  m.send = identity ? identity->send : recorded_variant(context.send);
  m.recv = identity ? identity->recv : recorded_variant(context.recv);
  m.tsc_hz = context.tsc_hz > 0 ? context.tsc_hz : runs_tsc_hz;
  for (const CpuPlace& place : order.cpus) m.labels.push_back(std::to_string(place.cpu));
  m.places = order.cpus;
  m.boundaries = order.l3_starts.size() > 1 ? order.l3_starts : order.package_starts;
  std::erase(m.boundaries, std::size_t{0});
  if (plan.spec.design == PlanDesign::sparse) {
    // The pairs a sparse plan leaves out are not failures of the measurement (check).
    const std::size_t n = plan.spec.cpus.size();
    m.planned.assign(n * n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) m.planned[i * n + j] = plan.measures(i, j) ? 1 : 0;
    }
  }
  return out;
}

}  // namespace tscaudit
