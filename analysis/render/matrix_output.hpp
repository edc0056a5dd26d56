// Writers for the all-pairs matrix and the check: JSON per the design's contract
// ("tscsync-matrix/1"), text a person reads in ten seconds.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "matrix/check.hpp"
#include "matrix/matrix.hpp"

namespace tscsync {

inline constexpr std::string_view kMatrixSchema = "tscsync-matrix/1";
inline constexpr std::string_view kCheckSchema = "tscsync-check/1";

/// {"schema": "tscsync-matrix/1", "cpus": [...], N×N arrays (null where not measured),
/// "cpu_offset_ticks": [...], "consistency": {...}}. `cpu_places` (one object per CPU,
/// from the topology) is merged into "cpus" when it has one entry per CPU.
nlohmann::ordered_json matrix_json(const MatrixResult& m, const nlohmann::ordered_json& cpu_places);

/// Per-CPU offsets, the pairs as a table, the consistency figures, the disagreeing pairs.
std::string matrix_text(const MatrixResult& m);

/// {"schema": "tscsync-check/1", "synchronized", "reason", "failures", "warnings", ...}.
nlohmann::ordered_json check_json(const CheckResult& c, const CheckSettings& s);

/// The reason line, then (with details) every failure and warning, one per line.
std::string check_text(const CheckResult& c, bool details);

}  // namespace tscsync
