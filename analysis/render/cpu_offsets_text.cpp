#include "render/cpu_offsets_text.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace tscsync {

namespace {

// Integers below 2^53 are exact in a double; they print without a point or exponent.
constexpr double kExactIntegerLimit = 9007199254740992.0;

void append_value(std::string& out, double v) {
  if (std::isnan(v)) {
    out += "NaN";  // gnuplot reads it as undefined and leaves the point out
    return;
  }
  std::array<char, 64> buf{};
  std::to_chars_result r{};
  // Integral exactly when nothing is left after the point (no ==: -Wfloat-equal).
  if (std::fabs(v) < kExactIntegerLimit && !(std::fabs(v - std::trunc(v)) > 0.0)) {
    r = std::to_chars(buf.data(), buf.data() + buf.size(), static_cast<std::int64_t>(v));
  } else {
    r = std::to_chars(buf.data(), buf.data() + buf.size(), v);  // shortest that round-trips
  }
  out.append(buf.data(), r.ptr);
}

void append_list(std::string& out, const char* key, const auto& list) {
  out += "# ";
  out += key;
  out += ':';
  for (const auto v : list) out += " " + std::to_string(v);
  out += '\n';
}

void check_groups(const MatrixGroups& g, std::size_t n, const std::string& what) {
  if (g.ids.size() != g.starts.size()) throw std::invalid_argument(what + "not one id per start");
  for (std::size_t i = 0; i < g.starts.size(); ++i) {
    const bool ok = i == 0 ? g.starts[0] == 0 : g.starts[i] > g.starts[i - 1];
    if (!ok || g.starts[i] >= n) {
      throw std::invalid_argument(what + "start " + std::to_string(g.starts[i]) +
                                  " does not begin at 0 or does not increase inside [0, " + std::to_string(n) + ")");
    }
  }
}

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
  check_groups(t.packages, n, what + "packages: ");
  check_groups(t.l3, n, what + "L3 domains: ");
}

}  // namespace

CpuOffsetsTable cpu_offsets_table(const MatrixResult& m) {
  CpuOffsetsTable t;
  t.reference_cpu = m.cpus.empty() ? 0 : m.cpus[0];
  t.title = "TSC offset per CPU against CPU " + std::to_string(t.reference_cpu) + ", estimate and hard bounds (ticks)";
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
  append_list(out, "package_starts", table.packages.starts);
  append_list(out, "package_ids", table.packages.ids);
  append_list(out, "l3_starts", table.l3.starts);
  append_list(out, "l3_ids", table.l3.ids);
  for (std::size_t i = 0; i < n; ++i) {
    out += std::to_string(i) + " " + std::to_string(table.cpus[i]);
    for (const auto* list : {&table.offset_ticks, &table.lo_ticks, &table.hi_ticks}) {
      out += ' ';
      append_value(out, (*list)[i]);
    }
    out += '\n';
  }
  return out;
}

}  // namespace tscsync
