// Writers for PairAnalysis: text for a person, JSON per the design's contract
// ("tscaudit-analysis/1"), CSV with one row per pair.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "pair/analyze.hpp"

namespace tscaudit {

inline constexpr std::string_view kAnalysisSchema = "tscaudit-analysis/1";

/// The verdict first, then the evidence: band, drift, classes, worst cases, percentiles.
std::string analysis_text(const PairAnalysis& p);

/// The first line's answer after the file name: the outcome check gives this run alone
/// (decide_pair) with the verdict that explains it: "not synchronized: offset of 300 ticks
/// ...", "inconclusive: too few rounds ...", "synchronized within the band: ...".
std::string pair_answer_text(const PairAnalysis& p);

/// The offset, drift and margin lines of a fit, as analysis_text and the monitor's text
/// print them. `robust_what` says what a k > 1 is the k-th smallest of.
std::string fit_lines_text(const EnvelopeFit& fit, const EnvelopeFit& free_fit, bool zero_drift, double span_ticks,
                           std::uint64_t k, std::int64_t quantum_ticks, const std::string& quantum_source, double hz,
                           std::string_view robust_what);

/// {"schema": "tscaudit-analysis/1", "pairs": [...]}.
nlohmann::ordered_json analysis_json(const std::vector<PairAnalysis>& pairs);

/// analysis_json(pairs).dump(2) + "\n", written pair by pair to `sink` as the pairs come:
/// the same bytes, without holding every analysis (a matrix of a large machine).
class AnalysisJsonStream {
 public:
  explicit AnalysisJsonStream(std::function<void(std::string_view)> sink);
  void add(const PairAnalysis& p);
  /// Writes the end. Call once, after the last add.
  void finish();

 private:
  std::function<void(std::string_view)> sink_;
  bool any_ = false;
};

/// {"count", "min", "p50" ... "p99.999", "max", "mean", "negative", "tail_samples": {...}}:
/// the figures of one distribution in every JSON the tool writes.
nlohmann::ordered_json distribution_json(const SignedHistogram& h);

/// {"normal", "offset_explained", "marginal", "causality_violation"}.
nlohmann::ordered_json classes_json(const DirectionClasses& c);

/// A header row and one row per pair.
std::string analysis_csv(const std::vector<PairAnalysis>& pairs);

}  // namespace tscaudit
