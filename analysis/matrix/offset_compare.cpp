#include "matrix/offset_compare.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "core/errors.hpp"

namespace tscaudit {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// A number of the table, or `absent` for null (a bound the run could not give).
double number_at(const nlohmann::ordered_json& j, const char* key, double absent, const std::string& what,
                 std::size_t row) {
  if (!j.contains(key) || j[key].is_null()) return absent;
  if (!j[key].is_number()) {
    throw InputError(what + ": cpu_offset_ticks[" + std::to_string(row) + "]." + key + " is not a number");
  }
  return j[key].get<double>();
}

std::size_t index_in(const OffsetTable& t, int cpu) {
  return static_cast<std::size_t>(std::find(t.cpus.begin(), t.cpus.end(), cpu) - t.cpus.begin());
}

/// `t` against CPU `reference` instead of its own: x_i − x_r, bounded by [lo_i − hi_r, hi_i − lo_r].
OffsetTable rebased_to(const OffsetTable& t, std::size_t r) {
  OffsetTable out = t;
  out.reference_cpu = t.cpus[r];
  for (std::size_t i = 0; i < t.cpus.size(); ++i) {
    if (i == r) {
      out.estimate[i] = out.lo[i] = out.hi[i] = 0;
      continue;
    }
    out.estimate[i] = t.estimate[i] - t.estimate[r];
    out.lo[i] = t.lo[i] - t.hi[r];
    out.hi[i] = t.hi[i] - t.lo[r];
  }
  return out;
}

}  // namespace

OffsetTable offset_table_of(const MatrixResult& m, std::string answer) {
  OffsetTable t;
  t.reference_cpu = m.cpus.empty() ? -1 : m.cpus.front();
  t.cpus = m.cpus;
  t.estimate = m.cpu.offset_ticks;
  t.lo = m.cpu.lo_ticks;
  t.hi = m.cpu.hi_ticks;
  // A table shorter than its CPUs (a matrix without pairs): every CPU but the reference unbounded.
  t.estimate.resize(t.cpus.size(), kNaN);
  t.lo.resize(t.cpus.size(), -kInf);
  t.hi.resize(t.cpus.size(), kInf);
  for (std::size_t i = 0; i < t.cpus.size(); ++i) {
    if (std::isnan(t.lo[i])) t.lo[i] = -kInf;
    if (std::isnan(t.hi[i])) t.hi[i] = kInf;
  }
  t.tsc_hz = m.tsc_hz;
  t.answer = std::move(answer);
  return t;
}

OffsetTable offset_table_from_json(const nlohmann::ordered_json& j, const std::string& what) {
  if (!j.is_object() || !j.contains("cpu_offset_ticks") || !j["cpu_offset_ticks"].is_array()) {
    throw InputError(what + ": no per-CPU offsets (cpu_offset_ticks): give a run directory, a report directory, "
                            "or the JSON of `matrix --format json` or `check --format json`");
  }
  OffsetTable t;
  const auto& rows = j["cpu_offset_ticks"];
  std::set<int> seen;
  for (std::size_t row = 0; row < rows.size(); ++row) {
    const auto& r = rows[row];
    if (!r.is_object() || !r.contains("cpu") || !r["cpu"].is_number_integer() || r["cpu"].get<std::int64_t>() < 0 ||
        r["cpu"].get<std::int64_t>() > (1 << 30)) {
      throw InputError(what + ": cpu_offset_ticks[" + std::to_string(row) + "] has no CPU number");
    }
    const int cpu = r["cpu"].get<int>();
    if (!seen.insert(cpu).second) {
      throw InputError(what + ": cpu_offset_ticks[" + std::to_string(row) + "]: CPU " + std::to_string(cpu) +
                       " is in the table twice");
    }
    const double lo = number_at(r, "lo", -kInf, what, row);
    const double hi = number_at(r, "hi", kInf, what, row);
    if (lo > hi) {
      throw InputError(what + ": cpu_offset_ticks[" + std::to_string(row) + "]: CPU " + std::to_string(cpu) +
                       "'s band has lo > hi");
    }
    t.cpus.push_back(cpu);
    t.estimate.push_back(number_at(r, "estimate", kNaN, what, row));
    t.lo.push_back(lo);
    t.hi.push_back(hi);
  }
  const auto& ref = j.contains("cpu_offset_reference") ? j["cpu_offset_reference"] : nlohmann::ordered_json();
  if (!t.cpus.empty()) {
    if (!ref.is_number_integer() || index_in(t, ref.get<int>()) == t.cpus.size()) {
      throw InputError(what + ": cpu_offset_reference does not name a CPU of cpu_offset_ticks");
    }
    t.reference_cpu = ref.get<int>();
  }
  if (j.contains("tsc_hz") && j["tsc_hz"].is_number() && j["tsc_hz"].get<double>() > 0) {
    t.tsc_hz = j["tsc_hz"].get<double>();
  }
  // check's JSON holds its reason at the top; matrix's in its "check" object.
  const auto& check = j.contains("check") && j["check"].is_object() ? j["check"] : j;
  if (check.contains("reason") && check["reason"].is_string()) t.answer = check["reason"].get<std::string>();
  return t;
}

std::string_view offset_change_name(OffsetChange c) {
  switch (c) {
    case OffsetChange::overlap: return "~";
    case OffsetChange::moved: return "moved";
    case OffsetChange::unbounded: return "unbounded";
    case OffsetChange::only_first: return "only in the first";
    case OffsetChange::only_second: return "only in the second";
  }
  return "~";
}

OffsetComparison compare_offsets(const OffsetTable& first, const OffsetTable& second_given) {
  OffsetComparison out;
  out.reference_cpu = first.reference_cpu;
  out.tsc_hz = first.tsc_hz > 0 ? first.tsc_hz : second_given.tsc_hz;
  OffsetTable second = second_given;
  const std::size_t r = index_in(second, first.reference_cpu);
  const bool can_compare = first.reference_cpu >= 0 && r < second.cpus.size();
  if (can_compare && second.reference_cpu != first.reference_cpu) {
    second = rebased_to(second, r);
    out.rebased = true;
  }
  for (std::size_t i = 0; i < first.cpus.size(); ++i) {
    CpuOffsetChange c;
    c.cpu = first.cpus[i];
    c.first_estimate = first.estimate[i];
    c.first_lo = first.lo[i];
    c.first_hi = first.hi[i];
    const std::size_t k = index_in(second, c.cpu);
    if (!can_compare || k == second.cpus.size()) {
      c.change = OffsetChange::only_first;
      out.cpus.push_back(c);
      continue;
    }
    c.second_estimate = second.estimate[k];
    c.second_lo = second.lo[k];
    c.second_hi = second.hi[k];
    ++out.compared;
    if (c.second_lo > c.first_hi) {
      c.change = OffsetChange::moved;
      c.moved_at_least = c.second_lo - c.first_hi;
      c.moved_at_most = c.second_hi - c.first_lo;  // +inf where a band is open above or below
    } else if (c.second_hi < c.first_lo) {
      c.change = OffsetChange::moved;
      c.moved_at_least = c.second_hi - c.first_lo;
      c.moved_at_most = c.second_lo - c.first_hi;
    } else {
      const bool bounded = std::isfinite(c.first_lo) && std::isfinite(c.first_hi) && std::isfinite(c.second_lo) &&
                           std::isfinite(c.second_hi);
      c.change = bounded ? OffsetChange::overlap : OffsetChange::unbounded;
    }
    if (c.change == OffsetChange::moved) ++out.moved;
    out.cpus.push_back(c);
  }
  for (std::size_t k = 0; k < second.cpus.size(); ++k) {
    if (can_compare && index_in(first, second.cpus[k]) < first.cpus.size()) continue;
    CpuOffsetChange c;
    c.cpu = second.cpus[k];
    c.change = OffsetChange::only_second;
    c.second_estimate = second.estimate[k];
    c.second_lo = second.lo[k];
    c.second_hi = second.hi[k];
    out.cpus.push_back(c);
  }
  return out;
}

}  // namespace tscaudit
