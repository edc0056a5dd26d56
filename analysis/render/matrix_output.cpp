#include "render/matrix_output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <vector>

#include "core/format.hpp"
#include "matrix/matrix_analysis.hpp"
#include "matrix/topology_order.hpp"
#include "render/json_values.hpp"
#include "render/text_wrap.hpp"
#include "render/verdict_text.hpp"

namespace tscaudit {
namespace {

using json = nlohmann::ordered_json;

/// Fixed-width cell for the text tables.
std::string cell_text(double v, int width) {
  std::string s = std::isfinite(v) ? format_sig(v + 0.0, 4) : "-";  // + 0.0: no "-0"
  if (static_cast<int>(s.size()) < width) s.insert(0, static_cast<std::size_t>(width) - s.size(), ' ');
  return s;
}

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

/// Builds the matrix JSON as one document (matrix_json).
class DomMembers {
 public:
  void value(const char* key, json v) { (*stack_.back())[key] = std::move(v); }
  template <class Cell>
  void grid(const char* key, std::size_t n, Cell cell) {
    json rows = json::array();
    for (std::size_t a = 0; a < n; ++a) {
      json row = json::array();
      for (std::size_t b = 0; b < n; ++b) row.push_back(cell(a, b));
      rows.push_back(std::move(row));
    }
    value(key, std::move(rows));
  }
  void open(const char* key) {
    json& object = (*stack_.back())[key];
    object = json::object();
    stack_.push_back(&object);
  }
  void close() { stack_.pop_back(); }
  json take() { return std::move(root_); }

 private:
  json root_ = json::object();
  std::vector<json*> stack_{&root_};  // the object members go into; only the innermost grows
};

/// Writes the matrix JSON as dump(2) writes the document, member by member and an N×N
/// array row by row, through a buffer of about kFlushBytes (stream_matrix_json).
class StreamMembers {
 public:
  explicit StreamMembers(const std::function<void(std::string_view)>& sink) : sink_(sink) {
    buffer_ = "{";
    any_.push_back(false);
  }
  void value(const char* key, const json& v) {
    member(key);
    // dump(2) of the value, indented by the levels it sits at in the whole document.
    const std::string text = v.dump(2);
    const std::string pad = indent(any_.size());
    for (char c : text) {
      buffer_ += c;
      if (c == '\n') buffer_ += pad;
    }
    flush_if_full();
  }
  template <class Cell>
  void grid(const char* key, std::size_t n, Cell cell) {
    member(key);
    if (n == 0) {
      buffer_ += "[]";
      return;
    }
    const std::size_t depth = any_.size();
    const std::string row_pad = indent(depth + 1);
    const std::string cell_pad = indent(depth + 2);
    buffer_ += "[\n";
    for (std::size_t a = 0; a < n; ++a) {
      buffer_ += row_pad;
      buffer_ += "[\n";
      for (std::size_t b = 0; b < n; ++b) {
        buffer_ += cell_pad;
        const json v = cell(a, b);
        if (v.is_null()) {
          buffer_ += "null";
        } else {
          buffer_ += v.dump();
        }
        buffer_ += b + 1 < n ? ",\n" : "\n";
      }
      buffer_ += row_pad;
      buffer_ += a + 1 < n ? "],\n" : "]\n";
      flush_if_full();
    }
    buffer_ += indent(depth);
    buffer_ += "]";
  }
  void open(const char* key) {
    member(key);
    buffer_ += "{";
    any_.push_back(false);
  }
  void close() {
    const bool any = any_.back();
    any_.pop_back();
    if (any) {
      buffer_ += "\n";
      buffer_ += indent(any_.size());
    }
    buffer_ += "}";
  }
  /// Closes the document (dump(2) + "\n") and writes what is left.
  void finish() {
    close();
    buffer_ += "\n";
    sink_(buffer_);
    buffer_.clear();
  }

 private:
  static constexpr std::size_t kFlushBytes = std::size_t{1} << 16;

  void member(const char* key) {
    buffer_ += any_.back() ? ",\n" : "\n";
    any_.back() = true;
    buffer_ += indent(any_.size());
    buffer_ += json(key).dump();
    buffer_ += ": ";
  }
  /// By value: growing indents_ moves its strings, so no reference into it may be held.
  std::string indent(std::size_t depth) {
    while (indents_.size() <= depth) indents_.emplace_back(2 * indents_.size(), ' ');
    return indents_[depth];
  }
  void flush_if_full() {
    if (buffer_.size() < kFlushBytes) return;
    sink_(buffer_);
    buffer_.clear();
  }

  const std::function<void(std::string_view)>& sink_;
  std::string buffer_;
  std::vector<bool> any_;  // per open object, outermost first: has it a member yet
  std::vector<std::string> indents_;
};

/// The members of the matrix JSON, in their order, to `out` (DomMembers or StreamMembers):
/// value(key, json) for a member built whole, grid(key, n, cell) for an N×N array whose
/// element [a][b] is cell(a, b), open(key) and close() around a nested object.
template <class Out>
void matrix_members(const MatrixResult& m, const json& cpu_places, Out& out) {
  const std::size_t n = m.size();
  // One field of every measured cell, null where the pair was not measured.
  auto field = [&](const char* key, auto get) {
    out.grid(key, n, [&](std::size_t a, std::size_t b) {
      const PairCell& c = m.at(a, b);
      return c.measured ? json(get(c)) : json(nullptr);
    });
  };
  auto values = [&](const char* key, const std::vector<double>& v) {
    out.grid(key, n, [&](std::size_t a, std::size_t b) { return number_or_null(v[a * n + b]); });
  };
  out.value("schema", std::string(kMatrixSchema));
  out.value("send", m.send.name);
  out.value("recv", m.recv.name);
  out.value("tsc_hz", m.tsc_hz > 0 ? json(m.tsc_hz) : json(nullptr));
  out.value("quantum_ticks", m.quantum_ticks);
  json cpus = json::array();
  for (std::size_t i = 0; i < n; ++i) {
    json c;
    c["cpu"] = m.cpus[i];
    c["label"] = i < m.labels.size() ? m.labels[i] : std::to_string(m.cpus[i]);
    if (cpu_places.is_array() && cpu_places.size() == n) {
      for (const auto& [k, v] : cpu_places[i].items()) {
        if (k != "cpu") c[k] = v;
      }
    }
    cpus.push_back(std::move(c));
  }
  out.value("cpus", std::move(cpus));
  out.value("group_boundaries", m.boundaries);
  out.value("layout", "rows: initiator a, columns: responder b, in the order of cpus; offset = TSC_b - TSC_a");
  field("offset_ticks", [](const PairCell& c) { return number_or_null(c.offset_ticks); });
  field("offset_lo_ticks", [](const PairCell& c) { return number_or_null(c.offset_lo_ticks); });
  field("offset_hi_ticks", [](const PairCell& c) { return number_or_null(c.offset_hi_ticks); });
  field("drift_ppb", [](const PairCell& c) { return number_or_null(c.drift_ppb); });
  field("drift_lo_ppb", [](const PairCell& c) { return number_or_null(c.drift_lo_ppb); });
  field("drift_hi_ppb", [](const PairCell& c) { return number_or_null(c.drift_hi_ppb); });
  field("drift_detectable", [](const PairCell& c) { return json(c.drift_detectable); });
  field("band_source", [](const PairCell& c) { return json(band_source_name(c.band_source)); });
  field("roles_disagree", [](const PairCell& c) { return json(c.roles_disagree); });
  field("role_offset_ticks", [](const PairCell& c) { return number_or_null(c.role_offset_ticks); });
  field("role_offset_lo_ticks", [](const PairCell& c) { return number_or_null(c.role_offset_lo_ticks); });
  field("role_offset_hi_ticks", [](const PairCell& c) { return number_or_null(c.role_offset_hi_ticks); });
  field("rtt_min_ticks", [](const PairCell& c) { return number_or_null(c.rtt_min_ticks); });
  field("rtt_p50_ticks", [](const PairCell& c) { return number_or_null(c.rtt_p50_ticks); });
  field("causality_violations", [](const PairCell& c) { return json(c.causality_violations); });
  field("self_inconsistent", [](const PairCell& c) { return json(c.self_inconsistent); });
  field("rounds", [](const PairCell& c) { return json(c.rounds); });
  field("step_proven", [](const PairCell& c) { return json(!c.steps.empty()); });
  field("verdict", [](const PairCell& c) { return json(verdict_text(c.verdict)); });
  field("verdict_kind", [](const PairCell& c) { return json(verdict_kind_name(c.verdict.kind)); });
  {
    const json offsets = cpu_offsets_json(m);
    for (const char* key : {"cpu_offset_ticks", "cpu_offset_reference", "cpu_offset_table"}) {
      out.value(key, offsets.at(key));
    }
  }
  out.open("consistency");
  out.value("bands_consistent", m.cpu.bands_consistent);
  out.value("rms_residual_ticks", number_or_null(m.cpu.rms_residual_ticks));
  out.value("max_antisymmetry_ticks", number_or_null(m.cpu.max_antisymmetry_ticks));
  out.value("max_loop_closure_ticks", number_or_null(m.cpu.max_loop_closure_ticks));
  out.value("worst_loop", m.cpu.worst_loop);
  values("residual_ticks", m.cpu.residual_ticks);
  values("antisymmetry_ticks", m.cpu.antisymmetry_ticks);
  json disagreeing = json::array();
  for (const PairDisagreement& d : m.cpu.disagreeing) {
    disagreeing.push_back({{"a", d.a}, {"b", d.b}, {"why", disagreement_text(d)}});
  }
  out.value("disagreeing_pairs", std::move(disagreeing));
  out.close();
}

// The pairs table fits 100 columns with both flags ("drift!", "step!") on a row.
constexpr const char* kPairsHeader =
    "  pair        offset  band lo  band hi drift ppb  rtt min  rtt p50 violations self-inc.\n";

/// One line of the pairs table: the measured figures, or "not measured".
std::string pair_row(const MatrixResult& m, std::size_t a, std::size_t b) {
  const PairCell& c = m.at(a, b);
  const std::string name = std::to_string(m.cpus[a]) + "->" + std::to_string(m.cpus[b]);
  if (!c.measured) return "  " + pad_right(name, 10) + "  not measured\n";
  return "  " + pad_right(name, 10) + cell_text(c.offset_ticks, 8) + " " + cell_text(c.offset_lo_ticks, 8) + " " +
         cell_text(c.offset_hi_ticks, 8) + " " + cell_text(c.drift_ppb, 9) + " " + cell_text(c.rtt_min_ticks, 8) + " " +
         cell_text(c.rtt_p50_ticks, 8) + " " + cell_text(static_cast<double>(c.causality_violations), 10) + " " +
         cell_text(static_cast<double>(c.self_inconsistent), 9) + (c.drift_detectable ? " drift!" : "") +
         (c.steps.empty() ? "" : " step!") + "\n";
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
      stepped += c.steps.empty() ? 0U : 1U;
    }
  }
  const std::size_t skipped = pairs_left_out(m);
  const std::string counter(counter_name(m.recv));
  std::string out = "\nPairs (a initiates, b responds; offset = " + counter + "_b - " + counter + "_a)";
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

/// The first names of a list, in one line however many: an interrupted run on a large
/// machine leaves most pairs out.
std::string first_names(const std::vector<std::string>& names) {
  constexpr std::size_t kNamed = 8;
  std::string text;
  for (std::size_t i = 0; i < std::min(kNamed, names.size()); ++i) text += (i == 0 ? "" : ", ") + names[i];
  return names.size() > kNamed ? text + ", ..." : text;
}

}  // namespace

std::string unmeasured_pairs_note(const std::vector<std::string>& pairs) {
  return pairs.size() == 1 ? "pair " + pairs[0] + ": no round completed; left unmeasured"
                           : std::to_string(pairs.size()) +
                                 " ordered pairs have no round and are left unmeasured: " + first_names(pairs);
}

std::string incomplete_pairs_note(const std::vector<std::string>& pairs, std::size_t analyzed) {
  return std::to_string(pairs.size()) + " of " + std::to_string(analyzed) +
         " pairs' runs are not complete, analyzed as they are: " + first_names(pairs);
}

json cpu_places_json(const OrderedCpus& order) {
  json places = json::array();
  for (std::size_t i = 0; i < order.cpus.size(); ++i) {
    const CpuPlace& p = order.cpus[i];
    auto level = [](int v) { return v >= 0 ? json(v) : json(nullptr); };
    places.push_back({{"cpu", p.cpu},
                      {"package", level(p.package)},
                      {"die", level(p.die)},
                      {"numa", level(p.numa)},
                      {"l3", level(p.l3)},
                      {"core", level(p.core)},
                      {"group", order.group_label(i)}});
  }
  return places;
}

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
  DomMembers out;
  matrix_members(m, cpu_places, out);
  return out.take();
}

void stream_matrix_json(const MatrixResult& m, const json& cpu_places, const json& extra,
                        const std::function<void(std::string_view)>& sink) {
  StreamMembers out(sink);
  matrix_members(m, cpu_places, out);
  for (const auto& [key, value] : extra.items()) out.value(key.c_str(), value);
  out.finish();
}

nlohmann::ordered_json cpu_offsets_json(const MatrixResult& m) {
  json offsets = json::array();
  for (std::size_t i = 0; i < m.size(); ++i) {
    offsets.push_back({{"cpu", m.cpus[i]},
                       {"estimate", number_or_null(m.cpu.offset_ticks[i])},
                       {"lo", number_or_null(m.cpu.lo_ticks[i])},
                       {"hi", number_or_null(m.cpu.hi_ticks[i])}});
  }
  json out;
  out["cpu_offset_ticks"] = std::move(offsets);
  out["cpu_offset_reference"] = m.cpus.empty() ? json(nullptr) : json(m.cpus.front());
  // Which per-CPU table this is: the one the check's findings and bound rest on.
  out["cpu_offset_table"] =
      "offset of each CPU minus the reference CPU's: estimate by least squares over the pairs' estimates; lo and hi "
      "hard bounds from the pairs' bands (both roles, every visit, drift accounted) tightened along chains of pairs; "
      "the findings compare groups on the same pair bands, direct pairs only";
  return out;
}

std::string matrix_text(const MatrixResult& m) {
  const double hz = m.tsc_hz;
  std::string out;
  out += "send " + m.send.name + ", recv " + m.recv.name + ", quantum " +
         ticks_with_ns_if_coarse(static_cast<double>(m.quantum_ticks), hz) +
         (hz > 0 ? ", " + std::string(counter_name(m.recv)) + " " + format_sig(hz / 1e6, 7) + " MHz" : std::string()) +
         "\n\n";
  out += "Per-CPU offset x (ticks, relative to CPU " + (m.cpus.empty() ? std::string("-") : std::to_string(m.cpus[0])) +
         "; least squares over " + std::string(pairs_left_out(m) > 0 ? "the pairs of the sparse design" : "all pairs") +
         ", hard bounds from the pair bands)\n";
  out += "   cpu    estimate          lo          hi\n";
  for (std::size_t i = 0; i < m.size(); ++i) {
    // The estimate to a tenth of a tick: a least-squares solution's 5.684e-14 or -0.002125
    // ticks are below any counter's quantum (one tick at least) and would read as news.
    out += cell_text(m.cpus[i], 6) + cell_text(std::round(m.cpu.offset_ticks[i] * 10.0) / 10.0, 12) +
           cell_text(m.cpu.lo_ticks[i], 12) +
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
  return wrap_lines(out);
}

json findings_json(const Diagnosis& d, double tsc_hz) {
  json out = json::array();
  const auto name = [](const std::string& n) { return n.empty() ? json(nullptr) : json(n); };
  for (const Finding& f : d.findings) {
    json j;
    j["kind"] = finding_kind_name(f.kind);
    j["cpus"] = f.cpus;
    j["against"] = f.against;
    j["lo"] = f.lo;
    j["hi"] = f.hi;
    j["unit"] = finding_unit(f.kind);
    j["estimate"] = f.estimate;
    j["name"] = name(f.name);
    j["against_name"] = name(f.against_name);
    j["pairs"] = f.pairs;
    if (f.kind == FindingKind::step) j["step_round"] = f.step_round;
    j["what"] = finding_text(f, tsc_hz);
    out.push_back(std::move(j));
  }
  return out;
}

json check_json(const CheckResult& c) {
  const CheckSettings& s = c.settings;
  json j;
  j["schema"] = std::string(kCheckSchema);
  j["outcome"] = check_outcome_name(c.outcome);
  // A run cut short answers neither way: null, not false (docs/json.md, "Check").
  j["synchronized"] = c.outcome == CheckOutcome::incomplete ? json(nullptr) : json(c.synchronized);
  if (c.outcome == CheckOutcome::incomplete) j["cut_short"] = c.cut_short;
  j["inconclusive"] = c.outcome == CheckOutcome::inconclusive ? json(inconclusive_why_name(c.inconclusive)) : json(nullptr);
  j["reason"] = check_reason_text(c);
  j["bound_ticks"] = c.bound_ticks;
  // What the bound rests on (docs/method.md §3.7): each pair's band over both roles and
  // every visit, drift accounted.
  j["bound_from"] = "pair bands: both roles, every visit";
  j["bound_ns"] = c.tsc_hz > 0 ? json(c.bound_ticks / c.tsc_hz * 1e9) : json(nullptr);
  j["tolerance_ticks"] = s.tolerance_ticks;
  j["drift_tolerance_ppb"] = s.drift_tolerance_ppb;
  j["max_bound_ticks"] = s.max_bound_ticks > 0 ? json(s.max_bound_ticks) : json(nullptr);
  j["pairs_checked"] = c.pairs_checked;
  j["pairs_without_rounds"] = c.missing;
  j["pairs_without_rounds_needed"] = c.missing_needed;
  j["pairs_too_few_rounds"] = c.too_few_pairs;
  j["findings"] = findings_json(c.diagnosis, c.tsc_hz);
  j["cpus_off"] = c.cpus_off;
  json failures = json::array();
  for (const CheckFailure& f : c.failures) {
    failures.push_back({{"a", f.a >= 0 ? json(f.a) : json(nullptr)},
                        {"b", f.b >= 0 ? json(f.b) : json(nullptr)},
                        {"kind", check_failure_kind_name(f.kind)},
                        {"what", check_failure_text(f, c)}});
  }
  j["failures"] = std::move(failures);
  j["warnings"] = warning_lines(c.warnings);
  return j;
}

std::string check_text(const CheckResult& c, bool details, std::size_t max_failures) {
  // Line 1 starts with the answer and how tight; the rest of the reason wraps under it.
  std::string out = check_reason_text(c) + "\n";
  if (details) {
    for (const Finding& f : c.diagnosis.findings) out += "  finding: " + finding_text(f, c.tsc_hz) + "\n";
    for (std::size_t i = 0; i < c.failures.size() && i < max_failures; ++i) {
      out += "  fail: " + check_failure_text(c.failures[i], c) + "\n";
    }
    if (c.failures.size() > max_failures) {
      out += "  " + count_of(c.failures.size() - max_failures, "more failure", "more failures") +
             ": every one is in matrix.txt of --out, and in --format json\n";
    }
    for (const Warning& w : c.warnings) out += "  warning: " + warning_line(w) + "\n";
  }
  return wrap_lines(out);
}

}  // namespace tscaudit
