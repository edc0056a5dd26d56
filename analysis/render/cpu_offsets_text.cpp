#include "render/cpu_offsets_text.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "core/cpu_list.hpp"
#include "core/format.hpp"
#include "matrix/matrix_worst.hpp"
#include "render/dat_text.hpp"

namespace tscaudit {

namespace {

void check(const CpuOffsetsTable& t) {
  const std::string what = "cpu offsets: ";
  const std::size_t n = t.cpus.size();
  if (n == 0) throw std::invalid_argument(what + "no CPU");
  if (t.offset_ticks.size() != n || t.lo_ticks.size() != n || t.hi_ticks.size() != n) {
    throw std::invalid_argument(what + "not one estimate and bound per CPU (" + std::to_string(n) + " CPUs)");
  }
  if (t.title.find_first_of("\r\n") != std::string::npos || t.units.find_first_of("\r\n") != std::string::npos) {
    throw std::invalid_argument(what + "title or units hold a line break");
  }
  for (const auto* list : {&t.offset_ticks, &t.lo_ticks, &t.hi_ticks}) {
    for (double v : *list) {
      if (std::isinf(v)) throw std::invalid_argument(what + "an infinite value");
    }
  }
  check_dat_groups(t.packages, n, what + "packages: ");
  check_dat_groups(t.l3, n, what + "L3 domains: ");
  if (t.groups.empty()) return;
  if (t.groups.size() != n) throw std::invalid_argument(what + "not one offset group per CPU");
  for (int g : t.groups) {
    if (g < -1 || g >= static_cast<int>(t.group_names.size())) {
      throw std::invalid_argument(what + "offset group " + std::to_string(g) + " has no legend");
    }
  }
  for (const std::string& name : t.group_names) {
    if (name.find_first_of("\r\n") != std::string::npos)
      throw std::invalid_argument(what + "a legend holds a line break");
  }
  if (t.left_out_name.find_first_of("\r\n") != std::string::npos) {
    throw std::invalid_argument(what + "a legend holds a line break");
  }
  if (std::isinf(t.y_lo) || std::isinf(t.y_hi) || std::isnan(t.y_lo) != std::isnan(t.y_hi) || t.y_lo > t.y_hi) {
    throw std::invalid_argument(what + "the y range is not two finite numbers in order");
  }
}

/// How a set of CPUs is named in a legend: the topology's word (a unit but for CPUs
/// `left_out`), else "CPU 5" or a short CPU list ("CPUs 0-4,6-15"), else "" (the count
/// says it).
std::string set_name(const MatrixResult& m, const std::vector<int>& cpus, const std::vector<int>& left_out) {
  constexpr std::size_t kShortList = 24;
  if (cpus.size() == 1) return "CPU " + std::to_string(cpus[0]);
  std::string name = topology_name(m, cpus, left_out);
  if (!name.empty()) return name;
  const std::string list = format_cpu_list(cpus);
  return list.size() <= kShortList ? "CPUs " + list : "";
}

/// "package 1 (16 CPUs)", "CPU 5", "CPUs 0-4,6-15 (15 CPUs)" or "200 CPUs".
std::string set_legend(const MatrixResult& m, const std::vector<int>& cpus, const std::vector<int>& left_out = {}) {
  const std::string count = std::to_string(cpus.size()) + (cpus.size() == 1 ? " CPU" : " CPUs");
  const std::string name = set_name(m, cpus, left_out);
  if (name.empty()) return count;
  return cpus.size() == 1 ? name : name + " (" + count + ")";
}

/// The offset groups of `d` into `t`: the group column, a legend for each group and for
/// the CPUs left out, and the y range when a CPU left out lies beyond the groups.
void add_groups(CpuOffsetsTable& t, const MatrixResult& m, const Diagnosis& d) {
  const std::size_t n = m.size();
  t.groups = d.offset_group;
  int groups = d.offset_groups;
  for (int g : t.groups) groups = std::max(groups, g + 1);
  std::vector<std::vector<int>> members(static_cast<std::size_t>(groups));
  std::vector<std::vector<double>> estimates(static_cast<std::size_t>(groups));
  std::vector<int> left_out;
  double lo = 0, hi = 0;  // the grouped CPUs' values, and 0
  bool grouped = false;
  for (std::size_t i = 0; i < n; ++i) {
    const int g = t.groups[i];
    if (g < 0) {
      left_out.push_back(m.cpus[i]);
      continue;
    }
    members[static_cast<std::size_t>(g)].push_back(m.cpus[i]);
    estimates[static_cast<std::size_t>(g)].push_back(t.offset_ticks[i]);
    for (double v : {t.offset_ticks[i], t.lo_ticks[i], t.hi_ticks[i]}) {
      if (!std::isfinite(v)) continue;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      grouped = true;
    }
  }
  const double reference = estimates.empty() ? kNoValue : lower_median(estimates[0]);
  std::sort(left_out.begin(), left_out.end());
  for (std::size_t g = 0; g < members.size(); ++g) {
    std::sort(members[g].begin(), members[g].end());
    if (g == 0) {
      t.group_names.push_back("reference: " + set_legend(m, members[g], left_out));
      continue;
    }
    std::string legend = set_legend(m, members[g], left_out);
    if (std::isdigit(static_cast<unsigned char>(legend[0])) != 0) legend = "group " + std::to_string(g) + ": " + legend;
    const double from = lower_median(estimates[g]) - reference;
    if (std::isfinite(from)) {
      const long long ticks = std::llround(from);
      legend += ", " + std::string(ticks > 0 ? "+" : "") + std::to_string(ticks) + " " + t.units;
    }
    t.group_names.push_back(std::move(legend));
  }
  if (!left_out.empty()) t.left_out_name = "left out (drifts, steps or unlinked): " + set_legend(m, left_out);
  bool beyond = false;
  for (std::size_t i = 0; i < n; ++i) {
    const double v = t.offset_ticks[i];
    if (t.groups[i] < 0 && std::isfinite(v) && (v < lo || v > hi)) beyond = true;
  }
  if (grouped && beyond) {
    const double pad = hi > lo ? 0.06 * (hi - lo) : 1;
    t.y_lo = lo - pad;
    t.y_hi = hi + pad;
  }
}

}  // namespace

CpuOffsetsTable cpu_offsets_table(const MatrixResult& m, const Diagnosis* diagnosis) {
  CpuOffsetsTable t;
  t.reference_cpu = m.cpus.empty() ? 0 : m.cpus[0];
  t.title = std::string(counter_name(m.recv)) + " offset per CPU against CPU " + std::to_string(t.reference_cpu) +
            ", estimate and hard bounds (ticks" +
            (coarse_ticks(m.tsc_hz) ? "; 1 tick = " + format_sig(1e9 / m.tsc_hz, 4) + " ns" : std::string()) + ")";
  t.units = "ticks";
  t.cpus = m.cpus;
  const std::size_t n = m.size();
  auto per_cpu = [n](const std::vector<double>& v) { return v.size() == n ? v : std::vector<double>(n, kNoValue); };
  t.offset_ticks = per_cpu(m.cpu.offset_ticks);
  t.lo_ticks = per_cpu(m.cpu.lo_ticks);
  t.hi_ticks = per_cpu(m.cpu.hi_ticks);
  t.packages = matrix_groups(m.places, &CpuPlace::package);
  t.l3 = matrix_groups(m.places, &CpuPlace::l3);
  if (diagnosis != nullptr && diagnosis->offset_group.size() == n && n > 0) add_groups(t, m, *diagnosis);
  return t;
}

std::string format_cpu_offsets(const CpuOffsetsTable& table) {
  check(table);
  const std::size_t n = table.cpus.size();
  std::string out;
  out.reserve(256 + n * 24);
  out += "# title: " + table.title + "\n";
  out += "# units: " + table.units + "\n";
  out += "# reference: " + std::to_string(table.reference_cpu) + "\n";
  const bool grouped = !table.groups.empty();
  out += grouped ? "# columns: position cpu estimate lo hi group\n" : "# columns: position cpu estimate lo hi\n";
  append_dat_list(out, "package_starts", table.packages.starts);
  append_dat_list(out, "package_ids", table.packages.ids);
  append_dat_list(out, "l3_starts", table.l3.starts);
  append_dat_list(out, "l3_ids", table.l3.ids);
  if (grouped) {
    out += "# groups: " + std::to_string(table.group_names.size()) + "\n";
    for (std::size_t g = 0; g < table.group_names.size(); ++g) {
      out += "# group_" + std::to_string(g) + ": " + table.group_names[g] + "\n";
    }
    if (!table.left_out_name.empty()) out += "# left_out: " + table.left_out_name + "\n";
    if (!std::isnan(table.y_lo)) {
      out += "# y_range: ";
      append_dat_value(out, table.y_lo);
      out += ' ';
      append_dat_value(out, table.y_hi);
      out += '\n';
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    out += std::to_string(i) + " " + std::to_string(table.cpus[i]);
    for (const auto* list : {&table.offset_ticks, &table.lo_ticks, &table.hi_ticks}) {
      out += ' ';
      append_dat_value(out, (*list)[i]);
    }
    if (grouped) out += " " + std::to_string(table.groups[i]);
    out += '\n';
  }
  return out;
}

}  // namespace tscaudit
