// Writers for PairAnalysis: text for a person, JSON per the design's contract
// ("tscsync-analysis/1"), CSV with one row per pair.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analyze.hpp"

namespace tscsync {

inline constexpr std::string_view kAnalysisSchema = "tscsync-analysis/1";

/// The verdict first, then the evidence: band, drift, classes, worst cases, percentiles.
std::string analysis_text(const PairAnalysis& p);

/// {"schema": "tscsync-analysis/1", "pairs": [...]}.
nlohmann::ordered_json analysis_json(const std::vector<PairAnalysis>& pairs);

/// A header row and one row per pair.
std::string analysis_csv(const std::vector<PairAnalysis>& pairs);

}  // namespace tscsync
