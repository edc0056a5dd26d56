#include "render/matrix_output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "core/format.hpp"
#include "render/verdict_text.hpp"

namespace tscsync {
namespace {

using json = nlohmann::ordered_json;

json number_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

/// An N×N array of one field, null where the pair was not measured or the value is NaN.
template <class Field>
json grid(const MatrixResult& m, Field field) {
  json rows = json::array();
  for (std::size_t a = 0; a < m.size(); ++a) {
    json row = json::array();
    for (std::size_t b = 0; b < m.size(); ++b) {
      const PairCell& c = m.at(a, b);
      row.push_back(c.measured ? field(c) : json(nullptr));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

json grid_of(const MatrixResult& m, const std::vector<double>& values) {
  json rows = json::array();
  for (std::size_t a = 0; a < m.size(); ++a) {
    json row = json::array();
    for (std::size_t b = 0; b < m.size(); ++b) row.push_back(number_or_null(values[a * m.size() + b]));
    rows.push_back(std::move(row));
  }
  return rows;
}

/// Fixed-width cell for the text tables.
std::string cell_text(double v, int width) {
  std::string s = std::isfinite(v) ? format_sig(v + 0.0, 4) : "-";  // + 0.0: no "-0"
  if (static_cast<int>(s.size()) < width) s.insert(0, static_cast<std::size_t>(width) - s.size(), ' ');
  return s;
}

std::string pad_right(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string pair_name(int a, int b) { return std::to_string(a) + "->" + std::to_string(b); }

/// Why a pair does not fit the rest, in one line.
std::string disagreement_text(const PairDisagreement& d) {
  if (d.kind == PairDisagreement::Kind::off_solution) {
    return "pair " + pair_name(d.a, d.b) + ": the per-CPU offsets put x_b - x_a at " +
           format_sig(d.predicted_ticks, 4) + " ticks, outside its band " + format_range(d.lo_ticks, d.hi_ticks) +
           " by more than the quantum";
  }
  return "pairs " + pair_name(d.a, d.b) + " and " + pair_name(d.b, d.a) + " disagree: the first puts the offset in " +
         format_range(d.lo_ticks, d.hi_ticks) + ", the second (sign flipped) in " +
         format_range(d.other_lo_ticks, d.other_hi_ticks);
}

constexpr const char* kPairsHeader =
    "  pair         offset          band lo      band hi    drift ppb   rtt min   rtt p50  violations  self-inc.\n";

/// One line of the pairs table: the measured figures, or "not measured".
std::string pair_row(const MatrixResult& m, std::size_t a, std::size_t b) {
  const PairCell& c = m.at(a, b);
  const std::string name = std::to_string(m.cpus[a]) + "->" + std::to_string(m.cpus[b]);
  if (!c.measured) return "  " + pad_right(name, 10) + "  not measured\n";
  return "  " + pad_right(name, 10) + cell_text(c.offset_ticks, 10) + cell_text(c.offset_lo_ticks, 16) +
         cell_text(c.offset_hi_ticks, 13) + cell_text(c.drift_ppb, 13) + cell_text(c.rtt_min_ticks, 10) +
         cell_text(c.rtt_p50_ticks, 10) + cell_text(static_cast<double>(c.causality_violations), 12) +
         cell_text(static_cast<double>(c.self_inconsistent), 11) + (c.drift_detectable ? "  drift!" : "") +
         (c.step_proven ? "  step!" : "") + "\n";
}

/// The indexes (a·n + b) of the `count` measured pairs with the largest key, largest first,
/// ties in matrix order; pairs whose key is not finite come last.
std::vector<std::size_t> largest(const MatrixResult& m, const std::vector<std::size_t>& measured, std::size_t count,
                                 double (*key)(const PairCell&)) {
  auto rank = [&](std::size_t k) {
    const double v = key(m.cells[k]);
    return std::isfinite(v) ? v : -std::numeric_limits<double>::infinity();
  };
  std::vector<std::size_t> order = measured;
  const std::size_t keep = std::min(count, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(keep), order.end(),
                    [&](std::size_t x, std::size_t y) { return rank(x) > rank(y) || (!(rank(x) < rank(y)) && x < y); });
  order.resize(keep);
  return order;
}

double abs_offset(const PairCell& c) { return std::fabs(c.offset_ticks); }
double rtt_min_of(const PairCell& c) { return c.rtt_min_ticks; }

/// The "Pairs" part of matrix_text: every pair the plan measures, or past kMaxPairRows of
/// them a summary (module comment of matrix_output.hpp).
std::string pairs_text(const MatrixResult& m) {
  const std::size_t n = m.size();
  std::vector<std::size_t> rows, measured;  // a·n + b, in matrix order
  std::size_t drifting = 0, stepped = 0;
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      const PairCell& c = m.at(a, b);
      if (a == b || (!c.measured && !m.is_planned(a, b))) continue;  // a sparse plan left it out
      rows.push_back(a * n + b);
      if (!c.measured) continue;
      measured.push_back(a * n + b);
      drifting += c.drift_detectable ? 1 : 0;
      stepped += c.step_proven ? 1 : 0;
    }
  }
  const std::size_t skipped = pairs_left_out(m);
  std::string out = "\nPairs (a initiates, b responds; offset = TSC_b - TSC_a)";
  if (skipped > 0) {
    out +=
        ": the " + std::to_string(rows.size()) + " ordered pairs of a sparse design, of " + std::to_string(n * (n - 1));
  }
  if (rows.size() <= kMaxPairRows) {
    out += std::string("\n") + kPairsHeader;
    for (std::size_t k : rows) out += pair_row(m, k / n, k % n);
    return out;
  }
  const std::vector<std::size_t> by_offset = largest(m, measured, kSummaryPairs, abs_offset);
  const std::vector<std::size_t> by_rtt = largest(m, measured, kSummaryPairs, rtt_min_of);
  std::vector<std::size_t> shown = by_offset;
  shown.insert(shown.end(), by_rtt.begin(), by_rtt.end());
  std::sort(shown.begin(), shown.end());
  shown.erase(std::unique(shown.begin(), shown.end()), shown.end());
  out += "\n  " + std::to_string(rows.size()) +
         " pairs are too many to list here: the largest offsets and round trips follow; every pair is in "
         "matrix.json, analysis.json and the .dat files of the output directory (--out DIR), or in --format json\n";
  out += kPairsHeader;
  out += "  largest |offset|:\n";
  for (std::size_t k : by_offset) out += pair_row(m, k / n, k % n);
  out += "  largest rtt min:\n";
  for (std::size_t k : by_rtt) out += pair_row(m, k / n, k % n);
  out += "  " + std::to_string(measured.size() - shown.size()) + " other measured pairs not listed";
  if (rows.size() > measured.size()) out += "; " + std::to_string(rows.size() - measured.size()) + " not measured";
  out += "; " + std::to_string(drifting) + " with detectable drift, " + std::to_string(stepped) +
         " with a proven offset step\n";
  return out;
}

}  // namespace

std::size_t pairs_left_out(const MatrixResult& m) {
  std::size_t count = 0;
  for (std::size_t a = 0; a < m.size(); ++a) {
    for (std::size_t b = 0; b < m.size(); ++b) {
      if (a != b && !m.is_planned(a, b)) ++count;
    }
  }
  return count;
}

json matrix_json(const MatrixResult& m, const json& cpu_places) {
  json j;
  j["schema"] = std::string(kMatrixSchema);
  j["send"] = m.send.name;
  j["recv"] = m.recv.name;
  j["tsc_hz"] = m.tsc_hz > 0 ? json(m.tsc_hz) : json(nullptr);
  j["quantum_ticks"] = m.quantum_ticks;
  json cpus = json::array();
  for (std::size_t i = 0; i < m.size(); ++i) {
    json c;
    c["cpu"] = m.cpus[i];
    c["label"] = i < m.labels.size() ? m.labels[i] : std::to_string(m.cpus[i]);
    if (cpu_places.is_array() && cpu_places.size() == m.size()) {
      for (const auto& [k, v] : cpu_places[i].items()) {
        if (k != "cpu") c[k] = v;
      }
    }
    cpus.push_back(std::move(c));
  }
  j["cpus"] = std::move(cpus);
  j["group_boundaries"] = m.boundaries;
  j["layout"] = "rows: initiator a, columns: responder b, in the order of cpus; offset = TSC_b - TSC_a";
  j["offset_ticks"] = grid(m, [](const PairCell& c) { return number_or_null(c.offset_ticks); });
  j["offset_lo_ticks"] = grid(m, [](const PairCell& c) { return number_or_null(c.offset_lo_ticks); });
  j["offset_hi_ticks"] = grid(m, [](const PairCell& c) { return number_or_null(c.offset_hi_ticks); });
  j["drift_ppb"] = grid(m, [](const PairCell& c) { return number_or_null(c.drift_ppb); });
  j["drift_lo_ppb"] = grid(m, [](const PairCell& c) { return number_or_null(c.drift_lo_ppb); });
  j["drift_hi_ppb"] = grid(m, [](const PairCell& c) { return number_or_null(c.drift_hi_ppb); });
  j["drift_detectable"] = grid(m, [](const PairCell& c) { return json(c.drift_detectable); });
  j["rtt_min_ticks"] = grid(m, [](const PairCell& c) { return number_or_null(c.rtt_min_ticks); });
  j["rtt_p50_ticks"] = grid(m, [](const PairCell& c) { return number_or_null(c.rtt_p50_ticks); });
  j["causality_violations"] = grid(m, [](const PairCell& c) { return json(c.causality_violations); });
  j["self_inconsistent"] = grid(m, [](const PairCell& c) { return json(c.self_inconsistent); });
  j["rounds"] = grid(m, [](const PairCell& c) { return json(c.rounds); });
  j["step_proven"] = grid(m, [](const PairCell& c) { return json(c.step_proven); });
  j["verdict"] = grid(m, [](const PairCell& c) { return json(verdict_text(c.verdict)); });
  j["verdict_kind"] = grid(m, [](const PairCell& c) { return json(verdict_kind_name(c.verdict.kind)); });
  json offsets = json::array();
  for (std::size_t i = 0; i < m.size(); ++i) {
    offsets.push_back({{"cpu", m.cpus[i]},
                       {"estimate", number_or_null(m.cpu.offset_ticks[i])},
                       {"lo", number_or_null(m.cpu.lo_ticks[i])},
                       {"hi", number_or_null(m.cpu.hi_ticks[i])}});
  }
  j["cpu_offset_ticks"] = std::move(offsets);
  j["cpu_offset_reference"] = m.cpus.empty() ? json(nullptr) : json(m.cpus.front());
  json consistency;
  consistency["bands_consistent"] = m.cpu.bands_consistent;
  consistency["rms_residual_ticks"] = number_or_null(m.cpu.rms_residual_ticks);
  consistency["max_antisymmetry_ticks"] = number_or_null(m.cpu.max_antisymmetry_ticks);
  consistency["max_loop_closure_ticks"] = number_or_null(m.cpu.max_loop_closure_ticks);
  consistency["worst_loop"] = m.cpu.worst_loop;
  consistency["residual_ticks"] = grid_of(m, m.cpu.residual_ticks);
  consistency["antisymmetry_ticks"] = grid_of(m, m.cpu.antisymmetry_ticks);
  json disagreeing = json::array();
  for (const PairDisagreement& d : m.cpu.disagreeing) {
    disagreeing.push_back({{"a", d.a}, {"b", d.b}, {"why", disagreement_text(d)}});
  }
  consistency["disagreeing_pairs"] = std::move(disagreeing);
  j["consistency"] = std::move(consistency);
  return j;
}

std::string matrix_text(const MatrixResult& m) {
  const double hz = m.tsc_hz;
  std::string out;
  out += "send " + m.send.name + ", recv " + m.recv.name + ", quantum " + std::to_string(m.quantum_ticks) + " ticks" +
         (hz > 0 ? ", TSC " + format_sig(hz / 1e6, 7) + " MHz" : std::string()) + "\n\n";
  out += "Per-CPU offset x (ticks, relative to CPU " + (m.cpus.empty() ? std::string("-") : std::to_string(m.cpus[0])) +
         "; least squares over " + std::string(pairs_left_out(m) > 0 ? "the pairs of the sparse design" : "all pairs") +
         ", hard bounds from the pair bands)\n";
  out += "   cpu    estimate          lo          hi\n";
  for (std::size_t i = 0; i < m.size(); ++i) {
    out += cell_text(m.cpus[i], 6) + cell_text(m.cpu.offset_ticks[i], 12) + cell_text(m.cpu.lo_ticks[i], 12) +
           cell_text(m.cpu.hi_ticks[i], 12) + "\n";
  }
  out += pairs_text(m);
  out += "\nConsistency: bands " + std::string(m.cpu.bands_consistent ? "consistent" : "CONTRADICT one another") +
         ", rms residual " + cell_text(m.cpu.rms_residual_ticks, 0) + " ticks, largest antisymmetry |θ_ab + θ_ba| " +
         cell_text(std::fabs(m.cpu.max_antisymmetry_ticks), 0) + " ticks";
  if (std::isfinite(m.cpu.max_loop_closure_ticks)) {
    out += ", largest loop closure " + cell_text(std::fabs(m.cpu.max_loop_closure_ticks), 0) + " ticks (CPUs " +
           std::to_string(m.cpu.worst_loop[0]) + ", " + std::to_string(m.cpu.worst_loop[1]) + ", " +
           std::to_string(m.cpu.worst_loop[2]) + ")";
  }
  out += "\n";
  if (m.cpu.disagreeing.empty()) {
    out += "No pair disagrees with the rest.\n";
  } else {
    out += "Pairs that disagree with the rest:\n";
    for (const PairDisagreement& d : m.cpu.disagreeing) out += "  " + disagreement_text(d) + "\n";
  }
  return out;
}

json check_json(const CheckResult& c, const CheckSettings& s) {
  json j;
  j["schema"] = std::string(kCheckSchema);
  j["synchronized"] = c.synchronized;
  j["reason"] = check_reason_text(c);
  j["tolerance_ticks"] = s.tolerance_ticks;
  j["drift_tolerance_ppb"] = s.drift_tolerance_ppb;
  j["pairs_checked"] = c.pairs_checked;
  j["cpus_off"] = c.cpus_off;
  json failures = json::array();
  for (const CheckFailure& f : c.failures) {
    failures.push_back({{"a", f.a >= 0 ? json(f.a) : json(nullptr)},
                        {"b", f.b >= 0 ? json(f.b) : json(nullptr)},
                        {"kind", check_failure_kind_name(f.kind)},
                        {"what", check_failure_text(f, c)}});
  }
  j["failures"] = std::move(failures);
  j["warnings"] = c.warnings;
  return j;
}

std::string check_text(const CheckResult& c, bool details) {
  std::string out = check_reason_text(c) + "\n";
  if (!details) return out;
  for (const CheckFailure& f : c.failures) out += "  fail: " + check_failure_text(f, c) + "\n";
  for (const std::string& w : c.warnings) out += "  warning: " + w + "\n";
  return out;
}

}  // namespace tscsync
