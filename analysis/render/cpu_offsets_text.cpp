#include "render/cpu_offsets_text.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "core/format.hpp"
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
}

}  // namespace

CpuOffsetsTable cpu_offsets_table(const MatrixResult& m) {
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
  out += "# columns: position cpu estimate lo hi\n";
  append_dat_list(out, "package_starts", table.packages.starts);
  append_dat_list(out, "package_ids", table.packages.ids);
  append_dat_list(out, "l3_starts", table.l3.starts);
  append_dat_list(out, "l3_ids", table.l3.ids);
  for (std::size_t i = 0; i < n; ++i) {
    out += std::to_string(i) + " " + std::to_string(table.cpus[i]);
    for (const auto* list : {&table.offset_ticks, &table.lo_ticks, &table.hi_ticks}) {
      out += ' ';
      append_dat_value(out, (*list)[i]);
    }
    out += '\n';
  }
  return out;
}

}  // namespace tscaudit
