// Writers for the all-pairs matrix and the check: JSON per the design's contract
// ("tscaudit-matrix/1"), text a person reads in ten seconds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "matrix/check.hpp"
#include "matrix/matrix.hpp"
#include "matrix/topology_order.hpp"

namespace tscaudit {

inline constexpr std::string_view kMatrixSchema = "tscaudit-matrix/1";
inline constexpr std::string_view kCheckSchema = "tscaudit-check/1";

/// {"schema": "tscaudit-matrix/1", "cpus": [...], N×N arrays (null where not measured),
/// "cpu_offset_ticks": [...], "consistency": {...}}. `cpu_places` (one object per CPU,
/// from the topology) is merged into "cpus" when it has one entry per CPU.
nlohmann::ordered_json matrix_json(const MatrixResult& m, const nlohmann::ordered_json& cpu_places);

/// The bytes of `j.dump(2) + "\n"`, j being matrix_json(m, cpu_places) with the members of
/// the object `extra` appended (keys matrix_json does not write), written to `sink` a
/// piece at a time: the N×N arrays never exist as a document, whose values take about
/// 16 bytes each (17 arrays of 1024 × 1024 on 1024 CPUs) and whose text as much again.
void stream_matrix_json(const MatrixResult& m, const nlohmann::ordered_json& cpu_places,
                        const nlohmann::ordered_json& extra, const std::function<void(std::string_view)>& sink);

/// The topology description of each CPU of `order`, in its order, as JSON objects ({"cpu",
/// "package", "die", "numa", "l3", "core": null where unknown, "group": the group label}):
/// matrix_json's `cpu_places`.
nlohmann::ordered_json cpu_places_json(const OrderedCpus& order);

/// The pairs of a matrix that have no round (pair_name), in one line however many: "pair
/// 0->1: no round completed; left unmeasured", or how many and the first eight.
/// \pre pairs is not empty.
std::string unmeasured_pairs_note(const std::vector<std::string>& pairs);

/// The pairs whose runs are not complete ("0->1 (why)"), of the `analyzed` pairs, in one
/// line however many, naming the first eight.
std::string incomplete_pairs_note(const std::vector<std::string>& pairs, std::size_t analyzed);

/// Ordered pairs the plan leaves out (MatrixResult::planned): 0 unless a sparse design.
/// MatrixGrid::left_out of the matrix's .dat files.
std::size_t pairs_left_out(const MatrixResult& m);

/// The pairs table lists every ordered pair the plan measures up to this many (every
/// ordered pair of 64 CPUs); beyond, matrix_text prints a summary instead.
inline constexpr std::size_t kMaxPairRows = std::size_t{64} * 63;
/// How many pairs the summary lists by largest |offset|, and again by largest minimum rtt.
inline constexpr std::size_t kSummaryPairs = 10;

/// Per-CPU offsets, the pairs as a table, the consistency figures, the disagreeing pairs.
/// The table has one line per ordered pair the plan measures ("not measured" for one that
/// was not); the pairs a sparse design leaves out have none, and the heading says so ("the
/// 8800 ordered pairs of a sparse design, of 65280"). Past kMaxPairRows pairs it lists only
/// the kSummaryPairs with the largest |offset| and those with the largest minimum rtt, then
/// how many other pairs were measured, were not, drift and stepped, and where every pair is.
std::string matrix_text(const MatrixResult& m);

/// {"cpu_offset_ticks": [{"cpu", "estimate", "lo", "hi"}, ...], "cpu_offset_reference",
/// "cpu_offset_table"}: each CPU's offset against the first, as matrix's and check's JSON
/// hold it (docs/json.md); what `compare` reads.
nlohmann::ordered_json cpu_offsets_json(const MatrixResult& m);

/// {"schema": "tscaudit-check/1", "synchronized", "reason", "failures", "warnings", ...}.
nlohmann::ordered_json check_json(const CheckResult& c);

/// The findings as JSON (docs/json.md, "Findings"): one object per finding with `kind`,
/// `cpus`, `against`, `lo`, `hi`, `unit`, `estimate`, `name`, `against_name` (null where
/// no topology unit matches), `pairs`, `what` (its sentence); `step_round` for a step.
nlohmann::ordered_json findings_json(const Diagnosis& d, double tsc_hz);

/// How many failing pairs `check --details` lists on a terminal; matrix.txt holds them all.
inline constexpr std::size_t kDetailsFailures = 20;

/// The reason line, then (with details) every finding, the failures (the first
/// `max_failures`, then how many more and where every one is: matrix.txt of --out and
/// --format json) and every warning, one per line.
std::string check_text(const CheckResult& c, bool details, std::size_t max_failures = SIZE_MAX);

}  // namespace tscaudit
